"""`geunkeo eval compare RUN_A RUN_B`: metric deltas, flag count changes and per-case flag changes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from geunkeo.evaluate.runner import load_run

_ORDER = {"PASSED": 0, "WARNING": 1, "CRITICAL": 2}


def _delta(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else b - a


def compare_runs(run_a: str | Path, run_b: str | Path) -> dict[str, Any]:
    """B relative to A. Cases are matched by query id; a metric mean is over each run's computable cases."""
    sa, ra = load_run(run_a)
    sb, rb = load_run(run_b)
    metrics = {}
    for name in sorted(set(sa["metrics"]) | set(sb["metrics"])):
        ma, mb = sa["metrics"].get(name, {}), sb["metrics"].get(name, {})
        metrics[name] = {"a": ma.get("mean"), "b": mb.get("mean"), "delta": _delta(ma.get("mean"), mb.get("mean")),
                         "computable_a": ma.get("computable", 0), "computable_b": mb.get("computable", 0)}
    gates = {}
    for name in sorted(set(sa["gates"]) | set(sb["gates"])):
        pa, pb = sa["gates"].get(name, {}).get("pass_rate"), sb["gates"].get(name, {}).get("pass_rate")
        gates[name] = {"a": pa, "b": pb, "delta": _delta(pa, pb)}
    fa, fb = sa["executive"]["flags"], sb["executive"]["flags"]
    la = {r["query_id"]: r["flag"] for r in ra}
    lb = {r["query_id"]: r["flag"] for r in rb}
    changes = []
    for qid in sorted(set(la) & set(lb)):
        a, b = la[qid], lb[qid]
        if a["level"] != b["level"] or a["reasons"] != b["reasons"]:
            direction = ("worse" if _ORDER[b["level"]] > _ORDER[a["level"]]
                         else "better" if _ORDER[b["level"]] < _ORDER[a["level"]] else "same level")
            changes.append({"query_id": qid, "from": a["level"], "to": b["level"], "direction": direction,
                            "reasons_added": [x for x in b["reasons"] if x not in a["reasons"]],
                            "reasons_removed": [x for x in a["reasons"] if x not in b["reasons"]]})
    return {
        "a": {"run": str(run_a), "eval_id": sa.get("eval_id"), "profile": sa.get("profile"), "cases": sa["cases"]},
        "b": {"run": str(run_b), "eval_id": sb.get("eval_id"), "profile": sb.get("profile"), "cases": sb["cases"]},
        "metrics": metrics,
        "gates": gates,
        "flags": {lvl: {"a": fa.get(lvl, 0), "b": fb.get(lvl, 0), "delta": fb.get(lvl, 0) - fa.get(lvl, 0)}
                  for lvl in ("CRITICAL", "WARNING", "PASSED")},
        "flag_changes": changes,
        "worse": sum(1 for c in changes if c["direction"] == "worse"),
        "better": sum(1 for c in changes if c["direction"] == "better"),
        "only_in_a": sorted(set(la) - set(lb)),
        "only_in_b": sorted(set(lb) - set(la)),
    }
