"""The unit model and answerability head on project draws they were not trained on: train on the sources of
scripts/train_unit_ranker.py (TyDi, autorag-ko dev, the sample set, fresh draw 1), then for each held-out draw report
the gate's decisions (head or rules, as `answer.withhold_by = "both"`), the head's AUC and the unit top-1.
`--with-other-draws` adds every other listed draw to the training data (leave one draw out); `--zero F …` holds
features at weight 0 (an ablation on the same rows).

    PYTHONPATH=src .venv/bin/python benchmarks/unit_ranker_draws.py --index <autorag-ko index> \
        --draws fresh_answers2 fresh_answers3 fresh_answers5 fresh_answers6 fresh_answers7 fresh_answers8

Candidate features are cached per source under --cache (delete it after changing a feature).
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))

import train_unit_ranker as training  # noqa: E402

from geunkeo.answer.extractive import ExtractiveAnswerer  # noqa: E402
from geunkeo.answer.unit_ranker import question_features  # noqa: E402

DATA = ROOT / "benchmarks" / "data"
BASE = ("tydi", "autorag", "sample", "fresh_answers1")


def source_groups(name: str, index: Path, shared: Path, cache: Path) -> list:
    """The training groups of one source, built once and cached."""
    path = cache / f"{name}.pkl"
    if path.is_file():
        return pickle.loads(path.read_bytes())
    answerer = ExtractiveAnswerer(ranker=training._zero_ranker())
    if name == "tydi":
        groups = training.tydi_groups(shared / "tydiqa-ko", answerer)
    elif name == "autorag":
        groups = training.autorag_groups(shared / "autorag-ko", index, answerer, DATA / "autorag_ko_unanswerable.jsonl")
    elif name == "sample":
        groups = training.sample_groups(ROOT / "sample" / "gold", ROOT / ".bench-cache" / "answers" / "gold" / "index",
                                        answerer, DATA / "sample_unanswerable.jsonl")
    else:
        groups = training.draw_groups(DATA / name, index, answerer, name)
    cache.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(groups))
    return groups


def trained(groups: list, c: float = 1.0, weight: float = 5.0):
    """(unit model, head, threshold) as scripts/train_unit_ranker.py makes them."""
    _, answer = training.out_of_fold(groups, c, weight)
    threshold, _ = training.choose_threshold(groups, answer, 0.05)
    units = training.fit(training._unit_groups(groups), c, weight)
    head = training.fit_head(groups, training._unit_oof(groups, c, weight, 5, 14), c, weight)
    return units, head, threshold


def decisions(test: list, units, head, threshold: float) -> dict:
    """What the gate decides on one draw's groups, with the head's AUC and the unit top-1."""
    from sklearn.metrics import roc_auc_score

    by = {kind: [g for g in test if g.source.endswith(f"-{kind}")] for kind in ("ko", "en", "unanswerable", "swap")}
    answer = {id(g): float(head(question_features(g.x, units(g.x), g.evidence)[None, :])[0]) for g in test}
    held = {id(g): answer[id(g)] < threshold or g.rules_withhold for g in test}
    scored = by["ko"] + by["unanswerable"] + by["swap"]
    labels = [g.has_gold for g in scored]
    with_answer = [g for g in by["ko"] if g.y.any()]
    return {
        "threshold": threshold,
        "head_auc": round(float(roc_auc_score(labels, [answer[id(g)] for g in scored])), 3)
        if 0 < sum(labels) < len(labels) else None,
        "top1_ko": [int(sum(g.y[int(np.argmax(units(g.x)))] for g in with_answer)), len(with_answer)],
        "answerable_withheld": [sum(held[id(g)] for g in by["ko"]), len(by["ko"])],
        "unanswerable_withheld": [sum(held[id(g)] for g in by["unanswerable"]), len(by["unanswerable"])],
        "unanswerable_withheld_by_head": sum(answer[id(g)] < threshold for g in by["unanswerable"]),
        "unanswerable_withheld_by_rules": sum(g.rules_withhold for g in by["unanswerable"]),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--index", type=Path, required=True, help="an index of autorag-ko's corpus")
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared" / "datasets")
    ap.add_argument("--draws", nargs="+", required=True, help="folders under benchmarks/data")
    ap.add_argument("--cache", type=Path, default=ROOT / ".bench-cache" / "unit_ranker_draws")
    ap.add_argument("--with-other-draws", action="store_true")
    ap.add_argument("--zero", nargs="*", default=[], metavar="FEATURE")
    args = ap.parse_args(argv)
    training.ZEROED.update(args.zero)
    base = [g for name in BASE for g in source_groups(name, args.index, args.shared, args.cache) if len(g.y)]
    draws = {d: [g for g in source_groups(d, args.index, args.shared, args.cache) if len(g.y)] for d in args.draws}
    pooled: dict[str, list[int]] = {}
    for held_out, test in draws.items():
        extra = [g for d, gs in draws.items() if d != held_out for g in gs] if args.with_other_draws else []
        row = decisions(test, *trained(base + extra))
        print(held_out, json.dumps(row), flush=True)
        for key in ("top1_ko", "answerable_withheld", "unanswerable_withheld"):
            pooled[key] = [a + b for a, b in zip(pooled.get(key, [0, 0]), row[key], strict=True)]
    print("pooled", json.dumps(pooled))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
