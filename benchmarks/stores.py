"""Store backends side by side: the embedded default vs Milvus (Lite here; a cluster by --milvus-uri).

    python benchmarks/stores.py --index .bench-cache/obliqa-en/all/index \
        --queries ../shared/datasets/obliqa-en/queries.jsonl --max-queries 300

Reads an existing embedded index generation (chunks, Kiwi terms, vectors), loads the same rows into a Milvus
store (no re-embedding), then runs every query against both stores, interleaved so both see the same machine
load: BM25 (sparse) top-100 and dense top-100. Prints bulk-load and reload time, per-query latency p50/p95 and
the Milvus/embedded ratio, and how far the result lists agree (same top-1, mean overlap of the top 10, max
score difference) — the two stores compute the same BM25 and cosine scores, so they should agree except for
ties.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from geunkeo.config import Settings
from geunkeo.index.embedders import get_embedder
from geunkeo.index.manifest import current_generation
from geunkeo.index.stores.embedded import EmbeddedStore
from geunkeo.index.stores.milvus import MilvusStore, close_clients
from geunkeo.text.analyzer import get_analyzer


def _p(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def _load_queries(path: Path, limit: int) -> list[str]:
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            out.append(json.loads(line)["text"])
    if limit and limit < len(out):
        step = len(out) / limit
        out = [out[int(i * step)] for i in range(limit)]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--index", type=Path, required=True, help="an embedded-store index directory")
    ap.add_argument("--queries", type=Path, required=True, help="queries.jsonl (BEIR: one {_id, text} per line)")
    ap.add_argument("--max-queries", type=int, default=300)
    ap.add_argument("-k", type=int, default=100)
    ap.add_argument("--milvus-uri", help="default: a Milvus Lite file in a temporary folder")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)

    emb = EmbeddedStore.load(current_generation(args.index))
    chunks = emb.chunks()
    terms = [emb.chunk_terms(c.chunk_id) for c in chunks]
    vecs = np.asarray(emb._vecs, dtype=np.float32)  # the benchmark reads the embedded store's matrix directly
    work = Path(tempfile.mkdtemp(prefix="geunkeo-stores-"))
    out: dict = {"index": str(args.index), "chunks": len(chunks), "k": args.k}
    try:
        t = time.perf_counter()
        mil = MilvusStore(emb.dim, args.milvus_uri)
        mil.upsert(chunks, terms, vecs)
        mil.save(work / "idx" / "gen-000001")
        out["milvus_bulk_load_s"] = round(time.perf_counter() - t, 2)
        close_clients()
        t = time.perf_counter()
        mil = MilvusStore.load(work / "idx" / "gen-000001", args.milvus_uri)
        mil.search_dense(vecs[0], 1)
        out["milvus_reload_s"] = round(time.perf_counter() - t, 2)
        t = time.perf_counter()
        EmbeddedStore.load(current_generation(args.index)).search_dense(vecs[0], 1)
        out["embedded_reload_s"] = round(time.perf_counter() - t, 2)

        queries = _load_queries(args.queries, args.max_queries)
        analyzer = get_analyzer()
        qterms = [analyzer.terms(q) for q in queries]
        qvecs = get_embedder(Settings()).embed_queries(queries)  # untimed; cached across runs
        lat: dict[str, list[float]] = {f"{s}_{side}": [] for s in ("embedded", "milvus") for side in ("bm25", "dense")}
        agree = {"bm25": [], "dense": []}
        top1 = {"bm25": 0, "dense": 0}
        max_diff = {"bm25": 0.0, "dense": 0.0}
        for i in range(len(queries)):
            results = {}
            for store_name, store in (("embedded", emb), ("milvus", mil)):
                for side in ("bm25", "dense"):
                    t = time.perf_counter()
                    res = (store.search_sparse(qterms[i], args.k) if side == "bm25"
                           else store.search_dense(qvecs[i], args.k))
                    lat[f"{store_name}_{side}"].append((time.perf_counter() - t) * 1000)
                    results[(store_name, side)] = res
            for side in ("bm25", "dense"):
                a, b = results[("embedded", side)], results[("milvus", side)]
                if not a and not b:
                    top1[side] += 1
                    agree[side].append(1.0)
                    continue
                top1[side] += bool(a and b and a[0].chunk_id == b[0].chunk_id)
                ta, tb = {s.chunk_id for s in a[:10]}, {s.chunk_id for s in b[:10]}
                agree[side].append(len(ta & tb) / max(1, len(ta)))
                sb = {s.chunk_id: s.score for s in b}
                diffs = [abs(s.score - sb[s.chunk_id]) for s in a[:10] if s.chunk_id in sb]
                max_diff[side] = max(max_diff[side], max(diffs, default=0.0))
        n = len(queries)
        out["queries"] = n
        out["latency_ms"] = {k: {"p50": round(statistics.median(v), 2), "p95": round(_p(v, 0.95), 2)}
                             for k, v in lat.items()}
        out["milvus_vs_embedded_p50"] = {
            side: round(statistics.median(lat[f"milvus_{side}"]) / statistics.median(lat[f"embedded_{side}"]), 2)
            for side in ("bm25", "dense")}
        out["agreement"] = {side: {"same_top1": round(top1[side] / n, 4),
                                   "mean_overlap_at_10": round(statistics.fmean(agree[side]), 4),
                                   "max_score_diff_top10": round(max_diff[side], 6)} for side in ("bm25", "dense")}
    finally:
        close_clients()
        shutil.rmtree(work, ignore_errors=True)
    text = json.dumps(out, ensure_ascii=False, indent=2)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
