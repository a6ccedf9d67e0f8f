"""Corpus stage: files become `Document`s (`load_paths`), documents become structure-aware `Chunk`s
(`chunk_document`)."""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from pathlib import Path

from geunkeo.config import CorpusSettings
from geunkeo.corpus.base import Chunk, Document, LoadFailure
from geunkeo.corpus.chunkers import REGISTRY as CHUNKERS
from geunkeo.corpus.chunkers import choose_chunker, get_chunker
from geunkeo.corpus.loaders import REGISTRY as LOADERS
from geunkeo.corpus.loaders import load_file
from geunkeo.corpus.reflow import drop_running_lines, reflow_many, strip_page_numbers
from geunkeo.errors import ConfigError, GeunkeoError
from geunkeo.text.injection import detect_injections
from geunkeo.trace import Trace

__all__ = [
    "CHUNKERS", "LOADERS", "Chunk", "Document", "LoadFailure", "chunk_document", "chunk_documents", "discover",
    "load_paths",
]


def discover(paths: Iterable[str | Path]) -> tuple[list[tuple[Path, Path]], list[LoadFailure]]:
    """(file, root) pairs for every supported file under `paths`, sorted; missing paths become failures.

    A folder is its files' root; a file given directly is its own folder's root (doc_id = its stem).
    Hidden files and folders (`.git`, `.venv`) and unsupported suffixes are skipped.
    """
    found: dict[Path, tuple[Path, Path]] = {}
    failures: list[LoadFailure] = []
    for p in map(Path, paths):
        if p.is_dir():
            for f in _walk_files(p, failures):
                rel = f.relative_to(p)
                if any(x.startswith(".") for x in rel.parts):
                    continue
                if f.is_symlink() and not f.exists():
                    failures.append(LoadFailure(str(f), "dangling symbolic link (its target does not exist)"))
                elif not f.is_file():
                    continue
                elif f.suffix.lower() in LOADERS:
                    found.setdefault(f.resolve(), (f, p))
                else:
                    failures.append(LoadFailure(str(f), _unsupported(f)))
        elif p.is_symlink() and not p.exists():
            failures.append(LoadFailure(str(p), "dangling symbolic link (its target does not exist)"))
        elif p.is_file():
            if p.suffix.lower() in LOADERS:
                found.setdefault(p.resolve(), (p, p.parent))
            else:
                failures.append(LoadFailure(str(p), _unsupported(p)))
        else:
            failures.append(LoadFailure(str(p), "no such file or folder"))
    return list(found.values()), failures


def _unsupported(p: Path) -> str:
    what = f"unsupported file type {p.suffix}" if p.suffix else "no file extension (the type is read from it)"
    return f"{what}; supported: {', '.join(sorted(LOADERS))}"


