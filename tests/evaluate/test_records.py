"""Typed run records: a line written before records had a version still loads, and writes back byte for byte; an
old run (no `record_version`) still renders its report and compares with a new one."""

from __future__ import annotations

import json

from geunkeo.answer.codes import GateAction
from geunkeo.config import Settings
from geunkeo.evaluate.codes import FlagLevel
from geunkeo.evaluate.records import RECORD_VERSION, CaseRecord, FlagRecord
from geunkeo.evaluate.report.compare import compare_runs
from geunkeo.evaluate.report.html import render_report
from geunkeo.evaluate.runner import evaluate_cases, load_run

# one line of cases.jsonl in the shape runs had before `record_version` (the keys and their order as written)
OLD_CASE = {
    "eval_id": "eval_20260101_000000", "query_id": "q7", "query_language": "ko", "query_text": "휴학은 몇 학기까지?",
    "eval_timestamp": "2026-01-01T00:00:00Z", "task": "qa", "complexity": "simple", "style": "formal",
    "parallel_id": None,
    "retrieval": {
        "retrieved_docs": [{"doc_id": "rules", "chunks": ["rules#3", "rules#9"], "ranks": [1, 3], "version": None,
                            "title": "규정"},
                           {"doc_id": "notice", "chunks": ["notice#1"], "ranks": [2], "version": "2025-03",
                            "title": "공지"}],
        "expected_chunk_ids": ["rules#3"], "expected_doc_ids": ["rules"],
        "metrics": {"context_recall": 1.0, "context_precision": 0.5, "context_entities_recall": None}},
    "response": {
        "response_text": "휴학은 6학기까지 [1]. 문의는 02-000-0000 [2].", "answerer": "extractive",
        "reference_answer": "6학기", "claims": [
            {"claim_id": "a1", "claim_text": "휴학은 6학기까지",
             "evaluation": {"faithfulness": {"supported": True, "supporting_chunks": ["rules#3"], "confidence": 0.93,
                                             "method": "checker"},
                            "factual_correctness": {"label": "correct", "confidence": 0.9, "method": "recall"}},
             "citation": {"provided": True, "doc_id": "rules", "chunk_id": "rules#3", "location": "규정 제3조",
                          "accurate": True, "cited_blocks": [1]},
             "risk_tags": ["amount", "high_risk"], "checks": {"citations": [1], "support": {"method": "checker"}}},
            {"claim_id": "a2", "claim_text": "문의는 02-000-0000",
             "evaluation": {"faithfulness": {"supported": False, "supporting_chunks": [], "confidence": 0.1,
                                             "method": "checker", "failure_reason": "NO_SUPPORTING_CONTEXT"},
                            "factual_correctness": {"label": None, "method": "not evaluated per claim"}},
             "citation": {"provided": False}, "risk_tags": ["hallucination", "critical"], "checks": {}}],
        "evaluated": "served answer", "served_text": "휴학은 6학기까지 [1]. 문의는 02-000-0000 [2]."},
    "aggregate_scores": {"faithfulness": 0.5, "factual_correctness": 1.0, "citation_coverage": 1.0,
                         "citation_accuracy": None, "response_relevancy": 0.8},
    "flag": {"level": "CRITICAL", "reasons": ["P0-2_FAITHFULNESS_BELOW_THRESHOLD", "HALLUCINATED_CLAIM_DETECTED"],
             "notes": []},
    "metrics": {"faithfulness": {"name": "faithfulness", "value": 0.5, "method": "checker", "computable": True,
                                 "details": {"supported": 1}},
                "factual_correctness": {"name": "factual_correctness", "value": None, "method": "recall",
                                        "computable": False, "details": {"reason": "no reference answer"}}},
    "gates": [{"metric": "faithfulness", "priority": "P0", "code": "P0-2_FAITHFULNESS", "op": ">=", "threshold": 0.9,
               "value": 0.5, "status": "fail", "mode": None}],
    "review_status": {"in_queue": True, "queue_type": "FULL_REVIEW", "assigned_reviewer": None,
                      "review_deadline": "2026-01-04T00:00:00Z"},
    "removed": [{"kind": "phone", "value": "02-111-1111", "replacement": "담당 부서", "sentence": "전화 02-111-1111."}],
    "serving_gate": {"action": "warn", "reasons": ["unsupported_items: 1 removed by the hallucination filter"],
                     "checks": {"citation_coverage": 1.0}, "regenerated": False},
    "serving_simulation": "warn",
    "timings_ms": {"search": 12.5, "answer": 30.25, "metrics": 80.0},
}
OLD_FLAG = {"eval_id": "eval_20260101_000000", "query_id": "q7", "timestamp": "2026-01-01T00:00:00Z",
            "flag": {"level": "CRITICAL", "reasons": ["HALLUCINATED_CLAIM_DETECTED"], "auto_assigned": True},
            "review_status": {"in_queue": False, "queue_type": None, "assigned_reviewer": None,
                              "review_deadline": None},
            "review_result": {"completed": False, "reviewer_id": None, "review_decision": None,
                              "failure_root_cause": None, "notes": None, "gt_update_needed": None}}


