"""Embedding cache keyed by (model version, kind, text hash): re-indexing unchanged text costs nothing."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from geunkeo.config import geunkeo_home
from geunkeo.index.base import Embedder


def default_cache_path() -> str:
    return str(geunkeo_home() / "embeddings.sqlite")


class CachedEmbedder(Embedder):
    """Wraps an embedder; vectors for texts seen before come from SQLite instead of the model."""

    def __init__(self, inner: Embedder, path: str) -> None:
        self.inner = inner
        self.name = inner.name
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, check_same_thread=False, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS vec (k TEXT PRIMARY KEY, v BLOB)")
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    @property
    def dim(self) -> int:
        return self.inner.dim

    @property
    def version(self) -> str:
        return self.inner.version

    def _key(self, kind: str, text: str) -> str:
        return hashlib.sha256(f"{self.inner.version}\x00{kind}\x00{text}".encode()).hexdigest()

    def _embed(self, kind: str, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        keys = [self._key(kind, t) for t in texts]
        found: dict[str, bytes] = {}
        with self._lock:
            for i in range(0, len(keys), 500):
                part = keys[i : i + 500]
                q = f"SELECT k, v FROM vec WHERE k IN ({','.join('?' * len(part))})"
                found.update(dict(self._db.execute(q, part).fetchall()))
        todo = [i for i, k in enumerate(keys) if k not in found]
        for i, k in enumerate(keys):
            if k in found:
                out[i] = np.frombuffer(found[k], dtype=np.float32)
        self.hits += len(keys) - len(todo)
        self.misses += len(todo)
        if todo:
            # identical texts in one call (e.g. a rulebook title on 13k records) are embedded once
            first: dict[str, int] = {}
            for i in todo:
                first.setdefault(keys[i], i)
            uniq = list(first.values())
            fn = self.inner.embed_queries if kind == "q" else self.inner.embed_passages
            vecs = fn([texts[i] for i in uniq])
            by_key = {keys[i]: vecs[j] for j, i in enumerate(uniq)}
            for i in todo:
                out[i] = by_key[keys[i]]
            with self._lock, self._db:
                self._db.executemany(
                    "INSERT OR REPLACE INTO vec VALUES (?, ?)",
                    [(k, v.astype(np.float32).tobytes()) for k, v in by_key.items()],
                )
        return out

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed("q", texts)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed("p", texts)
