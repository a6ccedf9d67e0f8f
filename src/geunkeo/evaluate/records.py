"""The typed records of an evaluation run: `CaseRecord` (one line of cases.jsonl, seed 003 §6.1 with the additions
listed in claim_log.py), its `ClaimRecord`s, and `FlagRecord` (one line of flags.jsonl, seed §3.1.2).

JSON stays the storage format. `to_dict` writes the keys in the order the dict records always had, so a run's
files read as before; the one addition is `record_version` (last). `from_dict` reads any earlier line as well:
a line without `record_version` is version 0, a key it lacks takes its default, a key it does not know is left
out. Keys written only when they say something (a claim's failure reason, a citation's block when there is one)
are fields whose None means "not written" (`_OMIT_IF_NONE`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from enum import Enum
from typing import Any, ClassVar, TypeVar

from geunkeo.answer.base import GateDecision
from geunkeo.answer.report import Removal
from geunkeo.checks.base import MetricResult
from geunkeo.evaluate.codes import NOT_SERVED, FlagLevel
from geunkeo.evaluate.gates import GateCheck

RECORD_VERSION = 1  # 0: the lines written before records were typed (no `record_version` key)

T = TypeVar("T")


def plain(obj: Any) -> Any:
    """A record as JSON-ready dicts and lists, in field order, leaving out a class's `_OMIT_IF_NONE` fields when
    they are None and writing a field under its `_JSON_KEYS` name when it has one (a key no field can be named,
    such as "pass"); enum members become their plain value."""
    if is_dataclass(obj) and not isinstance(obj, type):
        omit: frozenset[str] = getattr(obj, "_OMIT_IF_NONE", frozenset())
        keys: dict[str, str] = getattr(obj, "_JSON_KEYS", {})
        return {keys.get(f.name, f.name): plain(v) for f in fields(obj)
                if not ((v := getattr(obj, f.name)) is None and f.name in omit)}
    if isinstance(obj, Enum):
        return obj.value
    if isinstance(obj, dict):
        return {k: plain(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [plain(v) for v in obj]
    return obj


def known(cls: type[T], d: dict[str, Any] | None) -> T:
    """`cls` built from the keys of `d` it has a field for, by their `_JSON_KEYS` names where they have one (a flat
    record: every field a plain value)."""
    keys: dict[str, str] = getattr(cls, "_JSON_KEYS", {})
    by_key = {keys.get(f.name, f.name): f.name for f in fields(cls)}  # type: ignore[arg-type]
    return cls(**{by_key[k]: v for k, v in (d or {}).items() if k in by_key})


@dataclass
class RetrievedDoc:
    """One retrieved document: its chunks among the hits and their ranks (1-based)."""

    doc_id: str
    chunks: list[str] = field(default_factory=list)
    ranks: list[int] = field(default_factory=list)
    version: str | None = None
    title: str = ""

    @property
    def best_rank(self) -> int | None:
        return min(self.ranks) if self.ranks else None


@dataclass
class RetrievalLog:
    retrieved_docs: list[RetrievedDoc] = field(default_factory=list)
    expected_chunk_ids: list[str] = field(default_factory=list)
    expected_doc_ids: list[str] = field(default_factory=list)
    metrics: dict[str, float | None] = field(default_factory=dict)  # the retrieval metrics' values, rounded

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> RetrievalLog:
        d = d or {}
        return cls([known(RetrievedDoc, x) for x in d.get("retrieved_docs") or []],
                   list(d.get("expected_chunk_ids") or []), list(d.get("expected_doc_ids") or []),
                   dict(d.get("metrics") or {}))


@dataclass
class Faithfulness:
    """A claim's support verdict."""

    _OMIT_IF_NONE: ClassVar[frozenset[str]] = frozenset({"failure_reason"})
    supported: bool | None = None
    supporting_chunks: list[str | None] = field(default_factory=list)
    confidence: float | None = None
    method: str = ""
    failure_reason: str | None = None  # written for an unsupported claim only


