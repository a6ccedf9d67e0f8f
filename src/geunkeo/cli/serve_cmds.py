"""`geunkeo serve`: the HTTP API (FastAPI + uvicorn) over one index."""

from __future__ import annotations

from pathlib import Path

import typer

from geunkeo.cli.common import err_console, settings_from, user_errors


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_cmd)


def serve_cmd(index: Path = typer.Option(..., "--index", "-i"), host: str = typer.Option("127.0.0.1"),
              port: int = typer.Option(8000), llm: str = typer.Option(None, "--llm")) -> None:
    """Serve /health, /search and /ask over HTTP."""
    try:
        import uvicorn
    except ImportError:
        err_console.print("[red]error:[/] uvicorn is not installed: pip install uvicorn")
        raise typer.Exit(2) from None
    from geunkeo.server.app import create_app

    with user_errors():
        app = create_app(index, settings_from(llm=llm))
    uvicorn.run(app, host=host, port=port)
