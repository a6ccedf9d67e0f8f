"""Evaluate stage interface: every number says how it was made.

A `MetricResult` carries its value *and* its method and details; a metric whose inputs are missing returns
`value=None, computable=False` with the reason — never a default constant.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

# the claim checks' records live below both stages that use them (geunkeo/checks); evaluation reads them here too
from geunkeo.checks.base import Claim, MetricResult
from geunkeo.evaluate.codes import FlagLevel

__all__ = ["Claim", "Flag", "Metric", "MetricResult", "QACase"]


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

    level: FlagLevel
    reason_codes: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.level = FlagLevel(self.level)


class Metric(ABC):
    name: str = "metric"

    @abstractmethod
    def score(self, case: Any) -> MetricResult: ...
