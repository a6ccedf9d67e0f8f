"""Helpers shared by command modules: settings from CLI options, and one error path for every command.

Exit codes: 0 success; 2 a user error (a bad option value, a missing file, a GeunkeoError such as QueryError or
ConfigError), printed as one line `error: …`; 1 an internal error (a bug), printed as one line with a hint to rerun
with --verbose for the traceback. `GeunkeoGroup` applies this to every command, so a command needs no try/except.

This module is imported by every command, including `--help`: keep its imports light (no settings model, no
numpy) — `settings_from` imports the settings on first use.
"""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperGroup

from geunkeo.errors import GeunkeoError

if TYPE_CHECKING:
    from geunkeo.config import Settings

console = Console()
err_console = Console(stderr=True, soft_wrap=True)

# Set by the root callback (`geunkeo --verbose …`): internal errors then print their traceback.
VERBOSE = False

USER_ERROR = 2
INTERNAL_ERROR = 1


class ServiceFailure(Exception):
    """A service a command talks to (a `geunkeo serve`) failed on a valid request: exit 1, no bug hint."""


def fail(message: str, code: int = USER_ERROR) -> None:
    """Print `error: message` on one line and exit (2 = the user's input, 1 = geunkeo's fault)."""
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    raise typer.Exit(code)


def _is_user_error(exc: BaseException) -> bool:
    """GeunkeoError, or a file the user named that is missing, unreadable or of the wrong kind."""
    if isinstance(exc, GeunkeoError):
        return True
    return isinstance(exc, (FileNotFoundError, PermissionError, IsADirectoryError, NotADirectoryError)) and bool(
        getattr(exc, "filename", None))


def _user_message(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.filename:
        return f"{exc.filename}: {exc.strerror or exc}"
    return " ".join(str(exc).split("\n")) if str(exc) else type(exc).__name__


@contextmanager
def user_errors():
    """Turn GeunkeoError (and a missing or unreadable file) into a one-line message and exit code 2."""
    try:
        yield
    except Exception as exc:
        if not _is_user_error(exc):
            raise
        fail(_user_message(exc))


class GeunkeoGroup(TyperGroup):
    """The root command group: every command's errors end in the same one-line message and exit code."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort, KeyboardInterrupt):
            raise
        except Exception as exc:
            if type(exc).__module__.startswith(("typer.", "click.")):  # usage errors: typer prints them (exit 2)
                raise
            if _is_user_error(exc):
                fail(_user_message(exc))
            if isinstance(exc, ServiceFailure):
                fail(str(exc), INTERNAL_ERROR)
            what = f"internal error: {type(exc).__name__}: {_user_message(exc)}"
            if VERBOSE:
                import traceback

                traceback.print_exc(file=sys.stderr)
                fail(f"{what} (traceback above)", INTERNAL_ERROR)
            fail(f"{what} — this is a bug in geunkeo; rerun with `geunkeo --verbose …` for the traceback",
                 INTERNAL_ERROR)


def settings_from(llm: str | None = None, model: str | None = None, base_url: str | None = None,
                  **sections: dict[str, Any]) -> Settings:
    """Settings from env + TOML + these options; an invalid value anywhere is a ConfigError naming the setting."""
    from pydantic import ValidationError

    from geunkeo.config import Settings
    from geunkeo.errors import ConfigError

    # section name -> its overrides, checked by pydantic (not by the type checker) as every other source is
    overrides: dict[str, Any] = {k: v for k, v in sections.items() if v}
    try:
        s = Settings(**overrides)
    except ValidationError as exc:
        from geunkeo.config import describe_invalid

        raise ConfigError(f"invalid setting {describe_invalid(exc)}") from None
    if llm:
        s.llm.provider = llm
    if model:
        s.llm.model = model
    if base_url:
        s.llm.base_url = base_url
    return s


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")
