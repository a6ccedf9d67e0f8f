"""Milvus backend: the same store over Milvus Lite (a local file) or a Milvus cluster (a URI), one client.

What lives where:
- Milvus holds every chunk row (dense vector, BM25 sparse vector, chunk metadata and analyzer terms as JSON)
  and the document-title vectors, in two collections per index generation.
- The generation directory holds `milvus.json`: the URI, collection names, counts and the BM25 vocabulary
  (term → sparse dimension, idf). With the default URI the Milvus Lite file sits beside the generations
  (`<index>/milvus.db`).

BM25 is computed by geunkeo, not by Milvus' analyzers (they do not segment Korean): each chunk's sparse vector
holds idf(t) · tf / (tf + k1 · (1 − b + b · dl / avgdl)) over the Kiwi terms — the Lucene BM25 that bm25s uses
in the embedded store — so an inner-product search with the query's term weights gives the same scores.

Generations: a build writes a new pair of collections (unchanged rows are copied from the live one, vectors
included, so nothing is re-embedded) and the index's atomic CURRENT switch publishes it; the previous
collections stay until the build after next, like the embedded store's generation folders. A crash during a
build leaves the live collections untouched; the orphans are dropped by the next build.
"""

from __future__ import annotations

import json
import logging
import math
import uuid
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from geunkeo.corpus.base import Chunk
from geunkeo.errors import ConfigError, IndexError_
from geunkeo.index.base import ScoredId, StoreStats, VectorStore

if TYPE_CHECKING:  # pymilvus is an optional extra, imported when a client is made
    from pymilvus import MilvusClient

K1, B = 1.5, 0.75  # bm25s defaults, so both stores rank alike
STATE_FILE = "milvus.json"
OWNED_FILE = "milvus-collections.txt"  # every collection this index created, for garbage collection
SEARCH_LIMIT = 16384  # Milvus' maximum topk
_clients: dict[tuple[str, str | None], MilvusClient] = {}
# Milvus Lite cannot hand out a server timestamp for iterators; pymilvus logs a warning per iterator and then
# uses a client-side one, which is what we want. Keep that one message out of users' logs.
logging.getLogger("pymilvus.client.iterator.query_iterator").addFilter(
    lambda record: "mvccTs" not in record.getMessage())


def _client(uri: str, token: str | None) -> MilvusClient:
    """One MilvusClient per URI per process (a Milvus Lite file is served by one local server process)."""
    try:
        from pymilvus import MilvusClient
    except ImportError as exc:  # optional extra
        raise ConfigError("the milvus store needs `pip install geunkeo[milvus]` (pymilvus, milvus-lite)") from exc
    key = (uri, token)
    if key not in _clients:
        _clients[key] = MilvusClient(uri, token=token) if token else MilvusClient(uri)
    return _clients[key]


def close_clients() -> None:
    """Close this process's Milvus connections (a Milvus Lite file can be served to one process at a time)."""
    for (uri, _token), client in list(_clients.items()):
        client.close()
        if not uri.startswith(("http://", "https://", "tcp://", "unix:")):
            from milvus_lite.server_manager import server_manager_instance

            server_manager_instance.release_server(uri)  # stops the local server that holds the file lock
    _clients.clear()


def bm25_doc_weights(terms: Sequence[list[str]]) -> tuple[dict[str, tuple[int, float]], list[dict[int, float]]]:
    """Vocabulary (term → (dimension, idf)) and one sparse BM25 vector per document, Lucene variant."""
    docs = [t if t else ["\x00"] for t in terms]  # as the embedded store: an empty chunk gets a placeholder
    n = len(docs)
    avgdl = (sum(len(d) for d in docs) / n) if n else 1.0
    df: dict[str, int] = {}
    for d in docs:
        for t in set(d):
            df[t] = df.get(t, 0) + 1
    vocab = {t: (i, math.log(1 + (n - c + 0.5) / (c + 0.5))) for i, (t, c) in enumerate(sorted(df.items()))}
    vectors = []
    for d in docs:
        tf: dict[str, int] = {}
        for t in d:
            tf[t] = tf.get(t, 0) + 1
        norm = K1 * (1 - B + B * len(d) / avgdl)
        vectors.append({vocab[t][0]: vocab[t][1] * f / (f + norm) for t, f in tf.items()})
    return vocab, vectors


