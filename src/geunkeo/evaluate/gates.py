"""P0 gates and P1 targets → CRITICAL / WARNING / PASSED flags with reason codes (seed 003 §2, §3.1).

Thresholds live in data/gate_profiles.json, one profile per stage (`dev`, `stabilization`, `advanced`).

How a case is flagged:
- a P0 metric below its threshold raises its gate's level (P0-1, P0-2, P0-4 CRITICAL; P0-3 WARNING, as the
  seed's flag table puts factual correctness — measured against a reference that may itself be outdated —
  among the warnings), reason ``P0-n_<METRIC>_BELOW_THRESHOLD``; a rule may name the metric's `mode`
  (factual correctness is graded by claim recall: does the answer state the reference's facts);
- one unsupported answer claim → CRITICAL ``HALLUCINATED_CLAIM_DETECTED``;
- faithful but incorrect → WARNING ``DISAGREEMENT_DOC_VERSION_SUSPECTED``; unfaithful but correct → WARNING
  ``DISAGREEMENT_OWN_KNOWLEDGE_SUSPECTED`` (both go to full review). Refinement of the seed's first pattern:
  when the context-recall gate passed, the retrieved passages do state the reference's facts, so the documents
  agree with the reference and the answer left those facts out: ``DISAGREEMENT_ANSWER_INCOMPLETE_SUSPECTED``
  instead (same level, same full review; a different root cause for the reviewer). A version can only be
  suspected when another version of a retrieved document was retrieved too; when none was,
  ``DISAGREEMENT_RETRIEVAL_MISS_SUSPECTED`` (the passages lack the reference's facts);
- an answer citing a version not in force (retrieve/versions.py) → WARNING ``SUPERSEDED_VERSION_CITED``, full
  review;
- a P1 metric outside its target → WARNING ``P1_<METRIC>_BELOW_TARGET`` (``ABOVE`` for noise sensitivity);
- a P0 metric that is *not computable* never passes: WARNING ``P0-n_<METRIC>_NOT_COMPUTABLE`` and full review,
  because nobody can vouch for the case. A not-computable P1 metric is noted but does not change the level.
- PASSED only when every P0 gate was computed and passed and nothing above fired.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from geunkeo.errors import ConfigError
from geunkeo.evaluate.base import Claim, Flag, MetricResult
from geunkeo.evaluate.codes import NOT_SERVED, FlagLevel, FlagReason, MetricSuffix

P0_METRICS = ("context_recall", "faithfulness", "factual_correctness", "citation_coverage")
DISAGREEMENTS = (FlagReason.DOC_VERSION_SUSPECTED, FlagReason.OWN_KNOWLEDGE_SUSPECTED,
                 FlagReason.ANSWER_INCOMPLETE_SUSPECTED, FlagReason.RETRIEVAL_MISS_SUSPECTED)
MODES = {"factual_correctness": ("precision", "recall", "f1")}  # a rule's `mode` names a value in the details


@dataclass(frozen=True)
class Rule:
    metric: str
    code: str
    op: str  # ">=" or "<="
    threshold: float
    level: FlagLevel = FlagLevel.WARNING
    mode: str | None = None  # for metrics with modes (factual correctness: precision | recall | f1)

    def passes(self, value: float) -> bool:
        return value >= self.threshold if self.op == ">=" else value <= self.threshold


@dataclass(frozen=True)
class GateProfile:
    name: str
    p0: dict[str, Rule]
    p1: dict[str, Rule]
    # summary cases: seed 003 §4.1's summary P0 metrics (and the proviso check) instead of the QA gates
    summary_p0: dict[str, Rule] = field(default_factory=dict)
    summary_p1: dict[str, Rule] = field(default_factory=dict)

    def rules_for(self, task: str) -> tuple[dict[str, Rule], dict[str, Rule]]:
        """(P0, P1) rules that grade a case of `task`."""
        return (self.summary_p0, self.summary_p1) if task == "summary" and self.summary_p0 else (self.p0, self.p1)


@dataclass
class GateCheck:
    """One metric against one rule: status is "pass", "fail" or "not_computable"."""

    metric: str
    priority: str  # "P0" | "P1"
    code: str
    op: str
    threshold: float
    value: float | None
    status: str
    mode: str | None = None


@dataclass
class FlagOutcome:
    flag: Flag
    checks: list[GateCheck] = field(default_factory=list)
    hallucinated_claims: list[str] = field(default_factory=list)
    full_review: bool = False  # CRITICAL, disagreement or a P0 not computable
    # what the live serving gate did with this answer (answer/gate.py `decide`: the one policy `ask`, the server
    # and this evaluation share, so their figures agree); "none" when no answer was produced
    serving_action: str = NOT_SERVED

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@lru_cache(maxsize=1)
def _profiles_file() -> dict[str, Any]:
    text = resources.files("geunkeo").joinpath("data", "gate_profiles.json").read_text(encoding="utf-8")
    return json.loads(text)


def profile_names() -> list[str]:
    return sorted(_profiles_file()["profiles"])


def lower_is_better() -> frozenset[str]:
    """Metrics whose gates pass at or below a threshold (op "<="), in any profile: a rise is a worsening."""
    data = _profiles_file()
    sections = [*data["profiles"].values(), data["p1"], data.get("summary_p0", {}), data.get("summary_p1", {})]
    return frozenset(m for sec in sections for m, r in sec.items() if r["op"] == "<=")


def load_profile(name: str) -> GateProfile:
    """The named gate profile from data/gate_profiles.json."""
    data = _profiles_file()
    if name not in data["profiles"]:
        raise ConfigError(f"unknown gate profile {name!r}; choose one of {', '.join(profile_names())}")

    def rules(section: dict[str, Any]) -> dict[str, Rule]:
        out = {}
        for metric, r in section.items():
            if r["op"] not in (">=", "<="):
                raise ConfigError(f"gate_profiles.json: {metric} op must be '>=' or '<=', got {r['op']!r}")
            mode = r.get("mode")
            if mode is not None and mode not in MODES.get(metric, ()):
                raise ConfigError(f"gate_profiles.json: {metric} has no mode {mode!r}")
            out[metric] = Rule(metric, r["code"], r["op"], float(r["threshold"]), FlagLevel(r.get("level", "WARNING")), mode)
        return out

    return GateProfile(name=name, p0=rules(data["profiles"][name]), p1=rules(data["p1"]),
                       summary_p0=rules(data.get("summary_p0", {})), summary_p1=rules(data.get("summary_p1", {})))


def _raise(level: FlagLevel, to: FlagLevel) -> FlagLevel:
    return to if to.severity > level.severity else level


def _check(rule: Rule, priority: str, result: MetricResult | None) -> GateCheck:
    """A metric against a rule. A rule with a `mode` grades that value: the metric's own value when it was
    computed in that mode, else the one its details carry under the mode's name (else not computable)."""
    value = None
    if result is not None and result.computable and result.value is not None:
        value = float(result.value)
        if rule.mode is not None and result.details.get("mode", rule.mode) != rule.mode:
            alt = result.details.get(rule.mode)
            value = float(alt) if isinstance(alt, int | float) else None
    status = "not_computable" if value is None else ("pass" if rule.passes(value) else "fail")
    return GateCheck(rule.metric, priority, rule.code, rule.op, rule.threshold, value, status, rule.mode)


