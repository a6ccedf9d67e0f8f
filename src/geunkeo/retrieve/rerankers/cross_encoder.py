"""A cross-encoder from a local model directory, through sentence-transformers (optional extra `st`).

No cross-encoder weights ship on PyPI: this is for users who have a model directory; nothing is downloaded.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from geunkeo.errors import ConfigError
from geunkeo.retrieve.base import Hit, Reranker
from geunkeo.retrieve.rerankers.dense import reorder


class CrossEncoderReranker(Reranker):
    name = "cross-encoder"

    def __init__(self, model_dir: str | None, max_length: int = 512):
        if not model_dir or not Path(model_dir).is_dir():
            raise ConfigError(
                f"the cross-encoder reranker needs retrieve.reranker_model = a local model directory (got {model_dir!r})"
            )
        try:
            from sentence_transformers import CrossEncoder
        except ImportError as e:
            raise ConfigError(
                "the cross-encoder reranker needs sentence-transformers and torch: pip install 'geunkeo[st]'"
            ) from e
        self.model_dir = str(model_dir)
        self.model = CrossEncoder(self.model_dir, max_length=max_length, local_files_only=True)

    def rerank(self, query: str, hits: list[Hit], top_n: int, trace=None) -> list[Hit]:
        """Top `top_n` hits ordered by the cross-encoder's (query, chunk) score; ties keep input order."""
        head = hits[:top_n]
        if len(head) < 2:
            return hits
        scores = np.asarray(self.model.predict([(query, h.chunk.embed_text()) for h in head]), dtype=np.float64)
        scores = scores.reshape(len(head), -1)[:, -1]  # one logit per pair (or the positive class)
        scores = np.nan_to_num(scores, nan=-np.inf)
        for h, s in zip(head, scores, strict=True):
            h.scores[self.name] = float(s)
        if trace is not None:
            trace.decide("retrieve.rerank", f"cross-encoder over the top {len(head)}", model=self.model_dir)
        return reorder(hits, top_n, [int(i) for i in np.argsort(-scores, kind="stable")], self.name)
