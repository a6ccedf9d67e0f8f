"""Review sampling (rates, stratification, determinism), decisions, golden export and agreement."""

from __future__ import annotations

import json
import sqlite3

import pytest

from geunkeo.errors import ConfigError
from geunkeo.evaluate.base import QACase
from geunkeo.evaluate.datasets import load_cases
from geunkeo.evaluate.queue_records import LevelCounts, ReviewPayload
from geunkeo.evaluate.review import (
    Candidate,
    ReviewQueue,
    Selection,
    allocate,
    sample_size,
    select_for_review,
)


def _cands():
    out = [Candidate(f"c{i}", "CRITICAL", True) for i in range(2)]
    out.append(Candidate("d0", "WARNING", True))  # disagreement → full review
    out += [Candidate(f"wk{i}", "WARNING", False, "ko", "qa", "simple") for i in range(3)]
    out += [Candidate(f"ws{i}", "WARNING", False, "ko", "summary", "complex") for i in range(2)]
    out += [Candidate(f"we{i}", "WARNING", False, "en", "qa", "simple") for i in range(2)]
    out += [Candidate(f"pk{i}", "PASSED", False, "ko", "qa", "simple") for i in range(6)]
    out += [Candidate(f"pe{i}", "PASSED", False, "en", "qa", "simple") for i in range(4)]
    return out


def test_sample_size_and_allocation_by_hand():
    assert [sample_size(n, 0.15) for n in (0, 1, 3, 10, 100)] == [0, 1, 1, 2, 15]
    assert sample_size(7, 0.30) == 2 and sample_size(100, 0.20) == 20 and sample_size(5, 0.0) == 0
    # quotas 6/7, 4/7, 4/7 of 2 → floors 0; remainders .857 then a .571 tie broken by name
    assert allocate({"ko/qa/simple": 3, "ko/summary/complex": 2, "en/qa/simple": 2}, 2) == {
        "ko/qa/simple": 1, "ko/summary/complex": 0, "en/qa/simple": 1}


def test_selection_rules_and_strata():
    sel = select_for_review(_cands(), 0.30, 0.15, seed=13)
    full = sorted(q for q, s in sel.items() if s.queue_type == "FULL_REVIEW")
    assert full == ["c0", "c1", "d0"]
    assert sel["c0"].priority == 1 and sel["d0"].priority == 2
    warn = [q for q, s in sel.items() if s.priority == 3]
    passed = [q for q, s in sel.items() if s.priority == 4]
    # 7 warnings × 0.30 → 2 (one ko/qa/simple, one en/qa/simple); 10 passed × 0.15 → 2 (one per language)
    assert len(warn) == 2 and sum(q.startswith("wk") for q in warn) == 1 and sum(q.startswith("we") for q in warn) == 1
    assert len(passed) == 2 and sum(q.startswith("pk") for q in passed) == 1
    assert sum(q.startswith("pe") for q in passed) == 1


def test_selection_is_deterministic_per_seed():
    many = [Candidate(f"p{i:03d}", "PASSED", False) for i in range(100)]
    a = select_for_review(many, 0.3, 0.15, seed=13)
    assert len(a) == 15
    assert a == select_for_review(list(reversed(many)), 0.3, 0.15, seed=13)
    others = [set(select_for_review(many, 0.3, 0.15, seed=s)) for s in (1, 2, 3)]
    assert any(o != set(a) for o in others)
    with pytest.raises(ConfigError, match="between 0 and 1"):
        select_for_review(many, 1.3, 0.15, seed=1)


def _queue(tmp_path):
    q = ReviewQueue(tmp_path)
    case_a = QACase("qa1", "휴학은 몇 학기?", reference_answer="6학기", expected_chunk_ids=["h#제12조"])
    case_b = QACase("qa2", "How long is leave?", lang="en", reference_answer="two years")
    case_c = QACase("qa3", "등록금 반환?", reference_answer="전액")
    q.enqueue("e1", "qa1", Selection("FULL_REVIEW", 1, "ko/qa/simple"), "CRITICAL",
              ["HALLUCINATED_CLAIM_DETECTED"], case_a, ReviewPayload(answer="8학기"), deadline_days=2)
    q.enqueue("e1", "qa2", Selection("SAMPLE_REVIEW", 4, "en/qa/simple"), "PASSED", [], case_b, ReviewPayload())
    q.enqueue("e1", "qa3", Selection("SAMPLE_REVIEW", 3, "ko/qa/simple"), "WARNING", [], case_c, ReviewPayload())
    return q


