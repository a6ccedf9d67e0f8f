"""Retrieval metrics (recall@k, MRR@10, nDCG@10, MAP) computed by ranx, not by hand."""

from __future__ import annotations

import warnings

from geunkeo.evaluate.base import MetricResult

METHOD = "ranx"


def fixed_width_ids(qrels: dict[str, dict[str, int]], run: dict[str, dict[str, float]]
                    ) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, float]]]:
    """The same qrels and run with every query and document id replaced by a label of one fixed width.

    ranx compiles its id-array helpers with numba once per longest-id length it meets, ~2 s each on 2 cores and
    dozens of lengths in a run; with one width they compile once (and `make install` caches that compile, see
    scripts/warm_caches.py). Ids are opaque to the metrics, so the scores are the same."""
    labels: dict[str, str] = {}

    def label(x: str, prefix: str) -> str:
        return labels.setdefault(prefix + x, f"{prefix}{len(labels):07d}")

    return ({label(q, "q"): {label(d, "d"): r for d, r in docs.items()} for q, docs in qrels.items()},
            {label(q, "q"): {label(d, "d"): s for d, s in docs.items()} for q, docs in run.items()})


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
    qrels, full_run = fixed_width_ids(qrels, full_run)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba's uint64→int64 cast notice
        scores = evaluate(Qrels(qrels), Run(full_run), names, make_comparable=True)
    n_q = len(qrels)
    return {
        n: MetricResult(name=n, value=round(float(scores[n]), 6), method=METHOD,
                        details={"queries": n_q, "relevance": "qrels > 0"})
        for n in names
    }


def _case_qrels_run(expected_chunk_ids: list[str], expected_doc_ids: list[str], hits
                    ) -> tuple[str, dict[str, int], dict[str, float]] | None:
    """(level, qrels, run) of one case: by chunk ids when given, else by document ids (best chunk per doc).
    Scores are replaced by the retriever's order so ranx keeps it even when scores tie."""
    if expected_chunk_ids:
        level, qrels = "chunk", dict.fromkeys(expected_chunk_ids, 1)
        ranked = list(dict.fromkeys(h.chunk_id for h in hits))
    elif expected_doc_ids:
        level, qrels = "document", dict.fromkeys(expected_doc_ids, 1)
        ranked = list(dict.fromkeys(h.chunk.doc_id for h in hits))  # hits arrive best first
    else:
        return None
    n = len(ranked)
    return level, qrels, {d: float(n - i) for i, d in enumerate(ranked)}


def case_retrieval(expected_chunk_ids: list[str], expected_doc_ids: list[str], hits, ks=(1, 5, 10),
                   case_id: str = "q") -> dict[str, MetricResult]:
    """Retrieval metrics of one case: by chunk ids when given, else by document ids (best chunk per doc)."""
    return cases_retrieval([(case_id, expected_chunk_ids, expected_doc_ids, hits)], ks)[case_id]


def cases_retrieval(items, ks=(1, 5, 10)) -> dict[str, dict[str, MetricResult]]:
    """Per-case retrieval metrics of many cases, items = (case_id, expected chunk ids, expected doc ids, hits),
    with one ranx call per relevance level instead of one per case (each ranx call costs milliseconds, and a
    numba type signature met for the first time costs seconds)."""
    names = _names(ks)
    out: dict[str, dict[str, MetricResult]] = {}
    # level -> (qrels by case, run by case, number retrieved by case)
    groups: dict[str, tuple[dict[str, dict[str, int]], dict[str, dict[str, float]], dict[str, int]]] = {}
    for case_id, chunk_ids, doc_ids, hits in items:
        made = _case_qrels_run(chunk_ids, doc_ids, hits)
        if made is None:
            out[case_id] = {n: MetricResult.not_computable(n, METHOD, "the case lists no expected chunk or document ids")
                            for n in names}
            continue
        level, case_qrels, case_run = made
        g = groups.setdefault(level, ({}, {}, {}))
        g[0][case_id], g[1][case_id], g[2][case_id] = case_qrels, case_run, len(case_run)
    if not groups:
        return out
    from ranx import Qrels, Run, evaluate

    for level, (qrels, run, n_ret) in groups.items():
        full_run = {q: (run[q] or {"__nothing_retrieved__": 0.0}) for q in qrels}
        labelled_qrels, labelled_run = fixed_width_ids(qrels, full_run)
        label_of = dict(zip(qrels, labelled_qrels, strict=True))
        ranx_run = Run(labelled_run)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # numba's uint64→int64 cast notice
            evaluate(Qrels(labelled_qrels), ranx_run, names, make_comparable=True)
        for q in qrels:
            out[q] = {n: MetricResult(name=n, value=round(float(ranx_run.scores[n][label_of[q]]), 6), method=METHOD,
                                      details={"queries": 1, "relevance": "qrels > 0", "level": level,
                                               "retrieved": n_ret[q]})
                      for n in names}
    return out
