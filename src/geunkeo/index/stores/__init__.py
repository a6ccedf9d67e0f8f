"""Store registry: chosen by name (`IndexSettings.store`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from geunkeo.config import Settings
from geunkeo.errors import ConfigError, IndexError_
from geunkeo.index.base import VectorStore
from geunkeo.index.manifest import Manifest, current_generation, verify_files


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


def open_store(settings: Settings, index_dir: Path, manifest: Manifest) -> VectorStore:
    """The live generation's store, checked against its manifest first: files (sizes, and sha256 unless
    `index.verify_checksums` is off), then the number of chunks the store holds. A mismatch is an IndexError_
    naming the file; nothing damaged is searched."""
    gen = current_generation(index_dir)
    verify_files(gen, manifest, checksums=settings.index.verify_checksums)
    store = make_store(settings, gen, manifest.dim, manifest.store)
    held = store.stats().chunks
    if held != manifest.chunks:
        raise IndexError_(f"{gen} holds {held} chunks, its manifest.json says {manifest.chunks}; the index is "
                          "damaged — rebuild it with `geunkeo index --replace`")
    return store
