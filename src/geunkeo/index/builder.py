"""Build or update an index: load → chunk → analyse (Kiwi batch) → embed (cached) → store → publish atomically."""

from __future__ import annotations

import hashlib
import os
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from geunkeo.config import Settings
from geunkeo.corpus import chunk_document, load_paths
from geunkeo.corpus.base import Chunk, Document, LoadFailure
from geunkeo.errors import IndexError_, IngestError
from geunkeo.index.base import StoreWriter
from geunkeo.index.embedders import get_embedder
from geunkeo.index.lock import writer_lock
from geunkeo.index.manifest import (
    FORMAT_VERSION,
    Manifest,
    new_generation_dir,
    now_iso,
    publish_generation,
    read_manifest,
)
from geunkeo.index.stores import make_store, open_store
from geunkeo.index.windows import chunk_windows, mean_vectors
from geunkeo.text.analyzer import get_analyzer

# progress(stage, done, total): stages "chunk" (documents), "analyze" (chunks), "embed" (chunk texts), "titles"
Progress = Callable[[str, int, int], None]
EMBED_BATCH = 32


@dataclass
class BuildReport:
    index_dir: str
    documents: int
    chunks: int
    added_or_updated: list[str] = field(default_factory=list)
    unchanged: int = 0
    deleted: list[str] = field(default_factory=list)
    failures: list[LoadFailure] = field(default_factory=list)
    seconds: float = 0.0
    timings: dict[str, float] = field(default_factory=dict)
    embed_cache_hits: int = 0
    embed_cache_misses: int = 0


def _fault(point: str) -> None:
    """Crash-test hook: `GEUNKEO_FAULT=<point>` kills the process there (used by the atomic-build tests)."""
    if os.environ.get("GEUNKEO_FAULT") == point:
        os.kill(os.getpid(), signal.SIGKILL)


def doc_hash(doc: Document) -> str:
    return hashlib.sha256(f"{doc.title}\x00{doc.text}\x00{doc.version}".encode()).hexdigest()[:20]


def build_index(
    paths: Sequence[str | Path],
    index_dir: str | Path,
    settings: Settings | None = None,
    *,
    replace: bool = False,
    progress: Progress | None = None,
    wait: bool = False,
    on_wait: Callable[[str], None] | None = None,
) -> BuildReport:
    """Ingest `paths` into the index at `index_dir`; unchanged documents are skipped, changed ones replaced.

    With `replace=True` the index is rebuilt from these paths alone. Another writer of the same index makes this
    raise `IndexBusy`, or with `wait=True` queue behind it (`on_wait` is told); see `index/lock.py`.
    A path that does not exist, or no document to build a new (or replaced) index from, is an `IngestError`
    raised before the index folder is touched.
    """
    settings = settings or Settings()
    t0 = time.perf_counter()
    index_dir = Path(index_dir)
    timings: dict[str, float] = {}

    t = time.perf_counter()
    _require_paths(paths)
    docs, failures = load_paths([Path(p) for p in paths])
    timings["load"] = time.perf_counter() - t
    if not docs and (replace or not (index_dir / "CURRENT").is_file()):
        # an index of nothing is never what was meant, and with --replace it would empty a good index
        skipped = f" ({len(failures)} skipped, first {failures[0].path}: {failures[0].reason})" if failures else ""
        raise IngestError(f"no documents to index under {', '.join(map(str, paths))}{skipped}; nothing was written")
    # from reading the current generation to publishing the next, this process is the index's only writer
    with writer_lock(index_dir, wait=wait, on_wait=on_wait):
        return _build(index_dir, docs, failures, settings, replace, progress, timings, t0)


def _require_paths(paths: Sequence[str | Path]) -> None:
    """IngestError naming every input path that does not exist (a typo must not build an empty index)."""
    missing = [str(p) for p in paths if not Path(p).exists() and not Path(p).is_symlink()]
    if missing:
        raise IngestError(f"no such file or folder: {', '.join(missing)}; nothing was indexed", path=missing[0])


