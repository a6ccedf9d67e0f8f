"""Faithfulness, noise sensitivity, factual correctness, response relevancy, semantic similarity."""

from __future__ import annotations

import math

import pytest
from test_metrics_fakes import answer, hit, inputs

from geunkeo.checks.similarity import RELEVANCY_CALIBRATION_FILE, load_calibration
from geunkeo.evaluate.base import QACase
from geunkeo.evaluate.metrics.generation import (
    factual_correctness,
    faithfulness,
    noise_sensitivity,
    response_relevancy,
    semantic_similarity_metric,
)

A1, A2, A3 = "휴학은 2회 가능하다", "등록금은 환불된다", "장학금은 없다"
TEXT = f"{A1} [1]. {A2} [2]. {A3}."
HITS = [hit("c1", "휴학 규정"), hit("c2", "등록금 규정")]


def test_faithfulness_is_supported_claims_over_claims():
    x = inputs(QACase("q1", "질문"), answer(TEXT, HITS), HITS, {"c1": {A1}, "c2": {A2}})
    r = faithfulness(x)
    assert r.value == pytest.approx(2 / 3, abs=1e-6)
    assert r.details["hallucinated"] == ["a3"]
    assert [c.text for c in x.answer_claims] == [A1, A2, A3]
    assert x.answer_claims[0].supporting_chunks == [{"chunk_id": "c1", "score": 0.9, "evidence": "휴학 규정"}]


def test_faithfulness_not_computable_without_answer_or_contexts():
    r = faithfulness(inputs(QACase("q1", "질문"), None, HITS, {}))
    assert r.details["reason"] == "there is no answer (retrieval-only run or empty answer)"
    r = faithfulness(inputs(QACase("q1", "질문"), answer(TEXT, []), [], {}))
    assert r.details["reason"] == "the answer has no contexts to be checked against"


def test_noise_sensitivity_counts_noise_only_and_unsupported_claims():
    case = QACase("q1", "질문", expected_chunk_ids=["c1"])
    r = noise_sensitivity(inputs(case, answer(TEXT, HITS), HITS, {"c1": {A1}, "c2": {A2}}))
    assert r.value == pytest.approx(2 / 3, abs=1e-6)
    assert r.details["noise_only"] == ["a2"] and r.details["unsupported"] == ["a3"]
    r = noise_sensitivity(inputs(QACase("q1", "질문"), answer(TEXT, HITS), HITS, {}))
    assert r.computable is False and r.details["reason"].startswith("relevance unknown")


def test_factual_correctness_is_claim_f1_both_ways():
    case = QACase("q1", "질문", reference_answer=f"{A1}. {A2}.")
    support = {"reference": {A1, A2}, "answer": {A1}}
    x = inputs(case, answer(TEXT, HITS), HITS, support)
    r = factual_correctness(x, mode="f1")
    # precision 2/3, recall 1/2, F1 = 2PR/(P+R) = 4/7
    assert r.details["precision"] == pytest.approx(0.666667, abs=1e-6)
    assert r.details["recall"] == pytest.approx(0.5)
    assert r.value == pytest.approx(4 / 7, abs=1e-6) and r.details["f1"] == pytest.approx(4 / 7, abs=1e-6)
    assert r.details["mode"] == "f1" and "mode=f1" in r.method
    assert [c["correct"] for c in r.details["answer_claims"]] == [True, True, False]
    assert x.answer_claims[2].checks["factual_correctness"]["label"] == "incorrect"


def test_factual_correctness_modes_pick_precision_or_recall():
    case = QACase("q1", "질문", reference_answer=f"{A1}. {A2}.")
    support = {"reference": {A1, A2}, "answer": {A1}}
    assert factual_correctness(inputs(case, answer(TEXT, HITS), HITS, support), mode="precision").value == \
        pytest.approx(2 / 3, abs=1e-6)
    r = factual_correctness(inputs(case, answer(TEXT, HITS), HITS, support), mode="recall")
    assert r.value == pytest.approx(0.5) and r.details["mode"] == "recall"
    with pytest.raises(ValueError):
        factual_correctness(inputs(case, answer(TEXT, HITS), HITS, support), mode="accuracy")


