"""Context recall, context precision@k and context entities recall, with hand-computed values."""

from __future__ import annotations

import pytest
from test_metrics_fakes import hit, inputs

from geunkeo.evaluate.base import QACase
from geunkeo.evaluate.metrics.context import (
    context_entities_recall,
    context_precision,
    context_recall,
    precision_at_k,
)

REF = ["휴학은 2회 가능하다", "등록금은 환불된다", "장학금은 성적으로 정한다"]
HITS = [hit("c1", "휴학 규정"), hit("c2", "기숙사 규정"), hit("c3", "장학 규정")]
SUPPORT = {"c1": {REF[0]}, "c3": {REF[2]}}


def test_context_recall_is_share_of_reference_claims_supported():
    r = context_recall(inputs(QACase("q1", "질문", reference_claims=REF), None, HITS, SUPPORT))
    assert r.value == pytest.approx(2 / 3, abs=1e-6)
    assert r.details["unsupported"] == ["등록금은 환불된다"]


def test_context_recall_not_computable_without_reference_or_hits():
    r = context_recall(inputs(QACase("q1", "질문"), None, HITS, SUPPORT))
    assert (r.computable, r.value, r.details["reason"]) == (
        False, None, "the case has no reference answer or reference claims")
    r = context_recall(inputs(QACase("q1", "질문", reference_claims=REF), None, [], SUPPORT))
    assert r.details["reason"] == "nothing was retrieved"


def test_precision_at_k_kernel():
    # relevant at ranks 1 and 3: (1/1 + 2/3) / 2
    assert precision_at_k([True, False, True]) == pytest.approx(5 / 6)
    assert precision_at_k([False, True]) == pytest.approx(0.5)
    assert precision_at_k([False, False]) == 0.0


def test_context_precision_by_reference_support_then_by_expected_ids():
    r = context_precision(inputs(QACase("q1", "질문", reference_claims=REF), None, HITS, SUPPORT))
    assert r.value == pytest.approx(0.833333, abs=1e-6)
    assert r.details["relevant_ranks"] == [1, 3]
    assert "supports a reference claim" in r.method
    r = context_precision(inputs(QACase("q1", "질문", expected_chunk_ids=["c2"]), None, HITS, SUPPORT))
    assert r.value == pytest.approx(0.5)
    assert "expected chunk ids" in r.method


def test_context_precision_not_computable_without_relevance_source():
    r = context_precision(inputs(QACase("q1", "질문"), None, HITS, SUPPORT))
    assert r.computable is False
    assert r.details["reason"].startswith("relevance unknown")


def test_context_entities_recall_counts_numbers_with_units():
    case = QACase("q1", "질문", reference_answer="보험금은 100만원이고 청구 기한은 30일이다.")
    hits = [hit("c1", "보험금 한도는 1,000,000원으로 한다."), hit("c2", "청구는 60일 이내에 한다.")]
    r = context_entities_recall(inputs(case, None, hits, {}))
    assert r.value == pytest.approx(0.5)
    assert r.details["missing"] == ["30일"]


def test_context_entities_recall_not_computable_without_entities():
    r = context_entities_recall(inputs(QACase("q1", "질문", reference_answer="휴학은 가능하다."), None, HITS, {}))
    assert r.details["reason"] == "the reference names no entities"


def test_with_an_answer_the_context_metrics_judge_the_answerers_contexts():
    from test_metrics_fakes import answer

    case = QACase("q1", "질문", reference_claims=REF)
    x = inputs(case, answer("휴학은 2회 가능하다 [1].", HITS[:1]), HITS, SUPPORT)
    r = context_recall(x)
    assert r.value == pytest.approx(1 / 3, abs=1e-6)  # c3 was retrieved but not given to the answerer
    assert "the 1 contexts given to the answerer" in r.method
    assert context_precision(x).details == {"k": 1, "relevant_ranks": [1]}
