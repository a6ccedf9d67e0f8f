"""`geunkeo serve`: the ask page and the JSON API (FastAPI + uvicorn) over one index."""

from __future__ import annotations

from pathlib import Path

import typer

from geunkeo.cli.common import err_console, settings_from, user_errors


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_cmd)


def serve_cmd(index: Path = typer.Option(..., "--index", "-i"), host: str = typer.Option("127.0.0.1"),
              port: int = typer.Option(8000, min=1, max=65535),
              runs: Path = typer.Option(None, "--runs", help="Folder of `geunkeo eval --out` runs for /runs and /review"),
              llm: str = typer.Option(None, "--llm")) -> None:
    """Serve the ask page (/), the JSON API (/api/search, /api/ask), /health, /ready and /metrics."""
    try:
        import uvicorn
    except ImportError:
        err_console.print("[red]error:[/] uvicorn is not installed: pip install uvicorn")
        raise typer.Exit(2) from None
    from geunkeo.server.app import create_app

    with user_errors():
        app = create_app(index, settings_from(llm=llm), runs_dir=runs)
    # the request log is the server's own JSON lines (geunkeo.server logger); uvicorn's access log would repeat it
    import logging

    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(message)s"))
    request_log = logging.getLogger("geunkeo.server")
    request_log.addHandler(handler)
    request_log.setLevel(logging.INFO)
    uvicorn.run(app, host=host, port=port, access_log=False, log_level="info")
