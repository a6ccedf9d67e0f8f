"""The default store, in-process: bm25s over analyzer terms + an exact float32 matrix (memory-mapped on load).

Exact search over 100k × 384 float32 takes a few ms on 2 cores, so no ANN index is needed at this scale.
Updates keep the analyzer terms per chunk, so the BM25 matrix is rebuilt from them (0.7 s for 20k chunks)
instead of re-analysing text.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from geunkeo.corpus.base import Chunk
from geunkeo.errors import IndexError_
from geunkeo.index.base import ScoredId, StoreStats, VectorStore

if TYPE_CHECKING:
    import bm25s


def _bm25s():
    """bm25s, imported without numba and scipy when they are not loaded yet.

    bm25s imports both whenever they are installed (ranx brings numba) although the store uses neither: its
    default numpy backend computes the same scores. Hiding them from that one import saves ~0.3 s of every
    `geunkeo search`; they stay importable for everyone else (ranx imports numba as usual afterwards)."""
    if "bm25s" in sys.modules:
        return sys.modules["bm25s"]
    hidden = [name for name in ("numba", "scipy") if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None  # makes bm25s' optional `import numba` / `import scipy.sparse` fail fast
    try:
        import bm25s
    finally:
        for name in hidden:
            del sys.modules[name]
    return bm25s


def _top_k(scores: np.ndarray, k: int) -> np.ndarray:
    k = min(k, scores.shape[0])
    if k <= 0:
        return np.zeros(0, dtype=np.int64)
    idx = np.argpartition(-scores, k - 1)[:k]
    return idx[np.argsort(-scores[idx], kind="stable")]


def scaled_idf(df: int, n: int) -> float:
    """BM25's idf of a term in `df` of `n` chunks over the idf of a term in none: 1.0 = never indexed."""
    top = math.log(1 + (n + 0.5) / 0.5)
    return math.log(1 + (n - df + 0.5) / (df + 0.5)) / top if n else 1.0


