"""The `geunkeo` command. Thin: each command module parses arguments and calls the Python API."""

from __future__ import annotations

import typer

from geunkeo.cli import (
    answer_cmds,
    cache_cmds,
    common,
    corpus_cmds,
    eval_cmds,
    index_cmds,
    keys_cmds,
    patterns_cmds,
    review_cmds,
    serve_cmds,
    summarize_cmds,
    viz_cmds,
)

app = typer.Typer(
    name="geunkeo",
    help="근거 geunkeo — grounded Q&A over Korean/English regulations, notices and policy terms.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    cls=common.GeunkeoGroup,  # one error path: user errors exit 2 with one line, internal errors exit 1
)


@app.callback()
def _root(verbose: bool = typer.Option(False, "--verbose", "-v", help="Log pipeline decisions to stderr")) -> None:
    common.VERBOSE = verbose
    if verbose:
        import logging

        logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")


# Command registry: each module adds its commands; a new module is one import and one entry here.
for _module in (index_cmds, answer_cmds, serve_cmds, corpus_cmds, patterns_cmds, cache_cmds, eval_cmds, review_cmds,
                keys_cmds, summarize_cmds, viz_cmds):
    _module.register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
