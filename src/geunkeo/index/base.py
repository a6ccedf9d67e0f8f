"""Index stage interface: embedders turn text into vectors; stores keep chunks, BM25 terms and vectors."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from geunkeo.corpus.base import Chunk


@runtime_checkable
class CacheCounters(Protocol):
    """A cache that counts its hits and misses (the content-hash embedding cache); reports read these."""

    hits: int
    misses: int


class Embedder(ABC):
    """Dense text encoder. Vectors are float32, L2-normalised, shape (n, dim)."""

    name: str = "embedder"

    @property
    @abstractmethod
    def dim(self) -> int: ...

    @property
    @abstractmethod
    def version(self) -> str:
        """Identifies the model exactly (name + package version); cached vectors are keyed by it."""

    @abstractmethod
    def embed_queries(self, texts: Sequence[str]) -> np.ndarray: ...

    @abstractmethod
    def embed_passages(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_queries([text])[0]


@dataclass
class ScoredId:
    """One store result: a chunk row with its retriever score."""

    chunk_id: str
    score: float


@dataclass
class StoreStats:
    chunks: int
    documents: int
    dim: int
    extra: dict[str, Any] = field(default_factory=dict)


class StoreReader(Protocol):
    """What search and answering read from a store: BM25 and dense search, title search, chunks and their terms.

    `retrieve/` and `answer/` (and the `Engine` that hands them the store) are typed against this side only."""

    name: str = "store"

    @abstractmethod
    def search_sparse(self, terms: list[str], k: int, weights: dict[str, float] | None = None) -> list[ScoredId]: ...

    @abstractmethod
    def search_dense(self, vector: np.ndarray, k: int) -> list[ScoredId]: ...

    @abstractmethod
    def dense_scores(self, vector: np.ndarray) -> np.ndarray:
        """Cosine of `vector` to every chunk, in `chunks()` order (HyDE combines it with title scores)."""

    def term_rarity(self, terms: Sequence[str]) -> dict[str, float]:
        """Each term's BM25 idf over the indexed chunks, scaled so that 1.0 is a term no chunk holds ({} when the
        store cannot tell). The answer stage reads it: a rare word of the question that the retrieved chunks lack
        is a sign the documents do not answer it."""
        return {}

    @abstractmethod
    def search_titles(self, vector: np.ndarray, k: int) -> list[tuple[str, float]]:
        """Nearest document titles: (doc_id, cosine)."""

    @abstractmethod
    def get(self, chunk_id: str) -> Chunk: ...

    @abstractmethod
    def chunk_terms(self, chunk_id: str) -> list[str]:
        """The BM25 terms indexed for a chunk (fusion uses them to see how well BM25 really matched)."""

    @abstractmethod
    def chunks(self) -> list[Chunk]: ...

    @abstractmethod
    def stats(self) -> StoreStats: ...


class StoreWriter(Protocol):
    """What the builder (`index/builder.py`) writes into a store, and the counts it records in the manifest."""

    name: str = "store"
    scores_windows: bool = False  # True: `upsert_windows` rows score their chunk in `search_dense`/`dense_scores`

    @abstractmethod
    def upsert(self, chunks: Sequence[Chunk], terms: Sequence[list[str]], vectors: np.ndarray) -> None:
        """Add chunks, replacing any existing chunks of the same documents."""

    def upsert_windows(self, chunk_ids: Sequence[str], vectors: np.ndarray) -> None:
        """Window vectors of chunks already upserted (row i belongs to `chunk_ids[i]`): a store that
        `scores_windows` scores each chunk by its best window; others keep one vector per chunk."""
        return None

    @abstractmethod
    def delete_documents(self, doc_ids: Sequence[str]) -> int:
        """Remove every chunk of these documents; returns how many chunks were removed."""

    @abstractmethod
    def set_titles(self, titles: dict[str, str], vectors: np.ndarray) -> None:
        """Document-title vectors (doc_id order = `titles` order), used by HyDE title mode."""

    @abstractmethod
    def save(self, path: Path) -> None:
        """Write this store as a new index generation into the folder `path` (published by the builder)."""

    @abstractmethod
    def stats(self) -> StoreStats: ...


class VectorStore(StoreReader, StoreWriter):
    """A concrete store: both sides, as the registry (`index/stores`) builds and opens them.

    Keeps chunks with their BM25 terms and dense vectors; searches each side separately. The embedded default
    keeps everything in-process (bm25s + a memory-mapped float32 matrix); a Milvus backend implements the same
    methods against a Milvus Lite file or a cluster URI. Code that only reads takes a `StoreReader`; the builder
    takes a `StoreWriter`.
    """

    name: str = "store"
    scores_windows: bool = False
