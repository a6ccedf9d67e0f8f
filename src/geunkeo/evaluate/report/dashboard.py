"""The numbers behind the three dashboard views of seed 003 §7, computed from claim-log records.

Every rate says what it counts over; a rate with an empty denominator is None ("no data"), never 0.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence

from geunkeo.answer.codes import GateAction
from geunkeo.checks.base import NO_SUPPORTING_CONTEXT
from geunkeo.evaluate.codes import MOST_SEVERE_FIRST, FlagLevel, FlagReason
from geunkeo.evaluate.queue_records import QueueStats
from geunkeo.evaluate.records import CaseRecord, ClaimRecord
from geunkeo.evaluate.summary_records import (
    Compliance,
    Executive,
    GateStat,
    GroupRates,
    MetricStat,
    ModelDebug,
    Operations,
    Outliers,
    Target,
    VersionFailures,
)

# Seed §7.1 / §10 targets, shown next to the measured values.
EXEC_TARGETS = {"p0_pass_rate": (">=", 0.70), "hallucination_rate": ("<=", 0.05),
                "citation_missing_rate": ("<=", 0.10), "review_completion_rate": (">=", 0.90),
                "review_agreement_rate": (">=", 0.80)}


def _rate(num: int, den: int) -> float | None:
    return num / den if den else None


def metric_stats(records: Sequence[CaseRecord]) -> dict[str, MetricStat]:
    """Per metric: mean/median/min/max over computable cases, counts, methods and not-computable reasons."""
    values: dict[str, list[float]] = defaultdict(list)
    missing: dict[str, Counter] = defaultdict(Counter)
    methods: dict[str, Counter] = defaultdict(Counter)
    for r in records:
        for name, m in r.metrics.items():
            methods[name][m.method] += 1
            if m.computable and m.value is not None:
                values[name].append(float(m.value))
            else:
                missing[name][m.details.get("reason", "unspecified")] += 1
    out = {}
    for name in sorted(set(values) | set(missing)):
        v = values[name]
        out[name] = MetricStat(
            mean=statistics.fmean(v) if v else None,
            median=statistics.median(v) if v else None,
            min=min(v) if v else None,
            max=max(v) if v else None,
            computable=len(v),
            not_computable=sum(missing[name].values()),
            not_computable_reasons=dict(missing[name]),
            methods=dict(methods[name]),
        )
    return out


def gate_stats(records: Sequence[CaseRecord]) -> dict[str, GateStat]:
    """Per gated metric: pass / fail / not computable counts; pass_rate counts not computable as not passed."""
    out: dict[str, GateStat] = {}
    for r in records:
        for g in r.gates:
            s = out.setdefault(g.metric, GateStat(g.priority, g.op, g.threshold))
            s.passed += g.status == "pass"
            s.fail += g.status == "fail"
            s.not_computable += g.status == "not_computable"
    for s in out.values():
        s.pass_rate = _rate(s.passed, s.passed + s.fail + s.not_computable)
    return out


# the record fields cases are grouped by (pass_rates_by)
GROUPINGS = ("query_language", "task", "complexity", "style")


def group_of(r: CaseRecord, key: str) -> str:
    """The case's group under one of `GROUPINGS` ("?" when the record has none)."""
    value = {"query_language": r.query_language, "task": r.task, "complexity": r.complexity, "style": r.style}[key]
    return str(value or "?")


def pass_rates_by(records: Sequence[CaseRecord], key: str) -> dict[str, GroupRates]:
    """Share of cases passing all four P0 gates, and share flagged PASSED, grouped by a record field."""
    groups: dict[str, list[CaseRecord]] = defaultdict(list)
    for r in records:
        groups[group_of(r, key)].append(r)
    return {k: GroupRates(len(v), _rate(sum(r.p0_passed for r in v), len(v)),
                          _rate(sum(r.flag.level == FlagLevel.PASSED for r in v), len(v)))
            for k, v in sorted(groups.items())}


def _claims(records: Sequence[CaseRecord]) -> Iterator[ClaimRecord]:
    for r in records:
        yield from r.response.claims