class MilvusStore(VectorStore):
    name = "milvus"

    def __init__(self, dim: int, uri: str | None = None, prefix: str = "geunkeo", token: str | None = None) -> None:
        self.dim = dim
        self._uri, self._prefix, self._token = uri, prefix, token
        self._state: dict = {}
        self._vocab: dict[str, tuple[int, float]] = {}
        self._pending: list[tuple[Chunk, list[str], np.ndarray]] = []
        self._pending_titles: dict[str, tuple[str, np.ndarray]] = {}
        self._deleted: set[str] = set()
        self._meta: dict[str, dict] = {}  # chunk_id → {"chunk": …, "terms": …}, filled by searches
        self._all: list[Chunk] | None = None

    # -- connection ---------------------------------------------------------------------------------------
    def _resolved_uri(self, index_dir: Path) -> str:
        return self._uri or str(index_dir / "milvus.db")

    @property
    def _db(self):
        return _client(self._state["uri"], self._token)

    @property
    def _rows(self) -> str | None:
        return self._state.get("collection")

    # -- writing (buffered until save) ------------------------------------------------------------------
    def upsert(self, chunks: Sequence[Chunk], terms: Sequence[list[str]], vectors: np.ndarray) -> None:
        if not (len(chunks) == len(terms) == len(vectors)):
            raise ValueError("chunks, terms and vectors must have the same length")
        docs = {c.doc_id for c in chunks}
        self._pending = [p for p in self._pending if p[0].doc_id not in docs]
        self._deleted |= docs
        vectors = np.asarray(vectors, dtype=np.float32).reshape(len(chunks), self.dim)
        self._pending.extend(zip(chunks, (list(t) for t in terms), vectors, strict=True))

    def delete_documents(self, doc_ids: Sequence[str]) -> int:
        ids = set(doc_ids)
        removed = sum(1 for p in self._pending if p[0].doc_id in ids)
        self._pending = [p for p in self._pending if p[0].doc_id not in ids]
        live = ids - self._deleted  # rows of the live collection not already dropped by an earlier call
        if self._rows and live:
            got = self._db.query(self._rows, filter=_in_list("doc_id", sorted(live)), output_fields=["count(*)"])
            removed += int(got[0]["count(*)"])
        self._deleted |= ids
        for d in ids:
            self._pending_titles.pop(d, None)
        return removed

    def set_titles(self, titles: dict[str, str], vectors: np.ndarray) -> None:
        for (doc_id, title), v in zip(titles.items(), vectors, strict=True):
            self._pending_titles[doc_id] = (title, np.asarray(v, dtype=np.float32))

    def _scan(self, collection: str, fields: list[str]) -> Iterable[dict]:
        """Every row of a collection, in batches (a plain query stops at Milvus' result limit)."""
        it = self._db.query_iterator(collection, batch_size=1000, filter='pk != ""', output_fields=fields)
        try:
            while batch := it.next():
                yield from batch
        finally:
            it.close()

    def _live_rows(self) -> Iterable[dict]:
        """Rows of the live collection that survive the pending changes (vectors included)."""
        if not self._rows:
            return []
        return (r for r in self._scan(self._rows, ["pk", "doc_id", "lang", "dense", "meta"])
                if r["doc_id"] not in self._deleted)

    def _live_titles(self) -> list[dict]:
        if not self._state.get("titles_collection"):
            return []
        return [r for r in self._scan(self._state["titles_collection"], ["pk", "title", "dense"])
                if r["pk"] not in self._deleted and r["pk"] not in self._pending_titles]

    def _create(self, db, name: str, sparse: bool) -> None:
        from pymilvus import DataType, MilvusClient

        schema = MilvusClient.create_schema(auto_id=False)
        schema.add_field("pk", DataType.VARCHAR, is_primary=True, max_length=1024)
        schema.add_field("dense", DataType.FLOAT_VECTOR, dim=self.dim)
        params = db.prepare_index_params()
        params.add_index("dense", index_type="FLAT", metric_type="IP")
        if sparse:
            schema.add_field("doc_id", DataType.VARCHAR, max_length=1024)
            schema.add_field("lang", DataType.VARCHAR, max_length=16)
            schema.add_field("sparse", DataType.SPARSE_FLOAT_VECTOR)
            schema.add_field("meta", DataType.JSON)
            params.add_index("sparse", index_type="SPARSE_INVERTED_INDEX", metric_type="IP")
        else:
            schema.add_field("title", DataType.VARCHAR, max_length=4096)
        db.create_collection(name, schema=schema, index_params=params)

    def save(self, path: Path) -> None:
        """Write a new generation: new collections (live rows + pending changes) and `milvus.json` in `path`."""
        path.mkdir(parents=True, exist_ok=True)
        index_dir = path.parent
        uri = self._state.get("uri") or self._resolved_uri(index_dir)
        db = _client(uri, self._token)
        rows = list(self._live_rows()) if self._state else []
        rows += [{"pk": c.chunk_id, "doc_id": c.doc_id, "lang": c.lang, "dense": v.tolist(),
                  "meta": {"chunk": c.to_dict(), "terms": t}} for c, t, v in self._pending]
        titles = self._live_titles() if self._state else []
        titles += [{"pk": d, "title": t, "dense": v.tolist()} for d, (t, v) in self._pending_titles.items()]
        vocab, sparse = bm25_doc_weights([r["meta"]["terms"] for r in rows])
        for r, s in zip(rows, sparse, strict=True):
            r["sparse"] = s
        name = f"{self._prefix}_{uuid.uuid4().hex[:12]}"
        _record_owned(index_dir, [name, name + "_titles"])
        self._create(db, name, sparse=True)
        self._create(db, name + "_titles", sparse=False)
        for i in range(0, len(rows), 1000):
            db.insert(name, rows[i : i + 1000])
        if titles:
            db.insert(name + "_titles", titles)
        langs: dict[str, int] = {}
        for r in rows:
            langs[r["lang"]] = langs.get(r["lang"], 0) + 1
        state = {"uri": self._uri, "collection": name, "titles_collection": name + "_titles",
                 "chunks": len(rows), "documents": len({r["doc_id"] for r in rows}), "titles": len(titles),
                 "langs": langs, "dim": self.dim, "bm25": {"k1": K1, "b": B}}
        (path / STATE_FILE).write_text(json.dumps(state, ensure_ascii=False), encoding="utf-8")
        (path / "bm25_vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
        _drop_unreferenced(db, index_dir, keep={name, name + "_titles"})
        self._state, self._vocab = {**state, "uri": uri}, vocab
        self._pending, self._pending_titles, self._deleted = [], {}, set()
        self._meta, self._all = {}, None
        db.load_collection(name)
        db.load_collection(name + "_titles")

    def term_rarity(self, terms: Sequence[str]) -> dict[str, float]:
        n = int(self._state.get("chunks", 0))
        if not n:
            return {}
        top = math.log(1 + (n + 0.5) / 0.5)
        return {t: (self._vocab[t][1] / top if t in self._vocab else 1.0) for t in terms}

    @classmethod
    def load(cls, path: Path, uri: str | None = None, prefix: str = "geunkeo",
             token: str | None = None) -> MilvusStore:
        try:
            state = json.loads((path / STATE_FILE).read_text(encoding="utf-8"))
            vocab = json.loads((path / "bm25_vocab.json").read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise IndexError_(f"Milvus index state in {path} is unreadable ({exc}); rebuild with `geunkeo index`") from exc
        store = cls(int(state["dim"]), uri or state["uri"], prefix, token)
        store._state = {**state, "uri": store._resolved_uri(path.parent)}
        store._vocab = {t: (int(v[0]), float(v[1])) for t, v in vocab.items()}
        if not store._db.has_collection(state["collection"]):
            raise IndexError_(f"Milvus collection {state['collection']!r} is missing at {store._state['uri']}; "
                              "rebuild the index with `geunkeo index --replace`")
        store._db.load_collection(state["collection"])
        store._db.load_collection(state["titles_collection"])
        return store

    # -- searching ----------------------------------------------------------------------------------------
    def _remember(self, hits: list[dict]) -> None:
        for h in hits:
            if "meta" in h.get("entity", {}):
                self._meta[h["id"]] = h["entity"]["meta"]

    def search_sparse(self, terms: list[str], k: int, weights: dict[str, float] | None = None) -> list[ScoredId]:
        q = {self._vocab[t][0]: float((weights or {}).get(t, 1.0)) for t in dict.fromkeys(terms) if t in self._vocab}
        q = {i: w for i, w in q.items() if w > 0}
        if not q or not self._rows or k <= 0:
            return []
        res = self._db.search(self._rows, data=[q], anns_field="sparse", limit=min(k, SEARCH_LIMIT),
                              output_fields=["meta"], search_params={"metric_type": "IP"})[0]
        self._remember(res)
        return [ScoredId(h["id"], float(h["distance"])) for h in res if h["distance"] > 0]

    def search_dense(self, vector: np.ndarray, k: int) -> list[ScoredId]:
        if not self._rows or k <= 0 or not self._state.get("chunks"):
            return []
        res = self._db.search(self._rows, data=[np.asarray(vector, dtype=np.float32).tolist()], anns_field="dense",
                              limit=min(k, SEARCH_LIMIT), output_fields=["meta"],
                              search_params={"metric_type": "IP"})[0]
        self._remember(res)
        return [ScoredId(h["id"], float(h["distance"])) for h in res]

    def dense_scores(self, vector: np.ndarray) -> np.ndarray:
        """Cosine to every chunk in `chunks()` order; beyond Milvus' top-16384 a chunk gets the lowest seen."""
        chunks = self.chunks()
        hits = self.search_dense(vector, len(chunks))
        floor = min((h.score for h in hits), default=0.0)
        by_id = {h.chunk_id: h.score for h in hits}
        return np.asarray([by_id.get(c.chunk_id, floor) for c in chunks], dtype=np.float32)

    def search_titles(self, vector: np.ndarray, k: int) -> list[tuple[str, float]]:
        name = self._state.get("titles_collection")
        if not name or not self._state.get("titles") or k <= 0:
            return []
        res = self._db.search(name, data=[np.asarray(vector, dtype=np.float32).tolist()], anns_field="dense",
                              limit=min(k, SEARCH_LIMIT), search_params={"metric_type": "IP"})[0]
        return [(h["id"], float(h["distance"])) for h in res]

    def _fetch(self, chunk_id: str) -> dict:
        if chunk_id not in self._meta and self._rows:
            got = self._db.query(self._rows, ids=[chunk_id], output_fields=["meta"])
            if got:
                self._meta[chunk_id] = got[0]["meta"]
        if chunk_id not in self._meta:
            raise IndexError_(f"chunk {chunk_id!r} is not in this index")
        return self._meta[chunk_id]

    def get(self, chunk_id: str) -> Chunk:
        return Chunk.from_dict(self._fetch(chunk_id)["chunk"])

    def chunk_terms(self, chunk_id: str) -> list[str]:
        return list(self._fetch(chunk_id)["terms"])

    def chunks(self) -> list[Chunk]:
        if self._all is None:
            out: list[Chunk] = []
            for r in self._scan(self._rows, ["pk", "meta"]) if self._rows else ():
                self._meta[r["pk"]] = r["meta"]
                out.append(Chunk.from_dict(r["meta"]["chunk"]))
            self._all = out
        return list(self._all)

    def stats(self) -> StoreStats:
        s = self._state
        return StoreStats(s.get("chunks", 0), s.get("documents", 0), self.dim,
                          {"langs": s.get("langs", {}), "titles": s.get("titles", 0), "uri": s.get("uri"),
                           "collection": s.get("collection")})


def _in_list(field: str, values: list[str]) -> str:
    # Milvus Lite 2.5 does not take filter templates; a JSON array is a valid Milvus list literal
    return f"{field} in {json.dumps(values, ensure_ascii=False)}"


def _record_owned(index_dir: Path, names: list[str]) -> None:
    index_dir.mkdir(parents=True, exist_ok=True)
    with open(index_dir / OWNED_FILE, "a", encoding="utf-8") as f:
        f.write("".join(n + "\n" for n in names))


def _drop_unreferenced(db, index_dir: Path, keep: set[str]) -> None:
    """Drop collections this index created that no generation folder refers to any more."""
    owned_file = index_dir / OWNED_FILE
    owned = set(owned_file.read_text(encoding="utf-8").split()) if owned_file.is_file() else set()
    referenced = set(keep)
    for state_file in index_dir.glob(f"*/{STATE_FILE}"):
        try:
            st = json.loads(state_file.read_text(encoding="utf-8"))
            referenced |= {st["collection"], st["titles_collection"]}
        except (OSError, ValueError, KeyError):
            continue
    for name in sorted(owned - referenced):
        if db.has_collection(name):
            db.drop_collection(name)
    owned_file.write_text("".join(n + "\n" for n in sorted(owned & referenced)), encoding="utf-8")