def test_queue_is_wal_and_decide_export_round_trip(tmp_path):
    q = _queue(tmp_path)
    mode = sqlite3.connect(tmp_path / "review.db").execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    assert [i.query_id for i in q.items(pending=True)] == ["qa1", "qa3", "qa2"]  # by priority
    item = q.get("qa1")
    assert item.reasons == ["HALLUCINATED_CLAIM_DETECTED"] and item.payload.answer == "8학기"

    done = q.decide("qa1", "disagree", "kim", root_cause="gt", corrected_answer="통산 6학기까지",
                    gt_update_needed=True, notes="GT outdated")
    assert done.completed and done.review_decision == "disagree" and done.gt_update_needed is True
    q.decide("qa2", "agree", "lee")
    q.decide("qa3", "partial", "lee", gt_update_needed=True)  # no correction → not exportable
    with pytest.raises(ConfigError, match="decision must be one of agree, disagree, partial"):
        q.decide("qa2", "maybe", "lee")
    with pytest.raises(ConfigError, match="not in the review queue"):
        q.decide("nope", "agree", "lee")

    n, skipped = q.export_golden(tmp_path / "golden.jsonl")
    assert (n, skipped) == (2, ["qa3"])
    golden = {c.id: c for c in load_cases(tmp_path / "golden.jsonl")}
    assert golden["qa1"].reference_answer == "통산 6학기까지"
    assert golden["qa1"].expected_chunk_ids == ["h#제12조"]
    assert golden["qa1"].metadata["review"]["reference_corrected"] is True
    assert golden["qa2"].reference_answer == "two years" and golden["qa2"].lang == "en"
    line = json.loads((tmp_path / "golden.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert line["metadata"]["review"]["reviewer_id"] == "kim"


def test_agreement_rate(tmp_path):
    q = _queue(tmp_path)
    assert q.stats().agreement_rate is None and q.stats().completion_rate == 0.0
    q.decide("qa1", "disagree", "kim", root_cause="retrieval")
    q.decide("qa2", "agree", "lee")
    s = q.stats()
    assert s.completion_rate == pytest.approx(2 / 3)
    assert s.agreement_rate == 0.5 and s.disagreement_rate == 0.5
    q.decide("qa3", "partial", "lee")
    s = q.stats()
    assert s.agreement_rate == pytest.approx(1 / 3) and s.decisions == {"agree": 1, "disagree": 1, "partial": 1}
    assert s.root_causes["retrieval"] == 1 and s.by_level["PASSED"] == LevelCounts(queued=1, reviewed=1, agree=1)
    q.close()


def test_decisions_are_appended_and_a_stale_one_is_refused(tmp_path):
    from geunkeo.errors import ReviewConflict

    q = _queue(tmp_path)
    first = q.get("qa1")
    assert first.version == 0
    q.decide("qa1", "agree", "alice", based_on=0)
    with pytest.raises(ReviewConflict, match="changed since it was opened"):
        q.decide("qa1", "disagree", "bob", based_on=0)  # bob opened the case before alice decided
    q.decide("qa1", "partial", "bob", based_on=1)
    assert [(h["reviewer"], h["decision"], h["based_on"]) for h in q.history("qa1")] == [
        ("alice", "agree", 0), ("bob", "partial", 1)]
    assert q.get("qa1").review_decision == "partial" and q.get("qa1").version == 2


def test_twenty_concurrent_decisions_on_one_case_lose_none(tmp_path):
    import threading

    from geunkeo.errors import ReviewConflict
    from geunkeo.evaluate.review import ReviewQueue

    _queue(tmp_path).close()
    outcomes: list[str] = []
    lock = threading.Lock()

    def reviewer(i: int) -> None:
        with ReviewQueue(tmp_path / "review.db") as own:
            try:
                own.decide("qa1", "agree", f"r{i}", based_on=0)
                result = "accepted"
            except ReviewConflict:
                result = "refused"
        with lock:
            outcomes.append(result)

    threads = [threading.Thread(target=reviewer, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["accepted"] + ["refused"] * 19
    with ReviewQueue(tmp_path / "review.db") as q:
        assert len(q.history("qa1")) == 1  # every accepted decision is in the history, none overwritten