def executive(records: Sequence[CaseRecord], review: QueueStats | None) -> Executive:
    n = len(records)
    claims = list(_claims(records))
    halluc = sum(1 for r in records if FlagReason.HALLUCINATED in r.flag.reasons)
    return Executive(
        cases=n,
        flags={lvl.value: sum(1 for r in records if r.flag.level == lvl) for lvl in MOST_SEVERE_FIRST},
        p0_pass_rate=_rate(sum(1 for r in records if r.flag.level == FlagLevel.PASSED), n),
        hallucination_rate=_rate(halluc, n),
        citation_missing_rate=_rate(sum(1 for c in claims if not c.citation.provided), len(claims)),
        review_completion_rate=review.completion_rate if review else None,
        review_agreement_rate=review.agreement_rate if review else None,
        claims=len(claims),
        # the live serving gate's action on every case (answer/gate.py); deflection = share handed to a person
        serving_actions=dict(Counter(r.serving_simulation for r in records)),
        deflection_rate=_rate(sum(1 for r in records if r.serving_simulation == GateAction.ESCALATE), n),
        targets={k: Target(op, v) for k, (op, v) in EXEC_TARGETS.items()},
    )


def _claim_failure(c: ClaimRecord) -> str | None:
    f = c.evaluation.faithfulness
    if f.supported is False:
        return f"unsupported: {f.failure_reason or NO_SUPPORTING_CONTEXT}"
    if not c.citation.provided:
        return "no citation"
    if c.citation.accurate is False:
        return "citation does not support the claim"
    if c.evaluation.factual_correctness.label == "incorrect":
        return "incorrect vs reference"
    return None


def _stage_of_failure(r: CaseRecord) -> str | None:
    """retrieval when the context-recall gate failed; generation when recall passed but the answer did not."""
    if r.flag.level == FlagLevel.PASSED:
        return None
    status = {g.metric: g.status for g in r.gates}
    if status.get("context_recall") == "fail":
        return "retrieval"
    gen = ("faithfulness", "citation_coverage", "factual_correctness")
    if any(status.get(m) == "fail" for m in gen) or FlagReason.HALLUCINATED in r.flag.reasons:
        return "generation"
    return "other (P1 or not computable)"


def model_debug(records: Sequence[CaseRecord]) -> ModelDebug:
    patterns = Counter(p for c in _claims(records) if (p := _claim_failure(c)))
    reasons = Counter(code for r in records for code in r.flag.reasons)
    stages = Counter(s for r in records if (s := _stage_of_failure(r)))
    by_version: dict[str, list[bool]] = defaultdict(list)
    for r in records:
        docs = r.retrieval.retrieved_docs
        version = (docs[0].version or "unversioned") if docs else "nothing retrieved"
        by_version[str(version)].append(r.flag.level != FlagLevel.PASSED)
    noise = [(r.query_id, v) for r in records if (v := r.metric_value("noise_sensitivity")) is not None]
    return ModelDebug(
        claim_failure_top5=patterns.most_common(5),
        reason_counts=dict(reasons.most_common()),
        failure_stage=dict(stages),
        failure_rate_by_doc_version={v: VersionFailures(len(x), _rate(sum(x), len(x)))
                                     for v, x in sorted(by_version.items())},
        noise_sensitivity_by_case=noise,
        operations=operations(records),
    )


# Iglewicz & Hoaglin's modified z-score: |0.6745 (x - median) / MAD| above 3.5 marks an outlier; robust to the
# outliers themselves, unlike mean ± k·sd on a few dozen cases
_OUTLIER_Z = 3.5


def _outliers(values: dict[str, float]) -> Outliers:
    """Cases whose value lies far from the others' (modified z-score over median and MAD)."""
    xs = list(values.values())
    if len(xs) < 5:
        return Outliers([], statistics.median(xs) if xs else None, None, len(xs))
    med = statistics.median(xs)
    mad = statistics.median(abs(x - med) for x in xs)
    if mad == 0:
        far = {k: v for k, v in values.items() if v != med}
        cases = sorted(far, key=lambda k: -abs(values[k] - med)) if len(far) <= len(xs) // 10 else []
    else:
        cases = sorted((k for k, v in values.items() if abs(0.6745 * (v - med) / mad) > _OUTLIER_Z),
                       key=lambda k: -abs(values[k] - med))
    return Outliers([(k, round(values[k], 4)) for k in cases], round(med, 4), round(mad, 4), len(xs))


