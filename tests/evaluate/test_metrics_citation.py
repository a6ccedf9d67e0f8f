"""Citation coverage and citation accuracy, with hand-computed values."""

from __future__ import annotations

import pytest
from test_metrics_fakes import answer, hit, inputs

from geunkeo.evaluate.base import QACase
from geunkeo.evaluate.metrics.citation import citation_accuracy, citation_coverage

S1, S2, S3 = "휴학은 2회 가능하다", "등록금은 환불된다", "장학금은 없다"
HITS = [hit("c1", "휴학 규정"), hit("c2", "등록금 규정")]
CASE = QACase("q1", "질문")


def test_coverage_and_accuracy_from_answer_sentences():
    ans = answer(f"{S1} [1]. {S2}. {S3} [2][1].", HITS, [(S1, [1]), (S2, []), (S3, [2, 1])])
    x = inputs(CASE, ans, HITS, {"c1": {S1, S3}})
    cov = citation_coverage(x)
    assert cov.value == pytest.approx(2 / 3, abs=1e-6)
    assert cov.details["uncited"] == [S2]
    acc = citation_accuracy(x)
    # (S1→c1 ok), (S3→c2 no), (S3→c1 ok)
    assert acc.value == pytest.approx(2 / 3, abs=1e-6)
    assert [row["accurate"] for row in acc.details["per_citation"]] == [True, False, True]


def test_markers_parsed_from_text_and_missing_context_is_inaccurate():
    ans = answer(f"{S1} [1]. {S2} [5].", HITS)
    x = inputs(CASE, ans, HITS, {"c1": {S1}})
    assert citation_coverage(x).value == pytest.approx(1.0)
    acc = citation_accuracy(x)
    assert acc.value == pytest.approx(0.5)
    assert acc.details["per_citation"][1]["reason"] == "CITED_CONTEXT_MISSING"


def test_not_computable_cases():
    assert citation_coverage(inputs(CASE, None, HITS, {})).details["reason"].startswith("there is no answer")
    acc = citation_accuracy(inputs(CASE, answer(f"{S1}.", HITS), HITS, {}))
    assert (acc.computable, acc.details["reason"]) == (False, "the answer cites nothing")
    assert citation_coverage(inputs(CASE, answer(f"{S1}.", HITS), HITS, {})).value == 0.0


def test_coverage_is_the_serving_gates_definition():
    """A generic sentence (the contact advice) needs no citation: the metric and the gate give the same figure."""
    from geunkeo.answer.base import AnswerSentence
    from geunkeo.answer.gate import decide
    from geunkeo.config import Settings

    ans = answer(f"{S1} [1]. {S2}. 자세한 내용은 담당 부서에 문의하세요.", HITS, [(S1, [1]), (S2, [])])
    ans.sentences.append(AnswerSentence("자세한 내용은 담당 부서에 문의하세요.", generic=True))
    cov = citation_coverage(inputs(CASE, ans, HITS, {"c1": {S1}}))
    assert cov.value == pytest.approx(1 / 2, abs=1e-6)
    assert cov.details == {"cited": 1, "sentences": 2, "generic": 1, "uncited": [S2]}
    gate = decide(ans, Settings().answer, can_regenerate=False)
    assert gate.checks["citation_coverage"] == pytest.approx(cov.value, abs=1e-4)
