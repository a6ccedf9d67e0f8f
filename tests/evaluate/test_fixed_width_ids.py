"""ranx metrics over fixed-width labels equal the metrics over the original ids (the labels only spare numba
a compile per id length)."""

import math

import pytest

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


def _reference(qrels: dict, run: dict, metric: str) -> float:
    """The metric over the original ids, computed here as ranx defines it (ndcg with linear gains, the mean over
    every query of the qrels). ranx itself on these ids compiles numba once per id length (7-10 s a run); it gave
    these same five values (recall@1 1/6, recall@5 2/3, mrr@10 0.5, ndcg@10 0.4637, map 0.4444)."""
    name, _, cut = metric.partition("@")
    k = int(cut) if cut else None
    scores = []
    for q, rels in qrels.items():
        ranked = sorted(run.get(q, {}), key=lambda d: -run[q][d])[:k]
        hits = [rels.get(d, 0) for d in ranked]
        if name == "recall":
            scores.append(sum(1 for g in hits if g) / len(rels))
        elif name == "mrr":
            scores.append(next((1 / (i + 1) for i, g in enumerate(hits) if g), 0.0))
        elif name == "ndcg":
            ideal = sorted(rels.values(), reverse=True)[:k]
            scores.append(_dcg(hits) / _dcg(ideal))
        else:  # map
            found = [i for i, g in enumerate(hits) if g]
            scores.append(sum((n + 1) / (i + 1) for n, i in enumerate(found)) / len(rels))
    return sum(scores) / len(scores)


def _dcg(gains: list[int]) -> float:
    return sum(g / math.log2(i + 2) for i, g in enumerate(gains))


def test_the_reference_is_the_known_value_of_each_metric():
    expected = {"recall@1": 1 / 6, "recall@5": 2 / 3, "mrr@10": 0.5,
                "ndcg@10": (2 / (2 + 1 / math.log2(3)) + 1 / math.log2(3)) / 3, "map": (5 / 6 + 1 / 2) / 3}
    assert {m: _reference(QRELS, RUN, m) for m in METRICS} == pytest.approx(expected)


def test_metrics_equal_those_on_the_original_ids():
    ours = retrieval_metrics(QRELS, RUN)
    for m in METRICS:
        assert ours[m].value == pytest.approx(_reference(QRELS, RUN, m), abs=1e-6)
