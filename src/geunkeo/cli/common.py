"""Helpers shared by command modules: settings from CLI options, errors printed without tracebacks."""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from typing import Any

import typer
from rich.console import Console

from geunkeo.config import Settings
from geunkeo.errors import GeunkeoError

console = Console()
err_console = Console(stderr=True, soft_wrap=True)


@contextmanager
def user_errors():
    """Turn GeunkeoError into a one-line message and exit code 2 (no traceback for expected problems)."""
    try:
        yield
    except GeunkeoError as exc:
        err_console.print(f"[bold red]error:[/] {exc}")
        raise typer.Exit(2) from exc


def settings_from(llm: str | None = None, model: str | None = None, base_url: str | None = None,
                  **sections: dict[str, Any]) -> Settings:
    s = Settings(**{k: v for k, v in sections.items() if v})
    if llm:
        s.llm.provider = llm
    if model:
        s.llm.model = model
    if base_url:
        s.llm.base_url = base_url
    return s


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")
