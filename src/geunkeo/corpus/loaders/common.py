"""Helpers every loader shares: stable doc_ids and filling in language, title and version/date."""

from __future__ import annotations

from pathlib import Path

from geunkeo.corpus.base import Document
from geunkeo.corpus.meta import first_line_title, split_front_matter, version_and_date
from geunkeo.errors import IngestError
from geunkeo.text.patterns import detect_lang

_KINDS = {"regulation", "notice", "policy", "document"}


def doc_id_for(path: Path, root: Path | None) -> str:
    """Path relative to `root` without its extension, `/`-separated (`regulations/hakchik`)."""
    base = root if root is not None else path.parent
    try:
        rel = path.resolve().relative_to(base.resolve())
    except ValueError:
        rel = Path(path.name)
    return rel.with_suffix("").as_posix()


def build_document(
    path: Path,
    root: Path | None,
    text: str,
    title: str | None = None,
    metadata: dict | None = None,
    doc_id: str | None = None,
) -> Document:
    """A Document from extracted text: front matter wins, then what the format gave, then guesses from the text."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    fm = split_front_matter(text)
    fields = fm.fields
    body = fm.body.strip("\n") if fields else text
    leading_blank = len(fm.body) - len(fm.body.lstrip("\n")) if fields else 0
    version, date = version_and_date(body)
    kind = fields.get("kind", "document").lower()
    meta = dict(metadata or {})
    if fields:
        meta["front_matter"] = fields
        # line n of `text` is line n + body_line_offset of the file
        meta["body_line_offset"] = fm.body_line_offset + leading_blank
    return Document(
        doc_id=doc_id or doc_id_for(path, root),
        title=fields.get("title") or title or first_line_title(body) or path.stem,
        text=body,
        lang=fields.get("lang") or detect_lang(body),
        source=str(path),
        kind=kind if kind in _KINDS else "document",
        version=fields.get("version") or version,
        date=fields.get("date") or date,
        metadata=meta,
    )


MAX_UNZIPPED_BYTES = 256 * 1024 * 1024  # a DOCX or HWPX package larger than this when inflated is refused
MAX_RATIO = 200  # compressed → inflated; text compresses ~5-20×, a zip bomb by thousands


def check_zip(path: Path, kind: str) -> None:
    """Refuse a zip package (DOCX, HWPX) that would inflate past MAX_UNZIPPED_BYTES, or a member inflating more
    than MAX_RATIO times: decided from the zip's directory before anything is inflated."""
    import zipfile

    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
    except (zipfile.BadZipFile, OSError) as e:
        raise IngestError(f"{path}: unreadable {kind} ({type(e).__name__}: {e}); is the file complete?",
                          path=str(path)) from e
    total = sum(i.file_size for i in infos)
    if total > MAX_UNZIPPED_BYTES:
        raise IngestError(f"{path}: refused: the package would inflate to {total / 2**20:.0f} MB "
                          f"(limit {MAX_UNZIPPED_BYTES / 2**20:.0f} MB; a zip bomb?)", path=str(path))
    for i in infos:
        if i.file_size > 10 * 2**20 and i.file_size > MAX_RATIO * max(i.compress_size, 1):
            raise IngestError(f"{path}: refused: {i.filename} inflates {i.file_size // max(i.compress_size, 1)}× "
                              f"to {i.file_size / 2**20:.0f} MB (a zip bomb?)", path=str(path))
