"""The typed summary of an evaluation run: `SummaryRecord`, what summary.json holds (runner.summarize and the run's
own description), with its sections — per-metric and per-gate statistics, pass rates by group, the executive,
model-debug and compliance numbers of seed 003 §7 (see report/dashboard.py for each number's definition), the review
queue's figures and the cross-lingual pairs.

JSON stays the storage format. `to_dict` writes the keys in the order summary.json always had them, with
`record_version` last; `from_dict` reads any earlier summary.json too: one without `record_version` is version 0,
a key it lacks takes its default, a key it does not know is left out. Free-form on purpose: the gate profile as
configured (`gates_profile`), the pipeline's own description (`pipeline`) and `timings_ms`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from geunkeo.evaluate.queue_records import QueueStats
from geunkeo.evaluate.records import RECORD_VERSION, known, plain


@dataclass
class MetricStat:
    """One metric over the run: statistics of its computable values, counts, methods, not-computable reasons."""

    mean: float | None = None
    median: float | None = None
    min: float | None = None
    max: float | None = None
    computable: int = 0
    not_computable: int = 0
    not_computable_reasons: dict[str, int] = field(default_factory=dict)
    methods: dict[str, int] = field(default_factory=dict)


@dataclass
class GateStat:
    """One gated metric over the run: its rule, its pass / fail / not-computable counts and its pass rate."""

    _JSON_KEYS: ClassVar[dict[str, str]] = {"passed": "pass"}
    priority: str = ""
    op: str = ""
    threshold: float = 0.0
    passed: int = 0
    fail: int = 0
    not_computable: int = 0
    pass_rate: float | None = None  # not computable counts as not passed

    def count(self, status: str) -> int:
        """The cases of a gate check's status ("pass", "fail", "not_computable")."""
        return {"pass": self.passed, "fail": self.fail, "not_computable": self.not_computable}[status]


@dataclass
class GroupRates:
    """A group of cases (one language, task, complexity or style)."""

    cases: int = 0
    p0_gates_passed: float | None = None
    flag_passed: float | None = None


@dataclass
class Target:
    op: str
    value: float


@dataclass
class Executive:
    """Seed 003 §7.1: flags, pass and hallucination rates, review progress, serving actions, with the targets."""

    cases: int = 0
    flags: dict[str, int] = field(default_factory=dict)
    p0_pass_rate: float | None = None
    hallucination_rate: float | None = None
    citation_missing_rate: float | None = None
    review_completion_rate: float | None = None
    review_agreement_rate: float | None = None
    claims: int = 0
    serving_actions: dict[str, int] = field(default_factory=dict)
    deflection_rate: float | None = None
    targets: dict[str, Target] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> Executive:
        d = d or {}
        out = known(cls, {k: v for k, v in d.items() if k != "targets"})
        out.targets = {k: known(Target, t) for k, t in (d.get("targets") or {}).items()}
        return out


@dataclass
class Outliers:
    """Cases far from the others on one measure (modified z-score); `mad` is left out under five values."""

    _OMIT_IF_NONE: ClassVar[frozenset[str]] = frozenset({"mad"})
    cases: list[tuple[str, float]] = field(default_factory=list)
    median: float | None = None
    mad: float | None = None
    n: int = 0


@dataclass
class Operations:
    """P2 operations: answers in the asker's language, outliers, new kinds of question."""

    language_match_rate: float | None = None
    language_match_method: str = ""
    outlier_method: str = ""
    outliers: dict[str, Outliers] = field(default_factory=dict)
    new_question_types: int = 0
    new_question_clusters: list[list[str]] = field(default_factory=list)
    new_question_method: str = ""

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Operations:
        out = known(cls, {k: v for k, v in d.items() if k != "outliers"})
        out.outliers = {k: known(Outliers, o) for k, o in (d.get("outliers") or {}).items()}
        return out


@dataclass
class VersionFailures:
    cases: int = 0
    failure_rate: float | None = None


@dataclass
class ModelDebug:
    """Seed 003 §7.2: where claims and cases fail, by document version, noise sensitivity, operations."""

    _OMIT_IF_NONE: ClassVar[frozenset[str]] = frozenset({"operations"})
    claim_failure_top5: list[tuple[str, int]] = field(default_factory=list)
    reason_counts: dict[str, int] = field(default_factory=dict)
    failure_stage: dict[str, int] = field(default_factory=dict)
    failure_rate_by_doc_version: dict[str, VersionFailures] = field(default_factory=dict)
    noise_sensitivity_by_case: list[tuple[str, float]] = field(default_factory=list)
    operations: Operations | None = None  # absent from summaries written before it was added

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> ModelDebug:
        d = d or {}
        ops = d.get("operations")
        return cls([(p, n) for p, n in d.get("claim_failure_top5") or []], dict(d.get("reason_counts") or {}),
                   dict(d.get("failure_stage") or {}),
                   {v: known(VersionFailures, x) for v, x in (d.get("failure_rate_by_doc_version") or {}).items()},
                   [(q, v) for q, v in d.get("noise_sensitivity_by_case") or []],
                   None if ops is None else Operations.from_dict(ops))