def assign_flag(metrics: dict[str, MetricResult], claims: list[Claim], profile: GateProfile,
                served: str = NOT_SERVED, *, several_versions: bool | None = None,
                superseded_cited: int = 0, task: str = "qa") -> FlagOutcome:
    """Flag one case from its metrics and answer claims (see the module docstring for the rules); `served` is the
    live serving gate's action on the answer, recorded as is. `several_versions`: whether more than one version
    of a retrieved document was retrieved (None: unknown); `superseded_cited`: cited chunks of a version not in
    force (retrieve/versions.py); `task` picks the rules (a summary is graded by the summary gates)."""
    level = FlagLevel.PASSED
    reasons: list[str] = []
    notes: list[str] = []
    checks: list[GateCheck] = []
    full_review = False
    p0_rules, p1_rules = profile.rules_for(task)
    for metric, rule in p0_rules.items():
        chk = _check(rule, "P0", metrics.get(metric))
        checks.append(chk)
        if chk.status == "fail":
            level = _raise(level, rule.level)
            reasons.append(rule.code + MetricSuffix.BELOW_THRESHOLD)
        elif chk.status == "not_computable":
            level = _raise(level, FlagLevel.WARNING)
            reasons.append(rule.code + MetricSuffix.NOT_COMPUTABLE)
            why = metrics[metric].details.get("reason", "") if metric in metrics else "metric missing"
            notes.append(f"{metric} not computable: {why}".rstrip(": "))
            full_review = True

    hallucinated = [c.claim_id for c in claims if c.source == "answer" and c.supported is False]
    if hallucinated:
        level = _raise(level, FlagLevel.CRITICAL)
        reasons.append(FlagReason.HALLUCINATED)

    by_metric = {c.metric: c for c in checks}
    faith, fact = by_metric.get("faithfulness"), by_metric.get("factual_correctness")
    if faith and fact and "not_computable" not in (faith.status, fact.status) and faith.status != fact.status:
        recall = by_metric.get("context_recall")
        if faith.status != "pass":
            code = FlagReason.OWN_KNOWLEDGE_SUSPECTED
        elif recall is not None and recall.status == "pass":
            code = FlagReason.ANSWER_INCOMPLETE_SUSPECTED
        elif several_versions is False:
            code = FlagReason.RETRIEVAL_MISS_SUSPECTED  # no other version to disagree with: the passages lack the facts
        else:
            code = FlagReason.DOC_VERSION_SUSPECTED
        level = _raise(level, FlagLevel.WARNING)
        reasons.append(code)
        full_review = True

    if superseded_cited:
        level = _raise(level, FlagLevel.WARNING)
        reasons.append(FlagReason.SUPERSEDED_VERSION_CITED)
        full_review = True

    for metric, rule in p1_rules.items():
        chk = _check(rule, "P1", metrics.get(metric))
        checks.append(chk)
        if chk.status == "fail":
            level = _raise(level, FlagLevel.WARNING)
            reasons.append(rule.code + (MetricSuffix.BELOW_TARGET if rule.op == ">=" else MetricSuffix.ABOVE_TARGET))
        elif chk.status == "not_computable":
            notes.append(f"P1 {metric} not computable")

    if level == FlagLevel.CRITICAL:
        full_review = True
    return FlagOutcome(Flag(level, reasons, notes), checks, hallucinated, full_review,
                       served)
