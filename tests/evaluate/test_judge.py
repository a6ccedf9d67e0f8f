"""LLM-as-judge with fake LLMs: rubric scores, JSON repair, failures recorded as "not computable"."""

from __future__ import annotations

import asyncio
import time

import pytest
from test_metrics_fakes import TableChecker

from geunkeo.checks.judge import LLMJudge, judge_metrics
from geunkeo.errors import LLMUnavailable
from geunkeo.evaluate.base import Claim
from geunkeo.llm.base import LLM, Completion

GOOD = ('Here you go:\n```json\n{"correctness": {"score": 5, "reason": "맞음"}, "completeness": {"score": 3},'
        ' "citation_accuracy": {"score": 1, "reason": "인용 없음"},}\n```')


class FakeLLM(LLM):
    provider, model = "fake", "judge-1"

    def __init__(self, text="", error=None, delay=0.0):
        self.text, self.error, self.delay, self.prompts = text, error, delay, []

    def complete(self, messages, *, json=False, temperature=None, max_tokens=None):
        self.prompts.append(messages)
        time.sleep(self.delay)
        if self.error:
            raise self.error
        return Completion(text=self.text, model=self.model, provider=self.provider)


def test_rubric_scores_map_1_to_5_onto_0_to_1():
    llm = FakeLLM(GOOD)
    out = judge_metrics(LLMJudge(llm), "휴학 몇 번?", "2회 가능 [1]", ["휴학은 2회"], "2회", lang="ko")
    assert {k: v.value for k, v in out.items()} == {
        "judge_correctness": 1.0, "judge_completeness": 0.5, "judge_citation_accuracy": 0.0}
    assert out["judge_correctness"].details == {"raw": 5.0, "reason": "맞음"}
    assert out["judge_correctness"].method.startswith("llm-judge fake/judge-1")
    assert "정확성" in llm.prompts[0][0].content  # Korean rubric for a Korean case


def test_english_rubric_for_english_cases():
    llm = FakeLLM(GOOD)
    judge_metrics(LLMJudge(llm), "How many?", "Two [1]", ["Two."], None, lang="en")
    assert "correctness: do the answer's facts agree" in llm.prompts[0][0].content


def test_no_judge_and_no_answer_are_not_computable():
    out = judge_metrics(None, "q", "a", [], None)
    assert out["judge_correctness"].details["reason"] == "no LLM judge is configured (llm.provider = none)"
    out = judge_metrics(LLMJudge(FakeLLM(GOOD)), "q", None, [], None)
    assert out["judge_completeness"].details["reason"] == "there is no answer to judge"


def test_unavailable_llm_is_recorded_not_raised():
    judge = LLMJudge(FakeLLM(error=LLMUnavailable("connection refused")))
    out = judge_metrics(judge, "q", "a", [], None)
    assert all(not r.computable for r in out.values())
    assert "connection refused" in out["judge_correctness"].details["reason"]
    assert judge.trace.llm_calls[0]["error"] == "connection refused"
    assert judge.trace.decisions[0]["decision"] == "judge unavailable; metrics not computable"


def test_unreadable_output_and_timeout_are_not_computable():
    out = judge_metrics(LLMJudge(FakeLLM("I think it is fine.")), "q", "a", [], None)
    assert "no JSON object" in out["judge_correctness"].details["reason"]
    out = judge_metrics(LLMJudge(FakeLLM(GOOD, delay=0.5), timeout_s=0.05), "q", "a", [], None)
    assert "did not answer within" in out["judge_correctness"].details["reason"]


def test_rate_works_inside_a_running_event_loop():
    judge = LLMJudge(FakeLLM(GOOD))

    async def inside():
        return judge.rate("q", "a", [], None), await judge.arate("q", "a", [], None)

    sync_result, async_result = asyncio.run(inside())
    assert sync_result == async_result
    assert sync_result["completeness"]["score"] == pytest.approx(0.5)


def test_judge_overrides_the_checker_and_the_override_is_recorded():
    checker = TableChecker({"c1": set()})
    checker.judge = LLMJudge(FakeLLM('{"supported": true, "reason": "문맥에 있음"}'))
    claim = checker.check(Claim("a1", "휴학은 2회 가능하다"), [("c1", "휴학은 두 번까지 할 수 있다.")])
    assert claim.supported is True
    assert claim.checks["judge"]["overrode"] == {"checker": False}
    assert claim.supporting_chunks[0]["by"] == "llm-judge"
    checker.judge = LLMJudge(FakeLLM(error=LLMUnavailable("down")))
    claim = checker.check(Claim("a1", "휴학은 2회 가능하다"), [("c1", "휴학은 두 번까지 할 수 있다.")])
    assert claim.supported is False and claim.checks["judge"]["supported"] is None


def test_a_configured_judge_overrides_answer_claims_in_faithfulness():
    from test_metrics_fakes import answer, hit, inputs

    from geunkeo.evaluate.base import QACase
    from geunkeo.evaluate.metrics.generation import faithfulness

    hits = [hit("c1", "휴학 규정")]
    x = inputs(QACase("q1", "질문"), answer("휴학은 2회 가능하다 [1]. 장학금은 없다.", hits), hits,
               {"c1": {"휴학은 2회 가능하다", "장학금은 없다"}})
    x.judge = LLMJudge(FakeLLM('{"supported": false, "reason": "문맥에 없음"}'))
    r = faithfulness(x)
    assert r.value == 0.0  # the checker said 2/2; the judge overrode both
    assert x.answer_claims[0].checks["judge"]["overrode"] == {"checker": True}
    assert x.checker.judge is None


def test_response_relevancy_with_a_judge_compares_generated_questions():
    import math

    from test_metrics_fakes import answer, hit, inputs

    from geunkeo.checks.similarity import load_calibration
    from geunkeo.evaluate.base import QACase
    from geunkeo.evaluate.metrics.generation import response_relevancy

    hits = [hit("c1", "휴학 규정")]
    x = inputs(QACase("q1", "휴학 몇 번 돼?"), answer("휴학은 2회 가능하다 [1].", hits), hits, {},
               table={"휴학 몇 번 돼?": [1.0, 0.0], "다른 질문": [0.0, 1.0]})
    x.judge = LLMJudge(FakeLLM('{"questions": ["휴학 몇 번 돼?", "다른 질문"]}'))
    r = response_relevancy(x)
    cal = load_calibration()
    expect = (1 / (1 + math.exp(-(cal.slope + cal.intercept))) + 1 / (1 + math.exp(-cal.intercept))) / 2
    assert r.value == pytest.approx(expect, abs=1e-4)
    assert r.details["generated_questions"] == ["휴학 몇 번 돼?", "다른 질문"]
    x2 = inputs(QACase("q1", "휴학 몇 번 돼?"), answer("휴학은 2회 가능하다 [1].", hits), hits, {})
    x2.judge = LLMJudge(FakeLLM(error=LLMUnavailable("down")))
    r2 = response_relevancy(x2)
    assert r2.method.startswith("calibrated cosine") and "no LLM question generation" in r2.details["note"]
