"""One writer per index directory: `build_index` and `delete_documents` hold an exclusive lock from reading the
current generation to publishing the next.

Without it two `geunkeo index` runs into one folder both read generation N, both publish N+1 built from N, and the
first run's documents vanish from the final index (and a starting build removes the other's unfinished `tmp-*`
directory as crash debris). The lock is `flock` on `WRITE.lock` in the index directory, so the operating system
releases it when a writer dies, even by SIGKILL. Readers never take it: searches keep reading the published
generation.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from geunkeo.errors import IndexBusy

__all__ = ["LOCK_FILE", "IndexBusy", "writer_lock"]

LOCK_FILE = "WRITE.lock"


@contextmanager
def writer_lock(index_dir: Path, *, wait: bool = False, on_wait: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the index's writer lock; when another writer has it, raise `IndexBusy` — or, with `wait`, say so
    through `on_wait` and block until it is released."""
    index_dir.mkdir(parents=True, exist_ok=True)
    with open(index_dir / LOCK_FILE, "a+", encoding="utf-8") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fh.seek(0)
            holder = fh.read().strip() or "?"
            msg = f"{index_dir} is being written by another process (pid {holder})"
            if not wait:
                raise IndexBusy(f"{msg}; run again when it has finished, or pass --wait to queue behind it") from None
            if on_wait:
                on_wait(f"{msg}; waiting for it to finish")
            fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            fh.seek(0)
            fh.truncate()
            fh.write(f"{os.getpid()}\n")
            fh.flush()
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
