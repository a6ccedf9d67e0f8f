"""Train the name check's model (answer/name_check.py) and write src/geunkeo/data/name_check.json.

    PYTHONPATH=src .venv/bin/python scripts/train_name_check.py [--sets 36] [--folds 6] [--no-offices] [--dry-run]

Data: the filter cases of benchmarks/data/filter_heldout.json, filter_heldout2…N.json and the in-sample
tests/answer/data/filter_cases.json (never sets 37 and 38: they are the held-out test). Every layer-1 candidate
of an answer (a name candidate the filter's own extractors do not read, an English office the filter finds
unsupported over Korean contexts, and, unless --no-offices, every office the department extractor reads) is
labelled by the case's lists: invented when an invented item and it contain one another (a name inside a longer
invented item that a context holds as written is left out: the invented part is another one), supported when a
legitimate one does; a candidate in neither list is read as supported (the sets list every item they invent) at
half weight; one in both is left out. Persons are decided by a rule at run time (no set invents one).

Cross-validated by set (each fold leaves whole sets out). Three thresholds on the out-of-fold predictions, each
the least costly (a leaked invented name costs `--leak-cost`, a removed legitimate or unlisted one 1) among those
removing at most 3 % of the listed legitimate candidates: names in the contexts' script; English names over Korean
contexts the filter never checked; and English offices over Korean contexts, which the filter removes without the
model (kept below the threshold; a kept invented one costs `--rendering-leak-cost`, no removal limit).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from geunkeo.answer.context import ContextIndex
from geunkeo.answer.filter import HallucinationFilter
from geunkeo.answer.name_candidates import NameCandidate, head_kind, name_candidates
from geunkeo.answer.name_check import FEATURES, ContextNames, features
from geunkeo.answer.rewrite import sentence_spans
from geunkeo.corpus.base import Chunk

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "geunkeo" / "data" / "name_check.json"


def set_files(n_sets: int) -> list[tuple[str, Path]]:
    data = ROOT / "benchmarks" / "data"
    out = [("in-sample", ROOT / "tests" / "answer" / "data" / "filter_cases.json"), ("1", data / "filter_heldout.json")]
    return out + [(str(i), data / f"filter_heldout{i}.json") for i in range(2, n_sets + 1)]


def _label(text: str, invented: list[str], legit: list[str], exact: bool) -> float | None:
    # a name inside a longer invented item that a context holds as written: the invented part is another one
    bad = any(v in text or (text in v and not exact) for v in invented)
    good = any(text in v or v in text for v in legit)
    if bad and good:
        return None
    return 1.0 if bad else 0.0


def case_rows(case: dict, contexts: dict, offices: bool) -> list[tuple[np.ndarray, float, float, str, bool]]:
    """(features, label, weight, text, applied) of each candidate of one case; `applied`: one the filter asks the
    model about (not an office its own check decides)."""
    chunks = [Chunk(**c) for name in case["contexts"] for c in contexts[name]]
    ctx = ContextIndex(chunks)
    view = ContextNames.of(tuple(d.full for d in ctx.docs))
    sentences = [case["answer"][s:e] for s, e in sentence_spans(case["answer"])]
    per_sentence, _ = HallucinationFilter()._entities(sentences)
    rows = []
    for sent, ents in zip(sentences, per_sentence, strict=True):
        cands = [(c, True) for c in name_candidates(sent, [(e.start, e.end) for e in ents])
                 if not any(e.start < c.end and c.start < e.end for e in ents)
                 and not (c.text[:1] >= "가" and not view.korean)  # as the filter: no Korean name over English
                 and not (c.kind == "proper" and view.korean)]
        for e in ents:  # English offices over Korean contexts that the filter's own check does not find
            hk = head_kind(e.text) if e.kind == "department" else None
            rendering = e.text.isascii() and view.korean and ctx.department(e) is None
            if hk and (rendering or offices):
                cands.append((NameCandidate(e.text, -1, -1, hk[1], hk[0]), rendering))  # start -1: an office
        for c, applied in cands:
            listed = any(c.text in v or v in c.text for v in case["invented"] + case["legit"])
            x = features(c, view)
            y = _label(c.text, case["invented"], case["legit"], exact=bool(x[0]))
            if y is not None:
                rows.append((x, y, 1.0 if listed else 0.5, c.text, applied, c.start != -1))
    return rows


def fit(x: np.ndarray, y: np.ndarray, w: np.ndarray, l2: float = 1.0) -> tuple[np.ndarray, float]:
    """Weighted logistic regression by Newton steps (L2 on the weights, not the bias)."""
    xb = np.hstack([x, np.ones((len(x), 1))])
    beta = np.zeros(xb.shape[1])
    reg = np.eye(xb.shape[1]) * l2
    reg[-1, -1] = 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-(xb @ beta)))
        grad = xb.T @ (w * (p - y)) + reg @ beta
        hess = (xb * (w * p * (1 - p))[:, None]).T @ xb + reg + 1e-9 * np.eye(len(beta))
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    return beta[:-1], float(beta[-1])


def cross_validate(groups: list[str], x, y, w, folds: int) -> np.ndarray:
    """Out-of-fold P(invented): each fold holds out whole sets (assigned round-robin in set order)."""
    names = sorted(set(groups), key=lambda g: (g != "in-sample", int(g) if g.isdigit() else 0))
    fold_of = {g: i % folds for i, g in enumerate(names)}
    gf = np.array([fold_of[g] for g in groups])
    pred = np.zeros(len(y))
    for f in range(folds):
        tr, te = gf != f, gf == f
        wts, b = fit(x[tr], y[tr], w[tr])
        pred[te] = 1 / (1 + np.exp(-(x[te] @ wts + b)))
    return pred


def _at(pred, y, w, t: float) -> dict:
    legit = y == 0
    return {"threshold": float(t), "leaked": int(((pred < t) & (y == 1)).sum()), "invented": int((y == 1).sum()),
            "legit_removed": int(((pred >= t) & legit & (w == 1)).sum()), "legit": int((legit & (w == 1)).sum()),
            "unlisted_removed": int(((pred >= t) & legit & (w < 1)).sum()), "unlisted": int((legit & (w < 1)).sum())}


def choose_threshold(pred, y, w, leak_cost: float, max_removed: float) -> tuple[float, dict]:
    """The threshold of least cost (leaked × leak_cost + removed, listed or not) removing at most `max_removed`
    of the listed legitimate candidates; P(invented) ≥ threshold is invented."""
    best: tuple[float, float, dict] | None = None
    for t in [0.0, *np.round(np.arange(0.05, 0.96, 0.01), 2), 1.01]:
        stats = _at(pred, y, w, float(t))
        cost = leak_cost * stats["leaked"] + stats["legit_removed"] + stats["unlisted_removed"]
        if stats["legit_removed"] <= max_removed * max(1, stats["legit"]) and (best is None or cost < best[0]):
            best = (cost, float(t), stats)
    assert best is not None
    return best[1], best[2]


def auc(pred, y) -> float:
    pos, neg = pred[y == 1], pred[y == 0]
    return float(((pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum())
                 / max(1, len(pos) * len(neg)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", type=int, default=36, help="use filter_heldout.json … filter_heldoutN.json")
    ap.add_argument("--folds", type=int, default=6)
    ap.add_argument("--leak-cost", type=float, default=3.0)
    ap.add_argument("--rendering-leak-cost", type=float, default=20.0)
    ap.add_argument("--max-removed", type=float, default=0.03)
    ap.add_argument("--no-offices", dest="offices", action="store_false",
                    help="learn from the name candidates only, not also from every office the department extractor "
                         "reads (which give the same-script model most of its invented examples)")
    ap.add_argument("--dry-run", action="store_true", help="report only; do not write the model")
    ap.add_argument("--show", action="store_true", help="print the out-of-fold errors")
    args = ap.parse_args()
    groups, rows = [], []
    for name, path in set_files(args.sets):
        data = json.loads(path.read_text(encoding="utf-8"))
        for case in data["cases"]:
            for r in case_rows(case, data["contexts"], args.offices):
                groups.append(name)
                rows.append((*r, case["id"]))
    applied = np.array([r[4] for r in rows])
    candidate = np.array([r[5] for r in rows])
    x = np.array([r[0] for r in rows])
    y = np.array([r[1] for r in rows])
    w = np.array([r[2] for r in rows])
    pred = cross_validate(groups, x, y, w, args.folds)
    # two thresholds: names in the answer's own script (the offices the filter reads teach the model what an
    # unsupported name looks like), and English renderings of Korean names (a rendering the filter removed is
    # kept when its P(invented) is below the second one: without the model every one is removed)
    crosslingual = x[:, FEATURES.index("crosslingual")] == 1
    rendering = applied & crosslingual & ~candidate  # offices the filter removed: kept below t_r
    new_rendering = applied & crosslingual & candidate  # never checked before: removed at or above t_n
    same_script = ~crosslingual
    t, stats = choose_threshold(pred[same_script], y[same_script], w[same_script], args.leak_cost, args.max_removed)
    # every office rendering is removed without the model: one it keeps must not add a leak (cost 20)
    t_r, stats_r = choose_threshold(pred[rendering], y[rendering], w[rendering], args.rendering_leak_cost, 1.0)
    t_n, stats_n = choose_threshold(pred[new_rendering], y[new_rendering], w[new_rendering], args.leak_cost,
                                    args.max_removed)
    new_names = applied & same_script
    stats_new = _at(pred[new_names], y[new_names], w[new_names], t)
    report = {"candidates": len(rows), "sets": len(set(groups)), "folds": args.folds, "leak_cost": args.leak_cost,
              "cv_auc_same_script": round(auc(pred[same_script], y[same_script]), 4),
              "cv_same_script": stats, "cv_new_names_only": stats_new,
              "cv_auc_renderings": round(auc(pred[rendering], y[rendering]), 4), "cv_renderings": stats_r,
              "cv_new_renderings": stats_n}
    print(json.dumps(report, indent=1))
    if args.show:
        for i, f in enumerate(FEATURES):
            print(f"  {f}: invented mean {x[y == 1, i].mean():.2f}, supported mean {x[y == 0, i].mean():.2f}")
        for p, r in zip(pred, rows, strict=True):
            limit = t if r[0][5] == 0 else t_n if r[5] else t_r
            if (p >= limit) != (r[1] == 1) and r[4]:
                print(f"  {'leaked' if r[1] == 1 else 'removed'} p={p:.2f} w={r[2]} {r[5]}: {r[3]}")
    wts, b = fit(x, y, w)
    model = {"weights": {f: round(float(v), 4) for f, v in zip(FEATURES, wts, strict=True)}, "bias": round(b, 4),
             "threshold": t, "rendering_threshold": t_r, "new_rendering_threshold": t_n, "made_by": "scripts/train_name_check.py" + ("" if args.offices else " --no-offices"),
             "data": f"filter_cases.json and filter_heldout 1–{args.sets}", "leak_cost": args.leak_cost,
             "max_removed": args.max_removed, **report}
    if not args.dry_run:
        OUT.write_text(json.dumps(model, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
