"""geunkeo (근거): grounded question answering over Korean and English regulations, notices and policy terms."""

from __future__ import annotations

import logging

# A library logs; the application decides where logs go (`geunkeo --verbose` or the user's logging config).
logging.getLogger("geunkeo").addHandler(logging.NullHandler())

__version__ = "0.1.0"

__all__ = ["__version__", "ask", "build_index", "open_index"]


def open_index(path, settings=None):
    """Open an index directory for searching: `geunkeo.open_index(DIR).search("휴학 방법")`."""
    from geunkeo.engine import Engine

    return Engine(path, settings)


def build_index(paths, index_dir, settings=None, **kwargs):
    """Ingest files or folders and build (or update) the index at `index_dir`."""
    from geunkeo.index.builder import build_index as _build

    return _build(paths, index_dir, settings=settings, **kwargs)


def ask(question, index, k=5, settings=None, **kwargs):
    """Answer `question` from an index (a directory or `open_index(...)`): `geunkeo.ask("기숙사 입사 신청 기간은?", DIR)`.

    Returns an `Answer`: `.text` with [n] citations, `.sentences`, `.contexts` (the cited chunks), `.gate` (answer,
    warn or escalate, and why). Extractive unless an LLM is configured (`answerer="llm"`, `llm=`)."""
    from geunkeo.engine import ask as _ask

    return _ask(question, index, settings, k=k, **kwargs)
