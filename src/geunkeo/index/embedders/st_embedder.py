"""sentence-transformers embedder: a local model directory, or a hub name only when downloads are allowed."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from geunkeo.errors import ConfigError
from geunkeo.index.base import Embedder


class SentenceTransformerEmbedder(Embedder):
    name = "sentence-transformers"

    def __init__(self, model: str | None, allow_downloads: bool = False) -> None:
        if not model:
            raise ConfigError("sentence-transformers needs `index.embedder_model` (a local model directory)")
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:  # optional extra
            raise ConfigError("sentence-transformers is not installed: pip install 'geunkeo[st]'") from exc
        local = Path(model).expanduser()
        if not local.is_dir() and not allow_downloads:
            raise ConfigError(
                f"{model!r} is not a local directory and downloads are off; set index.allow_downloads=true "
                "to fetch it from a hub, or point index.embedder_model at a model folder"
            )
        if not allow_downloads:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
        self._m = SentenceTransformer(str(local) if local.is_dir() else model, device="cpu")
        self._name = model
        # e5-family models expect prefixes; others don't.
        self._e5 = "e5" in model.lower()

    @property
    def dim(self) -> int:
        return int(self._m.get_sentence_embedding_dimension())

    @property
    def version(self) -> str:
        return f"st/{Path(self._name).name}"

    def _enc(self, texts: Sequence[str]) -> np.ndarray:
        v = self._m.encode(list(texts), normalize_embeddings=True, show_progress_bar=False)
        return np.asarray(v, dtype=np.float32).reshape(len(texts), -1)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._enc([f"query: {t}" if self._e5 else t for t in texts])

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._enc([f"passage: {t}" if self._e5 else t for t in texts])
