"""One Kiwi instance per process: building it costs 1–3 s, so every stage shares this one.

Kiwi's dictionaries change the terms an index holds, so they belong to the analyzer's revision
(`text.analyzer.ANALYZER_REVISION`). A process analyses with one revision: the current one, unless it opened an
index built with an older one before Kiwi loaded (`use_revision`), so that index's queries get the terms its
postings were made from.
"""

from __future__ import annotations

import threading
from typing import Any

from kiwipiepy import Kiwi

from geunkeo.errors import ConfigError

# Kiwi's options of each analyzer revision. 1: Kiwi's defaults. 2: without the multi-word dictionary (WikiData
# proper nouns): ready in half the time (1.16 s vs 2.23 s to the first analysis) and Kiwi-BM25 retrieval
# identical on autorag-ko dev and the sample gold set (benchmarks/kiwi_options.py); a process pays this load
# before every in-process search.
KIWI_OPTIONS: dict[int, dict[str, Any]] = {1: {}, 2: {"load_multi_dict": False}}
CURRENT_REVISION = 2

_lock = threading.Lock()
_kiwi: Kiwi | None = None
_revision: int | None = None  # fixed by the first use_revision or get_kiwi of the process


def use_revision(revision: int) -> None:
    """Analyse with `revision` in this process; ConfigError if it already analyses with another one."""
    global _revision
    if revision not in KIWI_OPTIONS:
        raise ConfigError(f"unknown analyzer revision {revision}; choose one of {sorted(KIWI_OPTIONS)}")
    with _lock:
        if _revision is not None and _revision != revision:
            raise ConfigError(
                f"this process already analyses text with analyzer revision {_revision}, not {revision}; open "
                f"indexes of one revision per process, or rebuild the older index with `geunkeo index --replace`"
            )
        _revision = revision


def active_revision() -> int:
    """The revision this process analyses with (the current one unless `use_revision` chose another)."""
    return CURRENT_REVISION if _revision is None else _revision


def get_kiwi() -> Kiwi:
    """The shared Kiwi (2 worker threads for batch mode, the dictionaries of the active revision)."""
    global _kiwi, _revision
    if _kiwi is None:
        with _lock:
            if _kiwi is None:
                if _revision is None:
                    _revision = CURRENT_REVISION
                _kiwi = Kiwi(num_workers=2, **KIWI_OPTIONS[_revision])
    return _kiwi


def kiwi_version() -> str:
    import kiwipiepy

    return kiwipiepy.__version__
