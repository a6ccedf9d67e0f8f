"""An opened index: `geunkeo.open_index(DIR).search("휴학 방법")`.

Search = QueryPipeline.plan (rewrite, expand, weights) → optional LLM stages → HybridRetriever → rerank.
Everything that happened is in the result's trace.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from geunkeo.config import Settings
from geunkeo.errors import ConfigError
from geunkeo.index.embedders import get_embedder
from geunkeo.index.manifest import Manifest, current_generation, read_manifest
from geunkeo.index.stores import make_store
from geunkeo.query.base import QueryPlan
from geunkeo.retrieve.base import Hit
from geunkeo.retrieve.hybrid import HybridRetriever
from geunkeo.trace import Trace

logger = logging.getLogger(__name__)


@dataclass
class SearchResult:
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


def _limit_blas_threads(n: int | None) -> None:
    """Cap BLAS threads in this process (a store's matrix-vector products are far too small to need them, and
    spinning BLAS threads slow the query embedding down; see IndexSettings.search_blas_threads). Applied at
    every index open, because a BLAS library loaded since the last one (scipy's own OpenBLAS) starts uncapped."""
    if n is None:
        return
    from threadpoolctl import threadpool_info, threadpool_limits

    if all(p["num_threads"] <= n for p in threadpool_info() if p["user_api"] == "blas"):
        return
    threadpool_limits(limits=n, user_api="blas")  # stays until changed: only a `with` block restores it
    logger.debug("BLAS threads limited to %d for searching", n)


class Index:
    """A loaded index with its query pipeline; cheap to search many times."""

    def __init__(self, path: str | Path, settings: Settings | None = None) -> None:
        t = time.perf_counter()
        self.path = Path(path)
        self.settings = settings or Settings()
        self.manifest: Manifest = read_manifest(self.path)
        if self.settings.index.embedder != self.manifest.embedder:
            raise ConfigError(
                f"index was built with embedder {self.manifest.embedder!r} but settings ask for "
                f"{self.settings.index.embedder!r}; use the same embedder or rebuild"
            )
        _limit_blas_threads(self.settings.index.search_blas_threads)
        self.store = make_store(self.settings, current_generation(self.path), self.manifest.dim, self.manifest.store)
        # Query vectors are not cached: a query is embedded fresh. Passages and LLM-written texts go through
        # the content-hash cache (chunk vectors from indexing are reused, repeated LLM output is not re-embedded).
        self.embedder = get_embedder(self.settings, cached=False)
        self.cached_embedder = get_embedder(self.settings)
        if self.embedder.version != self.manifest.embedder_version:
            raise ConfigError(
                f"index vectors come from {self.manifest.embedder_version}, this process has "
                f"{self.embedder.version}; rebuild the index with `geunkeo index --replace`"
            )
        from geunkeo.query.pipeline import QueryPipeline

        self.pipeline = QueryPipeline(self.settings, tuned=self.manifest.tuned_fusion, index_langs=self.manifest.langs)
        self._llm = None
        self._llm_loaded = False
        self._rerankers: dict[str, Any] = {}
        self.load_ms = (time.perf_counter() - t) * 1000

    # -- lazily built optional parts --------------------------------------------------------------------------
    def llm(self):
        if not self._llm_loaded:
            from geunkeo.llm.registry import get_llm

            self._llm = get_llm(self.settings)
            self._llm_loaded = True
        return self._llm

    def reranker(self, name: str):
        if name in ("none", "", None):
            return None
        if name not in self._rerankers:
            from geunkeo.retrieve.rerankers import get_reranker

            self._rerankers[name] = get_reranker(name, self.settings, embedder=self.cached_embedder, llm=self.llm())
        return self._rerankers[name]

    def retriever(self, reranker: str | None = None) -> HybridRetriever:
        rs = self.settings.retrieve
        return HybridRetriever(
            self.store, self.embedder, index_langs=self.manifest.langs, candidate_k=rs.candidate_k,
            rrf_k=rs.rrf_k, reranker=self.reranker(reranker or rs.reranker), rerank_top_n=rs.rerank_top_n,
            bm25_min_coverage=rs.bm25_min_coverage, derived_embedder=self.cached_embedder,
        )

    # -- search -----------------------------------------------------------------------------------------------
    def search(self, query: str, k: int = 10, mode: str | None = None, *, reranker: str | None = None,
               multi_query: bool | None = None, hyde: str | None = None, as_of: str | None = None,
               **pipeline_overrides: Any) -> SearchResult:
        """Search the index. `pipeline_overrides` flip QueryPipeline stages for this call (e.g. colloquial=False);
        `multi_query`/`hyde` switch LLM stages on or off (they need a configured LLM); `as_of` (YYYY-MM-DD) is the
        date whose version of a regulation ranks first (default today; retrieve/versions.py)."""
        trace = Trace()
        t0 = time.perf_counter()
        plan = self.pipeline.plan(query, trace=trace, **pipeline_overrides)
        plan.trace = trace
        if as_of:
            plan.info["as_of"] = _iso_date(as_of)
        if mode:
            plan.mode = mode
        qs = self.settings.query
        want_mq = qs.multi_query if multi_query is None else multi_query
        want_hyde = qs.hyde if hyde is None else hyde
        if want_mq or want_hyde not in (None, "off"):
            plan = self._llm_stages(plan, want_mq, want_hyde, trace)
        hits = self.retriever(reranker).search(plan, k=k, trace=trace)
        trace.decide("search", "done", total_ms=round((time.perf_counter() - t0) * 1000, 3), hits=len(hits))
        return SearchResult(query=query, hits=hits, plan=plan, trace=trace)

    def _llm_stages(self, plan: QueryPlan, multi_query: bool, hyde: str, trace: Trace) -> QueryPlan:
        llm = self.llm()
        if llm is None:
            trace.warn("LLM stages requested but no LLM is configured (llm.provider = 'none'); skipped")
            return plan
        from geunkeo.query.llm_stages import apply_llm_stages

        stage_settings = self.settings.model_copy(deep=True)
        stage_settings.query.multi_query = multi_query
        stage_settings.query.hyde = hyde
        return apply_llm_stages(plan, llm, stage_settings)


def open_index(path: str | Path, settings: Settings | None = None) -> Index:
    """Open an index directory for searching."""
    return Index(path, settings)


def _iso_date(value: str) -> str:
    from datetime import date

    from geunkeo.errors import QueryError

    try:
        return date.fromisoformat(value.strip()).isoformat()
    except ValueError:
        raise QueryError(f"as_of must be a date like 2025-03-01, got {value!r}") from None
