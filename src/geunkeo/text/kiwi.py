"""One Kiwi instance per process: building it costs 1–3 s, so every stage shares this one."""

from __future__ import annotations

import threading

from kiwipiepy import Kiwi

_lock = threading.Lock()
_kiwi: Kiwi | None = None


def get_kiwi() -> Kiwi:
    """The shared Kiwi (2 worker threads for batch mode)."""
    global _kiwi
    if _kiwi is None:
        with _lock:
            if _kiwi is None:
                _kiwi = Kiwi(num_workers=2)
    return _kiwi


def kiwi_version() -> str:
    import kiwipiepy

    return kiwipiepy.__version__
