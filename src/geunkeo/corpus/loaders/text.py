"""`.txt` loader: UTF-8 or CP949/EUC-KR text; front matter when present, else the first short line is the title."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from geunkeo.corpus.base import Document
from geunkeo.corpus.encoding import read_text
from geunkeo.corpus.loaders.common import build_document


class TextLoader:
    suffixes = (".txt",)

    def load(self, path: Path, root: Path | None = None) -> Iterator[Document]:
        text, encoding = read_text(path)
        yield build_document(path, root, text, metadata={"encoding": encoding, "format": "text"})
