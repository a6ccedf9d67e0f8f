"""File loaders, chosen by file suffix. Adding a format = one module + one line in `_LOADERS`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from geunkeo.corpus.base import Document, Loader
from geunkeo.corpus.loaders.docx import DocxLoader
from geunkeo.corpus.loaders.html import HtmlLoader
from geunkeo.corpus.loaders.hwp import HwpLoader
from geunkeo.corpus.loaders.hwpx import HwpxLoader
from geunkeo.corpus.loaders.jsonl import JsonlLoader
from geunkeo.corpus.loaders.markdown import MarkdownLoader
from geunkeo.corpus.loaders.pdf import PdfLoader
from geunkeo.corpus.loaders.text import TextLoader
from geunkeo.errors import IngestError

_LOADERS: list[Loader] = [
    MarkdownLoader(),
    TextLoader(),
    HtmlLoader(),
    JsonlLoader(),
    PdfLoader(),
    DocxLoader(),
    HwpxLoader(),
    HwpLoader(),
]

REGISTRY: dict[str, Loader] = {suffix: loader for loader in _LOADERS for suffix in loader.suffixes}


def loader_for(path: Path) -> Loader | None:
    """The loader registered for this file's suffix, or None when the format is not supported."""
    return REGISTRY.get(path.suffix.lower())


def load_file(path: Path, root: Path | None = None) -> Iterator[Document]:
    """Documents in one file; raises IngestError for unsupported or unreadable files."""
    loader = loader_for(path)
    if loader is None:
        raise IngestError(
            f"{path}: unsupported file type {path.suffix or '(none)'}; supported: {', '.join(sorted(REGISTRY))}",
            path=str(path),
        )
    yield from loader.load(path, root)
