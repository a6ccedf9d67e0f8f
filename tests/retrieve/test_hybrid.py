"""HybridRetriever arithmetic over a real EmbeddedStore; the embedder maps known texts to fixed vectors."""

import numpy as np

from geunkeo.corpus.base import Chunk
from geunkeo.index.base import Embedder
from geunkeo.index.stores.embedded import EmbeddedStore
from geunkeo.query.base import QueryPlan
from geunkeo.retrieve.hybrid import HybridRetriever


def _v(*xs):
    v = np.asarray(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


class TableEmbedder(Embedder):
    """Fixed vectors per text: the retriever's fusion logic is under test here, not a model."""

    name = "table"

    def __init__(self, table):
        self.table = table

    @property
    def dim(self):
        return 3

    @property
    def version(self):
        return "table-1"

    def embed_queries(self, texts):
        return np.stack([self.table[t] for t in texts])

    def embed_passages(self, texts):
        return np.stack([self.table[t] for t in texts])


def _store():
    s = EmbeddedStore(3)
    chunks = [
        Chunk("rules#제7조", "rules", "학칙", "휴학 기간은 3년을 넘을 수 없다.", "학칙 제7조(휴학)", lang="ko"),
        Chunk("policy-en#Article 2", "policy-en", "Policy", "Leave of the insured person ...", "Policy Article 2",
              lang="en"),
        Chunk("policy-en#Article 3", "policy-en", "Policy", "Exclusions apply to intentional acts.",
              "Policy Article 3", lang="en"),
    ]
    terms = [["휴학", "기간", "3", "년"], ["leav", "insur", "person"], ["exclus", "appli", "intent", "act"]]
    s.upsert(chunks, terms, np.stack([_v(1, 0, 0), _v(0, 1, 0), _v(0, 0, 1)]))
    s.set_titles({"rules": "학칙", "policy-en": "Policy"}, np.stack([_v(1, 0.1, 0), _v(0, 1, 0.1)]))
    return s


def _plan(text, terms, lang, dense_weight=0.3, **kw):
    return QueryPlan(original=text, text=text, rewritten=text, lang=lang, bm25_terms=terms, dense_texts=[text],
                     dense_weight=dense_weight, **kw)


def test_hits_carry_each_retrievers_rank_and_score():
    emb = TableEmbedder({"휴학 기간": _v(1, 0.2, 0)})
    r = HybridRetriever(_store(), emb, {"ko": 1, "en": 2})
    hits = r.search(_plan("휴학 기간", {"휴학": 1.0, "기간": 1.0}, "ko"), k=3)
    assert hits[0].chunk_id == "rules#제7조"
    assert hits[0].ranks == {"bm25": 1, "dense": 1}
    assert hits[0].score == 1.0  # min-max: best on both sides → 0.7·1 + 0.3·1


def test_english_question_with_answer_in_korean_goes_dense_only():
    # BM25 matches an English chunk on one word of four; the dense side's best chunk is Korean.
    emb = TableEmbedder({"how long can leave last semesters": _v(1, 0.3, 0)})
    r = HybridRetriever(_store(), emb, {"ko": 1, "en": 2}, bm25_min_coverage=0.5)
    plan = _plan("how long can leave last semesters", {"long": 1.0, "leav": 1.0, "last": 1.0, "semest": 1.0}, "en")
    hits = r.search(plan, k=2)
    assert hits[0].chunk_id == "rules#제7조"
    assert any("cross-lingual" in d["decision"] for d in plan.trace.decisions)
    # the same question without the rule: BM25's single-word match pulls the English chunk up
    r.bm25_min_coverage = 0.0
    plan = _plan("how long can leave last semesters", {"long": 1.0, "leav": 1.0, "last": 1.0, "semest": 1.0}, "en",
                 dense_weight=0.2)
    assert r.search(plan, k=1)[0].chunk_id == "policy-en#Article 2"


def test_query_language_absent_from_index_is_dense_only():
    emb = TableEmbedder({"exclusions": _v(0, 0, 1)})
    s = _store()
    s.delete_documents(["rules"])
    r = HybridRetriever(s, emb, {"en": 2})
    plan = _plan("면책 사유", {"면책": 1.0, "사유": 1.0}, "ko")
    emb.table["면책 사유"] = _v(0, 0.1, 1)
    hits = r.search(plan, k=1)
    assert hits[0].chunk_id == "policy-en#Article 3"
    assert plan.trace.decisions[0]["decision"].startswith("cross-lingual")


def test_hyde_title_mode_uses_document_titles():
    emb = TableEmbedder({"q": _v(0, 1, 0), "Policy": _v(0, 1, 0.1)})
    r = HybridRetriever(_store(), emb, {"ko": 1, "en": 2})
    plan = _plan("q", {}, "ko", dense_weight=1.0, hyde_title="Policy", hyde_mode="title", mode="dense")
    hits = r.search(plan, k=3)
    assert {h.chunk.doc_id for h in hits[:2]} == {"policy-en"}
    assert "hyde" in hits[0].ranks


def test_variants_are_fused_by_rrf():
    emb = TableEmbedder({"휴학": _v(1, 0, 0), "exclusions": _v(0, 0, 1)})
    r = HybridRetriever(_store(), emb, {"ko": 1, "en": 2})
    plan = _plan("휴학", {"휴학": 1.0}, "ko", variants=["exclusions"])
    hits = r.search(plan, k=3)
    ids = [h.chunk_id for h in hits]
    # each list puts its own best first: a tie under RRF, broken by id
    assert ids[:2] == ["policy-en#Article 3", "rules#제7조"]
    assert any(d["stage"] == "retrieve.multi_query" for d in plan.trace.decisions)


def test_glossary_translations_count_as_bm25_coverage():
    # "absence period": the glossary added 휴학 and 기간; BM25's best hit is the Korean article. The English own
    # terms are covered through their translations, so BM25 keeps its weight (no dense-only switch).
    emb = TableEmbedder({"absence period": _v(1, 0.3, 0)})
    r = HybridRetriever(_store(), emb, {"ko": 1, "en": 2}, bm25_min_coverage=0.5)
    terms = {"absenc": 1.0, "period": 1.0, "휴학": 0.5, "기간": 0.5}
    sources = {"absenc": "query", "period": "query", "휴학": "glossary:leave of absence", "기간": "glossary:period"}
    plan = _plan("absence period", dict(terms), "en")
    plan.info["term_sources"] = sources
    runs = r.runs(plan, plan.trace, plan.bm25_terms, plan.dense_texts)
    assert runs["bm25"][0].chunk_id == "rules#제7조"
    assert r.bm25_coverage(terms, runs) == 0.0
    assert r.bm25_coverage(terms, runs, sources) == 1.0
    r.search(plan, k=2)
    assert not any("cross-lingual" in d["decision"] for d in plan.trace.decisions)