def test_a_record_in_the_unversioned_dict_shape_loads_typed_and_writes_back_byte_for_byte():
    rec = CaseRecord.from_dict(json.loads(json.dumps(OLD_CASE)))
    assert rec.record_version == 0  # written before records carried a version
    assert rec.flag.level is FlagLevel.CRITICAL and rec.serving_gate is not None
    assert rec.serving_gate.action is GateAction.WARN
    assert rec.retrieval.retrieved_docs[1].best_rank == 2 and rec.removed[0].kind == "phone"
    good, bad = rec.response.claims
    assert good.citation.cited_blocks == [1] and not good.unsupported
    assert bad.unsupported and bad.evaluation.faithfulness.failure_reason == "NO_SUPPORTING_CONTEXT"
    assert bad.citation.provided is False and bad.citation.chunk_id is None
    assert rec.metric_value("faithfulness") == 0.5 and rec.metric_value("factual_correctness") is None
    assert rec.latency_ms == 42.75 and not rec.p0_passed
    out = rec.to_dict()
    assert out.pop("record_version") == 0
    assert json.dumps(out, ensure_ascii=False) == json.dumps(OLD_CASE, ensure_ascii=False)  # keys, order, values

    flag = FlagRecord.from_dict(OLD_FLAG)
    assert flag.flag.level is FlagLevel.CRITICAL and flag.record_version == 0
    again = flag.to_dict()
    assert again.pop("record_version") == 0 and json.dumps(again) == json.dumps(OLD_FLAG)


def test_a_new_record_carries_the_version_last_and_round_trips():
    rec = CaseRecord.from_dict(OLD_CASE)
    rec.record_version = RECORD_VERSION
    line = json.dumps(rec.to_dict(), ensure_ascii=False)
    assert line.endswith(f'"record_version": {RECORD_VERSION}}}')
    assert CaseRecord.from_dict(json.loads(line)) == rec


def test_a_sparse_older_record_takes_the_defaults():
    rec = CaseRecord.from_dict({"query_id": "q1", "flag": {"level": "PASSED"}, "unknown_key": 1})
    assert (rec.query_language, rec.task, rec.serving_gate, rec.response.claims) == ("ko", "qa", None, [])
    assert rec.serving_simulation == "none" and rec.metrics == {} and rec.p0_passed


def _unversion(run_dir):
    """Rewrite a run's lines as runs were written before `record_version`."""
    for name in ("cases.jsonl", "flags.jsonl"):
        path = run_dir / name
        rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
        assert all(r.pop("record_version") == RECORD_VERSION for r in rows)
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def test_an_old_run_renders_and_compares_with_a_new_one(tmp_path):
    from tests.evaluate.test_report import CASES, _pipeline

    evaluate_cases(CASES, _pipeline(0.1), Settings(), tmp_path / "old", eval_id="eval_old")
    evaluate_cases(CASES, _pipeline(0.95), Settings(), tmp_path / "new", eval_id="eval_new")
    _unversion(tmp_path / "old")
    summary, records = load_run(tmp_path / "old")
    assert {r.record_version for r in records} == {0}
    html = render_report(summary, records)
    assert "HALLUCINATED_CLAIM_DETECTED" in html and "POLARITY_MISMATCH" in html
    d = compare_runs(tmp_path / "old", tmp_path / "new")
    assert d["better"] == 2 and d["flags"]["CRITICAL"]["delta"] == -2
    assert [c["from"] for c in d["flag_changes"]] == ["CRITICAL", "CRITICAL"]
