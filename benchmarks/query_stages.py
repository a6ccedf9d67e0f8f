"""Query-understanding benchmark: what each QueryPipeline stage adds, split by query style, and what it costs.

    python benchmarks/query_stages.py [--datasets sample,autorag-ko] [--json OUT] [--skip-retrieval]
    python benchmarks/query_stages.py --render OUT      # markdown tables of a saved run

1. styles: formality accuracy and colloquial-rewrite match on the labelled test set (tests/query/data, the set
   the dictionary was developed against) and on a held-out set written afterwards (benchmarks/data, never tuned on).
2. overhead: QueryPipeline.plan wall and CPU time per query (p50/p95, per stage), Kiwi warm, each query once.
3. ablation: retrieval R@1 / R@5 / MRR@10 per query style with the stages off, each stage alone, all on, and
   all on minus each one, and all on with other colloquial dense weights — on the sample gold set (chunk-level qrels, `style` field) and on autorag-ko dev
   (original questions, style "formal", plus the project-written colloquial rewrites in
   benchmarks/data/autorag_ko_dev_colloquial.jsonl, document-level qrels). Query embeddings are memoised across
   configurations (the same text always embeds the same), so retrieval latency is not reported here; see
   benchmarks/retrieval.py for end-to-end latency.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

import geunkeo
from geunkeo.config import Settings
from geunkeo.index.base import ScoredId
from geunkeo.query.morphs import analyzer_terms, tokens
from geunkeo.query.pipeline import TOGGLES, QueryPipeline
from geunkeo.retrieve.tuning import load_beir_queries, to_doc_scores

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
SHARED = ROOT.parent / "shared" / "datasets"
METRICS = ["recall@1", "recall@5", "mrr@10"]
SHORT = {"colloquial": "coll", "morph_expansion": "morph", "synonyms": "syn", "formality_weights": "weights",
         "vocabulary": "vocab", "glossary": "gloss"}


def configs() -> dict[str, dict[str, bool]]:
    """off, each stage alone, all on, all on minus each stage."""
    off = dict.fromkeys(TOGGLES, False)
    out = {"off": off}
    for t in TOGGLES:
        out[f"+{SHORT[t]}"] = {**off, t: True}
    out["full"] = dict.fromkeys(TOGGLES, True)
    for t in TOGGLES:
        out[f"full-{SHORT[t]}"] = {**dict.fromkeys(TOGGLES, True), t: False}
    return out


def pct(values: list[float], q: float) -> float:
    return round(float(np.percentile(values, q)), 3) if values else float("nan")


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


# -- 1. styles ---------------------------------------------------------------------------------------------
def style_accuracy(pipe: QueryPipeline, rows: list[dict]) -> dict:
    det, tr = pipe.detector, pipe.transformer
    by_style: dict[str, Counter] = defaultdict(Counter)
    misses = []
    for r in rows:
        label = det.detect(r["text"]).label
        c = by_style[r["style"]]
        c["n"] += 1
        c["formality_ok"] += label == r["style"]
        if r["style"] == "colloquial":
            res = tr.transform(r["text"])
            form_ok = res.transformed == r["formal"]
            intent_ok = set(r["contexts"]) <= set(res.contexts)
            c["form_ok"] += form_ok
            c["intent_ok"] += intent_ok
            if not (form_ok and intent_ok):
                misses.append({"text": r["text"], "expected": r["formal"], "got": res.transformed})
        elif r["style"] in ("formal", "english"):
            c["unchanged"] += tr.transform(r["text"]).transformed == r["text"]
    n = sum(c["n"] for c in by_style.values())
    coll = by_style["colloquial"]
    formal_like = [by_style[s] for s in ("formal", "english")]
    return {
        "queries": n,
        "per_style": {s: dict(c) for s, c in by_style.items()},
        "formality_accuracy": round(sum(c["formality_ok"] for c in by_style.values()) / n, 4),
        "colloquial_form_match": round(coll["form_ok"] / coll["n"], 4) if coll["n"] else None,
        "colloquial_intent_match": round(coll["intent_ok"] / coll["n"], 4) if coll["n"] else None,
        "formal_english_unchanged": f"{sum(c['unchanged'] for c in formal_like)}/{sum(c['n'] for c in formal_like)}",
        "misses": misses,
    }


# -- 2. overhead -------------------------------------------------------------------------------------------
def overhead(pipe: QueryPipeline, texts: list[str]) -> dict:
    tokens.cache_clear()  # the module-level Kiwi/term caches would otherwise hold these texts already
    analyzer_terms.cache_clear()
    wall, cpu, stages = [], [], defaultdict(list)
    for t in dict.fromkeys(texts):  # each distinct query once: nothing is served from the stage caches
        w0, c0 = time.perf_counter(), time.process_time()
        plan = pipe.plan(t)
        wall.append((time.perf_counter() - w0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        for s in plan.trace.stages:
            stages[s.name].append(s.ms)
    return {"queries": len(wall), "mean_chars": round(statistics.mean(len(t) for t in dict.fromkeys(texts)), 1),
            "wall_ms": {"p50": pct(wall, 50), "p95": pct(wall, 95)},
            "cpu_ms": {"p50": pct(cpu, 50), "p95": pct(cpu, 95)},
            "stages_ms": {k: {"p50": pct(v, 50), "p95": pct(v, 95)} for k, v in stages.items()}}


# -- 3. ablation -------------------------------------------------------------------------------------------
def memoise_query_embeddings(idx) -> None:
    """The ablation embeds the same texts under many configurations; embed each text once."""
    emb = idx.embedder
    orig = emb.embed_queries
    memo: dict[str, np.ndarray] = {}

    def embed_queries(texts):
        missing = [t for t in dict.fromkeys(texts) if t not in memo]
        if missing:
            for t, v in zip(missing, orig(missing), strict=True):
                memo[t] = v
        return np.stack([memo[t] for t in texts])

    emb.embed_queries = embed_queries


def evaluate(qrels, runs) -> dict[str, float]:
    from ranx import Qrels, Run
    from ranx import evaluate as rx_evaluate

    qrels = {q: r for q, r in qrels.items() if q in runs}
    runs = {q: (r if r else {"__none__": 0.0}) for q, r in runs.items()}
    res = rx_evaluate(Qrels(qrels), Run(runs), METRICS, make_comparable=True)
    return {k: round(float(v), 4) for k, v in res.items()}


def ablation(idx, items: list[dict], qrels: dict, doc_of, extra_cdw: list[float],
             only: list[str] | None = None) -> dict:
    """items: {qid, text, style, qrel_id}. Returns {config: {style: metrics}, …} and stage latency.
    `extra_cdw`: colloquial dense weights to try with all stages on, besides the configured one.
    `full[langs]`: all on, with the pipeline told the index's languages (manifest.langs), which the search path
    does not do yet, so the glossary adds the other language's terms only when the index has that language."""
    out: dict = {}
    plans = [(name, toggles, None) for name, toggles in configs().items()]
    plans += [(f"full[cdw={w}]", dict.fromkeys(TOGGLES, True), w) for w in extra_cdw]
    plans += [("full[langs]", dict.fromkeys(TOGGLES, True), "langs")]
    if only:
        plans = [p for p in plans if p[0] in only]
    base_pipeline = idx.pipeline
    for name, toggles, cdw in plans:
        if cdw == "langs":
            idx.pipeline = QueryPipeline(idx.settings, tuned=idx.manifest.tuned_fusion, index_langs=idx.manifest.langs)
        elif cdw is not None:
            s = idx.settings.model_copy(deep=True)
            s.retrieve = s.retrieve.model_copy(update={"colloquial_dense_weight": cdw})
            idx.pipeline = QueryPipeline(s, tuned=idx.manifest.tuned_fusion)
        else:
            idx.pipeline = base_pipeline
        runs: dict[str, dict[str, dict[str, float]]] = defaultdict(dict)
        qms = []
        for it in items:
            res = idx.search(it["text"], k=100, reranker="none", **toggles)
            qms.append(sum(s.ms for s in res.trace.stages if s.name.startswith("query.")))
            runs[it["style"]][it["qid"]] = to_doc_scores([ScoredId(h.chunk_id, h.score) for h in res.hits], doc_of)
        per_style = {}
        for style, r in sorted(runs.items()):
            sq = {it["qid"]: qrels[it["qrel_id"]] for it in items if it["style"] == style}
            per_style[style] = {**evaluate(sq, r), "n": len(r)}
        out[name] = {"styles": per_style, "query_ms": {"p50": pct(qms, 50), "p95": pct(qms, 95)}}
        idx.pipeline = base_pipeline
        print(f"  {name:15s} " + "  ".join(f"{s}: R@1 {m['recall@1']:.3f} MRR {m['mrr@10']:.3f}"
                                           for s, m in per_style.items()), file=sys.stderr)
    return out


