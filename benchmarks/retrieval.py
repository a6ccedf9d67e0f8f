"""Retrieval benchmark on any BEIR-layout folder.

    python benchmarks/retrieval.py --dataset ../shared/datasets/autorag-ko --split dev [--tune-split dev] [--json OUT]

Methods: bm25 (Kiwi analyzer, bm25s), dense (configured embedder), hybrid (configured/tuned fusion, query stages
off), full (whole QueryPipeline + hybrid), and in the same run the baselines bm25-whitespace (bm25s over
whitespace tokens) and rank_bm25 (pure-Python BM25Okapi over the same Kiwi terms). Metrics by ranx at document
level (a passage split into several chunks counts once, its best chunk). Latency: wall time per query in this
process, model load excluded; `nonembed` = the same minus the query-embedding stage.

For one-direction qrels such as belebele's `dev.ko-en`, the corpus is restricted to the document language.
When --tune-split equals --split, fusion is tuned by 2-fold cross-fitting (tune on one half, report on the other),
so the reported hybrid figures never come from weights tuned on the same queries.

`--queries a.jsonl,b.jsonl` replaces the dataset's questions with other renderings of them (casual rewrites,
English questions): each row's `qrel_id` (default `_id`) names its judged question, `--qrels` adds a qrels file for
new questions, and every method is also reported per style (`style`/`register`/`lang` field, else the file name),
with the full pipeline beside plain hybrid so a stage that hurts one style shows the day it happens.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
import zlib
from pathlib import Path

import numpy as np

import geunkeo
from geunkeo.config import Settings
from geunkeo.index.base import ScoredId
from geunkeo.query.pipeline import TOGGLES
from geunkeo.retrieve.tuning import load_beir_queries, ranx_scores, to_doc_scores, tune_fusion

STAGES_OFF = dict.fromkeys(TOGGLES, False)  # every QueryPipeline stage, including ones added later
METRICS = ["recall@1", "recall@5", "recall@10", "mrr@10", "ndcg@10"]
ROOT = Path(__file__).resolve().parent.parent


class MemoQueryEmbedder:
    """Remembers query vectors for the passes that are not timed (tuning, cross-fitting); off while timing."""

    def __init__(self, inner) -> None:
        self.inner, self.enabled, self.memo = inner, False, {}
        self.name, self.dim, self.version = inner.name, inner.dim, inner.version

    def embed_queries(self, texts):
        if not self.enabled:
            return self.inner.embed_queries(texts)
        missing = [t for t in texts if t not in self.memo]
        if missing:
            for t, v in zip(missing, self.inner.embed_queries(missing), strict=True):
                self.memo[t] = v
        return np.stack([self.memo[t] for t in texts])

    def embed_passages(self, texts):
        return self.inner.embed_passages(texts)


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


def prepare_corpus(dataset: Path, split: str, cache: Path) -> tuple[Path, str]:
    """Corpus file to index and a cache key; filtered to the document language for 'x-y' splits."""
    m = re.search(r"\.(ko|en)-(ko|en)$", split)
    if not m:
        return dataset / "corpus.jsonl", "all"
    lang = m.group(2)
    out = cache / dataset.name / lang / "corpus.jsonl"
    if not out.is_file():
        out.parent.mkdir(parents=True, exist_ok=True)
        with open(dataset / "corpus.jsonl", encoding="utf-8") as f, open(out, "w", encoding="utf-8") as g:
            for line in f:
                if line.strip() and json.loads(line).get("lang") == lang:
                    g.write(line)
    return out, lang


def load_extra_queries(paths: str, qrels: dict, qrels_file: Path | None) -> tuple[dict, dict, dict]:
    """(queries, qrels, style of each query) from project-written query files over the same corpus."""
    if qrels_file is not None:
        from geunkeo.retrieve.tuning import read_qrels

        qrels = {**qrels, **read_qrels(qrels_file)}
    queries, out_qrels, styles = {}, {}, {}
    for path in paths.split(","):
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            target = row.get("qrel_id", row["_id"])
            if target not in qrels:
                continue
            style = row.get("style") or row.get("register") or row.get("lang") or Path(path).stem
            qid = row["_id"] if row["_id"] not in queries else f"{row['_id']}#{style}"
            queries[qid], out_qrels[qid], styles[qid] = row["text"], qrels[target], style
    return queries, out_qrels, styles


def per_style(qrels, runs, styles) -> dict[str, dict[str, float]]:
    out = {}
    for style in sorted(set(styles.values())):
        ids = [q for q in runs if styles.get(q) == style]
        out[style] = {**evaluate_run({q: qrels[q] for q in ids}, {q: runs[q] for q in ids}), "n": len(ids)}
    return out


def evaluate_run(qrels, run_dict) -> dict[str, float]:
    return {k: round(v, 4) for k, v in ranx_scores(qrels, run_dict, METRICS).items()}


def run_geunkeo(idx, queries, doc_of, mode, stages_on: bool, latency_n: int = 0):
    """Runs every query; the first `latency_n` (all when 0) are timed with fresh query embeddings, the rest may
    reuse remembered query vectors (metrics only)."""
    runs, lat, nonembed = {}, [], []
    overrides = {} if stages_on else dict(STAGES_OFF)
    memo = idx.embedder if isinstance(idx.embedder, MemoQueryEmbedder) else None
    for i, (qid, text) in enumerate(queries.items()):
        timed = not latency_n or i < latency_n
        if memo is not None:
            memo.enabled = not timed
        t = time.perf_counter()
        res = idx.search(text, k=100, mode=mode, reranker="none", **overrides)
        ms = (time.perf_counter() - t) * 1000
        if timed:
            lat.append(ms)
            nonembed.append(ms - res.trace.timing("retrieve.embed_query"))
        runs[qid] = to_doc_scores([ScoredId(h.chunk_id, h.score) for h in res.hits], doc_of)
    return runs, lat, nonembed


def run_bm25s_baseline(chunks, queries, doc_of, tokenize):
    import bm25s

    bm = bm25s.BM25()
    bm.index([tokenize(c.embed_text()) or ["\x00"] for c in chunks], show_progress=False)
    runs, lat = {}, []
    for qid, text in queries.items():
        t = time.perf_counter()
        scores = bm.get_scores(tokenize(text))
        top = np.argsort(-scores)[:100]
        lat.append((time.perf_counter() - t) * 1000)
        runs[qid] = to_doc_scores([ScoredId(chunks[i].chunk_id, float(scores[i])) for i in top if scores[i] > 0], doc_of)
    return runs, lat


def run_rank_bm25(chunks, store_terms, queries, doc_of, analyzer):
    from rank_bm25 import BM25Okapi

    bm = BM25Okapi([t or ["\x00"] for t in store_terms])
    runs, lat = {}, []
    for qid, text in queries.items():
        t = time.perf_counter()
        scores = bm.get_scores(analyzer.terms(text))
        top = np.argsort(-scores)[:100]
        lat.append((time.perf_counter() - t) * 1000)
        runs[qid] = to_doc_scores([ScoredId(chunks[i].chunk_id, float(scores[i])) for i in top if scores[i] > 0], doc_of)
    return runs, lat


def cross_fit_hybrid(idx, queries, qrels, doc_of):
    """2-fold cross-fitting: tune on one half of the split, score on the other; returns a combined run dict."""
    from geunkeo.retrieve.tuning import collect_runs

    folds = [{}, {}]
    for qid, text in queries.items():
        folds[zlib.crc32(qid.encode()) % 2][qid] = text
    runs_all = collect_runs(idx, queries, **STAGES_OFF)
    combined, chosen = {}, []
    for i in (0, 1):
        tune_q, eval_q = folds[i], folds[1 - i]
        tune_qrels = {q: qrels[q] for q in tune_q}
        best, _ = tune_fusion(idx, tune_q, tune_qrels, doc_of=doc_of, store=False)
        chosen.append({k: best[k] for k in ("fusion", "dense_weight")})
        from geunkeo.retrieve.fusion import fuse

        w = {"bm25": 1 - best["dense_weight"], "dense": best["dense_weight"]}
        for qid in eval_q:
            combined[qid] = to_doc_scores(fuse(runs_all[qid], best["fusion"], w, idx.settings.retrieve.rrf_k), doc_of)
    return combined, chosen


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dataset", required=True, type=Path)
    ap.add_argument("--split", default="dev")
    ap.add_argument("--tune-split", default=None)
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--max-queries", type=int, default=0)
    ap.add_argument("--cache", type=Path, default=ROOT / ".bench-cache")
    ap.add_argument("--methods", default="bm25,dense,hybrid,full,bm25-whitespace,rank_bm25")
    ap.add_argument("--queries", default="", help="comma-separated jsonl files of other questions (see above)")
    ap.add_argument("--qrels", type=Path, default=None, help="a qrels tsv for the questions of --queries")
    ap.add_argument("--latency-queries", type=int, default=0,
                    help="time only the first N queries (fresh embeddings); the rest reuse query vectors")
    args = ap.parse_args(argv)
    methods = args.methods.split(",")
    settings = Settings()

    corpus, key = prepare_corpus(args.dataset, args.split, args.cache)
    index_dir = args.cache / args.dataset.name / key / "index"
    t = time.perf_counter()
    report = geunkeo.build_index([corpus], index_dir, settings)
    build_s = time.perf_counter() - t
    print(f"index {index_dir}: {report.documents} docs, {report.chunks} chunks; this run embedded "
          f"{report.embed_cache_misses} chunks ({report.embed_cache_hits} from cache) in {build_s:.1f}s", file=sys.stderr)

    queries, qrels = load_beir_queries(args.dataset, args.split)
    styles: dict[str, str] = {}
    if args.queries:
        queries, qrels, styles = load_extra_queries(args.queries, qrels, args.qrels)
    if args.max_queries:
        queries = dict(list(queries.items())[: args.max_queries])
        qrels = {q: qrels[q] for q in queries}
    out: dict = {"dataset": args.dataset.name, "split": args.split, "queries": len(queries),
                 "latency_queries": args.latency_queries or len(queries),
                 "corpus_docs": report.documents, "chunks": report.chunks, "methods": {}}

    tuned_info = None
    memo = None
    if args.tune_split:
        idx = geunkeo.open_index(index_dir, settings)
        memo = MemoQueryEmbedder(idx.embedder)
        memo.enabled = True
        idx.embedder = memo
        tq, tqrels = load_beir_queries(args.dataset, args.tune_split)
        doc_of_t = lambda cid: idx.store.get(cid).doc_id  # noqa: E731
        best, _ = tune_fusion(idx, tq, tqrels, doc_of=doc_of_t, dataset=args.dataset.name, split=args.tune_split)
        tuned_info = best
        print(f"tuned fusion on {args.tune_split}: {best}", file=sys.stderr)
    t = time.perf_counter()
    idx = geunkeo.open_index(index_dir, settings)
    out["index_load_ms"] = round((time.perf_counter() - t) * 1000, 1)
    memo = memo or MemoQueryEmbedder(idx.embedder)
    memo.enabled = False  # timed passes embed every query afresh
    idx.embedder = memo
    doc_of = lambda cid: idx.store.get(cid).doc_id  # noqa: E731
    idx.search("warm up 워밍업", k=5)  # Kiwi + embedder load, excluded from latency

    def record(name, runs, lat, nonembed=None, extra=None):
        m = evaluate_run(qrels, runs)
        m["latency_ms_p50"] = round(statistics.median(lat), 2)
        m["latency_ms_p95"] = round(pct(lat, 95), 2)
        if nonembed is not None:
            m["nonembed_ms_p50"] = round(statistics.median(nonembed), 2)
            m["nonembed_ms_p95"] = round(pct(nonembed, 95), 2)
        if extra:
            m.update(extra)
        if styles:
            m["styles"] = per_style(qrels, runs, styles)
        out["methods"][name] = m
        print(f"{name:16s} " + " ".join(f"{k}={v}" for k, v in m.items()), file=sys.stderr)

    for name, mode, stages in (("bm25", "bm25", False), ("dense", "dense", False), ("hybrid", "hybrid", False),
                               ("full", "hybrid", True)):
        if name in methods:
            runs, lat, ne = run_geunkeo(idx, queries, doc_of, mode, stages, args.latency_queries)
            record(name, runs, lat, ne)
    if "hybrid" in methods and args.tune_split == args.split:
        memo.enabled = True
        runs, chosen = cross_fit_hybrid(idx, queries, qrels, doc_of)
        m = evaluate_run(qrels, runs)
        m["folds"] = chosen
        out["methods"]["hybrid-crossfit"] = m
        print(f"hybrid-crossfit  {m}", file=sys.stderr)

    chunks = idx.store.chunks()
    if "bm25-whitespace" in methods:
        runs, lat = run_bm25s_baseline(chunks, queries, doc_of, lambda s: s.lower().split())
        record("bm25-whitespace", runs, lat)
    if "rank_bm25" in methods:
        from geunkeo.text.analyzer import get_analyzer

        runs, lat = run_rank_bm25(chunks, idx.store._terms, queries, doc_of, get_analyzer())
        record("rank_bm25", runs, lat)
        if "bm25" in out["methods"]:
            speedup = statistics.median(lat) / out["methods"]["bm25"]["latency_ms_p50"]
            out["bm25_speedup_vs_rank_bm25"] = round(speedup, 1)

    if styles and {"hybrid", "full"} <= out["methods"].keys():
        print("style: hybrid R@1/R@5 -> full R@1/R@5", file=sys.stderr)
        for style, h in out["methods"]["hybrid"]["styles"].items():
            f = out["methods"]["full"]["styles"][style]
            print(f"  {style:12s} n={h['n']:3d}  {h['recall@1']:.3f}/{h['recall@5']:.3f} -> "
                  f"{f['recall@1']:.3f}/{f['recall@5']:.3f}", file=sys.stderr)
    out["fusion"] = {"configured": settings.retrieve.fusion, "dense_weight": settings.retrieve.dense_weight,
                     "tuned": idx.manifest.tuned_fusion, "tuned_this_run": tuned_info}
    out["indexing"] = {"seconds": round(build_s, 1), "embedded_now": report.embed_cache_misses,
                       "from_cache": report.embed_cache_hits, "timings_s": report.timings}
    print(json.dumps(out, ensure_ascii=False, indent=1))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(out, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
