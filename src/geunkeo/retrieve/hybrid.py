"""Execute a QueryPlan: BM25 and dense runs (plus LLM variants and HyDE when present), fused, then reranked."""

from __future__ import annotations

import numpy as np

from geunkeo.index.base import Embedder, ScoredId, StoreReader
from geunkeo.query.base import QueryPlan
from geunkeo.retrieve.base import Hit, Reranker
from geunkeo.retrieve.crosslingual import CROSSLINGUAL_POOL, promote_covering_other_language
from geunkeo.retrieve.fusion import fuse
from geunkeo.retrieve.versions import prefer_in_force
from geunkeo.text.analyzer import get_analyzer
from geunkeo.trace import Trace


def _unit(v: np.ndarray) -> np.ndarray:
    n = float(np.linalg.norm(v))
    return v / n if n > 0 else v


class HybridRetriever:
    """Runs the retrievers a plan asks for over one store and fuses them.

    `index_langs` (language → chunk count) lets fusion adapt to the language pair: a query in a language the
    index does not contain cannot be matched by BM25, so the dense side takes all the weight.

    `derived_embedder` embeds the texts an LLM wrote for the query (multi-query variants, HyDE answer and
    title). It is normally the content-hash cached embedder: those texts come from the LLM response cache on
    a repeated query, so their vectors can come from the vector cache too, while the user's own query is
    always embedded fresh by `embedder`.
    """

    def __init__(self, store: StoreReader, embedder: Embedder, index_langs: dict[str, int] | None = None,
                 candidate_k: int = 100, rrf_k: int = 60, reranker: Reranker | None = None,
                 rerank_top_n: int = 20, bm25_min_coverage: float = 0.0,
                 derived_embedder: Embedder | None = None) -> None:
        self.store: StoreReader = store
        self.embedder = embedder
        self.derived_embedder = derived_embedder or embedder
        self.index_langs = index_langs or {}
        self.candidate_k = candidate_k
        self.rrf_k = rrf_k
        self.reranker = reranker
        self.rerank_top_n = rerank_top_n
        self.bm25_min_coverage = bm25_min_coverage

    # -- one query text ---------------------------------------------------------------------------------------
    def runs(self, plan: QueryPlan, trace: Trace, terms: dict[str, float], dense_texts: list[str],
             hyde_vecs: dict[str, np.ndarray] | None = None,
             query_vec: np.ndarray | None = None) -> dict[str, list[ScoredId]]:
        """The single retrievers' ranked lists for one query text (before fusion): BM25 over `terms`, dense
        over the mean of `dense_texts` (or a given `query_vec`), and HyDE when its vectors are given."""
        runs: dict[str, list[ScoredId]] = {}
        ck = self.candidate_k
        if plan.mode in ("bm25", "hybrid"):
            with trace.stage("retrieve.bm25", terms=len(terms)):
                runs["bm25"] = self.store.search_sparse(list(terms), ck, terms)
        if plan.mode in ("dense", "hybrid"):
            if query_vec is None:
                with trace.stage("retrieve.embed_query", texts=len(dense_texts)):
                    query_vec = _unit(self.embedder.embed_queries(dense_texts).mean(axis=0))
            with trace.stage("retrieve.dense"):
                runs["dense"] = self.store.search_dense(query_vec, ck)
        if hyde_vecs and plan.mode != "bm25":
            hyde = self._hyde_run(plan, trace, hyde_vecs)
            if hyde:
                runs["hyde"] = hyde
        return runs

    def _embed_llm_texts(self, plan: QueryPlan, trace: Trace) -> tuple[list[np.ndarray], dict[str, np.ndarray]]:
        """Vectors for every LLM-written text of the plan, in one call per kind (variants are queries,
        HyDE texts are passages), through `derived_embedder` (normally the content-hash cache)."""
        mode = plan.hyde_mode
        hyde: dict[str, str] = {}
        if plan.mode != "bm25":
            if mode in ("content", "combined") and plan.hyde_answer:
                hyde["content"] = plan.hyde_answer
            if mode in ("title", "combined") and plan.hyde_title:
                hyde["title"] = plan.hyde_title
        variants = plan.variants if plan.mode != "bm25" else []
        if not (hyde or variants):
            return [], {}
        emb = self.derived_embedder
        hits0, misses0 = getattr(emb, "hits", 0), getattr(emb, "misses", 0)
        with trace.stage("retrieve.embed_llm_texts", variants=len(variants), hyde=sorted(hyde)) as rec:
            vvecs = [_unit(v) for v in emb.embed_queries(variants)] if variants else []
            hvecs = emb.embed_passages(list(hyde.values())) if hyde else np.zeros((0, 0))
            rec.info["vector_cache_hits"] = getattr(emb, "hits", 0) - hits0
            rec.info["vector_cache_misses"] = getattr(emb, "misses", 0) - misses0
        return vvecs, dict(zip(hyde, hvecs, strict=True))

    def _hyde_run(self, plan: QueryPlan, trace: Trace, vecs: dict[str, np.ndarray]) -> list[ScoredId]:
        """Seed 004: hypothetical answer vs chunk vectors, hypothetical title vs document titles, or their mean."""
        mode = plan.hyde_mode
        use_content, use_title = "content" in vecs, "title" in vecs
        with trace.stage("retrieve.hyde", mode=mode) as rec:
            chunks = self.store.chunks()
            n = len(chunks)
            parts = []
            if use_content:
                parts.append(self.store.dense_scores(vecs["content"]))
            if use_title:
                title_sims = dict(self.store.search_titles(vecs["title"], 10**9))
                # a chunk inherits its document's title similarity; documents without a title get the minimum
                floor = min(title_sims.values()) if title_sims else 0.0
                parts.append(np.asarray([title_sims.get(c.doc_id, floor) for c in chunks], dtype=np.float32))
            score = np.mean(parts, axis=0) if parts else np.zeros(n, dtype=np.float32)
            k = min(self.candidate_k, n)
            idx = np.argsort(-score, kind="stable")[:k]
            rec.info["parts"] = len(parts)
            return [ScoredId(chunks[i].chunk_id, float(score[i])) for i in idx]

    def bm25_coverage(self, terms: dict[str, float], runs: dict[str, list[ScoredId]],
                      sources: dict[str, str] | None = None) -> float | None:
        """Share of the query's own terms (weight 1.0) found in the best BM25 hit; None when not measurable.

        An own term also counts as found when a glossary translation of a phrase containing it is in the hit
        (`sources` = the plan's term → "glossary:<phrase>"): "tuition" is matched when 수업료 is."""
        own = [t for t, w in terms.items() if w >= 1.0]
        if not own or "bm25" not in runs:
            return None
        if not runs["bm25"]:
            return 0.0
        top = set(self.store.chunk_terms(runs["bm25"][0].chunk_id))
        covered = {t for t in own if t in top}
        analyzer = None
        for term, src in (sources or {}).items():
            if src.startswith("glossary:") and term in top:
                analyzer = analyzer or get_analyzer()
                covered |= set(analyzer.terms(src.split(":", 1)[1])) & set(own)
        return len(covered) / len(own)

    def _weights(self, plan: QueryPlan, runs: dict[str, list[ScoredId]], trace: Trace,
                 terms: dict[str, float] | None = None) -> dict[str, float]:
        dw = plan.dense_weight
        if plan.mode == "hybrid" and self.index_langs and plan.lang in ("ko", "en") and plan.lang not in self.index_langs:
            trace.decide("retrieve.fusion", "cross-lingual: BM25 cannot match this language; dense only",
                         query_lang=plan.lang, index_langs=sorted(self.index_langs))
            dw = 1.0
        elif plan.mode == "hybrid" and self.bm25_min_coverage > 0:
            # Evidence that the answer is in the other language: the dense side's best chunk is in another
            # language than the query, and BM25's best hit shares few of the query's terms.
            top_dense = runs.get("dense") or []
            other_lang = bool(top_dense) and self.store.get(top_dense[0].chunk_id).lang not in (plan.lang, "mixed")
            sources = plan.info.get("term_sources") if terms is None else None
            cov = (self.bm25_coverage(plan.bm25_terms if terms is None else terms, runs, sources)
                   if other_lang else None)
            if cov is not None and cov < self.bm25_min_coverage:
                trace.decide("retrieve.fusion", "cross-lingual: BM25 found no real match; dense only",
                             coverage=round(cov, 3), min_coverage=self.bm25_min_coverage)
                dw = 1.0
        w = {"bm25": 1.0 - dw, "dense": dw}
        if "hyde" in runs:
            w["dense"], w["hyde"] = dw / 2, dw / 2
        if plan.mode == "bm25":
            w = {"bm25": 1.0}
        elif plan.mode == "dense":
            w = {"dense": 1.0, "hyde": 1.0} if "hyde" in runs else {"dense": 1.0}
        return w

    # -- a whole plan -----------------------------------------------------------------------------------------
    def search(self, plan: QueryPlan, k: int = 10, trace: Trace | None = None) -> list[Hit]:
        """Ranked hits for a plan; every hit carries each retriever's rank and score."""
        trace = trace or plan.trace
        variant_vecs, hyde_vecs = self._embed_llm_texts(plan, trace)
        runs = self.runs(plan, trace, plan.bm25_terms, plan.dense_texts or [plan.text], hyde_vecs)
        weights = self._weights(plan, runs, trace)
        with trace.stage("retrieve.fuse", method=plan.fusion, weights=weights):
            fused = fuse(runs, plan.fusion, weights, self.rrf_k) if len(runs) > 1 else next(iter(runs.values()), [])
        trace.decide("retrieve.fusion", f"{plan.fusion} over {sorted(runs)}", weights=weights)

        if plan.variants:
            lists = {"main": fused}
            analyzer = get_analyzer()
            for i, variant in enumerate(plan.variants):
                vterms = dict.fromkeys(analyzer.terms(variant), 1.0)
                vruns = self.runs(plan, trace, vterms, [variant],
                                   query_vec=variant_vecs[i] if variant_vecs else None)
                vw = self._weights(plan, vruns, trace, vterms)
                lists[f"variant{i + 1}"] = (fuse(vruns, plan.fusion, vw, self.rrf_k) if len(vruns) > 1
                                            else next(iter(vruns.values()), []))
                for name, run in vruns.items():
                    runs[f"{name}@v{i + 1}"] = run
            with trace.stage("retrieve.fuse_variants", variants=len(plan.variants)):
                fused = fuse(lists, "rrf", dict.fromkeys(lists, 1.0), self.rrf_k)
            trace.decide("retrieve.multi_query", f"RRF over the query and {len(plan.variants)} variants")

        rank_of = {name: {s.chunk_id: (r, s.score) for r, s in enumerate(run, 1)} for name, run in runs.items()}
        depth = max(k, self.rerank_top_n if self.reranker else k)

        def hit(item: ScoredId) -> Hit:
            h = Hit(chunk=self.store.get(item.chunk_id), score=float(item.score))
            for name, table in rank_of.items():
                if item.chunk_id in table:
                    h.ranks[name], h.scores[name] = table[item.chunk_id]
            return h

        hits = [hit(item) for item in fused[:depth]]
        if self.reranker is not None and hits:
            with trace.stage("retrieve.rerank", reranker=self.reranker.name):
                hits = self.reranker.rerank(plan.original, hits, self.rerank_top_n, trace)
        # an other-language hit that covers the question's concepts may sit below k: the top 20 are looked into,
        # built as hits only when the top hit misses the concepts
        promoted, moved = promote_covering_other_language(
            hits, plan.lang, plan.info.get("term_sources") or {}, self.store.chunk_terms,
            more=lambda: [hit(item) for item in fused[depth:CROSSLINGUAL_POOL]], rarity_of=self.store.term_rarity)
        if moved:
            hits = promoted[:len(hits)]
            trace.decide("retrieve.crosslingual", "the top hit misses the question's concepts; an other-language "
                         "hit holds them all", **moved)
        # several versions of one regulation retrieved: the one in force (on plan.info["as_of"], default today)
        # ranks before the others (retrieve/versions.py)
        ranked = prefer_in_force(hits, plan.info.get("as_of"))
        if ranked is not hits:
            trace.decide("retrieve.versions", "version in force ranked first", as_of=plan.info.get("as_of"),
                         moved=[h.chunk_id for h in ranked if h.chunk.metadata.get("version_status") != "in_force"
                                and "version_status" in h.chunk.metadata])
        return ranked[:k]
