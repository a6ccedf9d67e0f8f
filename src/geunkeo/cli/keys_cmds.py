"""`geunkeo keys create|list|revoke`: API keys for `geunkeo serve` (roles reader, reviewer, admin)."""

from __future__ import annotations

import json

import typer

from geunkeo.cli.common import console, settings_from, user_errors


def register(app: typer.Typer) -> None:
    keys = typer.Typer(help="API keys for geunkeo serve (stored hashed in server.db).", no_args_is_help=True)

    @keys.command("create")
    def create(name: str = typer.Option(..., "--name", help="Who holds the key (the reviewer id on decisions)"),
               role: str = typer.Option("reader", "--role", help="reader | reviewer | admin")) -> None:
        """Create a key and print it once (only its hash is kept)."""
        from geunkeo.server.auth import KeyStore, db_path

        with user_errors():
            key = KeyStore(db_path(settings_from())).create(name, role)
        typer.echo(key)

    @keys.command("list")
    def list_keys(as_json: bool = typer.Option(False, "--json")) -> None:
        """Keys by id, name, role and whether they are revoked (never the keys themselves)."""
        from geunkeo.server.auth import KeyStore, db_path

        rows = KeyStore(db_path(settings_from())).list()
        if as_json:
            typer.echo(json.dumps(rows, ensure_ascii=False, indent=2))
            return
        for r in rows:
            console.print(f"{r['id']:>3}  {r['name']:<16} {r['role']:<9} created {r['created_at']}"
                          + (f"  revoked {r['revoked_at']}" if r["revoked_at"] else ""))

    @keys.command("revoke")
    def revoke(key_id: int = typer.Argument(..., min=1)) -> None:
        """Revoke a key by its id (`keys list`)."""
        from geunkeo.server.auth import KeyStore, db_path

        if not KeyStore(db_path(settings_from())).revoke(key_id):
            typer.echo(f"error: no active key with id {key_id}", err=True)
            raise typer.Exit(2)
        typer.echo(f"revoked key {key_id}")

    app.add_typer(keys, name="keys")
