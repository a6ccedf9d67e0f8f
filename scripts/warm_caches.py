"""Compile ranx's numba functions once, at install time (`make install` runs this).

ranx compiles its metric functions with numba on first use and caches the machine code beside its sources; in a
fresh virtualenv that first use costs ~35 s (2 cores), which `make demo` and the first `geunkeo eval` would
otherwise pay. The calls below go through geunkeo's own metric functions (evaluation and the demo's table) with
runs of every shape they meet: hits found, nothing relevant found, nothing retrieved, graded relevance. Those
functions hand ranx fixed-width ids (`fixed_width_ids`), so what is compiled here fits every dataset.
"""

from __future__ import annotations

import time
import warnings
from types import SimpleNamespace


def _hit(chunk_id: str) -> SimpleNamespace:
    return SimpleNamespace(chunk_id=chunk_id, chunk=SimpleNamespace(doc_id=chunk_id.split("#")[0]))


def main() -> None:
    t = time.perf_counter()
    from ranx import Qrels, Run, evaluate

    from geunkeo.evaluate.metrics.retrieval import cases_retrieval, fixed_width_ids, retrieval_metrics
    from geunkeo.retrieve.tuning import ranx_scores

    qrels = {"q1": {"d1": 1, "d2": 1}, "q2": {"d3": 1}, "q3": {"d5": 2, "d6": 1}, "q4": {"d7": 1}}
    run = {"q1": {"d1": 3.0, "d9": 2.0, "d2": 1.0}, "q2": {"d4": 2.0, "d3": 1.0}, "q3": {"d8": 1.0}}
    demo_metrics = ["recall@1", "recall@5", "mrr@10", "ndcg@10"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for q in (qrels, {"q1": qrels["q1"]}):
            retrieval_metrics(q, run)
            ranx_scores(q, {k: v for k, v in run.items() if k in q}, demo_metrics)
        cases_retrieval([("c1", ["a#1"], [], [_hit("a#1"), _hit("b#2")]), ("c2", [], ["b"], [_hit("a#1")]),
                         ("c3", ["c#1"], [], []), ("c4", [], [], [_hit("a#1")])])
        cases_retrieval([("c5", ["a#1"], [], [_hit("a#1")])])
        # the demo's table: one call with fixed-width ids (geunkeo/demo.py)
        labelled_qrels, labelled_run = fixed_width_ids(qrels, {q: run.get(q) or {"__none__": 0.0} for q in qrels})
        evaluate(Qrels(labelled_qrels), Run(labelled_run), demo_metrics, make_comparable=True)
    print(f"ranx metrics compiled and cached in {time.perf_counter() - t:.1f}s")


if __name__ == "__main__":
    main()
