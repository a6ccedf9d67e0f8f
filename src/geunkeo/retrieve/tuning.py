"""Tune fusion (method × dense weight) on a dev split, ranx-scored, and store the winner in the manifest.

Each query's BM25 and dense runs are computed once; only the cheap fusion step is repeated per grid point.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any, TypedDict

from geunkeo.errors import GeunkeoError
from geunkeo.index.base import ScoredId
from geunkeo.retrieve.fusion import FUSION_METHODS, fuse
from geunkeo.trace import Trace

DENSE_WEIGHTS = tuple(round(0.1 * i, 1) for i in range(11))


class FusionRow(TypedDict):
    """One cell of the fusion grid `tune_fusion` searches: a method, a dense weight and the metric's score."""

    fusion: str
    dense_weight: float
    score: float


def read_qrels(path: str | Path) -> dict[str, dict[str, int]]:
    """{query id: {corpus id: grade}} of the positive judgements in a BEIR qrels tsv."""
    qrels: dict[str, dict[str, int]] = {}
    with open(path, encoding="utf-8") as f:
        for row in csv.reader(f, delimiter="\t"):
            if not row or row[0] == "query-id" or len(row) < 3:
                continue
            if int(float(row[2])) > 0:
                qrels.setdefault(row[0], {})[row[1]] = int(float(row[2]))
    return qrels


def load_beir_queries(dataset: str | Path, split: str) -> tuple[dict[str, str], dict[str, dict[str, int]]]:
    """(queries restricted to those judged in the split, qrels) from a BEIR-layout folder."""
    dataset = Path(dataset)
    qrels_path = dataset / "qrels" / f"{split}.tsv"
    if not qrels_path.is_file():
        raise GeunkeoError(f"{qrels_path} not found; a BEIR folder needs qrels/<split>.tsv")
    qrels = read_qrels(qrels_path)
    queries: dict[str, str] = {}
    with open(dataset / "queries.jsonl", encoding="utf-8") as f:
        for line in f:
            if line.strip():
                q = json.loads(line)
                if q["_id"] in qrels:
                    queries[q["_id"]] = q["text"]
    return queries, {q: r for q, r in qrels.items() if q in queries}


def collect_runs(idx, queries: dict[str, str], **pipeline_overrides: Any) -> dict[str, dict[str, list[ScoredId]]]:
    """Per query, the BM25 and dense candidate runs as the live pipeline would produce them."""
    retriever = idx.retriever("none")
    out: dict[str, dict[str, list[ScoredId]]] = {}
    for qid, text in queries.items():
        trace = Trace()
        plan = idx.pipeline.plan(text, trace=trace, **pipeline_overrides)
        plan.mode = "hybrid"
        out[qid] = retriever.runs(plan, trace, plan.bm25_terms, plan.dense_texts or [plan.text])
    return out


def score_runs(runs: dict[str, dict[str, list[ScoredId]]], qrels: dict[str, dict[str, int]], method: str,
               dense_weight: float, metrics: list[str], rrf_k: int = 60, doc_of=None) -> dict[str, float]:
    """ranx metrics of one fusion setting over precomputed runs. `doc_of` maps chunk ids to qrels ids."""
    weights = {"bm25": 1 - dense_weight, "dense": dense_weight}
    run_dict: dict[str, dict[str, float]] = {}
    for qid, r in runs.items():
        fused = fuse(r, method, weights, rrf_k)
        run_dict[qid] = to_doc_scores(fused, doc_of)
    return ranx_scores(qrels, run_dict, metrics)


def to_doc_scores(fused: list[ScoredId], doc_of=None, depth: int = 100) -> dict[str, float]:
    """Ranked ids → {id: score}; with `doc_of`, chunk ids collapse to their document (best chunk wins)."""
    out: dict[str, float] = {}
    n = len(fused[:depth])
    for rank, item in enumerate(fused[:depth]):
        key = doc_of(item.chunk_id) if doc_of else item.chunk_id
        if key not in out:
            out[key] = float(n - rank)  # rank-based score: ranx sorts by score; ties impossible
    return out


def ranx_scores(qrels: dict[str, dict[str, int]], run_dict: dict[str, dict[str, float]],
                metrics: list[str]) -> dict[str, float]:
    """ranx metrics over the queries present in `run_dict`; a query with no hits scores 0, not an error."""
    from ranx import Qrels, Run, evaluate

    qrels = {q: r for q, r in qrels.items() if q in run_dict}
    run_dict = {q: (r if r else {"__none__": 0.0}) for q, r in run_dict.items()}
    res = evaluate(Qrels(qrels), Run(run_dict), metrics, make_comparable=True)
    if isinstance(res, float):
        res = {metrics[0]: res}
    return {k: float(v) for k, v in res.items()}


def tune_fusion(idx, queries: dict[str, str], qrels: dict[str, dict[str, int]], metric: str = "ndcg@10",
                dataset: str = "", split: str = "dev", doc_of=None, store: bool = True
                ) -> tuple[dict[str, Any], list[FusionRow]]:
    """Grid-search fusion method × dense weight; store the best in the index manifest (formal-query weights)."""
    runs = collect_runs(idx, queries, formality_weights=False)
    rows: list[FusionRow] = []
    for method in FUSION_METHODS:
        for w in DENSE_WEIGHTS:
            if method == "rrf" and w in (0.0, 1.0):
                continue  # a single-run RRF is just that run; covered by minmax 0.0 / 1.0
            s = score_runs(runs, qrels, method, w, [metric], idx.settings.retrieve.rrf_k, doc_of)[metric]
            rows.append({"fusion": method, "dense_weight": w, "score": s})
    rows.sort(key=lambda r: (-r["score"], abs(r["dense_weight"] - 0.3), r["fusion"]))
    best = {"fusion": rows[0]["fusion"], "dense_weight": rows[0]["dense_weight"], "metric": metric,
            "score": round(rows[0]["score"], 4), "dataset": dataset, "split": split, "queries": len(runs)}
    if store:
        from geunkeo.index.manifest import update_manifest

        update_manifest(idx.path, tuned_fusion=best)
        idx.manifest.tuned_fusion = best
    return best, rows
