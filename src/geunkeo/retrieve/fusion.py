"""Rank fusion: reciprocal rank fusion and weighted sums of normalised scores (min-max or z-score).

A run is a ranked list of (id, score). An id missing from a run ranks below everything the run found: it gets 0
under min-max, and under z-score the run's lowest z (one below its single value when the run is constant).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from geunkeo.errors import ConfigError
from geunkeo.index.base import ScoredId

FUSION_METHODS = ("rrf", "minmax", "zscore")


def normalize(scores: Sequence[float], method: str) -> list[float]:
    """Normalise one run's scores: 'minmax' → [0, 1]; 'zscore' → mean 0, sd 1 (constant runs → all 1 / all 0)."""
    a = np.asarray(scores, dtype=np.float64)
    if a.size == 0:
        return []
    if method == "minmax":
        lo, hi = a.min(), a.max()
        return [1.0] * a.size if hi - lo < 1e-12 else ((a - lo) / (hi - lo)).tolist()
    if method == "zscore":
        sd = a.std()
        return [0.0] * a.size if sd < 1e-12 else ((a - a.mean()) / sd).tolist()
    raise ConfigError(f"unknown normalisation {method!r}; choose 'minmax' or 'zscore'")


def rrf(runs: Mapping[str, Sequence[ScoredId]], weights: Mapping[str, float] | None = None, k: int = 60) -> dict[str, float]:
    """Weighted reciprocal rank fusion: sum over runs of w / (k + rank), rank 1-based."""
    out: dict[str, float] = {}
    for name, run in runs.items():
        w = 1.0 if weights is None else float(weights.get(name, 0.0))
        if w == 0.0:
            continue
        for rank, item in enumerate(run, start=1):
            out[item.chunk_id] = out.get(item.chunk_id, 0.0) + w / (k + rank)
    return out


def weighted(runs: Mapping[str, Sequence[ScoredId]], weights: Mapping[str, float], method: str = "minmax") -> dict[str, float]:
    """Sum over runs of weight × normalised score; ids missing from a run get its floor (see module doc)."""
    ids = {item.chunk_id for run in runs.values() for item in run}
    out = dict.fromkeys(ids, 0.0)
    for name, run in runs.items():
        w = float(weights.get(name, 0.0))
        if w == 0.0 or not run:
            continue
        norm = normalize([s.score for s in run], method)
        if method == "minmax":
            floor = 0.0
        else:
            floor = min(norm) if max(norm) - min(norm) > 1e-12 else min(norm) - 1.0
        seen = {}
        for item, n in zip(run, norm, strict=True):
            seen[item.chunk_id] = n
        for cid in ids:
            out[cid] += w * seen.get(cid, floor)
    return out


def fuse(
    runs: Mapping[str, Sequence[ScoredId]], method: str, weights: Mapping[str, float], rrf_k: int = 60
) -> list[ScoredId]:
    """Fuse runs into one ranking (best first; ties broken by id for determinism)."""
    if method not in FUSION_METHODS:
        raise ConfigError(f"unknown fusion {method!r}; choose one of: {', '.join(FUSION_METHODS)}")
    scores = rrf(runs, weights, rrf_k) if method == "rrf" else weighted(runs, weights, method)
    return [ScoredId(cid, s) for cid, s in sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))]
