"""Similarity calibration and the semantic-similarity metric (with a fake embedder: exact cosines)."""

from __future__ import annotations

import numpy as np
import pytest

from geunkeo.checks.similarity import Calibration, VectorCache, load_calibration, semantic_similarity
from geunkeo.index.base import Embedder


class TableEmbedder(Embedder):
    """Unit vectors chosen per text, so cosines are known exactly."""

    name = "table"

    def __init__(self, table: dict[str, list[float]]):
        self.table = {k: np.asarray(v, dtype=np.float32) / np.linalg.norm(v) for k, v in table.items()}
        self.calls = 0

    @property
    def dim(self) -> int:
        return 2

    @property
    def version(self) -> str:
        return "table-1"

    def embed_queries(self, texts):
        self.calls += len(texts)
        return np.stack([self.table[t] for t in texts])

    embed_passages = embed_queries


def test_calibration_formula_and_inverse():
    cal = Calibration(slope=20.0, intercept=-18.0, fitted_on="hand")
    # 1 / (1 + exp(-(20 * 0.9 - 18))) = 1 / (1 + e^0) = 0.5
    assert cal.score(0.9) == pytest.approx(0.5)
    assert cal.score(1.0) == pytest.approx(1 / (1 + np.exp(-2.0)))
    assert cal.cosine_at(0.5) == pytest.approx(0.9)


def test_calibration_fit_recovers_a_known_curve():
    cos = np.linspace(0.75, 1.0, 60)
    gold = 1 / (1 + np.exp(-(30.0 * cos - 27.0)))
    cal = Calibration.fit(cos, gold, fitted_on="synthetic")
    assert cal.slope == pytest.approx(30.0, rel=1e-3)
    assert cal.intercept == pytest.approx(-27.0, rel=1e-3)


def test_shipped_calibration_is_increasing_and_says_how_it_was_fitted():
    cal = load_calibration()
    assert cal.slope > 0
    assert "KorSTS" in cal.fitted_on
    assert cal.score(0.99) > cal.score(0.85)


def test_semantic_similarity_threshold_and_raw_cosine_recorded():
    emb = TableEmbedder({"a": [1.0, 0.0], "b": [0.8, 0.6], "c": [0.0, 1.0]})
    vc = VectorCache(emb)
    cal = Calibration(slope=10.0, intercept=-5.0, fitted_on="hand")
    r = semantic_similarity("a", "b", vc, threshold=0.75, calibration=cal)
    # cosine 0.8 → 1/(1+exp(-(8-5))) = 0.952574
    assert r.value == pytest.approx(0.9526, abs=1e-4)
    assert r.details == {"raw_cosine": 0.8, "threshold": 0.75, "similar": True}
    r2 = semantic_similarity("a", "c", vc, threshold=0.75, calibration=cal)
    # cosine 0 → 1/(1+e^5) = 0.006693
    assert r2.value == pytest.approx(0.0067, abs=1e-4)
    assert r2.details["similar"] is False
    assert emb.calls == 3  # "a" embedded once


def test_semantic_similarity_not_computable_for_empty_text():
    vc = VectorCache(TableEmbedder({"a": [1.0, 0.0]}))
    r = semantic_similarity("a", "  ", vc, threshold=0.75, calibration=Calibration(1.0, 0.0))
    assert r.computable is False and r.value is None
    assert r.details["reason"] == "one of the two texts is empty"


def test_vector_cache_round_trips_to_disk(tmp_path):
    emb = TableEmbedder({"a": [1.0, 0.0], "b": [0.0, 1.0]})
    VectorCache(emb, tmp_path / "v").embed(["a", "b"])
    again = TableEmbedder({"a": [1.0, 0.0], "b": [0.0, 1.0]})
    out = VectorCache(again, tmp_path / "v").embed(["b", "a"])
    assert again.calls == 0
    assert out.tolist() == [[0.0, 1.0], [1.0, 0.0]]