def _build(index_dir: Path, docs: list[Document], failures: list, settings: Settings, replace: bool,
           progress: Progress | None, timings: dict[str, float], t0: float) -> BuildReport:

    embedder = get_embedder(settings)
    hits0, misses0 = getattr(embedder, "hits", 0), getattr(embedder, "misses", 0)
    analyzer = get_analyzer()
    old: Manifest | None = None
    store: StoreWriter | None = None
    if not replace and (index_dir / "CURRENT").is_file():
        old = read_manifest(index_dir)
        if old.analyzer_version != analyzer.version or old.embedder_version != embedder.version:
            raise IndexError_(
                f"{index_dir} was built with {old.analyzer_version} / {old.embedder_version}; this run uses "
                f"{analyzer.version} / {embedder.version}. Rebuild with --replace."
            )
        store = open_store(settings, index_dir, old)  # a damaged index is not carried into the next generation
    if store is None:
        store = make_store(settings, None, embedder.dim)

    hashes = dict(old.doc_hashes) if old else {}
    titles = dict(old.doc_titles) if old else {}
    todo = [d for d in docs if hashes.get(d.doc_id) != doc_hash(d)]
    report = BuildReport(str(index_dir), 0, 0, failures=failures, unchanged=len(docs) - len(todo))

    t = time.perf_counter()
    chunks: list[Chunk] = []
    for n, d in enumerate(todo, 1):
        chunks.extend(chunk_document(d, settings.corpus))
        if progress:
            progress("chunk", n, len(todo))
    timings["chunk"] = time.perf_counter() - t

    t = time.perf_counter()
    texts = [c.embed_text() for c in chunks]
    if progress:
        progress("analyze", 0, len(texts))
    terms = analyzer.terms_batch(texts) if texts else []
    if progress:
        progress("analyze", len(texts), len(texts))
    timings["analyze"] = time.perf_counter() - t

    t = time.perf_counter()
    window_chars = settings.index.dense_window_chars if store.scores_windows else 0
    vecs, windows = _embed_chunks(embedder, chunks, texts, window_chars, progress)
    new_titles = {d.doc_id: d.title for d in todo if d.title}
    if progress and settings.index.embed_titles:
        progress("titles", 0, len(set(new_titles.values())))
    title_vecs = _embed_titles(embedder, list(new_titles.values())) if settings.index.embed_titles else None
    if progress and settings.index.embed_titles:
        progress("titles", len(set(new_titles.values())), len(set(new_titles.values())))
    timings["embed"] = time.perf_counter() - t
    _fault("after_embed")

    t = time.perf_counter()
    by_doc = {d.doc_id for d in todo}
    docs_without_chunks = [d for d in by_doc if not any(c.doc_id == d for c in chunks)]
    store.delete_documents(docs_without_chunks)
    if chunks:
        store.upsert(chunks, terms, vecs)
        if windows is not None:
            store.upsert_windows(*windows)
    if title_vecs is not None and new_titles:
        store.set_titles(new_titles, title_vecs)
    for d in todo:
        hashes[d.doc_id] = doc_hash(d)
        if d.title:
            titles[d.doc_id] = d.title
    timings["store"] = time.perf_counter() - t

    versions = {"embedder": embedder.name, "embedder_version": embedder.version, "dim": embedder.dim,
                "analyzer_version": analyzer.version}
    _publish(index_dir, store, settings, versions, hashes, titles, old, timings)
    st = store.stats()
    report.documents, report.chunks = st.documents, st.chunks
    report.added_or_updated = [d.doc_id for d in todo]
    report.seconds = time.perf_counter() - t0
    report.timings = timings
    report.embed_cache_hits = getattr(embedder, "hits", 0) - hits0
    report.embed_cache_misses = getattr(embedder, "misses", 0) - misses0
    return report


