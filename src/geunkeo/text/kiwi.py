"""One Kiwi instance per process: building it costs 1–3 s, so every stage shares this one."""

from __future__ import annotations

import threading

from kiwipiepy import Kiwi

_lock = threading.Lock()
_kiwi: Kiwi | None = None


def get_kiwi() -> Kiwi:
    """The shared Kiwi (2 worker threads for batch mode, no multi-word dictionary)."""
    global _kiwi
    if _kiwi is None:
        with _lock:
            if _kiwi is None:
                # Without the multi-word dictionary Kiwi is ready in half the time (1.16 s vs 2.23 s to the first
                # analysis) and Kiwi-BM25 retrieval is identical on autorag-ko dev and the sample gold set
                # (benchmarks/kiwi_options.py); a process pays this load before every in-process search.
                _kiwi = Kiwi(num_workers=2, load_multi_dict=False)
    return _kiwi


def kiwi_version() -> str:
    import kiwipiepy

    return kiwipiepy.__version__
