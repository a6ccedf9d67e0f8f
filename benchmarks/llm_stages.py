"""LLM stages end to end: retrieval with and without multi-query, HyDE (content / title / combined) and LLM
reranking, and latency cold (LLM called) vs cached (answer from the response cache), with whatever LLM is
configured. Every figure names the model that produced it.

    python benchmarks/llm_stages.py --dataset ../shared/datasets/tydiqa-ko --split dev --max-queries 40 \
        --provider llamacpp --gguf ~/.geunkeo/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf
    python benchmarks/llm_stages.py --dataset sample/gold --split test --corpus sample/corpus --provider ollama \
        --model qwen2.5:3b

Runs go through the public API, `geunkeo.open_index(DIR).search(q, k=10, multi_query=…, hyde=…)`. Order:
plain hybrid; multi-query (cold); HyDE content (cold: this generates the one answer+title used by every HyDE
mode); then every configuration again with the cache warm. `--fresh-cache` empties this benchmark's own LLM
cache first, so "cold" really calls the model. Metrics by ranx at chunk level when the qrels name chunks
(`doc#anchor`, as in sample/gold), else at document level (a document's best chunk).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import geunkeo
from geunkeo.config import Settings
from geunkeo.index.base import ScoredId
from geunkeo.llm.cache import LLMCache
from geunkeo.retrieve.tuning import load_beir_queries, to_doc_scores

ROOT = Path(__file__).resolve().parent.parent
METRICS = ["recall@1", "recall@5", "recall@10", "mrr@10"]
# (name, multi_query, hyde, reranker, phase): "cold" runs come first and fill the cache.
CONFIGS = [
    ("plain", False, "off", "none", "-"),
    ("multi_query", True, "off", "none", "cold"),
    ("hyde_content", False, "content", "none", "cold"),
    ("multi_query", True, "off", "none", "cached"),
    ("hyde_content", False, "content", "none", "cached"),
    ("hyde_title", False, "title", "none", "cached"),
    ("hyde_combined", False, "combined", "none", "cached"),
    ("mq+hyde_combined", True, "combined", "none", "cached"),
]
RERANK_CONFIGS = [
    ("rerank_dense", False, "off", "dense", "-"),
    ("rerank_llm", False, "off", "llm", "cold"),
    ("rerank_llm", False, "off", "llm", "cached"),
]


def evaluate(qrels, runs) -> dict[str, float]:
    from ranx import Qrels, Run
    from ranx import evaluate as rx

    runs = {q: (r if r else {"__none__": 0.0}) for q, r in runs.items()}
    qrels = {q: r for q, r in qrels.items() if q in runs}
    return {k: round(float(v), 4) for k, v in rx(Qrels(qrels), Run(runs), METRICS, make_comparable=True).items()}


def _p95(xs: list[float]) -> float:
    return sorted(xs)[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]


def run_config(idx, queries, qrels, multi_query: bool, hyde: str, reranker: str, chunk_level: bool) -> dict:
    runs, lat, llm_ms, calls, hits, warnings = {}, [], [], 0, 0, 0
    doc_of = (lambda cid: cid) if chunk_level else (lambda cid: idx.store.get(cid).doc_id)
    tokens, cpu, stage_ms, vec_hits, vec_misses = 0, [], {}, 0, 0
    for qid, text in queries.items():
        t, c = time.perf_counter(), time.process_time()
        res = idx.search(text, k=10, multi_query=multi_query, hyde=hyde, reranker=reranker)
        lat.append((time.perf_counter() - t) * 1000)
        # CPU time of this process (all threads): far less sensitive than wall time to other jobs on the machine
        cpu.append((time.process_time() - c) * 1000)
        for st in res.trace.stages:
            stage_ms[st.name] = stage_ms.get(st.name, 0.0) + st.ms / len(queries)
            if st.name == "retrieve.embed_llm_texts":  # vectors of LLM-written texts: from the vector cache?
                vec_hits += st.info.get("vector_cache_hits", 0)
                vec_misses += st.info.get("vector_cache_misses", 0)
        runs[qid] = to_doc_scores([ScoredId(h.chunk_id, h.score) for h in res.hits], doc_of)
        llm_ms.append(res.trace.timing("query.llm_stages") + sum(
            c["ms"] for c in res.trace.llm_calls if c["feature"] == "rerank"))
        calls += len(res.trace.llm_calls)
        hits += sum(1 for c in res.trace.llm_calls if c.get("cached"))
        tokens += sum((c.get("prompt_tokens") or 0) + (c.get("completion_tokens") or 0)
                      for c in res.trace.llm_calls if not c.get("cached"))
        warnings += len(res.trace.warnings)
    m = evaluate(qrels, runs)
    m.update(
        latency_ms_p50=round(statistics.median(lat), 1), latency_ms_mean=round(statistics.fmean(lat), 1),
        latency_ms_p95=round(_p95(lat), 1), cpu_ms_p50=round(statistics.median(cpu), 1),
        llm_text_vectors_cached=vec_hits, llm_text_vectors_embedded=vec_misses,
        llm_ms_mean=round(statistics.fmean(llm_ms), 1), llm_calls=calls, cache_hits=hits,
        tokens_generated_or_read=tokens, warnings=warnings,
        stage_ms_mean={k: round(v, 1) for k, v in sorted(stage_ms.items(), key=lambda kv: -kv[1])[:6]},
    )
    return m


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dataset", type=Path, required=True, help="BEIR folder (queries.jsonl, qrels/<split>.tsv)")
    ap.add_argument("--split", default="dev")
    ap.add_argument("--corpus", type=Path, help="what to index (default: <dataset>/corpus.jsonl)")
    ap.add_argument("--max-queries", type=int, default=40, help="evenly spaced sample of the split (0 = all)")
    ap.add_argument("--index", type=Path, help="index directory to build/reuse (default under --cache)")
    ap.add_argument("--provider")
    ap.add_argument("--model")
    ap.add_argument("--base-url")
    ap.add_argument("--gguf", help="llamacpp: local .gguf path")
    ap.add_argument("--rerank", action="store_true", help="also measure dense and LLM reranking")
    ap.add_argument("--configs", help="comma-separated configuration names to run (default: all)")
    ap.add_argument("--cached-only", action="store_true", help="skip the cold runs (LLM answers already cached)")
    ap.add_argument("--fresh-cache", action="store_true", help="empty this benchmark's LLM cache first")
    ap.add_argument("--cache", type=Path, default=ROOT / ".bench-cache")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)

    llm_cache = args.cache / "llm_stages_llm_cache.sqlite"
    llm = {"cache_path": str(llm_cache), "timeout_s": 300.0, "max_retries": 1}
    for key, value in (("provider", args.provider), ("model", args.model), ("base_url", args.base_url),
                       ("gguf_path", args.gguf)):
        if value:
            llm[key] = value
    base = Settings()
    llm = {**base.llm.model_dump(), **llm}
    # A slow local model must not be cut off by the interactive deadline: the benchmark measures it.
    settings = Settings(llm=llm, query={**base.query.model_dump(), "llm_deadline_s": 600.0})
    if settings.llm.provider == "none":
        ap.error("configure an LLM: --provider (ollama, openai, openai-compatible, gemini, llamacpp) or GEUNKEO_LLM__*")
    if args.fresh_cache:
        LLMCache(llm_cache).clear()

    name = args.dataset.name
    corpus = args.corpus or args.dataset / "corpus.jsonl"
    queries, qrels = load_beir_queries(args.dataset, args.split)
    chunk_level = any("#" in cid for rel in qrels.values() for cid in rel)
    if args.max_queries and args.max_queries < len(queries):
        # evenly spaced, so a set ordered by style (formal, colloquial, fragment, English…) keeps its mix
        items = list(queries.items())
        step = len(items) / args.max_queries
        queries = dict(items[int(i * step)] for i in range(args.max_queries))
        qrels = {q: qrels[q] for q in queries}
    index_dir = args.index or args.cache / "llm_stages" / name / "index"
    report = geunkeo.build_index([str(corpus)], index_dir, settings)
    print(f"index {index_dir}: {report.documents} docs, {report.chunks} chunks", file=sys.stderr)
    idx = geunkeo.open_index(index_dir, settings)
    idx.search("warm up 워밍업", k=5)  # Kiwi + embedder load, excluded from latency
    model = f"{idx.llm().provider}:{idx.llm().model}"
    out = {"dataset": name, "split": args.split, "queries": len(queries), "level": "chunk" if chunk_level else "doc",
           "llm": model, "settings": {"temperature": settings.llm.temperature}, "configs": {}}
    print(f"{len(queries)} queries, LLM {model}", file=sys.stderr)

    wanted = set(args.configs.split(",")) if args.configs else None
    for cfg_name, mq, hyde, rr, phase in CONFIGS + (RERANK_CONFIGS if args.rerank else []):
        if (wanted and cfg_name not in wanted) or (args.cached_only and phase == "cold"):
            continue
        label = cfg_name if phase == "-" else f"{cfg_name}[{phase}]"
        t = time.perf_counter()
        m = run_config(idx, queries, qrels, mq, hyde, rr, chunk_level)
        m["wall_s"] = round(time.perf_counter() - t, 1)
        out["configs"][label] = m
        print(f"{label:26s} " + " ".join(f"{k}={v}" for k, v in m.items()), file=sys.stderr, flush=True)

    if "plain" in out["configs"]:
        plain = out["configs"]["plain"]["latency_ms_p50"]
        out["cached_latency_ratio_vs_plain"] = {
            k: round(v["latency_ms_p50"] / plain, 2) for k, v in out["configs"].items() if k.endswith("[cached]")
        }
    stats = LLMCache(llm_cache).stats()
    out["llm_cache"] = {"entries": stats.entries, "hits": stats.hits, "misses": stats.misses}
    text = json.dumps(out, ensure_ascii=False, indent=2)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
