"""A Trace travels with every result: stage timings, decisions, warnings and LLM calls.

It is how `--explain`, evaluation logs and the review queue show what happened.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class StageRecord:
    name: str
    ms: float = 0.0
    info: dict[str, Any] = field(default_factory=dict)


@dataclass
class Trace:
    stages: list[StageRecord] = field(default_factory=list)
    decisions: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    llm_calls: list[dict[str, Any]] = field(default_factory=list)

    @contextmanager
    def stage(self, name: str, **info: Any):
        """Time a block of work; the yielded record's `info` may be filled inside the block."""
        rec = StageRecord(name=name, info=dict(info))
        start = time.perf_counter()
        try:
            yield rec
        finally:
            rec.ms = (time.perf_counter() - start) * 1000.0
            self.stages.append(rec)

    def decide(self, stage: str, what: str, **detail: Any) -> None:
        self.decisions.append({"stage": stage, "decision": what, **detail})

    def warn(self, message: str) -> None:
        self.warnings.append(message)

    def timing(self, name: str) -> float:
        """Total milliseconds spent in stages called `name`."""
        return sum(s.ms for s in self.stages if s.name == name)

    def total_ms(self) -> float:
        return sum(s.ms for s in self.stages)

    def merge(self, other: Trace, prefix: str = "") -> None:
        for s in other.stages:
            self.stages.append(StageRecord(prefix + s.name, s.ms, s.info))
        self.decisions.extend(other.decisions)
        self.warnings.extend(other.warnings)
        self.llm_calls.extend(other.llm_calls)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
