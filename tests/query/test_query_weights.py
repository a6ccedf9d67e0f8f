"""HybridWeightOptimizer: formality-driven weights and their precedence."""

from __future__ import annotations

import pytest

from geunkeo.config import RetrieveSettings
from geunkeo.errors import ConfigError
from geunkeo.query.weights import HybridWeightOptimizer

TUNED = {"fusion": "rrf", "dense_weight": 0.2}


def test_colloquial_leans_more_dense_than_formal():
    d = HybridWeightOptimizer(RetrieveSettings(), TUNED).decide("colloquial")
    assert (d.fusion, d.dense_weight, d.bm25_weight, d.source) == ("rrf", 0.4, 0.6, "formality")
    seed = HybridWeightOptimizer(RetrieveSettings(colloquial_dense_weight=0.7), TUNED).decide("colloquial")
    assert (seed.dense_weight, seed.bm25_weight) == (0.7, pytest.approx(0.3))


@pytest.mark.parametrize("label", ["formal", "polite", "fragment", "english"])
def test_other_registers_use_the_tuned_values(label):
    d = HybridWeightOptimizer(RetrieveSettings(), TUNED).decide(label)
    assert (d.fusion, d.dense_weight, d.source) == ("rrf", 0.2, "tuned")


def test_defaults_without_tuning():
    d = HybridWeightOptimizer(RetrieveSettings()).decide("formal")
    assert (d.fusion, d.dense_weight, d.source) == ("minmax", 0.4, "default")


def test_explicit_config_beats_tuned_values():
    d = HybridWeightOptimizer(RetrieveSettings(dense_weight=0.5), TUNED).decide("formal")
    assert (d.fusion, d.dense_weight) == ("rrf", 0.5)
    assert d.source == "tuned+config"
    d = HybridWeightOptimizer(RetrieveSettings(colloquial_dense_weight=0.6), TUNED).decide("colloquial")
    assert d.dense_weight == 0.6


def test_per_call_override_beats_everything_and_toggle_off_skips_formality():
    opt = HybridWeightOptimizer(RetrieveSettings(), TUNED)
    d = opt.decide("colloquial", dense_weight=0.1, fusion="zscore")
    assert (d.fusion, d.dense_weight, d.source) == ("zscore", 0.1, "override")
    d = opt.decide("colloquial", enabled=False)
    assert (d.dense_weight, d.source) == (0.2, "tuned")


def test_bad_values_name_the_allowed_ones():
    with pytest.raises(ConfigError, match="rrf, minmax, zscore"):
        HybridWeightOptimizer(RetrieveSettings(), {"fusion": "sum"})
    with pytest.raises(ConfigError, match="between 0 and 1"):
        HybridWeightOptimizer(RetrieveSettings()).decide("formal", dense_weight=1.5)


def test_decisions_are_logged(caplog):
    import logging

    with caplog.at_level(logging.INFO, logger="geunkeo.query.weights"):
        HybridWeightOptimizer(RetrieveSettings()).decide("colloquial")
    rec = caplog.records[-1]
    assert rec.geunkeo["dense_weight"] == 0.4 and rec.geunkeo["formality"] == "colloquial"


def test_tuned_colloquial_weight_is_used_unless_config_sets_one():
    tuned = {**TUNED, "colloquial_dense_weight": 0.4}
    d = HybridWeightOptimizer(RetrieveSettings(), tuned).decide("colloquial")
    assert d.dense_weight == 0.4 and "tuned" in d.reason
    d = HybridWeightOptimizer(RetrieveSettings(colloquial_dense_weight=0.7), tuned).decide("colloquial")
    assert d.dense_weight == 0.7 and "config" in d.reason
