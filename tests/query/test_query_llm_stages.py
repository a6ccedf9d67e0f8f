"""Strict LLM outputs in the query stages: only the JSON shape the prompt asks for (repaired) is used; anything
else is a recorded LLMBadOutput, the stage is skipped and the plan keeps what it had."""

from __future__ import annotations

import copy

import pytest

from geunkeo.config import Settings
from geunkeo.llm.base import LLM, Completion
from geunkeo.query.base import QueryPlan
from geunkeo.query.llm_stages import apply_llm_stages, on_topic


class ReplyByStage(LLM):
    """A fake model: answers the multi-query prompt with `multi` and the HyDE prompt with `hyde`."""

    provider, model = "fake", "fake-1"

    def __init__(self, multi: str = '{"queries": []}', hyde: str = "{}"):
        self.multi, self.hyde = multi, hyde

    def complete(self, messages, *, json=False, temperature=None, max_tokens=None):
        reply = self.multi if '{"queries"' in messages[-1].content else self.hyde
        return Completion(text=reply, model=self.model, provider=self.provider)


def ko_plan() -> QueryPlan:
    return QueryPlan(original="휴학 어떻게 해?", text="휴학 어떻게 해?", rewritten="휴학 신청 방법", lang="ko",
                     bm25_terms={"휴학": 1.0, "신청": 0.6}, dense_texts=["휴학 신청 방법"])


def en_plan() -> QueryPlan:
    return QueryPlan(original="what is excluded?", text="what is excluded?", rewritten="what is excluded?",
                     lang="en", formality="english", bm25_terms={"exclude": 1.0}, dense_texts=["what is excluded?"])


def multi_only(plan: QueryPlan, reply: str) -> QueryPlan:
    return apply_llm_stages(plan, ReplyByStage(multi=reply), Settings(query={"multi_query": True, "hyde": "off"}))


def hyde_only(plan: QueryPlan, reply: str) -> QueryPlan:
    return apply_llm_stages(plan, ReplyByStage(hyde=reply), Settings(query={"multi_query": False, "hyde": "combined"}))


def _without_trace(p: QueryPlan) -> dict:
    d = copy.copy(p.__dict__)
    d.pop("trace")
    return d


def _skipped(p: QueryPlan, stage: str) -> dict:
    [d] = [d for d in p.trace.decisions if d["stage"] == stage and d["decision"] == "skipped"]
    return d


def test_nonsense_reply_gives_no_variants_and_a_recorded_bad_output():
    before = ko_plan()
    p = multi_only(ko_plan(), "asdf qwer\nlorem ipsum zzz")
    assert p.variants == []
    assert _without_trace(p) == _without_trace(before)
    assert len(p.trace.warnings) == 1 and p.trace.warnings[0].startswith("multi_query skipped: LLMBadOutput:")
    decision = _skipped(p, "query.multi_query")
    assert decision["error"] == "LLMBadOutput"
    assert p.trace.stages[0].info["applied"] == []


@pytest.mark.parametrize("reply", [
    "1. 휴학 신청 절차\n2. 휴학원 제출 기한",  # a numbered list is not the JSON asked for
    '{"variants": ["휴학 신청 절차"]}',  # nor is an object under another key
    '{"queries": [1, 2]}',
])
def test_replies_of_another_shape_are_bad_output(reply):
    p = multi_only(ko_plan(), reply)
    assert p.variants == []
    assert _skipped(p, "query.multi_query")["error"] == "LLMBadOutput"


def test_fenced_json_with_trailing_comma_is_parsed():
    p = multi_only(ko_plan(), '```json\n{"queries": ["휴학 신청 절차", "휴학원 제출 기한",],}\n```')
    assert p.variants == ["휴학 신청 절차", "휴학원 제출 기한"]
    assert p.trace.warnings == []


def test_truncated_json_list_is_repaired():
    p = multi_only(ko_plan(), '{"queries": ["휴학 신청 절차", "휴학원 제출 기한", "일반휴학 신청')
    assert p.variants == ["휴학 신청 절차", "휴학원 제출 기한", "일반휴학 신청"]


def test_variants_outside_the_questions_language_are_dropped_and_recorded():
    p = multi_only(ko_plan(), '{"queries": ["휴학 신청 절차", "lorem ipsum zzz", "leave of absence procedure"]}')
    assert p.variants == ["휴학 신청 절차"]
    [dropped] = [d for d in p.trace.decisions if d["stage"] == "query.multi_query" and "dropped" in d]
    assert dropped["dropped"] == ["lorem ipsum zzz", "leave of absence procedure"]
    assert p.trace.warnings == []


def test_only_off_language_variants_is_bad_output():
    p = multi_only(ko_plan(), '{"queries": ["asdf qwer", "lorem ipsum zzz"]}')
    assert p.variants == []
    assert p.trace.warnings[0].startswith("multi_query skipped: LLMBadOutput: no variant shares")


def test_english_question_keeps_english_variants_and_drops_other_scripts():
    p = multi_only(en_plan(), '{"queries": ["exclusions from coverage", "보장하지 않는 손해", "what is excluded from cover"]}')
    assert p.variants == ["exclusions from coverage", "what is excluded from cover"]


def test_on_topic_rule():
    texts = ["TOEIC 점수 기준"]
    assert on_topic("TOEIC score requirement", texts, ["toeic", "점수"], "ko")  # shares a word
    assert on_topic("어학 성적 기준", texts, [], "ko")  # Hangul for a Korean question
    assert not on_topic("language score", texts, [], "ko")
    assert not on_topic("???", ["what is excluded?"], [], "en")
    assert on_topic("leave of absence", ["휴학 leave"], [], "mixed")


@pytest.mark.parametrize("reply", [
    "I don't know.",
    "휴학 및 복학 안내\n휴학은 학기 개시 전에 신청한다.",
    '["휴학 및 복학 안내", "휴학은 학기 개시 전에 신청한다."]',
    '{"passage": "휴학은 학기 개시 전에 신청한다."}',
    '{"title": ["휴학 안내"], "answer": "휴학은 학기 개시 전에 신청한다."}',
])
def test_hyde_accepts_only_the_title_answer_object(reply):
    before = ko_plan()
    p = hyde_only(ko_plan(), reply)
    assert _without_trace(p) == _without_trace(before)
    assert (p.hyde_answer, p.hyde_title, p.hyde_mode) == (None, None, "off")
    assert _skipped(p, "query.hyde")["error"] == "LLMBadOutput"
    assert p.trace.warnings[0].startswith("hyde skipped: LLMBadOutput:")


def test_hyde_repairs_fences_and_truncation():
    p = hyde_only(ko_plan(), '```json\n{"title": "휴학 및 복학 안내", "answer": "휴학은 학기 개시 전에 신청한다.",}\n```')
    assert (p.hyde_title, p.hyde_answer, p.hyde_mode) == ("휴학 및 복학 안내", "휴학은 학기 개시 전에 신청한다.", "combined")
    p = hyde_only(ko_plan(), '{"title": "휴학 및 복학 안내", "answer": "휴학은 학기 개시 전에')
    assert (p.hyde_title, p.hyde_answer) == ("휴학 및 복학 안내", "휴학은 학기 개시 전에")
