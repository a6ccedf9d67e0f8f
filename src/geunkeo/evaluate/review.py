"""The review queue (seed 003 §3.1): which flagged cases a person looks at, and what they decided.

Selection (deterministic for a given seed):
- full review: every CRITICAL case, every disagreement case and every case with a P0 metric not computable;
- sample review: `warning_rate` of the remaining WARNING cases and `passed_rate` of the PASSED cases, each
  rounded half up with at least one when the level has any case, allocated to strata (language × task ×
  complexity) in proportion to their size by largest remainder (ties: stratum name order), then drawn inside
  each stratum with a `random.Random` seeded by (seed, level, stratum).

Storage: one SQLite file (WAL, so `geunkeo review` can read while a run writes), one row per (eval_id, query_id)
holding the case, the flag, the queue state and the review record of seed §3.1.1/§3.1.2.
"""

from __future__ import annotations

import json
import math
import random
import sqlite3
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from geunkeo.errors import ConfigError, ReviewConflict
from geunkeo.evaluate.base import QACase
from geunkeo.evaluate.datasets import allocate, case_from_dict, save_cases
from geunkeo.evaluate.queue_records import LevelCounts, QueueStats, ReviewItem, ReviewPayload
from geunkeo.evaluate.records import ReviewStatus

DECISIONS = ("agree", "disagree", "partial")
ROOT_CAUSES = ("retrieval", "generation", "gt", "doc_version")
FULL, SAMPLE = "FULL_REVIEW", "SAMPLE_REVIEW"


@dataclass
class Candidate:
    """What sampling needs to know about one flagged case."""

    query_id: str
    level: str
    full_review: bool
    lang: str = "ko"
    task: str = "qa"
    complexity: str = "simple"

    @property
    def stratum(self) -> str:
        return f"{self.lang}/{self.task}/{self.complexity}"


@dataclass
class Selection:
    queue_type: str
    priority: int  # seed §3.1.3: 1 CRITICAL, 2 disagreement/not computable, 3 WARNING sample, 4 PASSED sample
    stratum: str


def sample_size(n: int, rate: float) -> int:
    """round_half_up(rate × n), at least 1 when n > 0 and rate > 0."""
    if n <= 0 or rate <= 0:
        return 0
    return min(n, max(1, math.floor(rate * n + 0.5)))


def select_for_review(cands: Iterable[Candidate], warning_rate: float, passed_rate: float,
                      seed: int) -> dict[str, Selection]:
    """Which cases enter the queue, keyed by query id (see the module docstring for the rules)."""
    for name, rate in (("warning_rate", warning_rate), ("passed_rate", passed_rate)):
        if not 0.0 <= rate <= 1.0:
            raise ConfigError(f"evaluate.review_{name} must be between 0 and 1, got {rate}")
    chosen: dict[str, Selection] = {}
    pools: dict[str, list[Candidate]] = {"WARNING": [], "PASSED": []}
    for c in cands:
        if c.level == "CRITICAL":
            chosen[c.query_id] = Selection(FULL, 1, c.stratum)
        elif c.full_review:
            chosen[c.query_id] = Selection(FULL, 2, c.stratum)
        elif c.level in pools:
            pools[c.level].append(c)
        else:
            raise ConfigError(f"case {c.query_id}: unknown flag level {c.level!r}")
    for level, rate, priority in (("WARNING", warning_rate, 3), ("PASSED", passed_rate, 4)):
        strata: dict[str, list[Candidate]] = defaultdict(list)
        for c in pools[level]:
            strata[c.stratum].append(c)
        quota = allocate({k: len(v) for k, v in strata.items()}, sample_size(len(pools[level]), rate))
        for stratum in sorted(strata):
            ids = sorted(c.query_id for c in strata[stratum])
            rng = random.Random(f"{seed}|{level}|{stratum}")
            for qid in rng.sample(ids, quota[stratum]):
                chosen[qid] = Selection(SAMPLE, priority, stratum)
    return chosen


_SCHEMA = """
CREATE TABLE IF NOT EXISTS review_items (
  eval_id TEXT NOT NULL, query_id TEXT NOT NULL,
  lang TEXT, task TEXT, complexity TEXT, stratum TEXT,
  flag_level TEXT NOT NULL, reasons TEXT NOT NULL DEFAULT '[]',
  queue_type TEXT NOT NULL, priority INTEGER NOT NULL,
  assigned_reviewer TEXT, review_deadline TEXT, created_at TEXT NOT NULL,
  payload TEXT NOT NULL DEFAULT '{}',
  completed INTEGER NOT NULL DEFAULT 0, reviewer_id TEXT, review_decision TEXT, failure_root_cause TEXT,
  corrected_answer TEXT, gt_update_needed INTEGER, risk_level TEXT, notes TEXT, reviewed_at TEXT,
  PRIMARY KEY (eval_id, query_id)
);
-- every decision ever made, never updated or deleted; review_items holds the latest for quick reading
CREATE TABLE IF NOT EXISTS review_decisions (
  id INTEGER PRIMARY KEY AUTOINCREMENT, eval_id TEXT NOT NULL, query_id TEXT NOT NULL,
  reviewer TEXT NOT NULL, decision TEXT NOT NULL, root_cause TEXT, corrected_answer TEXT,
  gt_update_needed INTEGER, risk_level TEXT, notes TEXT, decided_at TEXT NOT NULL, based_on INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS review_decisions_case ON review_decisions (eval_id, query_id);
"""