def test_factual_correctness_recall_is_the_default_and_extra_faithful_claims_do_not_lower_it():
    # The reference states A1 only; the answer states A1 plus A2 (supported by context c2) and A3 (by nothing).
    case = QACase("q1", "질문", reference_answer=f"{A1}.")
    support = {"reference": {A1}, "answer": {A1}, "c1": {A1}, "c2": {A2}}
    x = inputs(case, answer(TEXT, HITS), HITS, support)
    r = factual_correctness(x)  # mode from the dev gate profile
    assert r.details["mode"] == "recall" and r.value == pytest.approx(1.0)
    assert r.details["precision"] == pytest.approx(1 / 3, abs=1e-6)
    assert [(e["claim_id"], e["supported_by_context"]) for e in r.details["extra_claims"]] == \
        [("a2", True), ("a3", False)]
    assert r.details["extra_unsupported_by_context"] == 1
    # a true extra fact is unverified against the reference, not incorrect; one no context supports is incorrect
    assert [c.checks["factual_correctness"]["label"] for c in x.answer_claims] == ["correct", "unverified", "incorrect"]
    # an answer that misses the reference's fact fails recall however faithful it is
    x = inputs(case, answer(f"{A2} [2].", HITS), HITS, {"reference": set(), "answer": set(), "c2": {A2}})
    assert factual_correctness(x).value == pytest.approx(0.0)


def test_factual_correctness_not_computable_without_reference():
    r = factual_correctness(inputs(QACase("q1", "질문"), answer(TEXT, HITS), HITS, {}))
    assert r.details["reason"] == "the case has no reference answer or reference claims"


def test_response_relevancy_is_the_relevancy_calibrated_cosine():
    case = QACase("q1", "휴학 몇 번 돼?")
    x = inputs(case, answer("휴학은 2회 가능하다 [1].", HITS), HITS, {},
               table={"휴학 몇 번 돼?": [1.0, 0.0], "휴학은 2회 가능하다.": [0.8, 0.6]})
    r = response_relevancy(x)
    cal = load_calibration(shipped=RELEVANCY_CALIBRATION_FILE)
    assert "AutoRAG-ko" in cal.fitted_on and "AutoRAG-ko" in r.method
    assert r.details["raw_cosine"] == pytest.approx(0.8)
    assert r.value == pytest.approx(1 / (1 + math.exp(-(cal.slope * 0.8 + cal.intercept))), abs=1e-4)
    assert r.details["similar"] is (r.value >= 0.75)


def test_relevancy_calibration_separates_its_own_training_figures():
    # The shipped fit: its cosine at the 0.75 target lies between the mean cosine of mismatched and of
    # matched question/answer pairs, and the cross-validated pass rates show the separation.
    cal = load_calibration(shipped=RELEVANCY_CALIBRATION_FILE)
    means, cv = cal.extra["raw_cosine_mean"], cal.extra["cv"]
    assert means["negative"] < cal.cosine_at(0.75) < means["positive"]
    assert cal.cosine_at(0.75) == pytest.approx(cal.extra["cosine_at_threshold"], abs=1e-3)
    assert cv["positives_at_0.75"] > 0.8 and cv["negatives_at_0.75"] < 0.05
    assert cal.score(means["positive"]) > 0.75 > cal.score(means["negative"])


def test_response_relevancy_not_computable_without_answer():
    r = response_relevancy(inputs(QACase("q1", "질문"), None, HITS, {}))
    assert r.computable is False and r.details["reason"] == "there is no answer (retrieval-only run or empty answer)"


def test_semantic_similarity_uses_configured_threshold_and_needs_reference():
    case = QACase("q1", "질문", reference_answer="휴학은 두 번 할 수 있다.")
    x = inputs(case, answer("휴학은 2회 가능하다.", HITS), HITS, {})
    x.settings.evaluate.semantic_threshold = 0.5
    r = semantic_similarity_metric(x)
    assert r.details["raw_cosine"] == pytest.approx(1.0)
    assert r.details["threshold"] == 0.5 and r.details["similar"] is True
    r = semantic_similarity_metric(inputs(QACase("q1", "질문"), answer("휴학은 2회 가능하다.", HITS), HITS, {}))
    assert r.details["reason"] == "the case has no reference answer"


def test_rouge_l_and_chrf_by_hand():
    from geunkeo.evaluate.metrics.summary import chrf, rouge_l

    # LCS of (a b c d) and (a c d e) is (a c d): P = R = 3/4, F = 0.75 for any beta
    assert rouge_l(list("abcd"), list("acde")) == pytest.approx(0.75)
    assert rouge_l(list("ab"), list("cd")) == 0.0
    assert chrf("휴학 규정", "휴학규정") == pytest.approx(1.0)  # whitespace is ignored
    assert 0.0 < chrf("휴학 규정", "휴학 신청") < 1.0
