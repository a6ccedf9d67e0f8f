"""Retrieve stage interface: a QueryPlan in, ranked `Hit`s out; rerankers reorder hits."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from geunkeo.corpus.base import Chunk

if TYPE_CHECKING:
    from geunkeo.query.base import QueryPlan
    from geunkeo.trace import Trace


@dataclass
class Hit:
    """A retrieved chunk with its fused score and each retriever's rank and score (1-based ranks)."""

    chunk: Chunk
    score: float
    ranks: dict[str, int] = field(default_factory=dict)
    scores: dict[str, float] = field(default_factory=dict)

    @property
    def chunk_id(self) -> str:
        return self.chunk.chunk_id

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["chunk"] = self.chunk.to_dict()
        return d


@dataclass
class SearchResult:
    """One search: the hits, the query plan that produced them and the trace of every stage."""

    query: str
    hits: list[Hit]
    plan: QueryPlan
    trace: Trace
    info: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        p = self.plan
        return {
            "query": self.query,
            "plan": {
                "rewritten": p.rewritten, "lang": p.lang, "formality": p.formality,
                "bm25_terms": p.bm25_terms, "dense_texts": p.dense_texts, "variants": p.variants,
                "hyde_answer": p.hyde_answer, "hyde_title": p.hyde_title, "fusion": p.fusion,
                "dense_weight": p.dense_weight, "mode": p.mode,
            },
            "hits": [
                {"rank": i, "chunk_id": h.chunk_id, "score": h.score, "location": h.chunk.location,
                 "title": h.chunk.title, "ranks": h.ranks, "scores": h.scores, "text": h.chunk.text}
                for i, h in enumerate(self.hits, 1)
            ],
            "trace": self.trace.to_dict(),
        }


class Reranker(ABC):
    """Reorders the top hits for a query. Must never drop hits silently: missing items keep input order."""

    name: str = "reranker"

    @abstractmethod
    def rerank(self, query: str, hits: list[Hit], top_n: int, trace=None) -> list[Hit]: ...
