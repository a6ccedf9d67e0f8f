"""ranx metrics over fixed-width labels equal the metrics over the original ids (the labels only spare numba
a compile per id length)."""

import warnings

import pytest
from ranx import Qrels, Run, evaluate

from geunkeo.evaluate.metrics.retrieval import fixed_width_ids, retrieval_metrics

QRELS = {"짧은": {"regulations/hakchik#제15조": 2, "n#s1": 1}, "a much longer query id": {"d": 1},
         "q3": {"notices/leave-of-absence-2025-1#s3": 1}}
RUN = {"짧은": {"n#s1": 3.0, "x": 2.0, "regulations/hakchik#제15조": 1.0},
       "a much longer query id": {"zz": 2.0, "d": 1.0}, "q3": {"other": 1.0}}
METRICS = ["recall@1", "recall@5", "mrr@10", "ndcg@10", "map"]


def test_labels_have_one_width_and_keep_the_structure():
    qrels, run = fixed_width_ids(QRELS, RUN)
    ids = [*qrels, *run, *(d for docs in qrels.values() for d in docs), *(d for docs in run.values() for d in docs)]
    assert len({len(i) for i in ids}) == 1
    assert list(run) == list(qrels)  # a query keeps one label in both
    assert [sorted(v.values()) for v in qrels.values()] == [sorted(v.values()) for v in QRELS.values()]
    first = next(iter(qrels))
    shared = set(qrels[first]) & set(run[first])
    assert len(shared) == 2  # both relevant documents were retrieved, under the same labels


def test_metrics_equal_those_on_the_original_ids():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        raw = evaluate(Qrels(QRELS), Run(RUN), METRICS, make_comparable=True)
    ours = retrieval_metrics(QRELS, RUN)
    for m in METRICS:
        assert ours[m].value == pytest.approx(raw[m], abs=1e-6)
