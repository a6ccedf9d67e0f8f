"""The `geunkeo` command. Thin: each command module parses arguments and calls the Python API."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="geunkeo",
    help="근거 geunkeo — grounded Q&A over Korean/English regulations, notices and policy terms.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)

# --- command registry: one line per command module --------------------------------------------------------
from geunkeo.cli import index_cmds  # noqa: E402

index_cmds.register(app)
from geunkeo.cli import corpus_cmds  # noqa: E402
from geunkeo.cli import cache_cmds  # noqa: E402
from geunkeo.cli import eval_cmds  # noqa: E402
from geunkeo.cli import review_cmds  # noqa: E402
from geunkeo.cli import patterns_cmds  # noqa: E402
from geunkeo.cli import answer_cmds  # noqa: E402
from geunkeo.cli import serve_cmds  # noqa: E402

corpus_cmds.register(app)
cache_cmds.register(app)
eval_cmds.register(app)
review_cmds.register(app)
patterns_cmds.register(app)
answer_cmds.register(app)
serve_cmds.register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
