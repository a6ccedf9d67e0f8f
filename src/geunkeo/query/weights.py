"""Fusion method and dense/BM25 weights chosen by query formality (seed 000 phase 5, seed 001 phase 3).

Precedence, strongest first: a per-call override; for colloquial queries (when formality weights are on) the
colloquial dense weight — set in config, else tuned (`colloquial_dense_weight` in the manifest's tuned values),
else the default 0.7 dense / 0.3 BM25 the seed asks for; for other queries a value set explicitly in config
(`retrieve.dense_weight` / `retrieve.fusion`), else the values tuned on a dev set and stored in the index
manifest, else the defaults. Every decision names its source.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass

from geunkeo.config import RetrieveSettings
from geunkeo.errors import ConfigError

log = logging.getLogger("geunkeo.query.weights")
FUSIONS = ("rrf", "minmax", "zscore")


@dataclass
class WeightDecision:
    fusion: str
    dense_weight: float
    source: str  # "override" | "formality" | "config" | "tuned" | "default"
    reason: str

    @property
    def bm25_weight(self) -> float:
        return round(1.0 - self.dense_weight, 6)

    def to_dict(self) -> dict:
        return {**asdict(self), "bm25_weight": self.bm25_weight}


def _check(fusion: str | None, dense_weight: float | None, origin: str) -> None:
    if fusion is not None and fusion not in FUSIONS:
        raise ConfigError(f"{origin}: fusion must be one of {', '.join(FUSIONS)}, got {fusion!r}")
    if dense_weight is not None and not 0.0 <= float(dense_weight) <= 1.0:
        raise ConfigError(f"{origin}: dense_weight must be between 0 and 1, got {dense_weight!r}")


class HybridWeightOptimizer:
    """Picks `(fusion, dense_weight)` for a query from its formality label."""

    def __init__(self, retrieve: RetrieveSettings, tuned: dict | None = None):
        self.retrieve = retrieve
        self.tuned = dict(tuned or {})
        _check(self.tuned.get("fusion"), self.tuned.get("dense_weight"), "tuned weights (index manifest)")
        _check(None, self.tuned.get("colloquial_dense_weight"), "tuned colloquial_dense_weight (index manifest)")
        _check(retrieve.fusion, retrieve.dense_weight, "retrieve settings")
        _check(None, retrieve.colloquial_dense_weight, "retrieve.colloquial_dense_weight")
        self._explicit = retrieve.model_fields_set  # fields the user set in env/TOML/arguments

    def base(self) -> tuple[str, float, str]:
        """Weights for a query with no formality adjustment: config if set explicitly, else tuned, else default."""
        r, t = self.retrieve, self.tuned
        if "fusion" in self._explicit or "fusion" not in t:
            fusion, fsrc = r.fusion, ("config" if "fusion" in self._explicit else "default")
        else:
            fusion, fsrc = t["fusion"], "tuned"
        if "dense_weight" in self._explicit or "dense_weight" not in t:
            dw, dsrc = r.dense_weight, ("config" if "dense_weight" in self._explicit else "default")
        else:
            dw, dsrc = float(t["dense_weight"]), "tuned"
        return fusion, dw, dsrc if dsrc == fsrc else f"{fsrc}+{dsrc}"

    def colloquial_weight(self) -> tuple[float, str]:
        """Dense weight for colloquial queries: config if set explicitly, else a tuned value, else the default."""
        if "colloquial_dense_weight" in self._explicit or "colloquial_dense_weight" not in self.tuned:
            src = "config" if "colloquial_dense_weight" in self._explicit else "default"
            return self.retrieve.colloquial_dense_weight, f"retrieve.colloquial_dense_weight, {src}"
        return float(self.tuned["colloquial_dense_weight"]), "tuned on colloquial dev queries"

    def decide(self, formality: str, enabled: bool = True, fusion: str | None = None,
               dense_weight: float | None = None) -> WeightDecision:
        """The decision for one query; `fusion`/`dense_weight` are per-call overrides."""
        _check(fusion, dense_weight, "per-call override")
        base_fusion, base_dw, base_src = self.base()
        if dense_weight is not None:
            d = WeightDecision(fusion or base_fusion, float(dense_weight), "override", "dense_weight given for this call")
        elif enabled and formality == "colloquial":
            cdw, why = self.colloquial_weight()
            d = WeightDecision(fusion or base_fusion, cdw, "formality", f"colloquial query: lean on the dense side ({why})")
        else:
            why = "formality weights off" if not enabled else f"{formality} query"
            d = WeightDecision(fusion or base_fusion, base_dw, base_src, f"{why}: {base_src} weights")
        log.info("hybrid weights", extra={"geunkeo": {"stage": "query.weights", "formality": formality, **d.to_dict()}})
        return d
