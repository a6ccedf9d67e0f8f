"""A same-language top hit that misses the question's glossary concepts yields to an other-language hit that has them."""

from __future__ import annotations

from geunkeo.corpus.base import Chunk
from geunkeo.retrieve.base import Hit
from geunkeo.retrieve.crosslingual import coverage, glossary_concepts, promote_covering_other_language

# the query stage's record for "How much tuition is refunded if I withdraw 45 days after the semester starts?"
SOURCES = {"tuition": "query", "refund": "query", "withdraw": "query", "semest": "query",
           "등록금": "glossary:tuition→등록금", "수업료": "glossary:tuition→수업료", "반환": "glossary:refund→반환",
           "학기": "glossary:semester→학기"}
TERMS = {
    "policy#Article 12": ["polici", "withdraw", "applic", "day", "refund", "premium"],
    "policy#Article 23": ["hospit", "injuri", "day"],
    "hakchik#제13조": ["등록금", "반환", "학기", "개시", "일", "3분의", "2"],
    "dorm#제8조": ["관리비", "반환", "학기"],
}


def _hit(chunk_id: str, lang: str, score: float) -> Hit:
    return Hit(Chunk(chunk_id, chunk_id.split("#")[0], "t", "…", chunk_id, lang=lang), score)


def _hits() -> list[Hit]:
    return [_hit("policy#Article 12", "en", 1.0), _hit("policy#Article 23", "en", 0.6),
            _hit("dorm#제8조", "ko", 0.3), _hit("hakchik#제13조", "ko", 0.25)]


def test_concepts_are_the_glossary_phrases_with_their_translations():
    concepts = glossary_concepts(SOURCES)
    assert sorted(concepts) == ["refund", "semester", "tuition"]
    assert frozenset({"등록금"}) in concepts["tuition"] and frozenset({"수업료"}) in concepts["tuition"]
    assert coverage(set(TERMS["hakchik#제13조"]), concepts) == 1.0
    assert coverage(set(TERMS["policy#Article 12"]), concepts) == 1 / 3


def test_the_other_language_hit_holding_every_concept_moves_first_and_nothing_else_moves():
    hits, moved = promote_covering_other_language(_hits(), "en", SOURCES, TERMS.__getitem__)
    assert [h.chunk_id for h in hits] == ["hakchik#제13조", "policy#Article 12", "policy#Article 23", "dorm#제8조"]
    assert moved == {"chunk_id": "hakchik#제13조", "from_rank": 4, "concepts": ["refund", "semester", "tuition"],
                     "top_coverage": 0.333}


def test_a_top_hit_covering_half_the_concepts_stays():
    terms = {**TERMS, "policy#Article 12": [*TERMS["policy#Article 12"], "tuition"]}
    hits, moved = promote_covering_other_language(_hits(), "en", SOURCES, terms.__getitem__)
    assert moved is None and hits[0].chunk_id == "policy#Article 12"


def test_a_same_language_hit_is_never_promoted_and_one_concept_is_not_enough():
    # only same-language hits cover the concepts: the bias this fixes is not there
    same = [_hit("policy#Article 12", "en", 1.0), _hit("guide#fees", "en", 0.5)]
    terms = {**TERMS, "guide#fees": ["tuition", "refund", "semest"]}
    assert promote_covering_other_language(same, "en", SOURCES, terms.__getitem__)[1] is None
    one = {"tuition": "query", "등록금": "glossary:tuition→등록금"}
    assert promote_covering_other_language(_hits(), "en", one, TERMS.__getitem__)[1] is None


def test_one_concept_is_enough_when_no_chunk_of_the_index_holds_its_word():
    # "How long can I take a leave of absence?" over English insurance terms and a Korean 휴학 notice: no chunk of
    # the index holds "absence", so no English document can be about it
    one = {"leav": "query", "absenc": "query", "휴학": "glossary:leave of absence→휴학"}
    terms = {**TERMS, "hakchik#제13조": [*TERMS["hakchik#제13조"], "휴학"]}
    rarity = {"leav": 0.8, "absenc": 1.0}
    hits, moved = promote_covering_other_language(_hits(), "en", one, terms.__getitem__,
                                                  rarity_of=lambda ts: {t: rarity.get(t, 0.5) for t in ts})
    assert hits[0].chunk_id == "hakchik#제13조" and moved["concepts"] == ["leave of absence"]
    indexed = {"absenc": 0.9, "leav": 0.8}  # an English document does mention it: one concept is not enough
    assert promote_covering_other_language(_hits(), "en", one, terms.__getitem__,
                                           rarity_of=lambda ts: {t: indexed.get(t, 0.5) for t in ts})[1] is None


def test_a_multi_word_phrase_needs_all_its_words():
    sources = {"휴학": "glossary:leave of absence→휴학", "학기": "glossary:semester→학기"}
    concepts = glossary_concepts(sources)
    # "leave" alone (sick leave, leave the vehicle) is not a leave of absence
    assert coverage({"leav", "semest"}, concepts) == 0.5
    assert coverage({"leav", "absenc", "semest"}, concepts) == 1.0


def test_an_english_question_is_answered_from_the_korean_article_that_holds_its_concepts(tmp_path):
    import geunkeo
    from geunkeo.index.builder import build_index

    (tmp_path / "policy.md").write_text(
        "---\ntitle: Daon Accident Insurance Terms\n---\n"
        "Article 12 (Withdrawal of Application) The policyholder may withdraw the application within 15 days after "
        "receiving the policy certificate. The Company refunds the premium paid within 3 days after the withdrawal.\n\n"
        "Article 13 (Hospitalization) The Company pays the daily benefit for each day of hospitalization.\n",
        encoding="utf-8")
    (tmp_path / "hakchik.md").write_text(
        "---\ntitle: 한빛대학교 학칙\n---\n"
        "제13조(등록금의 반환) ① 학기 개시일부터 30일까지 휴학하거나 자퇴하는 경우 수업료의 6분의 5를 반환한다.\n"
        "② 학기 개시일부터 30일이 지나고 60일까지는 수업료의 3분의 2를 반환한다.\n\n"
        "제14조(장학금) 장학금은 성적과 가계 곤란을 고려하여 지급한다.\n", encoding="utf-8")
    build_index([tmp_path], tmp_path / "idx", replace=True)
    res = geunkeo.open_index(tmp_path / "idx").search(
        "How much tuition is refunded if I withdraw 45 days after the semester starts?", k=3)
    assert res.hits[0].chunk.doc_id == "hakchik" and "제13조" in res.hits[0].chunk_id
    decision = [d for d in res.trace.to_dict()["decisions"] if d["stage"] == "retrieve.crosslingual"]
    assert decision and decision[0]["from_rank"] > 1  # BM25 and the embedder put the English article first
