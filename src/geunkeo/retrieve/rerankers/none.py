"""The identity reranker: hits keep the retriever's order."""

from __future__ import annotations

from geunkeo.retrieve.base import Hit, Reranker


class NoReranker(Reranker):
    name = "none"

    def rerank(self, query: str, hits: list[Hit], top_n: int, trace=None) -> list[Hit]:
        return hits
