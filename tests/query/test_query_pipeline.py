"""QueryPipeline: plans, weights, toggles, trace, and bad input."""

from __future__ import annotations

import pytest

from geunkeo.config import Settings
from geunkeo.errors import ConfigError, QueryError
from geunkeo.query.pipeline import QueryPipeline
from geunkeo.text.analyzer import get_analyzer
from geunkeo.trace import Trace


@pytest.fixture(scope="module")
def pipe(tmp_path_factory) -> QueryPipeline:
    home = tmp_path_factory.mktemp("gk")
    return QueryPipeline(Settings(query={"pending_queue": str(home / "pending.jsonl"),
                                         "user_mappings": str(home / "none.json")}))


def test_colloquial_plan(pipe):
    plan = pipe.plan("장학금 언제까지 신청해?")
    assert plan.formality == "colloquial" and plan.rewritten == "장학금 신청 기한"
    assert plan.dense_texts == ["장학금 언제까지 신청해?", "장학금 신청 기한"]
    # the user's own analyzer terms weigh 1.0; the rewrite adds 기한 at rewrite_weight; synonyms at synonym_weight
    for t in get_analyzer().terms("장학금 언제까지 신청해?"):
        assert plan.bm25_terms[t] == 1.0
    assert plan.bm25_terms["기한"] == pipe.settings.query.rewrite_weight < 1.0
    assert plan.bm25_terms["마감"] == pipe.settings.query.synonym_weight
    assert plan.info["term_sources"]["마감"] == "기한→마감"
    assert (plan.fusion, plan.dense_weight, plan.mode) == ("minmax", 0.4, "hybrid")


def test_formal_plan_is_untouched_and_uses_base_weights(tmp_path):
    pipe = QueryPipeline(Settings(query={"pending_queue": str(tmp_path / "p.jsonl")}),
                         tuned={"fusion": "rrf", "dense_weight": 0.25})
    q = "휴학 신청 절차는 어떻게 됩니까?"
    plan = pipe.plan(q)
    assert plan.rewritten == q and plan.dense_texts == [q]
    assert set(get_analyzer().terms(q)) <= set(plan.bm25_terms)
    assert all(w < 1.0 for t, w in plan.bm25_terms.items() if t not in get_analyzer().terms(q))
    assert (plan.fusion, plan.dense_weight) == ("rrf", 0.25)


def test_every_stage_is_timed_and_explained(pipe):
    trace = Trace()
    plan = pipe.plan("휴학 어떻게 해?", trace=trace)
    assert plan.trace is trace
    names = [s.name for s in trace.stages]
    assert names == ["query.validate", "query.formality", "query.transform", "query.terms", "query.vocabulary",
                     "query.morph", "query.synonyms", "query.weights"]
    decided = {d["stage"]: d for d in trace.decisions}
    assert decided["query.transform"]["rewritten"] == "휴학 방법"
    assert decided["query.weights"]["source"] == "formality"


def test_overrides_flip_stages_per_call(pipe):
    q = "등록금 얼마 내야 돼?"
    off = pipe.plan(q, colloquial=False, morph_expansion=False, synonyms=False, formality_weights=False,
                    vocabulary=False, glossary=False)
    assert off.rewritten == q and off.dense_texts == [q]
    assert set(off.bm25_terms.values()) == {1.0}
    weights = pipe.settings.retrieve
    assert off.dense_weight == weights.dense_weight
    on = pipe.plan(q)
    assert on.rewritten == "등록금 납부 금액" and on.dense_weight == weights.colloquial_dense_weight
    assert "수업료" in on.bm25_terms
    leaning = QueryPipeline(Settings(retrieve={"colloquial_dense_weight": 0.7}, query=pipe.settings.query.model_dump()))
    assert leaning.plan(q).dense_weight == 0.7 and leaning.plan(q, formality_weights=False).dense_weight == 0.4
    assert pipe.plan(q, mode="bm25", dense_weight=0.0).mode == "bm25"
    with pytest.raises(ConfigError, match="allowed: colloquial"):
        pipe.plan(q, rerank=True)


@pytest.mark.parametrize("bad", ["", "   ", "\n\t", "\u200b"])
def test_empty_query_is_a_query_error(pipe, bad):
    with pytest.raises(QueryError, match="empty"):
        pipe.plan(bad)


def test_non_text_query_is_a_query_error(pipe):
    with pytest.raises(QueryError, match="must be text"):
        pipe.plan(None)


def test_ten_kilobyte_query_is_truncated_with_a_warning(pipe):
    q = "휴학 신청 방법과 절차에 대한 질문입니다 " * 500  # ~11 KB
    plan = pipe.plan(q)
    limit = pipe.settings.query.max_query_chars
    assert len(plan.text) <= limit and not plan.text.endswith(" ")
    assert any("truncated" in w and str(limit) in w for w in plan.trace.warnings)
    assert plan.bm25_terms["휴학"] == 1.0


