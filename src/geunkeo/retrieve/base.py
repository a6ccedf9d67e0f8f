"""Retrieve stage interface: a QueryPlan in, ranked `Hit`s out; rerankers reorder hits."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field
from typing import Any

from geunkeo.corpus.base import Chunk


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


class Reranker(ABC):
    """Reorders the top hits for a query. Must never drop hits silently: missing items keep input order."""

    name: str = "reranker"

    @abstractmethod
    def rerank(self, query: str, hits: list[Hit], top_n: int, trace=None) -> list[Hit]: ...
