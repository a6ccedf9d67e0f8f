"""The records a claim check produces: a `Claim` with its verdict and evidence, a `MetricResult` that says how
its number was made (value + method, or not computable with the reason — never a default constant)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

# why a claim is unsupported when no veto names a reason (checks/support.py): no context was given, or none of the
# contexts supports it
NO_CONTEXT = "NO_CONTEXT"
NO_SUPPORTING_CONTEXT = "NO_SUPPORTING_CONTEXT"


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

    @property
    def failure_reason(self) -> str:
        """Why the support check did not support the claim (a veto's code, else NO_SUPPORTING_CONTEXT)."""
        return self.checks.get("support", {}).get("failure_reason") or NO_SUPPORTING_CONTEXT
