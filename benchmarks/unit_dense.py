"""Does the question-unit dense similarity (the configured embedder) tell the answer unit apart, beside the shipped
unit model? The candidate units and their labels are built as scripts/train_unit_ranker.py builds them (autorag-ko dev
and fresh draws 1, 2, 3, 5; Korean answerable questions with a positive unit).

    PYTHONPATH=src .venv/bin/python benchmarks/unit_dense.py --index .bench-cache/answers/autorag-ko/index

Prints the pooled unit AUC of the model's probability and of the cosine, the model's top-1 with the within-question
standardised cosine added to its logit at several weights, and top-1 per set for each signal alone.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))

import train_unit_ranker as training  # noqa: E402

from geunkeo.answer.extractive import ExtractiveAnswerer  # noqa: E402
from geunkeo.answer.unit_ranker import get_unit_ranker  # noqa: E402
from geunkeo.config import Settings  # noqa: E402
from geunkeo.index.embedders import get_embedder  # noqa: E402

DATA = ROOT / "benchmarks" / "data"
DRAWS = (1, 2, 3, 5)


def _groups(index: Path, shared: Path) -> list:
    answerer = ExtractiveAnswerer(ranker=training._zero_ranker())
    groups = training.autorag_groups(shared / "autorag-ko", index, answerer, DATA / "autorag_ko_unanswerable.jsonl")
    for n in DRAWS:
        groups += training.draw_groups(DATA / f"fresh_answers{n}", index, answerer, f"fresh_answers{n}")
    return [g for g in groups if g.source.endswith("-ko") and g.y.any() and len(g.y) > 1]


def _questions(shared: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for path in [shared / "autorag-ko" / "queries.jsonl", *(DATA / f"fresh_answers{n}" / "queries.jsonl" for n in DRAWS)]:
        with path.open(encoding="utf-8") as f:
            for line in f:
                q = json.loads(line)
                out[q["_id"]] = q["text"]
    return out


def auc(scores: np.ndarray, labels: np.ndarray) -> float:
    pos, neg = scores[labels.astype(bool)], scores[~labels.astype(bool)]
    wins = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(wins / (len(pos) * len(neg)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--index", type=Path, default=ROOT / ".bench-cache" / "answers" / "autorag-ko" / "index")
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared" / "datasets")
    args = ap.parse_args()
    questions, embedder, model = _questions(args.shared), get_embedder(Settings()), get_unit_ranker()
    rows = []
    for g in _groups(args.index, args.shared):
        if g.qid in questions:
            cos = embedder.embed_passages(g.texts) @ embedder.embed_queries([questions[g.qid]])[0]
            rows.append((g.source, g.y, model.probabilities(g.x), cos))
    labels = np.concatenate([r[1] for r in rows])
    print(f"questions {len(rows)}, units {len(labels)}, positives {int(labels.sum())}")
    print(f"pooled unit AUC: model {auc(np.concatenate([r[2] for r in rows]), labels):.3f}, "
          f"cosine {auc(np.concatenate([r[3] for r in rows]), labels):.3f}")
    for weight in (0.0, 0.5, 1.0, 2.0):
        top1 = [bool(y[int(np.argmax(np.log(p / (1 - p + 1e-9) + 1e-9) + weight * (c - c.mean()) / (c.std() + 1e-9)))])
                for _, y, p, c in rows]
        print(f"model logit + {weight} x standardised cosine: top-1 {np.mean(top1):.3f}")
    for source in sorted({r[0] for r in rows}):
        mine = [r for r in rows if r[0] == source]
        model_top = np.mean([bool(y[int(np.argmax(p))]) for _, y, p, _ in mine])
        cos_top = np.mean([bool(y[int(np.argmax(c))]) for _, y, _, c in mine])
        print(f"{source}: {len(mine)} questions, top-1 model {model_top:.3f}, cosine {cos_top:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
