"""The composition root: one `Engine` per opened index, built once from Settings, owning every part a search or an
answer needs (store, embedders, query pipeline, retriever, rerankers, LLM, answer stage and its one gate).

    engine = geunkeo.open_index("my-index")
    res = engine.search("휴학 방법", k=5)                      # SearchResult: hits, plan, trace
    ans = engine.answer("기숙사 입사 신청 기간은?", AnswerOptions(k=5))  # Answer: cited sentences, gate

`open_index`, `geunkeo.ask`, the CLI, the server, the demo and the evaluation all go through it. Per-call choices
travel as `SearchOptions` / `AnswerOptions`, never as modified copies of the Settings.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from geunkeo.answer.base import Answer
from geunkeo.config import Settings
from geunkeo.errors import ConfigError, GeunkeoError, QueryError
from geunkeo.index.base import Embedder, StoreReader
from geunkeo.index.blas import limit_blas_threads
from geunkeo.index.embedders import get_embedder
from geunkeo.index.manifest import Manifest, read_manifest
from geunkeo.index.stores import open_store
from geunkeo.llm.base import LLM
from geunkeo.query.base import QueryPlan
from geunkeo.query.pipeline import QueryPipeline
from geunkeo.retrieve.base import Hit, Reranker, SearchResult
from geunkeo.retrieve.hybrid import HybridRetriever
from geunkeo.text.analyzer import ANALYZER_REVISION, analyzer_version, revision_of
from geunkeo.text.kiwi import use_revision
from geunkeo.trace import Trace

if TYPE_CHECKING:  # built on the first answer: importing the engine does not load the answer stage
    from geunkeo.answer.parts import AnswerParts

log = logging.getLogger("geunkeo.engine")

__all__ = ["AnswerOptions", "Engine", "SearchOptions", "SearchResult", "ask", "open_index"]


# the server's first answers arrive together: each engine's answer parts are built once, not once per thread
_PARTS_LOCK = threading.Lock()


@dataclass(frozen=True)
class SearchOptions:
    """Choices for one search. None means "as the settings say"."""

    k: int = 10
    mode: str | None = None            # hybrid | bm25 | dense
    reranker: str | None = None
    multi_query: bool | None = None    # LLM stages; they need a configured LLM
    hyde: str | None = None            # off | content | title | combined
    as_of: str | None = None           # YYYY-MM-DD: the regulation version in force on that date ranks first
    stages: Mapping[str, Any] = field(default_factory=dict)  # QueryPipeline stage switches, e.g. colloquial=False


@dataclass(frozen=True)
class AnswerOptions:
    """Choices for one answer: how many hits it reads, which answerer, and the search that finds them."""

    k: int = 5
    answerer: str | None = None        # extractive | llm | a registered name; None = as configured
    as_of: str | None = None
    llm: LLM | None = None             # a client to use instead of the engine's own (tests, reuse)
    search: SearchOptions | None = None


class Engine:
    """A loaded index with everything that searches and answers over it; cheap to call many times."""

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
        # Query terms from another analyzer miss the index's postings (BM25 would degrade without a word): an
        # index of an older revision of this Kiwi is searched with that revision's Kiwi; anything else is refused.
        revision = revision_of(self.manifest.analyzer_version)
        if revision is None:
            raise ConfigError(
                f"index terms come from {self.manifest.analyzer_version}, this process analyses queries with "
                f"{analyzer_version(ANALYZER_REVISION)}; rebuild the index with `geunkeo index --replace`"
            )
        try:
            use_revision(revision)
        except ConfigError as exc:
            raise ConfigError(f"cannot open {self.path}: {exc}") from exc
        if revision != ANALYZER_REVISION:
            log.info("%s was built with analyzer revision %d; its queries are analysed the same way (Kiwi loads "
                     "slower); `geunkeo index --replace` rebuilds it with revision %d", self.path, revision,
                     ANALYZER_REVISION)
        limit_blas_threads(self.settings.index.search_blas_threads)
        self.store: StoreReader = open_store(self.settings, self.path, self.manifest)
        # Query vectors are not cached: a query is embedded fresh. Passages and LLM-written texts go through
        # the content-hash cache (chunk vectors from indexing are reused, repeated LLM output is not re-embedded).
        self.embedder: Embedder = get_embedder(self.settings, cached=False)
        self.cached_embedder: Embedder = get_embedder(self.settings)
        if self.embedder.version != self.manifest.embedder_version:
            raise ConfigError(
                f"index vectors come from {self.manifest.embedder_version}, this process has "
                f"{self.embedder.version}; rebuild the index with `geunkeo index --replace`"
            )
        self.pipeline = QueryPipeline(self.settings, tuned=self.manifest.tuned_fusion, index_langs=self.manifest.langs)
        self._llm: LLM | None = None
        self._llm_loaded = False
        self._rerankers: dict[str, Reranker | None] = {}
        self._answer_parts: AnswerParts | None = None
        self.load_ms = (time.perf_counter() - t) * 1000

    # -- parts, built when first needed ----------------------------------------------------------------------
    def llm(self) -> LLM | None:
        """The configured LLM client (None when `llm.provider = "none"`), created once."""
        if not self._llm_loaded:
            from geunkeo.llm.registry import get_llm

            with _PARTS_LOCK:
                if not self._llm_loaded:
                    self._llm = get_llm(self.settings)
                    self._llm_loaded = True
        return self._llm

    def answer_parts(self) -> AnswerParts:
        """The answer stage's parts (filter, answerers, verifier with its support checker over this index's
        embedder), created once, on the first answer: a search-only process never loads them."""
        if self._answer_parts is None:
            from geunkeo.answer.parts import build_parts

            with _PARTS_LOCK:
                if self._answer_parts is None:
                    self._answer_parts = build_parts(self.settings, embedder=self.cached_embedder, llm=self.llm)
        return self._answer_parts

    def prepare_answers(self) -> None:
        """Build now what the first answer would: the answer stage's modules and parts, and the LLM client. A
        server calls this at start; left to its first requests, the openai SDK's import (~0.8 s) and the answer
        modules' (~0.5 s) ran inside their deadline and made the fallbacks late. An LLM that cannot be built is
        logged and, as before, reported by each answer that needs it."""
        from geunkeo.answer import pipeline  # noqa: F401 (imported here rather than by the first answer)

        self.answer_parts()
        try:
            self.llm()
        except GeunkeoError as exc:
            log.warning("the LLM client could not be built at start: %s", exc)

    def reranker(self, name: str | None) -> Reranker | None:
        """The reranker registered as `name` ("none" for none), created once."""
        if name in ("none", "", None):
            return None
        if name not in self._rerankers:
            from geunkeo.retrieve.rerankers import get_reranker

            self._rerankers[name] = get_reranker(name, self.settings, embedder=self.cached_embedder, llm=self.llm())
        return self._rerankers[name]

    def retriever(self, reranker: str | None = None) -> HybridRetriever:
        """The hybrid retriever over this index's store, with `reranker` (default: the configured one)."""
        rs = self.settings.retrieve
        return HybridRetriever(
            self.store, self.embedder, index_langs=self.manifest.langs, candidate_k=rs.candidate_k,
            rrf_k=rs.rrf_k, reranker=self.reranker(reranker or rs.reranker), rerank_top_n=rs.rerank_top_n,
            bm25_min_coverage=rs.bm25_min_coverage, derived_embedder=self.cached_embedder,
        )

    # -- search -----------------------------------------------------------------------------------------------
    def search(self, query: str, k: int = 10, mode: str | None = None, *, options: SearchOptions | None = None,
               reranker: str | None = None, multi_query: bool | None = None, hyde: str | None = None,
               as_of: str | None = None, **stages: Any) -> SearchResult:
        """Search the index: query plan (rewrite, expand, weights) → optional LLM stages → hybrid retrieval →
        rerank. Pass `options`, or the same fields as keywords; other keywords switch QueryPipeline stages for
        this call (e.g. colloquial=False)."""
        opts = options or SearchOptions(k=k, mode=mode, reranker=reranker, multi_query=multi_query, hyde=hyde,
                                        as_of=as_of, stages=stages)
        trace = Trace()
        t0 = time.perf_counter()
        plan = self.pipeline.plan(query, trace=trace, **dict(opts.stages))
        plan.trace = trace
        if opts.as_of:
            plan.info["as_of"] = _iso_date(opts.as_of)
        if opts.mode:
            plan.mode = opts.mode
        plan = self._llm_stages(plan, opts, trace)
        hits = self.retriever(opts.reranker).search(plan, k=opts.k, trace=trace)
        trace.decide("search", "done", total_ms=round((time.perf_counter() - t0) * 1000, 3), hits=len(hits))
        return SearchResult(query=query, hits=hits, plan=plan, trace=trace)

    def _llm_stages(self, plan: QueryPlan, opts: SearchOptions, trace: Trace) -> QueryPlan:
        qs = self.settings.query
        multi_query = qs.multi_query if opts.multi_query is None else opts.multi_query
        hyde = qs.hyde if opts.hyde is None else opts.hyde
        translate_to = self._translation_target(plan)
        if not multi_query and hyde in (None, "off") and translate_to is None:
            return plan
        llm = self.llm()
        if llm is None:
            trace.warn("LLM stages requested but no LLM is configured (llm.provider = 'none'); skipped")
            return plan
        from geunkeo.query.llm_stages import apply_llm_stages

        return apply_llm_stages(plan, llm, self.settings, multi_query=multi_query, hyde=hyde, translate_to=translate_to)

    def _translation_target(self, plan: QueryPlan) -> str | None:
        """The index's main language when the question is in another (query.translate = auto) and an LLM is
        configured to translate with, else None."""
        langs = {k: v for k, v in self.manifest.langs.items() if k in ("ko", "en")}
        if self.settings.query.translate != "auto" or self.settings.llm.provider == "none" or not langs:
            return None
        main = max(langs, key=lambda k: langs[k])
        return main if plan.lang in ("ko", "en") and plan.lang != main else None

    # -- answer -----------------------------------------------------------------------------------------------
    def answer(self, query: str, options: AnswerOptions | None = None) -> Answer:
        """Search, then answer from the top `options.k` hits: generate, filter, verify, gate."""
        opts = options or AnswerOptions()
        search = opts.search or SearchOptions(k=opts.k, as_of=opts.as_of)
        res = self.search(query, options=search)
        return self.answer_hits(query, res.hits[:opts.k], opts, plan=res.plan, trace=res.trace)

    def answer_hits(self, query: str, hits: list[Hit], options: AnswerOptions | None = None, *,
                    plan: QueryPlan | None = None, trace: Trace | None = None) -> Answer:
        """Answer `query` from hits already retrieved (with the plan that found them, when there is one)."""
        from geunkeo.answer.pipeline import answer_hits

        opts = options or AnswerOptions()
        parts = self.answer_parts()
        llm = opts.llm
        if llm is None and parts.answerers.resolve(opts.answerer) == "llm":
            llm = self.llm()
        terms = plan.bm25_terms if plan else None
        return answer_hits(query, hits, parts, answerer=opts.answerer, llm=llm, terms=terms, trace=trace,
                           term_sources=plan.info.get("term_sources") if plan else None,
                           rarity=self.store.term_rarity(list(terms)) if terms else None)


def open_index(path: str | Path, settings: Settings | None = None) -> Engine:
    """Open an index directory for searching and answering."""
    return Engine(path, settings)


def ask(query: str, index: str | Path | Engine, settings: Settings | None = None, *, k: int = 5,
        answerer: str | None = None, llm: LLM | None = None, as_of: str | None = None) -> Answer:
    """Answer `query` from `index` (a directory, opened here with `settings`, or an opened Engine)."""
    engine = index if isinstance(index, Engine) else Engine(index, settings)
    return engine.answer(query, AnswerOptions(k=k, answerer=answerer, llm=llm, as_of=as_of))


def _iso_date(value: str) -> str:
    try:
        return date.fromisoformat(value.strip()).isoformat()
    except ValueError:
        raise QueryError(f"as_of must be a date like 2025-03-01, got {value!r}") from None