def delete_documents(index_dir: str | Path, doc_ids: Sequence[str], settings: Settings | None = None) -> int:
    """Remove documents by doc_id and publish a new generation; returns the number of chunks removed."""
    settings = settings or Settings()
    index_dir = Path(index_dir)
    read_manifest(index_dir)  # a clear error for a missing index, before a lock file is created there
    with writer_lock(index_dir):
        old = read_manifest(index_dir)
        return _delete(index_dir, old, doc_ids, settings)


def _embed_batched(embedder, texts: list[str], progress: Progress | None) -> np.ndarray:
    vecs = np.zeros((len(texts), embedder.dim), dtype=np.float32)
    if progress and texts:
        progress("embed", 0, len(texts))  # the stage's start: rates and ETAs count from here
    for i in range(0, len(texts), EMBED_BATCH):
        vecs[i : i + EMBED_BATCH] = embedder.embed_passages(texts[i : i + EMBED_BATCH])
        if progress:
            progress("embed", min(i + EMBED_BATCH, len(texts)), len(texts))
    return vecs


def _embed_chunks(embedder, chunks: list[Chunk], texts: list[str], window_chars: int,
                  progress: Progress | None) -> tuple[np.ndarray, tuple[list[str], np.ndarray] | None]:
    """Chunk vectors, and with `window_chars` the (owner chunk id, vector) rows of every chunk's windows.

    With windows, only the windows are embedded: a chunk that fits one window is its window, a longer chunk's
    vector is the mean of its windows' (the store scores it by its best window; the mean serves the rest)."""
    if not window_chars:
        return _embed_batched(embedder, texts, progress), None
    per_chunk = [chunk_windows(c, window_chars) for c in chunks]
    owners = [i for i, ws in enumerate(per_chunk) for _ in ws]
    wvecs = _embed_batched(embedder, [w for ws in per_chunk for w in ws], progress)
    vecs = mean_vectors(wvecs, owners, len(chunks))
    return vecs, ([chunks[i].chunk_id for i in owners], wvecs)


def _embed_titles(embedder, titles: list[str]) -> np.ndarray:
    """Title vectors in `titles` order, each distinct title embedded once (the 720 pages of autorag-ko have 32)."""
    distinct = list(dict.fromkeys(titles))
    if not distinct:
        return np.zeros((0, embedder.dim), dtype=np.float32)
    vecs = embedder.embed_passages(distinct)
    row = {t: i for i, t in enumerate(distinct)}
    return vecs[[row[t] for t in titles]]


def _delete(index_dir: Path, old: Manifest, doc_ids: Sequence[str], settings: Settings) -> int:
    store: StoreWriter = open_store(settings, index_dir, old)
    removed = store.delete_documents(list(doc_ids))
    hashes = {k: v for k, v in old.doc_hashes.items() if k not in set(doc_ids)}
    titles = {k: v for k, v in old.doc_titles.items() if k not in set(doc_ids)}
    versions = {"embedder": old.embedder, "embedder_version": old.embedder_version, "dim": old.dim,
                "analyzer_version": old.analyzer_version}
    _publish(index_dir, store, settings, versions, hashes, titles, old, {})
    return removed


def _publish(index_dir: Path, store: StoreWriter, settings: Settings, versions: dict, hashes: dict[str, str],
             titles: dict[str, str], old: Manifest | None, timings: dict[str, float]) -> None:
    tmp = new_generation_dir(index_dir)
    store.save(tmp)
    _fault("after_store_save")
    st = store.stats()
    manifest = Manifest(
        format_version=FORMAT_VERSION,
        created_at=now_iso(),
        analyzer_version=versions["analyzer_version"],
        embedder=versions["embedder"],
        embedder_version=versions["embedder_version"],
        dim=versions["dim"],
        store=store.name,
        documents=st.documents,
        chunks=st.chunks,
        langs=st.extra.get("langs", {}),
        config_hash=settings.section_hash("corpus", "index"),
        doc_hashes=hashes,
        doc_titles=titles,
        tuned_fusion=old.tuned_fusion if old else None,
        build={"timings_s": {k: round(v, 3) for k, v in timings.items()}},
    )
    publish_generation(index_dir, tmp, manifest)
