"""`.md` loader: front matter gives title/kind/version/date/lang; otherwise the first `# heading` is the title."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from geunkeo.corpus.base import Document
from geunkeo.corpus.encoding import read_text
from geunkeo.corpus.loaders.common import build_document
from geunkeo.corpus.meta import first_heading, split_front_matter


class MarkdownLoader:
    suffixes = (".md", ".markdown")

    def load(self, path: Path, root: Path | None = None) -> Iterator[Document]:
        text, encoding = read_text(path)
        title = first_heading(split_front_matter(text).body)
        yield build_document(path, root, text, title=title, metadata={"encoding": encoding, "format": "markdown"})
