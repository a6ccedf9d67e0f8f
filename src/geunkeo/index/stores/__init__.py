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


STORES: dict[str, Callable[[Settings, Path | None, int], VectorStore]] = {
    "embedded": _embedded,
}


def make_store(settings: Settings, path: Path | None = None, dim: int = 384) -> VectorStore:
    """A new store (path=None) or one loaded from an index generation directory."""
    name = settings.index.store
    if name not in STORES:
        raise ConfigError(f"unknown store {name!r}; choose one of: {', '.join(sorted(STORES))}")
    return STORES[name](settings, path, dim)