@dataclass
class Compliance:
    """Seed 003 §7.3: uncited and high-risk claims, review disagreement, what the filter removed."""

    uncited_claim_rate: float | None = None
    high_risk_claims: int = 0
    high_risk_claim_failure_rate: float | None = None
    review_disagreement_rate: float | None = None
    removed_by_filter: dict[str, int] = field(default_factory=dict)
    removed_total: int = 0


@dataclass
class PairResult:
    """One ko/en pair of a run (evaluate/crosslingual.py)."""

    parallel_id: str
    ko_id: str
    en_id: str
    same_top1: bool | None
    doc_overlap: float | None
    claim_equivalence: float | None = None
    equivalent: bool | None = None
    unmatched_claims: list[str] | None = None


@dataclass
class Crosslingual:
    """The run's ko/en pairs and their rates (over the pairs where each was computable)."""

    pairs: int = 0
    same_documents_rate: float | None = None
    mean_doc_overlap: float | None = None
    claim_set_equivalence_rate: float | None = None
    mean_claim_equivalence: float | None = None
    pairs_without_claim_comparison: int = 0
    method: dict[str, str] = field(default_factory=dict)
    details: list[PairResult] = field(default_factory=list)

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> Crosslingual:
        d = d or {}
        out = known(cls, {k: v for k, v in d.items() if k != "details"})
        out.details = [known(PairResult, p) for p in d.get("details") or []]
        return out


@dataclass
class ReviewSampling:
    """The review sampling the run was configured with."""

    warning_rate: float = 0.0
    passed_rate: float = 0.0
    seed: int = 0


@dataclass
class SummaryRecord:
    """summary.json: the aggregates (`runner.summarize`), then what the run was (`runner.evaluate_cases`)."""

    _OMIT_IF_NONE: ClassVar[frozenset[str]] = frozenset({"review_queue", "seconds_with_report"})
    cases: int = 0
    metrics: dict[str, MetricStat] = field(default_factory=dict)
    gates: dict[str, GateStat] = field(default_factory=dict)
    pass_rates_by: dict[str, dict[str, GroupRates]] = field(default_factory=dict)
    executive: Executive = field(default_factory=Executive)
    model_debug: ModelDebug = field(default_factory=ModelDebug)
    compliance: Compliance = field(default_factory=Compliance)
    review_queue: QueueStats | None = None  # None: a summary.json without one (the runs page shows no count)
    crosslingual: Crosslingual = field(default_factory=Crosslingual)
    timings_ms: dict[str, dict[str, float]] = field(default_factory=dict)
    eval_id: str = ""
    timestamp: str = ""
    dataset: str | None = None
    profile: str = ""
    gates_profile: dict[str, dict[str, Any]] = field(default_factory=dict)
    pipeline: dict[str, Any] = field(default_factory=dict)
    review_sampling: ReviewSampling = field(default_factory=ReviewSampling)
    seconds: float | None = None
    seconds_with_report: float | None = None  # written once the report is (the second write of summary.json)
    record_version: int = RECORD_VERSION

    def to_dict(self) -> dict[str, Any]:
        return plain(self)

    @property
    def queue(self) -> QueueStats:
        """The review queue's figures (all zero when the summary has none)."""
        return self.review_queue or QueueStats()

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SummaryRecord:
        """A summary from its JSON form, of this version or an earlier one (see the module docstring)."""
        flat = {"cases", "timings_ms", "eval_id", "timestamp", "dataset", "profile", "gates_profile", "pipeline",
                "seconds", "seconds_with_report"}
        out = known(cls, {k: v for k, v in d.items() if k in flat})
        out.metrics = {k: known(MetricStat, m) for k, m in (d.get("metrics") or {}).items()}
        out.gates = {k: known(GateStat, g) for k, g in (d.get("gates") or {}).items()}
        out.pass_rates_by = {k: {g: known(GroupRates, x) for g, x in groups.items()}
                             for k, groups in (d.get("pass_rates_by") or {}).items()}
        out.executive = Executive.from_dict(d.get("executive"))
        out.model_debug = ModelDebug.from_dict(d.get("model_debug"))
        out.compliance = known(Compliance, d.get("compliance"))
        out.review_queue = None if d.get("review_queue") is None else QueueStats.from_dict(d["review_queue"])
        out.crosslingual = Crosslingual.from_dict(d.get("crosslingual"))
        out.review_sampling = known(ReviewSampling, d.get("review_sampling"))
        out.record_version = int(d.get("record_version", 0))
        return out