@pytest.mark.parametrize("q", ["😀🙏🔥", "???!!!", "…"])
def test_a_query_with_no_words_is_refused_with_a_clear_message(pipe, q):
    with pytest.raises(QueryError, match="no words, only punctuation or symbols"):
        pipe.plan(q)


@pytest.mark.parametrize("q, script", [("休学の申請方法は？", "Japanese"), ("请问休学怎么申请", "Chinese"),
                                       ("Как оформить отпуск", "Cyrillic")])
def test_a_query_in_another_language_is_told_which_languages_are_searched(pipe, q, script):
    with pytest.raises(QueryError, match=f"Korean and English documents; this query is written in {script}"):
        pipe.plan(q)


@pytest.mark.parametrize("q", ["휴학 leave of absence 신청 방법 알려줘", "AML 규정 위반 시 제재?", "GPA3.5이상 장학금ㅋㅋ",
                               "تسجيل 휴학", "Ω≈ç√ 휴학"])
def test_mixed_script_queries_plan_cleanly(pipe, q):
    plan = pipe.plan(q)
    assert plan.bm25_terms and plan.dense_texts[0] == " ".join(q.split())
    assert plan.lang in ("ko", "en", "mixed")


def test_synonyms_skip_formal_queries_unless_configured(tmp_path):
    q = "등록금 반환 기준은 무엇입니까?"
    plain = QueryPipeline(Settings(query={"pending_queue": str(tmp_path / "p.jsonl")}))
    plan = plain.plan(q)
    assert "수업료" not in plan.bm25_terms
    assert any(d["stage"] == "query.synonyms" and d["decision"] == "formal query: skipped" for d in plan.trace.decisions)
    assert "수업료" in plain.plan("등록금 반환 기준 알려줘").bm25_terms
    both = QueryPipeline(Settings(query={"pending_queue": str(tmp_path / "p.jsonl"), "synonyms_for_formal": True}))
    assert "수업료" in both.plan(q).bm25_terms


def test_pending_queue_takes_only_what_nothing_explained(tmp_path):
    from geunkeo.query.pending import PendingQueue

    path = tmp_path / "pending.jsonl"
    p = QueryPipeline(Settings(query={"pending_queue": str(path)}))
    explained = p.plan("기숙사 통금 몇 시야?")  # no dictionary pattern, but 통금 is domain slang
    assert explained.info["transform"]["unexplained"] and not explained.info["transform"]["queued"]
    assert any(d["stage"] == "query.pending" and d["decision"] == "not queued" for d in explained.trace.decisions)
    unexplained = p.plan("복학 신청은?")
    assert unexplained.info["transform"]["queued"] and any("queued" in w for w in unexplained.trace.warnings)
    assert [e["query"] for e in PendingQueue(path).entries()] == ["복학 신청은?"]


def test_a_2000_character_question_is_analysed_on_its_first_500_characters(pipe):
    # the analysis budget (query.max_query_chars): the embedding's cost grows with length (1.5 s for 2,000
    # characters on the 720-page autorag-ko index, 0.3 s for 500)
    q = "기숙사 관리비 환불 기준과 장학금 지급 시기를 알려주세요 " * 70  # 2,100 characters
    plan = pipe.plan(q[:2000])
    assert pipe.settings.query.max_query_chars == 500
    assert len(plan.text) <= 500 and all(len(t) <= 500 for t in plan.dense_texts)
    assert "query truncated from 2000 to 500 characters (query.max_query_chars)" in plan.trace.warnings


def test_a_lone_surrogate_is_a_query_error_naming_it(pipe):
    with pytest.raises(QueryError, match="lone surrogate U\\+D800 at character 4"):
        pipe.plan("휴학 \ud800")


def test_plan_is_a_list_of_stages_named_as_in_the_trace(pipe):
    from geunkeo.query.pipeline import TOGGLES, PlanContext, default_stages

    stages = default_stages()
    trace = Trace()
    pipe.plan("휴학 어떻게 해?", trace=trace)
    assert [s.name for s in stages if s.timed] == [s.name for s in trace.stages]
    assert sorted(t for s in stages for t in s.toggles) == sorted(TOGGLES)  # every toggle switches one stage

    class Stamp:  # a stage of one's own: (plan, context) -> plan, timed under its name
        name, timed, toggles = "query.stamp", True, ()

        def __call__(self, plan, ctx: PlanContext):
            ctx.rec.info["terms"] = len(ctx.terms)
            plan.info["stamped"] = True
            return plan

    own = QueryPipeline(pipe.settings)
    own.stages.insert(-1, Stamp())
    plan = own.plan("휴학 어떻게 해?", trace=Trace())
    assert [s.name for s in plan.trace.stages][-2:] == ["query.stamp", "query.weights"]
    assert plan.info["stamped"] and plan.trace.stages[-2].info["terms"] == len(plan.bm25_terms)
