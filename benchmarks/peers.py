"""Kiwi-BM25 search in geunkeo vs the BM25 a user would otherwise pick, same corpus and same tokens (issue 12).

    pip install -e ".[peers]"     # LangChain's BM25Retriever (langchain-community); rank_bm25 is in [dev]
    python benchmarks/peers.py --dataset ../shared/datasets/autorag-ko --split dev

Every system indexes the same corpus (title + text of each page) as the same token lists — geunkeo's analyzer
(Kiwi morphemes + lemmas), computed once — and gets each query as the same analyzer terms, so the comparison is
of the BM25 engines alone:
- geunkeo: its embedded store's sparse search (bm25s, Lucene BM25 k1=1.5 b=0.75, scores over a sparse matrix);
- rank_bm25: `BM25Okapi` (k1=1.5, b=0.75, its own IDF floor), scores for every document, top-k by numpy;
- LangChain: `langchain_community.retrievers.BM25Retriever` (rank_bm25 inside, returns Documents), with the
  tokens handed over through its `preprocess_func`.
Queries run interleaved (one query through every system in turn) so all see the same machine load. Printed:
index build time, per-query latency median/p95 and the ratio to geunkeo, and recall@1/5/10 and MRR@10 on the
split's qrels (ranx, through geunkeo's retrieval metrics). Query analysis (Kiwi) is the same for all and is
reported separately.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import warnings
from pathlib import Path

import numpy as np


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def _load_corpus(dataset: Path) -> list[dict]:
    with open(dataset / "corpus.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


class GeunkeoBM25:
    name = "geunkeo (bm25s store)"

    def __init__(self, ids: list[str], texts: list[str], tokens: list[list[str]]) -> None:
        from geunkeo.corpus.base import Chunk
        from geunkeo.index.stores.embedded import EmbeddedStore

        chunks = [Chunk(chunk_id=i, doc_id=i, title="", text=t, location=i) for i, t in zip(ids, texts, strict=True)]
        self.store = EmbeddedStore(1)  # BM25 only: a 1-d zero vector per page keeps the dense side out of it
        self.store.upsert(chunks, tokens, np.zeros((len(chunks), 1), dtype=np.float32))

    def search(self, terms: list[str], k: int) -> list[str]:
        return [s.chunk_id for s in self.store.search_sparse(terms, k)]


class RankBM25:
    name = "rank_bm25 BM25Okapi"

    def __init__(self, ids: list[str], texts: list[str], tokens: list[list[str]]) -> None:
        from rank_bm25 import BM25Okapi

        self.ids = ids
        self.bm25 = BM25Okapi(tokens)

    def search(self, terms: list[str], k: int) -> list[str]:
        scores = self.bm25.get_scores(terms)
        top = np.argsort(-scores, kind="stable")[:k]
        return [self.ids[i] for i in top if scores[i] > 0]


class LangChainBM25:
    name = "LangChain BM25Retriever"

    def __init__(self, ids: list[str], texts: list[str], tokens: list[list[str]]) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # langchain-community announces its sunset on import
            from langchain_community.retrievers import BM25Retriever

        known = dict(zip(texts, tokens, strict=True))
        self.query_terms: list[str] = []
        # the retriever tokenizes documents and queries with preprocess_func: hand it the analyzer's tokens
        self.retriever = BM25Retriever.from_texts(
            texts, metadatas=[{"id": i} for i in ids],
            preprocess_func=lambda text: known.get(text, self.query_terms))

    def search(self, terms: list[str], k: int) -> list[str]:
        self.query_terms = terms
        self.retriever.k = k
        return [d.metadata["id"] for d in self.retriever.invoke("\x00query")]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dataset", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "datasets"
                    / "autorag-ko", help="BEIR-layout folder (corpus.jsonl, queries.jsonl, qrels/<split>.tsv)")
    ap.add_argument("--split", default="dev")
    ap.add_argument("-k", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=5, help="passes over the queries (latency samples)")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args(argv)

    from geunkeo.evaluate.metrics.retrieval import retrieval_metrics
    from geunkeo.retrieve.tuning import load_beir_queries
    from geunkeo.text.analyzer import get_analyzer

    corpus = _load_corpus(args.dataset)
    queries, qrels = load_beir_queries(args.dataset, args.split)
    ids = [d["_id"] for d in corpus]
    texts = [f"{d.get('title', '')}\n{d['text']}" for d in corpus]
    analyzer = get_analyzer()
    t = time.perf_counter()
    tokens = analyzer.terms_batch(texts)
    corpus_analysis = time.perf_counter() - t
    qids = list(queries)
    t = time.perf_counter()
    query_terms = {q: analyzer.terms(queries[q]) for q in qids}
    query_analysis_ms = (time.perf_counter() - t) * 1000 / len(qids)

    systems = []
    for cls in (GeunkeoBM25, RankBM25, LangChainBM25):
        t = time.perf_counter()
        try:
            systems.append((cls(ids, texts, tokens), time.perf_counter() - t))
        except ImportError as e:
            print(f"skipped {cls.name}: {e} (pip install -e '.[peers]')")
    lat: dict[str, list[float]] = {s.name: [] for s, _ in systems}
    runs: dict[str, dict[str, dict[str, float]]] = {s.name: {} for s, _ in systems}
    for rep in range(args.repeat + 1):  # pass 0 warms caches and is not timed
        for q in qids:
            for system, _ in systems:
                t = time.perf_counter()
                found = system.search(query_terms[q], args.k)
                ms = (time.perf_counter() - t) * 1000
                if rep:
                    lat[system.name].append(ms)
                else:
                    runs[system.name][q] = {d: float(len(found) - r) for r, d in enumerate(found)}

    base = statistics.median(lat[systems[0][0].name])
    print(f"\n{args.dataset.name}: {len(corpus)} documents, {len(qids)} {args.split} queries, top {args.k}; "
          f"same Kiwi tokens for all (corpus analysis {corpus_analysis:.1f}s once, query analysis "
          f"{query_analysis_ms:.1f} ms/query for all)")
    print(f"{'system':26s} {'build':>7s} {'median':>9s} {'p95':>9s} {'÷ geunkeo':>10s} "
          f"{'R@1':>6s} {'R@5':>6s} {'R@10':>6s} {'MRR@10':>7s}")
    out = {}
    for system, build_s in systems:
        xs = lat[system.name]
        med, p95 = statistics.median(xs), _pct(xs, 0.95)
        m = retrieval_metrics(qrels, runs[system.name])
        vals = {n: m[n].value for n in ("recall@1", "recall@5", "recall@10", "mrr@10")}
        out[system.name] = {"build_s": round(build_s, 3), "median_ms": round(med, 3), "p95_ms": round(p95, 3),
                            "ratio": round(med / base, 2), **vals}
        print(f"{system.name:26s} {build_s:6.2f}s {med:7.2f}ms {p95:7.2f}ms {med / base:9.1f}× "
              f"{vals['recall@1']:6.3f} {vals['recall@5']:6.3f} {vals['recall@10']:6.3f} {vals['mrr@10']:7.3f}")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