def sample_items(settings: Settings, cache: Path):
    gold = ROOT / "sample" / "gold"
    index_dir = cache / "sample" / "index"
    geunkeo.build_index([ROOT / "sample" / "corpus"], index_dir, settings)
    queries, qrels = load_beir_queries(gold, "test")
    styles = {r["_id"]: r.get("style", "unknown") for r in read_jsonl(gold / "queries.jsonl")}
    items = [{"qid": q, "text": t, "style": styles[q], "qrel_id": q} for q, t in queries.items()]
    return index_dir, items, qrels, None  # qrels name chunks: no document mapping


def autorag_items(settings: Settings, cache: Path, casual: tuple[Path, ...] = ()):
    ds = SHARED / "autorag-ko"
    index_dir = cache / "autorag-ko" / "all" / "index"  # the same index benchmarks/retrieval.py builds
    geunkeo.build_index([ds / "corpus.jsonl"], index_dir, settings)
    queries, qrels = load_beir_queries(ds, "dev")
    items = [{"qid": q, "text": t, "style": "formal", "qrel_id": q} for q, t in queries.items()]
    for r in read_jsonl(DATA / "autorag_ko_dev_colloquial.jsonl"):
        if r["_id"] in qrels:
            items.append({"qid": f"{r['_id']}#coll", "text": r["text"], "style": "colloquial", "qrel_id": r["_id"]})
    for path in casual:  # other casual rewrites (rows with qrel_id), e.g. a fresh draw nobody tuned to
        for r in read_jsonl(path):
            if r.get("qrel_id") in qrels:
                items.append({"qid": r["_id"], "text": r["text"], "style": f"casual:{path.parent.name}",
                              "qrel_id": r["qrel_id"]})
    return index_dir, items, qrels, "doc"


