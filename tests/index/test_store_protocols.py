"""The store seam has two sides (issue 27 item 5): search and answering read through `StoreReader`, the builder
writes through `StoreWriter`; a concrete store is both. The tests read the code that uses each side, so a new call
to a method of the other side fails here."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from geunkeo.index.base import StoreReader, StoreWriter, VectorStore
from geunkeo.index.stores.embedded import EmbeddedStore
from geunkeo.index.stores.milvus import MilvusStore

SRC = Path(__file__).resolve().parents[2] / "src" / "geunkeo"


def _members(proto: type) -> set[str]:
    return {n for n in vars(proto) if not n.startswith("_")} | set(getattr(proto, "__annotations__", {}))


def _store_calls(path: Path, bare: bool = False) -> set[str]:
    """Names `x` in `self.store.x` / `index.store.x` in one file (and in a bare `store.x` when `bare`: the builder's
    local; elsewhere a bare `store` may be another kind, such as the server's key store)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute):
            v = node.value
            if (isinstance(v, ast.Attribute) and v.attr == "store") or (bare and isinstance(v, ast.Name)
                                                                         and v.id == "store"):
                found.add(node.attr)
    return found


def test_the_two_sides_are_the_documented_operations():
    assert _members(StoreReader) == {"name", "search_sparse", "search_dense", "dense_scores", "term_rarity",
                                     "search_titles", "get", "chunk_terms", "chunks", "stats"}
    assert _members(StoreWriter) == {"name", "scores_windows", "upsert", "upsert_windows", "delete_documents",
                                     "set_titles", "save", "stats"}


def test_concrete_stores_are_both_sides():
    assert {StoreReader, StoreWriter} <= set(EmbeddedStore.__mro__)
    assert {StoreReader, StoreWriter} <= set(MilvusStore.__mro__)
    with pytest.raises(TypeError):
        VectorStore()  # type: ignore[abstract]


@pytest.mark.parametrize("area", ["retrieve", "answer", "engine.py", "server"])
def test_search_and_answering_only_read(area):
    files = [SRC / area] if area.endswith(".py") else sorted((SRC / area).rglob("*.py"))
    used = set().union(*(_store_calls(p) for p in files))
    assert used, area
    assert used <= _members(StoreReader), sorted(used - _members(StoreReader))


def test_the_builder_only_writes():
    used = _store_calls(SRC / "index" / "builder.py", bare=True)
    assert used and used <= _members(StoreWriter), sorted(used - _members(StoreWriter))
