"""Rerankers by name (`retrieve.reranker`): none, dense (offline default), llm (listwise), cross-encoder.

Adding one is a new file here plus one line in `RERANKERS`.
"""

from __future__ import annotations

from collections.abc import Callable

from geunkeo.config import Settings
from geunkeo.errors import ConfigError
from geunkeo.index.base import Embedder
from geunkeo.llm.base import LLM
from geunkeo.retrieve.base import Reranker


def _passage_embedder(settings: Settings, embedder: Embedder | None) -> Embedder:
    """The embedder behind the disk vector cache, so chunks embedded at index time are not embedded again."""
    from geunkeo.index.embed_cache import CachedEmbedder, default_cache_path
    from geunkeo.index.embedders import get_embedder

    if embedder is None:
        return get_embedder(settings, cached=True)
    if isinstance(embedder, CachedEmbedder):
        return embedder
    return CachedEmbedder(embedder, settings.index.cache_dir or default_cache_path())


def _none(settings: Settings, embedder: Embedder | None, llm: LLM | None) -> Reranker:
    from geunkeo.retrieve.rerankers.none import NoReranker

    return NoReranker()


def _dense(settings: Settings, embedder: Embedder | None, llm: LLM | None) -> Reranker:
    from geunkeo.retrieve.rerankers.dense import DenseReranker

    return DenseReranker(_passage_embedder(settings, embedder))


def _llm(settings: Settings, embedder: Embedder | None, llm: LLM | None) -> Reranker:
    from geunkeo.retrieve.rerankers.llm import LLMReranker

    return LLMReranker(llm, keep=settings.retrieve.rerank_keep, fallback=_dense(settings, embedder, llm))


def _cross_encoder(settings: Settings, embedder: Embedder | None, llm: LLM | None) -> Reranker:
    from geunkeo.retrieve.rerankers.cross_encoder import CrossEncoderReranker

    return CrossEncoderReranker(settings.retrieve.reranker_model)


RERANKERS: dict[str, Callable[[Settings, Embedder | None, LLM | None], Reranker]] = {
    "none": _none,
    "dense": _dense,
    "llm": _llm,
    "cross-encoder": _cross_encoder,
}


def get_reranker(name: str, settings: Settings, embedder: Embedder | None = None, llm: LLM | None = None) -> Reranker:
    """The reranker called `name`; ConfigError lists the allowed names."""
    factory = RERANKERS.get(name)
    if factory is None:
        raise ConfigError(f"unknown reranker {name!r}: choose one of {', '.join(RERANKERS)}")
    return factory(settings, embedder, llm)
