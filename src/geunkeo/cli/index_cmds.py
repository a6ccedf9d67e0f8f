"""`geunkeo index`, `search`, `info`."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    @app.command("info")
    def info(index: str = typer.Option(..., "--index", help="Index directory")) -> None:
        """Show an index's manifest."""
        typer.echo(index)