def markdown(out: dict) -> str:
    """The tables docs/benchmarks/retrieval.md shows, from a result JSON."""
    lines = ["| set | queries | formality accuracy | colloquial exact form | colloquial intent | formal/English unchanged |",
             "|---|---|---|---|---|---|"]
    for name, v in out["styles"].items():
        lines.append(f"| {name} | {v['queries']} | {v['formality_accuracy']:.3f} | {v['colloquial_form_match']:.3f} | "
                     f"{v['colloquial_intent_match']:.3f} | {v['formal_english_unchanged']} |")
    lines += ["", "| queries | n | mean chars | wall p50 / p95 ms | CPU p50 / p95 ms |", "|---|---|---|---|---|"]
    for name, v in out["overhead"].items():
        lines.append(f"| {name} | {v['queries']} | {v['mean_chars']} | {v['wall_ms']['p50']:.2f} / "
                     f"{v['wall_ms']['p95']:.2f} | {v['cpu_ms']['p50']:.2f} / {v['cpu_ms']['p95']:.2f} |")
    for ds, block in out.get("ablation", {}).items():
        styles = list(next(iter(block["configs"].values()))["styles"])
        counts = ", ".join(f"{s} {n}" for s, n in block["queries"].items())
        lines += ["", f"**{ds}** ({counts}); cells are R@1 / R@5 / MRR@10", "",
                  "| config | " + " | ".join(styles) + " |",
                  "|---|" + "---|" * len(styles)]
        for cfg, v in block["configs"].items():
            cells = [f"{m['recall@1']:.3f} / {m['recall@5']:.3f} / {m['mrr@10']:.3f}" for m in v["styles"].values()]
            lines.append(f"| {cfg} | " + " | ".join(cells) + " |")  # stage time here is cache-warm: see overhead
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--datasets", default="sample,autorag-ko")
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--cache", type=Path, default=ROOT / ".bench-cache")
    ap.add_argument("--skip-retrieval", action="store_true", help="only the style and overhead parts")
    ap.add_argument("--colloquial-dense-weights", default="0.4",
                    help="extra retrieve.colloquial_dense_weight values to run with every stage on")
    ap.add_argument("--configs", default="", help="comma-separated ablation configs to run (default: all)")
    ap.add_argument("--casual", default="", help="comma-separated jsonl files of casual rewrites of autorag-ko dev "
                    "questions (rows with qrel_id), reported as their own style")
    ap.add_argument("--render", type=Path, default=None, help="print the markdown tables of a saved result JSON")
    args = ap.parse_args(argv)
    if args.render:
        print(markdown(json.loads(args.render.read_text(encoding="utf-8"))))
        return 0
    settings = Settings()
    # unrecognised colloquial queries would otherwise land in the user's pending queue
    settings.query.pending_queue = str(args.cache / "query_stages_pending.jsonl")
    pipe = QueryPipeline(settings)
    pipe.plan("워밍업 질문 어떻게 해?")  # Kiwi load and first-use caches, excluded from the figures
    out: dict = {"load_avg_at_start": [round(x, 2) for x in __import__("os").getloadavg()]}

    styled = read_jsonl(ROOT / "tests" / "query" / "data" / "query_styles.jsonl")
    holdout = read_jsonl(DATA / "query_styles_holdout.jsonl")
    out["styles"] = {"test_set": style_accuracy(pipe, styled), "holdout": style_accuracy(pipe, holdout)}
    for k, v in out["styles"].items():
        print(f"{k}: formality {v['formality_accuracy']}, form {v['colloquial_form_match']}, intent "
              f"{v['colloquial_intent_match']}, unchanged {v['formal_english_unchanged']}", file=sys.stderr)

    autorag_q = [r["text"] for r in read_jsonl(SHARED / "autorag-ko" / "queries.jsonl")]
    autorag_c = [r["text"] for r in read_jsonl(DATA / "autorag_ko_dev_colloquial.jsonl")]
    fresh = QueryPipeline(settings)  # new stage caches: the test-set pass above must not warm them
    fresh.plan("워밍업 질문 어떻게 해?")
    out["overhead"] = {"style_sets": overhead(fresh, [r["text"] for r in styled + holdout]),
                       "autorag_dev": overhead(fresh, autorag_q + autorag_c)}
    for k, v in out["overhead"].items():
        print(f"overhead {k}: wall p50 {v['wall_ms']['p50']} p95 {v['wall_ms']['p95']} ms, cpu p50 "
              f"{v['cpu_ms']['p50']} p95 {v['cpu_ms']['p95']} ms", file=sys.stderr)

    if not args.skip_retrieval:
        out["ablation"] = {}
        casual = tuple(Path(p) for p in args.casual.split(",") if p)
        loaders = {"sample": sample_items, "autorag-ko": lambda st, c: autorag_items(st, c, casual)}
        extra = [float(w) for w in args.colloquial_dense_weights.split(",") if w.strip()]
        for name in args.datasets.split(","):
            index_dir, items, qrels, doc_mode = loaders[name](settings, args.cache)
            idx = geunkeo.open_index(index_dir, settings)
            memoise_query_embeddings(idx)
            doc_of = (lambda cid, idx=idx: idx.store.get(cid).doc_id) if doc_mode == "doc" else None
            idx.search("워밍업", k=5)
            print(f"{name}: {len(items)} queries; tuned fusion in manifest: {idx.manifest.tuned_fusion}",
                  file=sys.stderr)
            out["ablation"][name] = {"queries": dict(Counter(it["style"] for it in items)),
                                     "tuned_fusion": idx.manifest.tuned_fusion,
                                     "colloquial_dense_weight": settings.retrieve.colloquial_dense_weight,
                                     "configs": ablation(idx, items, qrels, doc_of, extra,
                                                         [c for c in args.configs.split(",") if c])}
    text = json.dumps(out, ensure_ascii=False, indent=1)
    print(text)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
