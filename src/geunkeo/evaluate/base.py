"""Evaluate stage interface: every number says how it was made.

A `MetricResult` carries its value *and* its method and details; a metric whose inputs are missing returns
`value=None, computable=False` with the reason — never a default constant.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class MetricResult:
    name: str
    value: float | None
    method: str
    computable: bool = True
    details: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def not_computable(cls, name: str, method: str, reason: str) -> MetricResult:
        return cls(name=name, value=None, method=method, computable=False, details={"reason": reason})

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Claim:
    """An atomic statement from an answer (or a reference), linked to the chunks that support it."""

    claim_id: str
    text: str
    source: str = "answer"  # "answer" | "reference"
    method: str = "kiwi-clause-split"  # how it was extracted
    supported: bool | None = None
    support_score: float | None = None
    supporting_chunks: list[dict[str, Any]] = field(default_factory=list)  # {chunk_id, score, evidence}
    checks: dict[str, Any] = field(default_factory=dict)  # entity / polarity / similarity / judge


@dataclass
class QACase:
    """One evaluation item (JSONL QA format)."""

    id: str
    query: str
    lang: str = "ko"
    task: str = "qa"  # "qa" | "summary"
    reference_answer: str | None = None
    reference_claims: list[str] = field(default_factory=list)
    expected_doc_ids: list[str] = field(default_factory=list)
    expected_chunk_ids: list[str] = field(default_factory=list)
    risk_tags: list[str] = field(default_factory=list)
    complexity: str = "simple"
    parallel_id: str | None = None
    style: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass
class Flag:
    """CRITICAL / WARNING / PASSED with reason codes (seed 003)."""

    level: str
    reason_codes: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


class Metric(ABC):
    name: str = "metric"

    @abstractmethod
    def score(self, case: Any) -> MetricResult: ...
