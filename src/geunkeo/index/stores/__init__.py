"""Store registry: chosen by name (`IndexSettings.store`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from geunkeo.config import Settings
from geunkeo.errors import ConfigError
from geunkeo.index.base import VectorStore


def _embedded(settings: Settings, path: Path | None, dim: int) -> VectorStore:
    from geunkeo.index.stores.embedded import EmbeddedStore

    return EmbeddedStore.load(path) if path is not None else EmbeddedStore(dim)


def _milvus(settings: Settings, path: Path | None, dim: int) -> VectorStore:
    from geunkeo.index.stores.milvus import MilvusStore

    ix = settings.index
    if path is not None:
        return MilvusStore.load(path, ix.milvus_uri, ix.milvus_prefix, ix.milvus_token)
    return MilvusStore(dim, ix.milvus_uri, ix.milvus_prefix, ix.milvus_token)


STORES: dict[str, Callable[[Settings, Path | None, int], VectorStore]] = {
    "embedded": _embedded,
    "milvus": _milvus,
}


def make_store(settings: Settings, path: Path | None = None, dim: int = 384, name: str | None = None) -> VectorStore:
    """A new store (path=None) or one loaded from an index generation directory.

    `name` (from an index's manifest) wins over `settings.index.store`: an index is read with the store that
    wrote it."""
    name = name or settings.index.store
    if name not in STORES:
        raise ConfigError(f"unknown store {name!r}; choose one of: {', '.join(sorted(STORES))}")
    return STORES[name](settings, path, dim)
