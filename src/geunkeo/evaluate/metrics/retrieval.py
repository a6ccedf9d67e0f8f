"""Retrieval metrics (recall@k, MRR@10, nDCG@10, MAP) computed by ranx, not by hand."""

from __future__ import annotations

import warnings

from geunkeo.evaluate.base import MetricResult

METHOD = "ranx"


def _names(ks) -> list[str]:
    return [f"recall@{k}" for k in ks] + ["mrr@10", "ndcg@10", "map"]


def retrieval_metrics(qrels: dict[str, dict[str, int]], run: dict[str, dict[str, float]],
                      ks=(1, 5, 10)) -> dict[str, MetricResult]:
    """Mean recall@k, MRR@10, nDCG@10 and MAP over the queries of `qrels` (ranx; queries missing from `run`
    count as zero). Not computable when `qrels` has no relevant document."""
    names = _names(ks)
    qrels = {q: {d: int(r) for d, r in docs.items() if int(r) > 0} for q, docs in qrels.items()}
    qrels = {q: docs for q, docs in qrels.items() if docs}
    if not qrels:
        return {n: MetricResult.not_computable(n, METHOD, "no query has a relevant document (empty qrels)")
                for n in names}
    from ranx import Qrels, Run, evaluate

    # ranx needs every qrels query in the run; a query that retrieved nothing gets an unmatched placeholder.
    full_run = {q: (dict(run.get(q) or {}) or {"__nothing_retrieved__": 0.0}) for q in qrels}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba's uint64→int64 cast notice
        scores = evaluate(Qrels(qrels), Run(full_run), names, make_comparable=True)
    n_q = len(qrels)
    return {
        n: MetricResult(name=n, value=round(float(scores[n]), 6), method=METHOD,
                        details={"queries": n_q, "relevance": "qrels > 0"})
        for n in names
    }


def case_retrieval(expected_chunk_ids: list[str], expected_doc_ids: list[str], hits, ks=(1, 5, 10),
                   case_id: str = "q") -> dict[str, MetricResult]:
    """Retrieval metrics of one case: by chunk ids when given, else by document ids (best chunk per doc)."""
    if expected_chunk_ids:
        level, qrels = "chunk", {case_id: dict.fromkeys(expected_chunk_ids, 1)}
        run = {case_id: {h.chunk_id: float(h.score) for h in hits}}
    elif expected_doc_ids:
        level, qrels = "document", {case_id: dict.fromkeys(expected_doc_ids, 1)}
        best: dict[str, float] = {}
        for h in hits:
            best.setdefault(h.chunk.doc_id, float(h.score))  # hits arrive best first
        run = {case_id: best}
    else:
        return {n: MetricResult.not_computable(n, METHOD, "the case lists no expected chunk or document ids")
                for n in _names(ks)}
    # ranx ranks by score; keep the retriever's order even when scores tie.
    n = len(run[case_id])
    run = {case_id: {d: float(n - i) for i, d in enumerate(run[case_id])}}
    out = retrieval_metrics(qrels, run, ks)
    for r in out.values():
        if r.computable:
            r.details.update(level=level, retrieved=n)
    return out