def _walk_files(root: Path, failures: list[LoadFailure]) -> list[Path]:
    """Every file and link under `root`, sorted; a folder that cannot be read is reported, not skipped silently."""
    import os

    def unreadable(err: OSError) -> None:
        failures.append(LoadFailure(str(err.filename or root), f"cannot read folder ({err.strerror or err})"))

    out: list[Path] = []
    for folder, dirs, files in os.walk(root, onerror=unreadable, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        out.extend(Path(folder) / f for f in files)
        out.extend(Path(folder) / d for d in dirs if (Path(folder) / d).is_symlink())
    return sorted(out)


def load_paths(paths: Iterable[str | Path], trace: Trace | None = None) -> tuple[list[Document], list[LoadFailure]]:
    """Load every supported file under `paths` (files or folders, recursive).

    A corrupt or unreadable file becomes a `LoadFailure` with its reason while the others load; a document
    with no extractable text, or whose doc_id was already loaded, is a failure too.
    """
    trace = trace or Trace()
    docs: list[Document] = []
    with trace.stage("corpus.load") as rec:
        files, failures = discover(paths)
        seen: dict[str, str] = {}
        for path, root in files:
            try:
                loaded = list(load_file(path, root))
            except GeunkeoError as e:
                failures.append(LoadFailure(str(path), str(e)))
                continue
            except Exception as e:  # a parser bug on a strange file must not stop the whole ingest
                failures.append(LoadFailure(str(path), f"unexpected {type(e).__name__}: {e}"))
                continue
            for doc in loaded:
                if not doc.text.strip():
                    failures.append(LoadFailure(doc.source or str(path),
                                                "no text extracted (a scanned PDF needs OCR first)"
                                                if path.suffix.lower() == ".pdf" else "no text"))
                elif doc.doc_id in seen:
                    failures.append(LoadFailure(doc.source or str(path), f"duplicate doc_id {doc.doc_id!r} "
                                                f"(already loaded from {seen[doc.doc_id]}); skipped"))
                else:
                    seen[doc.doc_id] = doc.source or str(path)
                    docs.append(doc)
        rec.info.update(files=len(files), documents=len(docs), failures=len(failures),
                        running_lines_removed=rebuild_sentences(docs))
    for f in failures:
        trace.warn(f"could not load {f.path}: {f.reason}")
    return docs, failures


def rebuild_sentences(docs: list[Document]) -> int:
    """Drop running headers/footers of page-per-record sources and join lines broken mid-sentence, in place
    (PDFs are rebuilt page by page by their loader). Returns the number of running lines removed."""
    todo = [d for d in docs if not d.metadata.get("reflowed")]
    for d in todo:
        if _record_page(d) is not None:
            d.text = strip_page_numbers(d.text)
    removed = drop_running_lines(todo)
    for d, text in zip(todo, reflow_many([d.text for d in todo]), strict=True):
        d.text = text
        d.metadata["reflowed"] = True
    return removed


def _record_page(doc: Document) -> int | None:
    """The page number a JSONL/BEIR record carries (`page` field), if any."""
    page = doc.metadata.get("fields", {}).get("page")
    return page if isinstance(page, int) and not isinstance(page, bool) and page > 0 else None


def chunk_document(doc: Document, settings: CorpusSettings | None = None, trace: Trace | None = None,
                   chunker: str | None = None) -> list[Chunk]:
    """Structure-aware chunks of one document; the chunker is chosen by content unless `chunker` names one."""
    settings = settings or CorpusSettings()
    if settings.max_chunk_chars < 100:
        raise ConfigError(f"corpus.max_chunk_chars must be at least 100 (got {settings.max_chunk_chars}); "
                          "raise it in geunkeo.toml [corpus] or GEUNKEO_CORPUS__MAX_CHUNK_CHARS")
    if chunker is None:
        chunker, reason = choose_chunker(doc, settings)
    else:
        reason = "requested"
    if trace is not None:
        trace.decide("corpus", "chunker", doc_id=doc.doc_id, chunker=chunker, reason=reason)
    chunks = get_chunker(chunker, settings).chunk(doc)
    _add_pages(doc, chunks)
    for c in chunks:  # documents are data: record instruction-like passages on the chunk
        if found := detect_injections(c.text):
            c.metadata["injection"] = [{"kind": s.kind, "text": s.phrase} for s in found]
            if trace is not None:
                trace.decide("corpus", "instruction-like text", chunk_id=c.chunk_id,
                             found=c.metadata["injection"])
    return chunks


def chunk_documents(docs: Iterable[Document], settings: CorpusSettings | None = None,
                    trace: Trace | None = None) -> list[Chunk]:
    """Chunks of many documents, timed as one `corpus.chunk` stage."""
    trace = trace or Trace()
    out: list[Chunk] = []
    with trace.stage("corpus.chunk") as rec:
        n = 0
        for doc in docs:
            out.extend(chunk_document(doc, settings, trace))
            n += 1
        rec.info.update(documents=n, chunks=len(out))
    return out


def _add_pages(doc: Document, chunks: list[Chunk]) -> None:
    """Chunks of a PDF get the 1-based page their first line is on, chunks of a page record its `page`; the
    location then names it ("청년 창업지원 안내서 p.4"), so every citation does too."""
    starts = doc.metadata.get("page_starts")
    record_page = _record_page(doc)
    for c in chunks:
        line = c.metadata.get("line")
        page = bisect.bisect_right(starts, line) if starts and isinstance(line, int) else record_page
        if page:
            c.metadata["page"] = page
            c.location = f"{c.location} p.{page}"
