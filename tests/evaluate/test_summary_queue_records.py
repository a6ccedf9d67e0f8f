"""Typed summary.json and review-queue items: a summary and a queue written before they carried a version still
load (version 0), write back byte for byte, and render the same report as the run they were taken from."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3

from geunkeo.config import Settings
from geunkeo.evaluate.queue_records import LevelCounts, ReviewItem, ReviewPayload
from geunkeo.evaluate.records import RECORD_VERSION
from geunkeo.evaluate.report.html import render_report, with_reviews
from geunkeo.evaluate.review import ReviewQueue
from geunkeo.evaluate.runner import evaluate_cases, load_run
from geunkeo.evaluate.summary_records import SummaryRecord

# summary.json in the shape runs wrote before `record_version` (keys and order as written; trimmed to a few entries)
OLD_SUMMARY = {
    "cases": 2,
    "metrics": {"faithfulness": {"mean": 0.75, "median": 0.75, "min": 0.5, "max": 1.0, "computable": 2,
                                 "not_computable": 0, "not_computable_reasons": {}, "methods": {"checker": 2}}},
    "gates": {"faithfulness": {"priority": "P0", "op": ">=", "threshold": 0.9, "pass": 1, "fail": 1,
                               "not_computable": 0, "pass_rate": 0.5}},
    "pass_rates_by": {"query_language": {"ko": {"cases": 2, "p0_gates_passed": 0.5, "flag_passed": 0.5}}},
    "executive": {"cases": 2, "flags": {"CRITICAL": 1, "WARNING": 0, "PASSED": 1}, "p0_pass_rate": 0.5,
                  "hallucination_rate": 0.5, "citation_missing_rate": 0.25, "review_completion_rate": 0.0,
                  "review_agreement_rate": None, "claims": 4, "serving_actions": {"answer": 1, "warn": 1},
                  "deflection_rate": 0.0,
                  "targets": {"p0_pass_rate": {"op": ">=", "value": 0.7}, "hallucination_rate": {"op": "<=",
                                                                                                 "value": 0.05}}},
    "model_debug": {
        "claim_failure_top5": [["no citation", 1]], "reason_counts": {"HALLUCINATED_CLAIM_DETECTED": 1},
        "failure_stage": {"generation": 1},
        "failure_rate_by_doc_version": {"2024-03": {"cases": 2, "failure_rate": 0.5}},
        "noise_sensitivity_by_case": [["q1", 0.25]],
        "operations": {"language_match_rate": 1.0, "language_match_method": "detected language",
                       "outlier_method": "modified z-score",
                       "outliers": {"latency_ms": {"cases": [], "median": 40.0, "n": 2},
                                    "answer_chars": {"cases": [["q2", 900.0]], "median": 50.0, "mad": 2.0, "n": 6}},
                       "new_question_types": 1, "new_question_clusters": [["q9"]], "new_question_method": "tf-idf"}},
    "compliance": {"uncited_claim_rate": 0.25, "high_risk_claims": 1, "high_risk_claim_failure_rate": 1.0,
                   "review_disagreement_rate": None, "removed_by_filter": {"phone": 1}, "removed_total": 1},
    "review_queue": {"queued": 1, "full_review": 1, "sample_review": 0, "reviewed": 0, "completion_rate": 0.0,
                     "decisions": {"agree": 0, "disagree": 0, "partial": 0}, "agreement_rate": None,
                     "disagreement_rate": None, "root_causes": {"retrieval": 0, "generation": 0, "gt": 0,
                                                                "doc_version": 0},
                     "gt_update_needed": 0, "by_level": {"CRITICAL": {"queued": 1, "reviewed": 0, "agree": 0}}},
    "crosslingual": {"pairs": 1, "same_documents_rate": 1.0, "mean_doc_overlap": 0.5,
                     "claim_set_equivalence_rate": None, "mean_claim_equivalence": None,
                     "pairs_without_claim_comparison": 1, "method": {"same_documents": "top-1", "claim_set": "none"},
                     "details": [{"parallel_id": "p1", "ko_id": "q1", "en_id": "q2", "same_top1": True,
                                  "doc_overlap": 0.5, "claim_equivalence": None, "equivalent": None,
                                  "unmatched_claims": None}]},
    "timings_ms": {"search": {"total": 80.0, "mean": 40.0}},
    "eval_id": "eval_20260101_000000", "timestamp": "2026-01-01T00:00:00Z", "dataset": "gold (a sample)",
    "profile": "dev", "gates_profile": {"faithfulness": {"op": ">=", "threshold": 0.9, "level": "CRITICAL"}},
    "pipeline": {"answerer": "extractive", "vector_cache": {"hits": 3, "misses": 1}},
    "review_sampling": {"warning_rate": 0.3, "passed_rate": 0.15, "seed": 7},
    "seconds": 2.5, "seconds_with_report": 3.25,
}


def test_an_unversioned_summary_loads_typed_and_writes_back_byte_for_byte():
    s = SummaryRecord.from_dict(json.loads(json.dumps(OLD_SUMMARY)))
    assert s.record_version == 0
    assert s.gates["faithfulness"].passed == 1 and s.gates["faithfulness"].count("fail") == 1
    assert s.executive.targets["p0_pass_rate"].value == 0.7 and s.metrics["faithfulness"].methods == {"checker": 2}
    assert s.pass_rates_by["query_language"]["ko"].p0_gates_passed == 0.5
    assert s.model_debug.operations is not None
    assert s.model_debug.operations.outliers["latency_ms"].mad is None  # fewer than five values: no MAD written
    assert s.queue.by_level["CRITICAL"] == LevelCounts(1, 0, 0) and s.crosslingual.details[0].same_top1 is True
    out = s.to_dict()
    assert out.pop("record_version") == 0
    assert json.dumps(out, ensure_ascii=False, indent=2) == json.dumps(OLD_SUMMARY, ensure_ascii=False, indent=2)


def test_a_sparse_older_summary_takes_the_defaults_and_has_no_queue():
    s = SummaryRecord.from_dict({"eval_id": "e1", "cases": 2, "unknown_key": 1})
    assert (s.eval_id, s.cases, s.review_queue, s.model_debug.operations) == ("e1", 2, None, None)
    assert s.queue.queued == 0 and s.executive.flags == {} and s.seconds is None
    assert "review_queue" not in s.to_dict() and "seconds_with_report" not in s.to_dict()


def _old_row(row: sqlite3.Row, version: int) -> dict:
    """A review item as the queue returned it before items were typed (its dict, in its key order)."""
    d = dict(row)
    d["version"] = version
    d["reasons"] = json.loads(d["reasons"])
    d["payload"] = json.loads(d["payload"])
    d["completed"] = bool(d["completed"])
    if d["gt_update_needed"] is not None:
        d["gt_update_needed"] = bool(d["gt_update_needed"])
    return d


def _old_queue(path) -> None:
    """A review.db as written before the payload carried a version: one queued case, reviewed once."""
    with ReviewQueue(path):
        pass  # the schema (unchanged)
    db = sqlite3.connect(path)
    payload = {"case": {"id": "q7", "query": "휴학은 몇 학기까지?", "lang": "ko", "reference_answer": "6학기"},
               "answer": "8학기 [1].", "notes": ["a note"],
               "unsupported_claims": [{"claim_id": "c2", "text": "8학기", "why": "NO_SUPPORTING_CONTEXT"}]}
    db.execute("INSERT INTO review_items (eval_id, query_id, lang, task, complexity, stratum, flag_level, reasons, "
               "queue_type, priority, assigned_reviewer, review_deadline, created_at, payload, completed, "
               "reviewer_id, review_decision, gt_update_needed) "
               "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
               ("e0", "q7", "ko", "qa", "simple", "ko/qa/simple", "CRITICAL", '["HALLUCINATED_CLAIM_DETECTED"]',
                "FULL_REVIEW", 1, None, "2026-01-04T00:00:00Z", "2026-01-01T00:00:00Z",
                json.dumps(payload, ensure_ascii=False), 1, "kim", "disagree", 0))
    db.execute("INSERT INTO review_decisions (eval_id, query_id, reviewer, decision, decided_at, based_on) "
               "VALUES ('e0', 'q7', 'kim', 'disagree', '2026-01-02T00:00:00Z', 0)")
    db.commit()
    db.close()


def test_a_queue_written_before_items_were_typed_reads_as_it_did(tmp_path):
    _old_queue(tmp_path / "review.db")
    db = sqlite3.connect(tmp_path / "review.db")
    db.row_factory = sqlite3.Row
    expected = _old_row(db.execute("SELECT * FROM review_items").fetchone(), 1)
    with ReviewQueue(tmp_path) as q:
        item = q.get("q7")
        assert item.record_version == 0 and item.version == 1 and item.gt_update_needed is False
        assert item.payload.unsupported_claims[0].why == "NO_SUPPORTING_CONTEXT" and item.payload.notes == ["a note"]
        assert json.dumps(item.to_dict(), ensure_ascii=False) == json.dumps(expected, ensure_ascii=False)
        assert q.stats().by_level == {"CRITICAL": LevelCounts(1, 1, 0)} and q.stats().disagreement_rate == 1.0
        again = q.decide("q7", "agree", "lee", based_on=1)  # an old item takes new decisions
        assert again.version == 2 and again.review_decision == "agree"


def test_a_new_item_stores_the_version_in_its_payload_and_shows_as_before(tmp_path):
    from geunkeo.evaluate.base import QACase
    from geunkeo.evaluate.review import Selection

    with ReviewQueue(tmp_path) as q:
        q.enqueue("e1", "q1", Selection("FULL_REVIEW", 1, "ko/qa/simple"), "CRITICAL", [], QACase("q1", "질문"),
                  ReviewPayload(answer="답"))
        item = q.get("q1")
    stored = json.loads(sqlite3.connect(tmp_path / "review.db").execute("SELECT payload FROM review_items")
                        .fetchone()[0])
    assert list(stored) == ["case", "answer", "notes", "unsupported_claims", "record_version"]
    assert stored["record_version"] == RECORD_VERSION == item.record_version
    shown = item.to_dict()
    assert "record_version" not in shown and "record_version" not in shown["payload"]
    assert list(shown)[-1] == "version" and list(item.shown()) == [k for k in shown if k != "payload"]
    assert ReviewItem.from_row({"eval_id": "e", "query_id": "q", "payload": "{}"}, 0).reasons == []


def _unversion(run_dir) -> None:
    """Rewrite a whole run (records, summary, queue) as runs were written before they carried versions."""
    for name in ("cases.jsonl", "flags.jsonl"):
        path = run_dir / name
        rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
        assert all(r.pop("record_version") == RECORD_VERSION for r in rows)
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    summary = json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))
    assert summary.pop("record_version") == RECORD_VERSION
    (run_dir / "summary.json").write_text(json.dumps(summary, ensure_ascii=False, indent=2), encoding="utf-8")
    db = sqlite3.connect(run_dir / "review.db")
    for key, payload in db.execute("SELECT rowid, payload FROM review_items").fetchall():
        d = json.loads(payload)
        assert d.pop("record_version") == RECORD_VERSION
        db.execute("UPDATE review_items SET payload=? WHERE rowid=?", (json.dumps(d, ensure_ascii=False), key))
    db.commit()
    db.close()


def _rendered(run_dir, lang: str) -> str:
    summary, records = load_run(run_dir)
    with ReviewQueue(run_dir) as q:
        summary, items = with_reviews(summary, q)
    html = render_report(summary, records, items, plotly_src="/plotly.js", lang=lang)
    return re.sub(r"[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}", "ID", html)  # plotly's random div ids


def test_an_old_run_renders_the_same_report_in_both_languages(tmp_path):
    from tests.evaluate.test_report import CASES, _pipeline

    evaluate_cases(CASES, _pipeline(0.1), Settings(), tmp_path / "new", eval_id="eval_x")
    shutil.copytree(tmp_path / "new", tmp_path / "old")
    _unversion(tmp_path / "old")
    summary, _ = load_run(tmp_path / "old")
    assert summary.record_version == 0 and summary.queue.queued > 0
    with ReviewQueue(tmp_path / "old") as q:
        assert {i.record_version for i in q.items()} == {0}
    for lang in ("en", "ko"):
        assert _rendered(tmp_path / "old", lang) == _rendered(tmp_path / "new", lang)
