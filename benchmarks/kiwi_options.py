"""Kiwi's dictionaries (multi-word, default user dictionary): what loading them costs, and what they change in BM25.

    .venv/bin/python benchmarks/kiwi_options.py [--dataset ../shared/datasets/autorag-ko --split dev]

Prints, for each variant of `Kiwi()` (VARIANTS: with and without `load_multi_dict`, and without the default
dictionary too): the time to a ready analyzer in a fresh process (median
of --runs, constructor + first tokenize), and Kiwi-BM25 (geunkeo's analyzer, bm25s) recall@1/@5 and MRR@10 on
the dataset's queries and on the sample gold set — both analyzers in this one process, same corpus, same code.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

import bm25s

from geunkeo.retrieve.tuning import load_beir_queries
from geunkeo.text import analyzer as analyzer_mod
from geunkeo.text import kiwi as kiwi_mod

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = {"multi_dict": {}, "no_multi_dict": {"load_multi_dict": False},
            "no_multi_no_default_dict": {"load_multi_dict": False, "load_default_dict": False}}
READY = "import time,kiwipiepy;t=time.perf_counter();k=kiwipiepy.Kiwi(num_workers=2{opt});k.tokenize('휴학 신청');" \
        "print(time.perf_counter()-t)"


def ready_seconds(options: dict, runs: int) -> float:
    opt = "".join(f", {k}={v!r}" for k, v in options.items())
    times = [float(subprocess.run([sys.executable, "-c", READY.format(opt=opt)], capture_output=True, text=True,
                                  check=True).stdout) for _ in range(runs)]
    return round(statistics.median(times), 3)


def corpus_of(path: Path) -> tuple[list[str], list[str]]:
    ids, texts = [], []
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            d = json.loads(line)
            ids.append(d["_id"])
            texts.append(f"{d.get('title', '')}\n{d['text']}")
    else:  # the sample corpus: chunk it as the index does
        from geunkeo.corpus import chunk_document, load_paths

        docs, _failures = load_paths([path])
        for doc in docs:
            for c in chunk_document(doc):
                ids.append(c.chunk_id)
                texts.append(f"{c.title}\n{c.text}")
    return ids, texts


def bm25_scores(options: dict, ids: list[str], texts: list[str], queries: dict[str, str],
                qrels: dict[str, dict[str, int]]) -> dict[str, float]:
    from kiwipiepy import Kiwi

    kiwi_mod._kiwi = Kiwi(num_workers=2, **options)
    analyzer_mod._analyzer = None
    an = analyzer_mod.get_analyzer()
    retriever = bm25s.BM25()
    retriever.index(an.terms_batch(texts), show_progress=False)
    r1 = r5 = mrr = 0.0
    for qid, q in queries.items():
        terms = an.terms(q)
        if not terms:
            continue
        res, _ = retriever.retrieve([terms], k=10, show_progress=False)
        ranked = [ids[i] for i in res[0]]
        gold = qrels[qid]
        hits = [i for i, d in enumerate(ranked, 1) if d in gold]
        r1 += any(d in gold for d in ranked[:1]) / 1
        r5 += len({d for d in ranked[:5] if d in gold}) / len(gold)
        mrr += 1 / hits[0] if hits else 0.0
    n = len(queries)
    return {"hit@1": round(r1 / n, 4), "recall@5": round(r5 / n, 4), "mrr@10": round(mrr / n, 4), "queries": n}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", type=Path, default=ROOT.parent / "shared" / "datasets" / "autorag-ko")
    ap.add_argument("--split", default="dev")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    out: dict = {"ready_s": {name: ready_seconds(options, args.runs) for name, options in VARIANTS.items()}}
    sets = {"autorag-ko": (args.dataset / "corpus.jsonl", args.dataset, args.split),
            "sample": (ROOT / "sample" / "corpus", ROOT / "sample" / "gold", "test")}
    for name, (corpus, qdir, split) in sets.items():
        ids, texts = corpus_of(corpus)
        queries, qrels = load_beir_queries(qdir, split)
        out[name] = {variant: bm25_scores(options, ids, texts, queries, qrels) for variant, options in VARIANTS.items()}
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