@dataclass
class FactualLabel:
    """A claim's correct / incorrect label against the reference (None: not evaluated per claim)."""

    _OMIT_IF_NONE: ClassVar[frozenset[str]] = frozenset({"confidence", "method"})
    label: str | None = None
    confidence: float | None = None
    method: str | None = None


@dataclass
class ClaimEvaluation:
    faithfulness: Faithfulness = field(default_factory=Faithfulness)
    factual_correctness: FactualLabel = field(default_factory=FactualLabel)


@dataclass
class CitationLog:
    """What a claim's sentence cites; only `provided` is written when it cites nothing."""

    _OMIT_IF_NONE: ClassVar[frozenset[str]] = frozenset({"doc_id", "chunk_id", "location", "accurate",
                                                         "cited_blocks"})
    provided: bool = False
    doc_id: str | None = None
    chunk_id: str | None = None
    location: str | None = None
    accurate: bool | None = None  # a cited block is among the chunks the checker found supporting the claim
    cited_blocks: list[int] | None = None


@dataclass
class ClaimRecord:
    """One answer claim of a case, with its verdicts, its citation and its risk tags."""

    claim_id: str
    claim_text: str
    evaluation: ClaimEvaluation = field(default_factory=ClaimEvaluation)
    citation: CitationLog = field(default_factory=CitationLog)
    risk_tags: list[str] = field(default_factory=list)
    checks: dict[str, Any] = field(default_factory=dict)  # the checks' own details, free-form

    @property
    def unsupported(self) -> bool:
        return self.evaluation.faithfulness.supported is False

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ClaimRecord:
        ev = d.get("evaluation") or {}
        return cls(d.get("claim_id", ""), d.get("claim_text", ""),
                   ClaimEvaluation(known(Faithfulness, ev.get("faithfulness")),
                                   known(FactualLabel, ev.get("factual_correctness"))),
                   known(CitationLog, d.get("citation")), list(d.get("risk_tags") or []), dict(d.get("checks") or {}))


@dataclass
class ResponseLog:
    """The answer as judged (`response_text`), the served text, and the answer's claims."""

    response_text: str | None = None
    answerer: str | None = None
    reference_answer: str | None = None
    claims: list[ClaimRecord] = field(default_factory=list)
    evaluated: str | None = None  # what was judged: the served answer, or the draft the gate withheld
    served_text: str | None = None

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> ResponseLog:
        d = d or {}
        return cls(d.get("response_text"), d.get("answerer"), d.get("reference_answer"),
                   [ClaimRecord.from_dict(c) for c in d.get("claims") or []], d.get("evaluated"),
                   d.get("served_text"))


@dataclass
class CaseFlag:
    """A case's flag as the case record writes it."""

    level: FlagLevel = FlagLevel.PASSED
    reasons: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.level = FlagLevel(self.level)


@dataclass
class ReviewStatus:
    """A case's place in the review queue (seed §3.1.2 `review_status`)."""

    in_queue: bool = False
    queue_type: str | None = None
    assigned_reviewer: str | None = None
    review_deadline: str | None = None


def _metric(d: dict[str, Any]) -> MetricResult:
    return MetricResult(d.get("name", ""), d.get("value"), d.get("method", "?"), bool(d.get("computable", False)),
                        dict(d.get("details") or {}))


def _gate(d: dict[str, Any] | None) -> GateDecision | None:
    return None if d is None else known(GateDecision, d)