def _now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


def _iso(t: datetime) -> str:
    return t.isoformat().replace("+00:00", "Z")


class ReviewQueue:
    """A review queue stored in one SQLite file; `path` may be the file or a run directory."""

    def __init__(self, path: str | Path):
        p = Path(path)
        if p.is_dir():
            p = p / "review.db"
        self.path = p
        p.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: transactions are explicit (BEGIN IMMEDIATE in `decide`), so a check-then-write
        # of one reviewer cannot interleave with another's; writers wait up to 10 s for each other
        self._db = sqlite3.connect(p, timeout=10, isolation_level=None, check_same_thread=False)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> ReviewQueue:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing --------------------------------------------------------------------------------------------
    def enqueue(self, eval_id: str, query_id: str, sel: Selection, level: str, reasons: list[str],
                case: QACase | dict[str, Any], payload: ReviewPayload, deadline_days: float = 3.0,
                reviewer: str | None = None) -> ReviewStatus:
        """Add (or refresh) one queued case (`payload.case` is set from `case`); returns its `review_status`
        block (seed §3.1.2)."""
        c = case if isinstance(case, dict) else case.__dict__
        payload = replace(payload, case=c)
        now = _now()
        status = ReviewStatus(True, sel.queue_type, reviewer, _iso(now + timedelta(days=deadline_days)))
        self._db.execute(
            """INSERT INTO review_items (eval_id, query_id, lang, task, complexity, stratum, flag_level, reasons,
                 queue_type, priority, assigned_reviewer, review_deadline, created_at, payload)
               VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)
               ON CONFLICT(eval_id, query_id) DO UPDATE SET flag_level=excluded.flag_level,
                 reasons=excluded.reasons, queue_type=excluded.queue_type, priority=excluded.priority,
                 payload=excluded.payload""",
            (eval_id, query_id, c.get("lang"), c.get("task"), c.get("complexity"), sel.stratum, level,
             json.dumps(reasons), sel.queue_type, sel.priority, reviewer, status.review_deadline, _iso(now),
             payload.stored()),
        )
        self._db.commit()
        return status

    def assign(self, query_id: str, reviewer: str, eval_id: str | None = None) -> ReviewItem:
        """Set the item's assigned reviewer (seed §3.1.2 `assigned_reviewer`)."""
        if not reviewer.strip():
            raise ConfigError("assign needs a reviewer id (--reviewer NAME)")
        item = self.get(query_id, eval_id)
        self._db.execute("UPDATE review_items SET assigned_reviewer=? WHERE eval_id=? AND query_id=?",
                         (reviewer, item.eval_id, query_id))
        self._db.commit()
        return self.get(query_id, item.eval_id)

    def decide(self, query_id: str, decision: str, reviewer: str, root_cause: str | None = None,
               corrected_answer: str | None = None, gt_update_needed: bool | None = None,
               notes: str | None = None, risk_level: str | None = None,
               eval_id: str | None = None, based_on: int | None = None) -> ReviewItem:
        """Record a reviewer's decision (seed §3.1.1 expert review output); returns the updated item.

        Decisions are appended, never overwritten. `based_on` is the item's `version` (its number of decisions)
        the reviewer saw: when another decision landed since, the decision is refused with `ReviewConflict`
        instead of silently replacing it. None appends after whatever is there (the CLI's default)."""
        if decision not in DECISIONS:
            raise ConfigError(f"decision must be one of {', '.join(DECISIONS)}, got {decision!r}")
        if root_cause is not None and root_cause not in ROOT_CAUSES:
            raise ConfigError(f"root cause must be one of {', '.join(ROOT_CAUSES)}, got {root_cause!r}")
        if not reviewer.strip():
            raise ConfigError("a review needs the reviewer's id (--reviewer NAME)")
        item = self.get(query_id, eval_id)
        key = (item.eval_id, query_id)
        now = _iso(_now())
        self._db.execute("BEGIN IMMEDIATE")
        try:
            version = self._version(*key)
            if based_on is not None and based_on != version:
                raise ReviewConflict(f"{query_id} changed since it was opened: {version - based_on} decision(s) "
                                     f"recorded meanwhile; reload it and decide again")
            gt = None if gt_update_needed is None else int(gt_update_needed)
            self._db.execute(
                """INSERT INTO review_decisions (eval_id, query_id, reviewer, decision, root_cause, corrected_answer,
                     gt_update_needed, risk_level, notes, decided_at, based_on) VALUES (?,?,?,?,?,?,?,?,?,?,?)""",
                (*key, reviewer, decision, root_cause, corrected_answer, gt, risk_level, notes, now, version))
            self._db.execute(
                """UPDATE review_items SET completed=1, reviewer_id=?, review_decision=?, failure_root_cause=?,
                     corrected_answer=?, gt_update_needed=?, notes=?, risk_level=?, reviewed_at=?
                   WHERE eval_id=? AND query_id=?""",
                (reviewer, decision, root_cause, corrected_answer, gt, notes, risk_level, now, *key))
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        return self.get(query_id, item.eval_id)

    def _version(self, eval_id: str, query_id: str) -> int:
        return self._db.execute("SELECT COUNT(*) FROM review_decisions WHERE eval_id=? AND query_id=?",
                                (eval_id, query_id)).fetchone()[0]

    def history(self, query_id: str, eval_id: str | None = None) -> list[dict[str, Any]]:
        """Every decision on one item, oldest first."""
        item = self.get(query_id, eval_id)
        rows = self._db.execute("SELECT * FROM review_decisions WHERE eval_id=? AND query_id=? ORDER BY id",
                                (item.eval_id, query_id))
        return [dict(r) for r in rows]

    # -- reading --------------------------------------------------------------------------------------------
    def _row(self, r: sqlite3.Row) -> ReviewItem:
        return ReviewItem.from_row(dict(r), self._version(r["eval_id"], r["query_id"]))

    def items(self, pending: bool | None = None, level: str | None = None,
              eval_id: str | None = None) -> list[ReviewItem]:
        """Queued items by priority; `pending=True` only unreviewed, False only reviewed; one run or all."""
        sql = "SELECT * FROM review_items WHERE 1=1"
        args: list[str | int] = []
        if eval_id:
            sql += " AND eval_id=?"
            args.append(eval_id)
        if pending is not None:
            sql += " AND completed=?"
            args.append(0 if pending else 1)
        if level:
            sql += " AND flag_level=?"
            args.append(level)
        sql += " ORDER BY priority, review_deadline, query_id"
        return [self._row(r) for r in self._db.execute(sql, args)]

    def get(self, query_id: str, eval_id: str | None = None) -> ReviewItem:
        """One item; without `eval_id`, the newest evaluation of that query."""
        sql, args = "SELECT * FROM review_items WHERE query_id=?", [query_id]
        if eval_id:
            sql += " AND eval_id=?"
            args.append(eval_id)
        row = self._db.execute(sql + " ORDER BY created_at DESC LIMIT 1", args).fetchone()
        if row is None:
            raise ConfigError(f"{query_id!r} is not in the review queue {self.path}; see `geunkeo review list`")
        return self._row(row)

    def stats(self, eval_id: str | None = None) -> QueueStats:
        """Queue status and auto-vs-human agreement (seed §7: review completion, review disagreement)."""
        rows = self.items(eval_id=eval_id)
        done = [r for r in rows if r.completed]
        counts = {d: sum(1 for r in done if r.review_decision == d) for d in DECISIONS}
        by_level: dict[str, LevelCounts] = {}
        for r in rows:
            b = by_level.setdefault(r.flag_level, LevelCounts())
            b.queued += 1
            b.reviewed += int(r.completed)
            b.agree += int(r.review_decision == "agree")
        return QueueStats(
            queued=len(rows),
            full_review=sum(1 for r in rows if r.queue_type == FULL),
            sample_review=sum(1 for r in rows if r.queue_type == SAMPLE),
            reviewed=len(done),
            completion_rate=len(done) / len(rows) if rows else None,
            decisions=counts,
            agreement_rate=counts["agree"] / len(done) if done else None,
            disagreement_rate=counts["disagree"] / len(done) if done else None,
            root_causes={rc: sum(1 for r in done if r.failure_root_cause == rc) for rc in ROOT_CAUSES},
            gt_update_needed=sum(1 for r in done if r.gt_update_needed),
            by_level=by_level,
        )

    def export_golden(self, out: str | Path) -> tuple[int, list[str]]:
        """Reviewed items as a JSONL QA dataset; the corrected answer (if any) becomes the reference.

        Skipped (returned by query id): items whose reviewer said the ground truth needs an update but gave
        no corrected answer, and items that have no reference answer at all.
        """
        cases: list[QACase] = []
        skipped: list[str] = []
        for r in self.items(pending=False):
            case = dict(r.payload.case)
            reference = r.corrected_answer or (None if r.gt_update_needed else case.get("reference_answer"))
            if not reference or "id" not in case:
                skipped.append(r.query_id)
                continue
            case["reference_answer"] = reference
            meta = dict(case.get("metadata") or {})
            meta["review"] = {"eval_id": r.eval_id, "reviewer_id": r.reviewer_id, "review_decision": r.review_decision,
                              "failure_root_cause": r.failure_root_cause, "gt_update_needed": r.gt_update_needed,
                              "notes": r.notes, "reviewed_at": r.reviewed_at, "flag_level": r.flag_level,
                              "reference_corrected": bool(r.corrected_answer)}
            case["metadata"] = meta
            cases.append(case_from_dict(case, where=f"review {r.query_id}"))
        save_cases(cases, out)
        return len(cases), skipped