class EmbeddedStore(VectorStore):
    name = "embedded"
    scores_windows = True

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self._chunks: list[Chunk] = []
        self._terms: list[list[str]] = []
        self._vecs = np.zeros((0, dim), dtype=np.float32)
        self._pos: dict[str, int] = {}
        self._bm25: bm25s.BM25 | None = None
        self._title_ids: list[str] = []
        self._title_text: dict[str, str] = {}
        self._title_vecs = np.zeros((0, dim), dtype=np.float32)
        self._doc_rows: dict[str, np.ndarray] = {}
        # window vectors (index/windows.py), grouped by their chunk's row: chunk `_wowned[i]`'s windows start at
        # `_wstart[i]`; a chunk without windows (an index built or updated without them) scores by its own vector
        self._wvecs = np.zeros((0, dim), dtype=np.float32)
        self._wchunk: list[str] = []
        self._wowned: np.ndarray | None = None
        self._wstart: np.ndarray | None = None

    # -- writing ----------------------------------------------------------------------------------------------
    def upsert(self, chunks: Sequence[Chunk], terms: Sequence[list[str]], vectors: np.ndarray) -> None:
        if not (len(chunks) == len(terms) == len(vectors)):
            raise ValueError("chunks, terms and vectors must have the same length")
        self.delete_documents(sorted({c.doc_id for c in chunks}))
        self._chunks.extend(chunks)
        self._terms.extend(list(t) for t in terms)
        vectors = np.asarray(vectors, dtype=np.float32).reshape(len(chunks), self.dim)
        self._vecs = np.vstack([np.asarray(self._vecs), vectors]) if len(self._vecs) else vectors.copy()
        self._reindex()

    def delete_documents(self, doc_ids: Sequence[str]) -> int:
        drop = set(doc_ids)
        keep = [i for i, c in enumerate(self._chunks) if c.doc_id not in drop]
        removed = len(self._chunks) - len(keep)
        if removed:
            gone = {c.chunk_id for c in self._chunks if c.doc_id in drop}
            wkeep = [i for i, cid in enumerate(self._wchunk) if cid not in gone]
            self._wchunk = [self._wchunk[i] for i in wkeep]
            self._wvecs = np.asarray(self._wvecs)[wkeep]
            self._chunks = [self._chunks[i] for i in keep]
            self._terms = [self._terms[i] for i in keep]
            self._vecs = np.asarray(self._vecs)[keep]
            for d in drop:
                self._title_text.pop(d, None)
            if self._title_ids:
                tkeep = [i for i, d in enumerate(self._title_ids) if d not in drop]
                self._title_ids = [self._title_ids[i] for i in tkeep]
                self._title_vecs = np.asarray(self._title_vecs)[tkeep]
            self._reindex()
        return removed

    def upsert_windows(self, chunk_ids: Sequence[str], vectors: np.ndarray) -> None:
        unknown = [c for c in chunk_ids if c not in self._pos]
        if unknown:
            raise ValueError(f"windows of chunks not in the store: {unknown[:3]}")
        vectors = np.asarray(vectors, dtype=np.float32).reshape(len(chunk_ids), self.dim)
        self._wchunk.extend(chunk_ids)
        self._wvecs = np.vstack([np.asarray(self._wvecs), vectors]) if len(self._wvecs) else vectors.copy()
        self._index_windows()

    def _index_windows(self) -> None:
        """Orders the windows by their chunk's row and finds the first window of each chunk that has any."""
        owner = np.asarray([self._pos[c] for c in self._wchunk], dtype=np.int64)
        if len(owner) and np.any(np.diff(owner) < 0):
            order = np.argsort(owner, kind="stable")
            owner, self._wvecs = owner[order], np.asarray(self._wvecs)[order]
            self._wchunk = [self._wchunk[i] for i in order]
        self._wowned, self._wstart = np.unique(owner, return_index=True) if len(owner) else (None, None)

    def set_titles(self, titles: dict[str, str], vectors: np.ndarray) -> None:
        pos = {d: i for i, d in enumerate(self._title_ids)}
        tv = np.asarray(self._title_vecs).copy()
        new_rows = []
        for (doc_id, title), v in zip(titles.items(), vectors, strict=True):
            self._title_text[doc_id] = title
            if doc_id in pos:
                tv[pos[doc_id]] = v
            else:
                self._title_ids.append(doc_id)
                new_rows.append(v)
        self._title_vecs = np.vstack([tv, np.asarray(new_rows, dtype=np.float32)]) if new_rows else tv

    def _reindex(self) -> None:
        self._pos = {c.chunk_id: i for i, c in enumerate(self._chunks)}
        rows: dict[str, list[int]] = {}
        for i, c in enumerate(self._chunks):
            rows.setdefault(c.doc_id, []).append(i)
        self._doc_rows = {d: np.asarray(r) for d, r in rows.items()}
        if self._chunks:
            bm = _bm25s().BM25(backend="numpy")
            # an empty term list would break bm25s' vocabulary; give such chunks a placeholder token
            bm.index([t if t else ["\x00"] for t in self._terms], show_progress=False)
            self._bm25 = bm
        else:
            self._bm25 = None
        self._index_windows()

    # -- searching --------------------------------------------------------------------------------------------
    def search_sparse(self, terms: list[str], k: int, weights: dict[str, float] | None = None) -> list[ScoredId]:
        if self._bm25 is None or not terms:
            return []
        scores = self.sparse_scores(terms, weights)
        idx = _top_k(scores, k)
        return [ScoredId(self._chunks[i].chunk_id, float(scores[i])) for i in idx if scores[i] > 0]

    def term_rarity(self, terms: Sequence[str]) -> dict[str, float]:
        if self._bm25 is None:
            return {}
        vocab, indptr = self._bm25.vocab_dict, self._bm25.scores["indptr"]
        n = len(self._chunks)
        return {t: scaled_idf(int(indptr[vocab[t] + 1] - indptr[vocab[t]]) if t in vocab else 0, n) for t in terms}

    def sparse_scores(self, terms: list[str], weights: dict[str, float] | None = None) -> np.ndarray:
        """BM25 score of every chunk; terms grouped by weight so each group is one sparse pass."""
        total = np.zeros(len(self._chunks), dtype=np.float32)
        if self._bm25 is None:  # no chunks were indexed: nothing scores
            return total
        groups: dict[float, list[str]] = {}
        for t in dict.fromkeys(terms):
            groups.setdefault(float((weights or {}).get(t, 1.0)), []).append(t)
        for w, ts in groups.items():
            total += w * self._bm25.get_scores(ts)
        return total

    def search_dense(self, vector: np.ndarray, k: int) -> list[ScoredId]:
        if not self._chunks:
            return []
        scores = self.dense_scores(vector)
        idx = _top_k(scores, k)
        return [ScoredId(self._chunks[i].chunk_id, float(scores[i])) for i in idx]

    def dense_scores(self, vector: np.ndarray) -> np.ndarray:
        """Each chunk's cosine to `vector`: its best window's when it has windows, else its own vector's."""
        vector = np.asarray(vector, dtype=np.float32)
        if self._wstart is None or self._wowned is None:
            return np.asarray(self._vecs) @ vector
        best = np.maximum.reduceat(np.asarray(self._wvecs) @ vector, self._wstart)
        if len(self._wowned) == len(self._chunks):
            return best
        scores = np.asarray(self._vecs) @ vector
        scores[self._wowned] = best
        return scores

    def search_titles(self, vector: np.ndarray, k: int) -> list[tuple[str, float]]:
        if not self._title_ids:
            return []
        scores = np.asarray(self._title_vecs) @ np.asarray(vector, dtype=np.float32)
        idx = _top_k(scores, k)
        return [(self._title_ids[i], float(scores[i])) for i in idx]

    def get(self, chunk_id: str) -> Chunk:
        try:
            return self._chunks[self._pos[chunk_id]]
        except KeyError:
            raise IndexError_(f"chunk {chunk_id!r} is not in this index") from None

    def chunk_terms(self, chunk_id: str) -> list[str]:
        self.get(chunk_id)
        return self._terms[self._pos[chunk_id]]

    def vectors(self) -> dict:
        """Every stored vector for analysis (`geunkeo viz`): chunks with their content vectors, and the document
        title vectors with their doc ids and titles."""
        return {"chunks": list(self._chunks), "content": np.asarray(self._vecs), "title_ids": list(self._title_ids),
                "titles": dict(self._title_text), "title_vectors": np.asarray(self._title_vecs)}

    def chunks(self) -> list[Chunk]:
        return list(self._chunks)

    def doc_ids(self) -> list[str]:
        return list(self._doc_rows)

    def stats(self) -> StoreStats:
        langs: dict[str, int] = {}
        for c in self._chunks:
            langs[c.lang] = langs.get(c.lang, 0) + 1
        return StoreStats(len(self._chunks), len(self._doc_rows), self.dim, {"langs": langs, "titles": len(self._title_ids)})

    # -- persistence ------------------------------------------------------------------------------------------
    def save(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)
        with open(path / "chunks.jsonl", "w", encoding="utf-8") as f:
            for c, t in zip(self._chunks, self._terms, strict=True):
                f.write(json.dumps({"chunk": c.to_dict(), "terms": t}, ensure_ascii=False) + "\n")
        np.save(path / "vectors.npy", np.asarray(self._vecs, dtype=np.float32))
        np.save(path / "title_vectors.npy", np.asarray(self._title_vecs, dtype=np.float32))
        (path / "titles.json").write_text(
            json.dumps({"ids": self._title_ids, "text": self._title_text}, ensure_ascii=False), encoding="utf-8"
        )
        if self._bm25 is not None:
            self._bm25.save(str(path / "bm25"), show_progress=False)
        if self._wchunk:
            np.save(path / "window_vectors.npy", np.asarray(self._wvecs, dtype=np.float32))
            np.save(path / "window_owner.npy", np.asarray([self._pos[c] for c in self._wchunk], dtype=np.int32))

    @classmethod
    def load(cls, path: Path) -> EmbeddedStore:
        """The store saved in `path`; IndexError_ naming the file when one is unreadable or its rows disagree
        with chunks.jsonl (a vectors.npy with fewer rows would otherwise be searched with other results)."""
        vecs = _read(path / "vectors.npy", lambda f: np.load(f, mmap_mode="r"))
        store = cls(int(vecs.shape[1]) if vecs.ndim == 2 and vecs.shape[0] else 384)
        records = _read(path / "chunks.jsonl", _chunk_records)
        store._chunks = [Chunk.from_dict(rec["chunk"]) for rec in records]
        store._terms = [rec["terms"] for rec in records]
        store._vecs = vecs
        titles = _read(path / "titles.json", lambda f: json.loads(f.read_text(encoding="utf-8")))
        store._title_ids, store._title_text = titles["ids"], titles["text"]
        store._title_vecs = _read(path / "title_vectors.npy", lambda f: np.load(f, mmap_mode="r"))
        _same_rows(path / "vectors.npy", len(vecs), "chunks in chunks.jsonl", len(store._chunks))
        _same_rows(path / "title_vectors.npy", len(store._title_vecs), "titles in titles.json", len(store._title_ids))
        if (path / "window_owner.npy").is_file():
            owner = _read(path / "window_owner.npy", np.load)
            store._wvecs = _read(path / "window_vectors.npy", lambda f: np.load(f, mmap_mode="r"))
            _same_rows(path / "window_vectors.npy", len(store._wvecs), "windows in window_owner.npy", len(owner))
            if len(owner) and store._wvecs.shape[1:] != (store.dim,):
                raise IndexError_(f"{path / 'window_vectors.npy'} holds {store._wvecs.shape[1:]}-wide vectors for a "
                                  f"{store.dim}-dimensional index; rebuild the index with `geunkeo index --replace`")
            if len(owner) and (owner.min() < 0 or owner.max() >= len(store._chunks)):
                raise IndexError_(f"{path / 'window_owner.npy'} names chunks that chunks.jsonl does not hold; "
                                  "rebuild the index with `geunkeo index --replace`")
            store._wchunk = [store._chunks[i].chunk_id for i in owner]
        store._pos = {c.chunk_id: i for i, c in enumerate(store._chunks)}
        rows: dict[str, list[int]] = {}
        for i, c in enumerate(store._chunks):
            rows.setdefault(c.doc_id, []).append(i)
        store._doc_rows = {d: np.asarray(r) for d, r in rows.items()}
        store._index_windows()
        if (path / "bm25").is_dir():
            store._bm25 = _read(path / "bm25", lambda f: _bm25s().BM25.load(str(f), mmap=True, show_progress=False))
            _same_rows(path / "bm25", int(store._bm25.scores["num_docs"]), "chunks in chunks.jsonl", len(store._chunks))
        return store


def _chunk_records(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def _read(path: Path, reader):
    """reader(path), or IndexError_ naming `path` when it is missing, truncated or not what was written."""
    try:
        return reader(path)
    except (OSError, ValueError, KeyError, TypeError, EOFError) as exc:  # ValueError covers JSON and UTF-8 errors
        raise IndexError_(f"{path} is unreadable ({type(exc).__name__}: {exc}); the index is damaged — rebuild it "
                          "with `geunkeo index --replace`") from exc


def _same_rows(path: Path, rows: int, what: str, expected: int) -> None:
    if rows != expected:
        raise IndexError_(f"{path} has {rows} rows for {expected} {what}; the index is damaged — rebuild it with "
                          "`geunkeo index --replace`")