@dataclass
class CaseRecord:
    """One case of a run (one line of cases.jsonl)."""

    eval_id: str
    query_id: str
    query_language: str = "ko"
    query_text: str = ""
    eval_timestamp: str = ""
    task: str = "qa"
    complexity: str = "simple"
    style: str | None = None
    parallel_id: str | None = None
    retrieval: RetrievalLog = field(default_factory=RetrievalLog)
    response: ResponseLog = field(default_factory=ResponseLog)
    aggregate_scores: dict[str, float | None] = field(default_factory=dict)
    flag: CaseFlag = field(default_factory=CaseFlag)
    metrics: dict[str, MetricResult] = field(default_factory=dict)
    gates: list[GateCheck] = field(default_factory=list)
    review_status: ReviewStatus = field(default_factory=ReviewStatus)
    removed: list[Removal] = field(default_factory=list)  # what the hallucination filter took out
    serving_gate: GateDecision | None = None
    serving_simulation: str = NOT_SERVED  # the serving gate's action (a GateAction value), or "none"
    timings_ms: dict[str, float] = field(default_factory=dict)
    record_version: int = RECORD_VERSION

    def to_dict(self) -> dict[str, Any]:
        return plain(self)

    def metric_value(self, name: str) -> float | None:
        """The metric's value when it was computed, else None."""
        m = self.metrics.get(name)
        return float(m.value) if m is not None and m.computable and m.value is not None else None

    @property
    def p0_passed(self) -> bool:
        """Every P0 gate computed and passed."""
        return all(g.status == "pass" for g in self.gates if g.priority == "P0")

    @property
    def latency_ms(self) -> float:
        """What a user waits for: search and answer (the metrics' time is not theirs)."""
        return sum(v for k, v in self.timings_ms.items() if k in ("search", "answer"))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> CaseRecord:
        """A record from its JSON form, of this version or an earlier one (see the module docstring)."""
        flag = d.get("flag") or {}
        return cls(
            d.get("eval_id", ""), d.get("query_id", ""), d.get("query_language") or "ko", d.get("query_text") or "",
            d.get("eval_timestamp", ""), d.get("task") or "qa", d.get("complexity") or "simple", d.get("style"),
            d.get("parallel_id"), RetrievalLog.from_dict(d.get("retrieval")), ResponseLog.from_dict(d.get("response")),
            dict(d.get("aggregate_scores") or {}),
            CaseFlag(flag.get("level", FlagLevel.PASSED), list(flag.get("reasons") or []), list(flag.get("notes") or [])),
            {k: _metric(m) for k, m in (d.get("metrics") or {}).items()},
            [known(GateCheck, g) for g in d.get("gates") or []], known(ReviewStatus, d.get("review_status")),
            [known(Removal, r) for r in d.get("removed") or []], _gate(d.get("serving_gate")),
            d.get("serving_simulation") or NOT_SERVED, dict(d.get("timings_ms") or {}), int(d.get("record_version", 0)))


@dataclass
class FlagState:
    """A case's flag as the flag state record writes it."""

    level: FlagLevel
    reasons: list[str] = field(default_factory=list)
    auto_assigned: bool = True

    def __post_init__(self) -> None:
        self.level = FlagLevel(self.level)


@dataclass
class ReviewResult:
    """A reviewer's verdict on a case (seed §3.1.2 `review_result`); empty until reviewed."""

    completed: bool = False
    reviewer_id: str | None = None
    review_decision: str | None = None
    failure_root_cause: str | None = None
    notes: str | None = None
    gt_update_needed: bool | None = None


@dataclass
class FlagRecord:
    """One line of flags.jsonl: the flag state of a case (seed §3.1.2)."""

    eval_id: str
    query_id: str
    timestamp: str
    flag: FlagState
    review_status: ReviewStatus = field(default_factory=ReviewStatus)
    review_result: ReviewResult = field(default_factory=ReviewResult)
    record_version: int = RECORD_VERSION

    def to_dict(self) -> dict[str, Any]:
        return plain(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> FlagRecord:
        flag = d.get("flag") or {}
        return cls(d.get("eval_id", ""), d.get("query_id", ""), d.get("timestamp", ""),
                   FlagState(flag.get("level", FlagLevel.PASSED), list(flag.get("reasons") or []),
                             bool(flag.get("auto_assigned", True))),
                   known(ReviewStatus, d.get("review_status")), known(ReviewResult, d.get("review_result")),
                   int(d.get("record_version", 0)))