def operations(records: Sequence[CaseRecord]) -> Operations:
    """P2 operations (seed 003): answers in the asker's language, and outliers in latency, answer length and
    each metric, by the modified z-score (|z| > 3.5 over median and MAD)."""
    from geunkeo.text.patterns import detect_lang

    answered = [(r, r.response.response_text) for r in records if r.response.response_text]
    match = sum(1 for r, text in answered if _lang(detect_lang(text)) == _lang(r.query_language))
    latency = {r.query_id: r.latency_ms for r in records if r.timings_ms}
    length = {r.query_id: float(len(text)) for r, text in answered}
    metric_values: dict[str, dict[str, float]] = defaultdict(dict)
    for r in records:
        for name in r.metrics:
            if (v := r.metric_value(name)) is not None:
                metric_values[name][r.query_id] = v
    clusters = new_question_types(records)
    return Operations(
        language_match_rate=_rate(match, len(answered)),
        language_match_method="detected language of the answer text == the case's query language "
                              "(mixed counts as Korean)",
        outlier_method=f"modified z-score |0.6745 (x - median) / MAD| > {_OUTLIER_Z} (Iglewicz & Hoaglin)",
        outliers={"latency_ms": _outliers(latency), "answer_chars": _outliers(length),
                  **{f"metric:{k}": _outliers(v) for k, v in sorted(metric_values.items())}},
        new_question_types=len(clusters), new_question_clusters=clusters, new_question_method=NEW_TYPE_METHOD,
    )


_NEW_TYPE_MAX_SIM = 0.2  # a question sharing less than this with every gold question is of a kind not yet tested
_SAME_TYPE_SIM = 0.3


def new_question_types(records: Sequence[CaseRecord]) -> list[list[str]]:
    """Questions without a reference (logged traffic in the run) far from every gold question (those with a
    reference answer or expected documents), grouped into clusters: each cluster is a kind of question the gold
    set does not cover yet, for full review (seed 003 P2)."""
    def is_gold(r: CaseRecord) -> bool:
        return bool(r.response.reference_answer or r.retrieval.expected_doc_ids)

    return question_clusters([(r.query_id, r.query_text, is_gold(r)) for r in records])


NEW_TYPE_METHOD = (f"Kiwi-term TF-IDF cosine; new = max similarity to every gold question < {_NEW_TYPE_MAX_SIM}, "
                   f"clustered single-link at ≥ {_SAME_TYPE_SIM}")


def question_clusters(items: Sequence[tuple[str, str, bool]]) -> list[list[str]]:
    """Clusters of (id, question, is_gold) items: the non-gold questions far from every gold one, grouped."""
    from geunkeo.text.analyzer import get_analyzer

    gold = [i for i, _, g in items if g]
    rest = [i for i, _, g in items if not g]
    if not gold or not rest:
        return []
    analyzer = get_analyzer()
    terms = {i: Counter(analyzer.terms(q)) for i, q, _ in items}
    df = Counter(t for c in terms.values() for t in c)
    n = len(items)

    def vec(qid: str) -> dict[str, float]:
        v = {t: tf * math.log(1 + n / df[t]) for t, tf in terms[qid].items()}
        norm = math.sqrt(sum(x * x for x in v.values())) or 1.0
        return {t: x / norm for t, x in v.items()}

    vecs = {i: vec(i) for i, _, _ in items}

    def sim(a: str, b: str) -> float:
        va, vb = vecs[a], vecs[b]
        return sum(x * vb.get(t, 0.0) for t, x in va.items())

    far = [q for q in rest if max(sim(q, g) for g in gold) < _NEW_TYPE_MAX_SIM]
    clusters: list[list[str]] = []
    for q in far:  # single link: join every cluster q is close to
        near = [c for c in clusters if any(sim(q, x) >= _SAME_TYPE_SIM for x in c)]
        merged = [q] + [x for c in near for x in c]
        clusters = [c for c in clusters if c not in near] + [merged]
    return [sorted(c) for c in clusters]

def _lang(code: str) -> str:
    return "en" if code == "en" else "ko"


def compliance(records: Sequence[CaseRecord], review: QueueStats | None) -> Compliance:
    claims = list(_claims(records))
    high = [c for c in claims if "high_risk" in c.risk_tags]
    removed = Counter(x.kind for r in records for x in r.removed)
    return Compliance(
        uncited_claim_rate=_rate(sum(1 for c in claims if not c.citation.provided), len(claims)),
        high_risk_claims=len(high),
        high_risk_claim_failure_rate=_rate(sum(1 for c in high if c.unsupported), len(high)),
        review_disagreement_rate=review.disagreement_rate if review else None,
        removed_by_filter=dict(removed),
        removed_total=sum(removed.values()),
    )


def worst_cases(records: Sequence[CaseRecord], n: int = 8) -> list[CaseRecord]:
    """Most severe first (CRITICAL, then most reasons, then lowest faithfulness)."""

    def key(r: CaseRecord) -> tuple[int, int, float, str]:
        faith = r.aggregate_scores.get("faithfulness")
        return (-r.flag.level.severity, -len(r.flag.reasons), faith if faith is not None else -1, r.query_id)

    return [r for r in sorted(records, key=key) if r.flag.level != FlagLevel.PASSED][:n]
