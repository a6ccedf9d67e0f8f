"""Re-score the top hits with the dense embedder (query vs chunk `embed_text()` cosine): the offline default."""

from __future__ import annotations

import numpy as np

from geunkeo.index.base import Embedder
from geunkeo.retrieve.base import Hit, Reranker


def reorder(hits: list[Hit], top_n: int, order: list[int], name: str) -> list[Hit]:
    """Hits with the first `top_n` put in `order` (0-based, may be partial: the missing ones follow in input
    order), then the rest unchanged. Records each reranked hit's new rank under `ranks[name]`; drops nothing."""
    head, tail = hits[:top_n], hits[top_n:]
    seen = set()
    ordered = []
    for i in [*order, *range(len(head))]:
        if 0 <= i < len(head) and i not in seen:
            seen.add(i)
            ordered.append(head[i])
    for r, h in enumerate(ordered, start=1):
        h.ranks[name] = r
    return ordered + tail


class DenseReranker(Reranker):
    name = "dense"

    def __init__(self, embedder: Embedder):
        self.embedder = embedder

    def rerank(self, query: str, hits: list[Hit], top_n: int, trace=None) -> list[Hit]:
        """Top `top_n` hits ordered by cosine(query, chunk); ties keep input order."""
        head = hits[:top_n]
        if len(head) < 2:
            return hits
        q = self.embedder.embed_queries([query])[0]
        p = self.embedder.embed_passages([h.chunk.embed_text() for h in head])
        sims = np.nan_to_num(p @ q, nan=-np.inf)  # a NaN must not scramble the order
        for h, s in zip(head, sims, strict=True):
            h.scores[self.name] = float(s)
        order = [int(i) for i in np.argsort(-sims, kind="stable")]
        if trace is not None:
            trace.decide("retrieve.rerank", f"dense re-score of the top {len(head)}", embedder=self.embedder.version)
        return reorder(hits, top_n, order, self.name)
