import math

import pytest

from geunkeo.errors import ConfigError
from geunkeo.index.base import ScoredId
from geunkeo.retrieve.fusion import fuse, normalize, rrf, weighted


def run(*pairs):
    return [ScoredId(cid, s) for cid, s in pairs]


def test_rrf_hand_computed():
    runs = {"bm25": run(("a", 9.0), ("b", 5.0)), "dense": run(("b", 0.9), ("c", 0.8))}
    got = rrf(runs, {"bm25": 1.0, "dense": 1.0}, k=60)
    assert got["a"] == pytest.approx(1 / 61)
    assert got["b"] == pytest.approx(1 / 62 + 1 / 61)
    assert got["c"] == pytest.approx(1 / 62)


def test_minmax_weighted_missing_gets_run_minimum():
    runs = {"bm25": run(("a", 10.0), ("b", 6.0), ("c", 2.0)), "dense": run(("c", 0.9), ("d", 0.7))}
    got = weighted(runs, {"bm25": 0.7, "dense": 0.3}, "minmax")
    # bm25 norm: a=1, b=0.5, c=0, d missing→0; dense norm: c=1, d=0, a/b missing→0
    assert got["a"] == pytest.approx(0.7)
    assert got["b"] == pytest.approx(0.35)
    assert got["c"] == pytest.approx(0.3)
    assert got["d"] == pytest.approx(0.0)


def test_zscore_normalisation():
    z = normalize([1.0, 2.0, 3.0], "zscore")
    sd = math.sqrt(2 / 3)
    assert z == pytest.approx([-1 / sd, 0.0, 1 / sd])
    assert normalize([4.0, 4.0], "minmax") == [1.0, 1.0]
    assert normalize([], "zscore") == []


def test_fuse_orders_and_breaks_ties_by_id():
    runs = {"bm25": run(("b", 1.0), ("a", 1.0))}
    assert [s.chunk_id for s in fuse(runs, "minmax", {"bm25": 1.0})] == ["a", "b"]


def test_unknown_method_names_allowed_values():
    with pytest.raises(ConfigError, match="rrf, minmax, zscore"):
        fuse({}, "borda", {})


def test_single_item_run_does_not_lift_missing_ids():
    runs = {"bm25": run(("a", 3.0)), "dense": run(("b", 0.9), ("a", 0.5))}
    got = weighted(runs, {"bm25": 0.5, "dense": 0.5}, "minmax")
    assert got == {"a": pytest.approx(0.5), "b": pytest.approx(0.5)}
    z = weighted({"bm25": run(("a", 3.0)), "dense": run(("b", 0.9), ("a", 0.5))}, {"bm25": 1.0, "dense": 0.0}, "zscore")
    assert z["a"] == pytest.approx(0.0) and z["b"] == pytest.approx(-1.0)
