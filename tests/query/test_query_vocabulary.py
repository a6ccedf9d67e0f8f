"""Domain vocabulary stage: slang → regulation terms and the English ↔ Korean glossary (query/vocabulary.py)."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from geunkeo.config import Settings
from geunkeo.errors import ConfigError
from geunkeo.query.pipeline import QueryPipeline
from geunkeo.query.vocabulary import DomainVocabulary
from geunkeo.text.analyzer import get_analyzer
from geunkeo.text.patterns import HANGUL


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    return tmp_path_factory.mktemp("gk-vocab")


@pytest.fixture(scope="module")
def pipe(home) -> QueryPipeline:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GEUNKEO_HOME", str(home))  # no user vocabulary file from the real home
        p = QueryPipeline(Settings(query={"pending_queue": str(home / "pending.jsonl"),
                                          "user_mappings": str(home / "none.json")}))
        _ = p.vocabulary
    return p


def _sources(plan) -> dict[str, str]:
    return {t: s for t, s in plan.info["term_sources"].items() if s.startswith(("slang:", "glossary:"))}


def test_packaged_vocabulary_is_broad():
    data = json.loads(resources.files("geunkeo.data").joinpath("domain_vocabulary.json").read_text("utf-8"))
    assert len(data["slang"]) >= 100 and len(data["glossary"]) >= 100
    domains = {e["domain"] for e in data["slang"] + data["glossary"]}
    assert {"academic", "dormitory", "scholarship", "insurance"} <= domains


def test_curfew_gains_entry_terms_below_the_users_weight(pipe):
    plan = pipe.plan("기숙사 통금 몇 시야?", trace=None)
    w = pipe.vocabulary.weights["slang"]
    assert plan.bm25_terms["통금"] == 1.0 and plan.bm25_terms["기숙사"] == 1.0  # the user's words untouched
    assert plan.bm25_terms["출입"] == w and plan.bm25_terms["제한"] == w and w < 1.0
    assert _sources(plan)["출입"] == "slang:통금→출입 제한"
    decided = {d["stage"]: d for d in plan.trace.decisions}
    assert "출입" in decided["query.vocabulary"]["terms"]


@pytest.mark.parametrize("query, expected", [
    ("술 마셔도 돼?", {"음주"}),
    ("술을 많이 마시면 어떻게 돼?", {"음주"}),
    ("애 키우느라 학교 못 다니겠어", {"육아"}),
    ("군대 가면 휴학 어떻게 해?", {"입영", "병역"}),
    ("알바비 언제 들어와?", {"근로", "장학금", "지급"}),
    ("기숙사 나가면 돈 돌려줘?", {"퇴사", "반환"}),
    ("학고 맞으면 어떻게 돼?", {"학사", "경고"}),
    ("보험 깨면 돈 돌려받아?", {"해지", "환급금"}),
])
def test_slang_in_any_inflection(pipe, query, expected):
    plan = pipe.plan(query)
    assert expected <= set(_sources(plan)), (query, _sources(plan))
    assert all(plan.bm25_terms[t] < 1.0 for t in _sources(plan))


@pytest.mark.parametrize("query, banned", [
    ("수술비 얼마야?", {"음주", "주류"}),          # 술 is not a morpheme of 수술
    ("대학고사 일정 알려줘", {"학사", "경고"}),     # 학고 only as a whole word
    ("기숙사비 분할 납부 가능해?", {"출입", "통제"}),
    ("애플 제품 할인 돼?", {"육아"}),               # 애 without 키우다 fires nothing
])
def test_never_fires_inside_a_word_or_on_part_of_a_phrase(pipe, query, banned):
    assert not banned & set(pipe.plan(query).bm25_terms), query


def test_entities_and_the_text_are_kept(pipe):
    q = "제15조 통금 23시 맞아?"
    plan = pipe.plan(q)
    assert plan.text == q and plan.dense_texts[0] == q
    assert "출입" in plan.bm25_terms
    for t in get_analyzer().terms(q):
        assert plan.bm25_terms[t] == 1.0


def test_english_query_over_a_korean_index_gets_korean_terms(pipe):
    pipe.index_langs = {"ko": 200}
    try:
        plan = pipe.plan("How do I apply for a leave of absence and get a tuition refund?")
    finally:
        pipe.index_langs = None
    src = _sources(plan)
    assert {"휴학", "수업료", "반환"} <= set(src)
    assert src["휴학"] == "glossary:leave of absence→휴학"
    assert "결석" not in src  # 'absence' is inside the longer phrase 'leave of absence'
    w = pipe.vocabulary.weights["glossary"]
    assert all(plan.bm25_terms[t] == w < 1.0 for t in src)
    assert plan.bm25_terms["tuition"] == 1.0


def test_korean_query_over_a_korean_index_gets_no_english(pipe):
    pipe.index_langs = {"ko": 200}
    try:
        plan = pipe.plan("휴학 신청 기간은 언제입니까?")
    finally:
        pipe.index_langs = None
    assert not [t for t in plan.bm25_terms if not HANGUL.search(t)]
    assert {d["stage"]: d for d in plan.trace.decisions}["query.vocabulary"]["glossary_to"] == []


def test_korean_query_over_an_english_index_gets_english_terms(pipe):
    pipe.index_langs = {"en": 50}
    try:
        plan = pipe.plan("보험료 환급은 언제 돼?")
    finally:
        pipe.index_langs = None
    src = _sources(plan)
    assert "premium" in src and src["premium"].startswith("glossary:보험료→")


def test_english_query_over_an_english_index_gets_no_korean(pipe):
    pipe.index_langs = {"en": 50}
    try:
        plan = pipe.plan("What is excluded from the insurance coverage?")
    finally:
        pipe.index_langs = None
    assert not [t for t in plan.bm25_terms if HANGUL.search(t)]


def test_toggles_switch_each_part_off(pipe):
    q = "기숙사 통금 몇 시야?"
    assert "출입" not in pipe.plan(q, vocabulary=False).bm25_terms
    pipe.index_langs = {"ko": 1}
    try:
        assert "휴학" not in pipe.plan("leave of absence rules", glossary=False).bm25_terms
        assert "휴학" in pipe.plan("leave of absence rules", vocabulary=False).bm25_terms
    finally:
        pipe.index_langs = None
    off = Settings(query={"vocabulary": False, "glossary": False, "pending_queue": "/dev/null"})
    assert "출입" not in QueryPipeline(off).plan(q).bm25_terms


def test_user_file_extends_and_reweights(tmp_path):
    user = tmp_path / "vocab.json"
    user.write_text(json.dumps({"weights": {"slang": 0.3},
                                "slang": [{"say": ["학관밥"], "means": ["학생회관 식당"], "domain": "campus"}]},
                               ensure_ascii=False), encoding="utf-8")
    v = DomainVocabulary(user)  # 학관밥 is in no default entry (the shipped file maps 학식 itself)
    hits = {h.term: h.source for h in v.expand_slang("학관밥 몇 시까지 해?", ["학관밥"])}
    assert hits == {"학생회관": "학관밥→학생회관 식당", "식당": "학관밥→학생회관 식당"} and v.weights["slang"] == 0.3
    assert {h.term for h in v.expand_slang("통금 있어?", ["통금"])} >= {"출입"}  # the default is still there
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"slang": [{"say": ["x"]}]}), encoding="utf-8")
    with pytest.raises(ConfigError, match="slang\\[0\\]"):
        DomainVocabulary(bad)
