"""The typed records of the review queue (evaluate/review.py): `ReviewItem` (one queued case, a row of review.db
with its decisions counted), its `ReviewPayload`, and `QueueStats` (the queue's figures, which summary.json holds
too as `review_queue`).

The store stays SQLite; what a row holds as JSON is the payload, and it carries the version: `record_version` is
written into the payload column by `ReviewPayload.stored`, and a payload without one (a queue written before
these records were typed) is version 0. `ReviewItem.to_dict` is the item as the CLI's and the API's JSON show
it, the same keys in the same order as before (the version is the store's, not part of the item shown).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from typing import Any

from geunkeo.evaluate.records import RECORD_VERSION, known, plain


@dataclass
class UnsupportedClaim:
    """A claim the checker found unsupported, as the queue shows it to a reviewer."""

    claim_id: str
    text: str
    why: str | None = None


@dataclass
class ReviewPayload:
    """What a queued case carries besides its columns: the case as given, the answer, the flag's notes and the
    unsupported claims."""

    case: dict[str, Any] = field(default_factory=dict)  # the QA case's fields, as the dataset has them
    answer: str | None = None
    notes: list[str] = field(default_factory=list)
    unsupported_claims: list[UnsupportedClaim] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return plain(self)

    def stored(self) -> str:
        """The payload column's JSON, with the record version."""
        return json.dumps({**self.to_dict(), "record_version": RECORD_VERSION}, ensure_ascii=False, default=str)

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> ReviewPayload:
        d = d or {}
        return cls(dict(d.get("case") or {}), d.get("answer"), list(d.get("notes") or []),
                   [known(UnsupportedClaim, c) for c in d.get("unsupported_claims") or []])


@dataclass
class ReviewItem:
    """One queued case: its stratum, flag, queue place, latest review (seed 003 §3.1.1/§3.1.2) and `version`,
    the number of decisions recorded on it (what a reviewer's `based_on` is checked against)."""

    eval_id: str
    query_id: str
    lang: str | None = None
    task: str | None = None
    complexity: str | None = None
    stratum: str | None = None
    flag_level: str = ""
    reasons: list[str] = field(default_factory=list)
    queue_type: str = ""
    priority: int = 0
    assigned_reviewer: str | None = None
    review_deadline: str | None = None
    created_at: str = ""
    payload: ReviewPayload = field(default_factory=ReviewPayload)
    completed: bool = False
    reviewer_id: str | None = None
    review_decision: str | None = None
    failure_root_cause: str | None = None
    corrected_answer: str | None = None
    gt_update_needed: bool | None = None
    risk_level: str | None = None
    notes: str | None = None
    reviewed_at: str | None = None
    version: int = 0
    record_version: int = RECORD_VERSION  # the payload's, as stored; not shown by `to_dict`

    def to_dict(self) -> dict[str, Any]:
        """The item as the CLI and the API show it (no `record_version`)."""
        d = plain(self)
        del d["record_version"]
        return d

    def shown(self) -> dict[str, Any]:
        """`to_dict` without the payload: a row of `review list --json` and of the API's queue."""
        d = self.to_dict()
        del d["payload"]
        return d

    @classmethod
    def from_row(cls, row: dict[str, Any], version: int) -> ReviewItem:
        """An item from its SQLite row (a column the row lacks takes its default: a queue of an older schema)."""
        payload = json.loads(row.get("payload") or "{}")
        gt = row.get("gt_update_needed")
        names = {f.name for f in fields(cls)} - {"reasons", "payload", "completed", "gt_update_needed", "version",
                                                  "record_version"}
        return cls(**{k: v for k, v in row.items() if k in names},
                   reasons=json.loads(row.get("reasons") or "[]"), payload=ReviewPayload.from_dict(payload),
                   completed=bool(row.get("completed")), gt_update_needed=None if gt is None else bool(gt),
                   version=version, record_version=int(payload.get("record_version", 0)))


@dataclass
class LevelCounts:
    """A flag level's items in the queue: queued, reviewed, and reviewed with the decision "agree"."""

    queued: int = 0
    reviewed: int = 0
    agree: int = 0


@dataclass
class QueueStats:
    """The queue's status and the auto-vs-human agreement (seed 003 §7); rates over no item are None."""

    queued: int = 0
    full_review: int = 0
    sample_review: int = 0
    reviewed: int = 0
    completion_rate: float | None = None
    decisions: dict[str, int] = field(default_factory=dict)
    agreement_rate: float | None = None  # reviews agreeing with the automatic flag; partial counts as not agreeing
    disagreement_rate: float | None = None
    root_causes: dict[str, int] = field(default_factory=dict)
    gt_update_needed: int = 0
    by_level: dict[str, LevelCounts] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return plain(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> QueueStats:
        d = d or {}
        flat = known(cls, {k: v for k, v in d.items() if k != "by_level"})
        flat.by_level = {lvl: known(LevelCounts, c) for lvl, c in (d.get("by_level") or {}).items()}
        return flat
