"""Summarization score (coeff 0.3) and summary faithfulness, with hand-computed values."""

from __future__ import annotations

import pytest
from test_metrics_fakes import answer, hit, inputs

from geunkeo.evaluate.base import QACase
from geunkeo.evaluate.metrics.summary import summarization_score, summary_faithfulness

FACTS = ["휴학은 2회 가능하다", "등록금은 환불된다", "장학금은 성적순이다", "기숙사는 선착순이다"]
SOURCE = "가" * 100
SUMMARY = "휴학은 2회 가능하고 등록금은 환불된다."  # 22 characters


def test_summarization_score_blends_qa_and_conciseness():
    hits = [hit("d#s1", SOURCE)]
    case = QACase("s1", "요약해줘", task="summary", reference_claims=FACTS)
    x = inputs(case, answer(SUMMARY, hits), hits, {"summary": set(FACTS[:3])})
    r = summarization_score(x)
    # qa = 3/4; conciseness = 1 - 22/100 = 0.78; 0.75 * 0.7 + 0.78 * 0.3 = 0.759
    assert len(SUMMARY) == 22
    assert r.details["qa_score"] == pytest.approx(0.75)
    assert r.details["conciseness"] == pytest.approx(0.78)
    assert r.value == pytest.approx(0.759, abs=1e-6)
    assert r.details["missed"] == [FACTS[3]]


def test_summary_metrics_not_computable_for_qa_task():
    hits = [hit("d#s1", SOURCE)]
    x = inputs(QACase("q1", "질문"), answer(SUMMARY, hits), hits, {})
    assert summarization_score(x).details["reason"] == "the case's task is not 'summary'"
    assert summary_faithfulness(x).details["reason"] == "the case's task is not 'summary'"


def test_summary_faithfulness_is_supported_share_of_summary_claims():
    hits = [hit("d#s1", SOURCE)]
    case = QACase("s1", "요약해줘", task="summary")
    x = inputs(case, answer(SUMMARY, hits), hits, {"d#s1": {"휴학은 2회 가능하다"}})
    r = summary_faithfulness(x)
    assert [c.text for c in x.answer_claims] == ["휴학은 2회 가능하다", "등록금은 환불된다"]
    assert r.value == pytest.approx(0.5)
    assert r.name == "summary_faithfulness"
