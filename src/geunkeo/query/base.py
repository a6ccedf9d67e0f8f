"""Query stage interface: a raw query becomes a `QueryPlan` that the retriever executes.

The plan says what each retriever searches with: BM25 gets weighted terms (the user's own terms weigh 1.0,
expansions less), the dense side gets the (rewritten) text, LLM stages may add variants and HyDE texts, and the
fusion weights follow the detected formality. Every decision is in `trace`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from geunkeo.trace import Trace


@dataclass
class QueryPlan:
    original: str
    text: str  # normalised (and possibly truncated) query
    rewritten: str  # colloquial → formal rewrite, or `text` when nothing applied
    lang: str = "ko"
    formality: str = "formal"  # "formal" | "polite" | "colloquial" | "fragment" | "english"
    formality_score: float = 1.0
    bm25_terms: dict[str, float] = field(default_factory=dict)  # term → weight
    dense_texts: list[str] = field(default_factory=list)  # texts embedded as queries (first = main)
    variants: list[str] = field(default_factory=list)  # LLM multi-query variants
    hyde_answer: str | None = None
    hyde_title: str | None = None
    hyde_mode: str = "off"  # "off" | "content" | "title" | "combined"
    fusion: str = "minmax"  # "rrf" | "minmax" | "zscore"
    dense_weight: float = 0.3  # BM25 weight = 1 - dense_weight
    mode: str = "hybrid"  # "bm25" | "dense" | "hybrid"
    trace: Trace = field(default_factory=Trace)
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def bm25_weight(self) -> float:
        return 1.0 - self.dense_weight
