"""`.jsonl` loader: one document per line (`_id|id|doc_id`, `title`, `text|content|body`) — BEIR `corpus.jsonl` too."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from geunkeo.corpus.base import Document
from geunkeo.corpus.loaders.common import doc_id_for
from geunkeo.errors import IngestError
from geunkeo.text.patterns import detect_lang

_ID_KEYS = ("_id", "id", "doc_id")
_TEXT_KEYS = ("text", "content", "body")
_KNOWN = set(_ID_KEYS) | set(_TEXT_KEYS) | {"title", "lang", "kind", "version", "date"}


class JsonlLoader:
    suffixes = (".jsonl",)

    def load(self, path: Path, root: Path | None = None) -> Iterator[Document]:
        try:
            fh = path.open(encoding="utf-8-sig")
        except OSError as e:
            raise IngestError(f"{path}: cannot read file ({e.strerror or e})", path=str(path)) from e
        file_id = doc_id_for(path, root)
        with fh:
            try:
                for lineno, line in enumerate(fh, start=1):
                    if line.strip():
                        yield _record(json_line(line, path, lineno), path, file_id, lineno)
            except UnicodeDecodeError as e:
                raise IngestError(f"{path}: JSONL must be UTF-8 ({e.reason} at byte {e.start})", path=str(path)) from e


def json_line(line: str, path: Path, lineno: int) -> dict:
    try:
        rec = json.loads(line)
    except json.JSONDecodeError as e:
        raise IngestError(f"{path}:{lineno}: invalid JSON ({e.msg}); fix or remove that line", path=str(path)) from e
    if not isinstance(rec, dict):
        raise IngestError(f"{path}:{lineno}: expected a JSON object per line", path=str(path))
    return rec


def _record(rec: dict, path: Path, file_id: str, lineno: int) -> Document:
    rid = next((rec[k] for k in _ID_KEYS if rec.get(k) not in (None, "")), None)
    # Without an id, the file's doc_id plus the line number is still stable across runs.
    doc_id = str(rid) if rid is not None else f"{file_id}:{lineno}"
    text = next((str(rec[k]) for k in _TEXT_KEYS if rec.get(k)), "")
    title = str(rec.get("title") or "")
    extra = {k: v for k, v in rec.items() if k not in _KNOWN}
    return Document(
        doc_id=doc_id,
        title=title,
        text=text,
        lang=rec.get("lang") or detect_lang(f"{title} {text}"),
        source=f"{path}:{lineno}",
        kind=rec.get("kind") or "document",
        version=rec.get("version"),
        date=rec.get("date"),
        metadata={"format": "jsonl", **({"fields": extra} if extra else {})},
    )
