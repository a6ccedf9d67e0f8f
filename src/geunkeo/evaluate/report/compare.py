"""`geunkeo eval compare RUN_A RUN_B`: metric deltas, flag count changes and per-case flag changes.

A flag count's change is split into the part made by cases in both runs (which the worse / better counts explain)
and the part made by cases in one run only, so a count that moved with no case getting worse or better says why.
Each delta carries a direction (better / worse / same): for flags CRITICAL and WARNING going up is worse; for
metrics and gate pass rates higher is better except the metrics gated with "<=" (gates.lower_is_better).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from geunkeo.evaluate.codes import MOST_SEVERE_FIRST, FlagLevel
from geunkeo.evaluate.gates import lower_is_better
from geunkeo.evaluate.records import CaseFlag
from geunkeo.evaluate.report.html import dataset_label
from geunkeo.evaluate.runner import load_run
from geunkeo.evaluate.summary_records import GateStat, MetricStat, SummaryRecord


def _delta(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else b - a


def direction(delta: float | None, higher_is_better: bool) -> str | None:
    """better / worse / same for a B−A delta; None when there is no delta."""
    if delta is None:
        return None
    if abs(delta) < 1e-12:
        return "same"
    return "better" if (delta > 0) == higher_is_better else "worse"


def _metrics(sa: SummaryRecord, sb: SummaryRecord) -> dict[str, Any]:
    lower = lower_is_better()
    out = {}
    for name in sorted(set(sa.metrics) | set(sb.metrics)):
        ma, mb = sa.metrics.get(name, MetricStat()), sb.metrics.get(name, MetricStat())
        d = _delta(ma.mean, mb.mean)
        out[name] = {"a": ma.mean, "b": mb.mean, "delta": d, "direction": direction(d, name not in lower),
                     "computable_a": ma.computable, "computable_b": mb.computable}
    return out


def _gates(sa: SummaryRecord, sb: SummaryRecord) -> dict[str, Any]:
    out = {}
    for name in sorted(set(sa.gates) | set(sb.gates)):
        pa, pb = sa.gates.get(name, GateStat()).pass_rate, sb.gates.get(name, GateStat()).pass_rate
        d = _delta(pa, pb)
        out[name] = {"a": pa, "b": pb, "delta": d, "direction": direction(d, True)}
    return out


def _flags(fa: dict[str, int], fb: dict[str, int], la: dict[str, FlagLevel], lb: dict[str, FlagLevel]) -> dict[str, Any]:
    """Per level: counts, the whole delta, and the part of it from cases in both runs (`shared_delta`) and from
    cases in one run only (`unshared_delta`); the two parts add up to the delta."""
    shared = set(la) & set(lb)
    out = {}
    for lvl in MOST_SEVERE_FIRST:
        delta = fb.get(lvl, 0) - fa.get(lvl, 0)
        in_shared = sum(lb[q] == lvl for q in shared) - sum(la[q] == lvl for q in shared)
        out[lvl.value] = {"a": fa.get(lvl, 0), "b": fb.get(lvl, 0), "delta": delta, "shared_delta": in_shared,
                    "unshared_delta": delta - in_shared, "direction": direction(delta, lvl == FlagLevel.PASSED)}
    return out


def _changes(la: dict[str, CaseFlag], lb: dict[str, CaseFlag]) -> list[dict[str, Any]]:
    changes = []
    for qid in sorted(set(la) & set(lb)):
        a, b = la[qid], lb[qid]
        if a.level != b.level or a.reasons != b.reasons:
            step = b.level.severity - a.level.severity
            changes.append({"query_id": qid, "from": a.level.value, "to": b.level.value,
                            "direction": "worse" if step > 0 else "better" if step < 0 else "same level",
                            "reasons_added": [x for x in b.reasons if x not in a.reasons],
                            "reasons_removed": [x for x in a.reasons if x not in b.reasons]})
    return changes


def _side(run: str | Path, s: SummaryRecord) -> dict[str, Any]:
    """One run as the comparison names it: the folder's name, never its path on the machine."""
    return {"run": Path(run).name, "eval_id": s.eval_id, "profile": s.profile, "cases": s.cases,
            # the data set's name only: a seeded sample of it shows in the case counts
            "dataset": dataset_label(s.dataset).partition(" (")[0] or None}


def differences(a: dict[str, Any], b: dict[str, Any], shared: int) -> list[dict[str, Any]]:
    """What makes the two runs not like for like: each as a code with both values."""
    out = []
    for key, code in (("profile", "profile_differs"), ("dataset", "dataset_differs"), ("cases", "cases_differ")):
        if a[key] != b[key]:
            out.append({"code": code, "a": a[key], "b": b[key]})
    if shared < max(a["cases"], b["cases"]):
        out.append({"code": "case_sets_differ", "a": a["cases"], "b": b["cases"], "shared": shared})
    return out


def compare_runs(run_a: str | Path, run_b: str | Path) -> dict[str, Any]:
    """B relative to A. Cases are matched by query id; a metric mean is over each run's computable cases."""
    sa, ra = load_run(run_a)
    sb, rb = load_run(run_b)
    fa, fb = {r.query_id: r.flag for r in ra}, {r.query_id: r.flag for r in rb}
    la, lb = {q: f.level for q, f in fa.items()}, {q: f.level for q, f in fb.items()}
    changes = _changes(fa, fb)
    a, b, shared = _side(run_a, sa), _side(run_b, sb), len(set(la) & set(lb))
    return {
        "a": a, "b": b, "shared_cases": shared, "differences": differences(a, b, shared),
        "metrics": _metrics(sa, sb), "gates": _gates(sa, sb),
        "flags": _flags(sa.executive.flags, sb.executive.flags, la, lb),
        "flag_changes": changes,
        "worse": sum(1 for c in changes if c["direction"] == "worse"),
        "better": sum(1 for c in changes if c["direction"] == "better"),
        "only_in_a": [{"query_id": q, "level": la[q].value} for q in sorted(set(la) - set(lb))],
        "only_in_b": [{"query_id": q, "level": lb[q].value} for q in sorted(set(lb) - set(la))],
    }
