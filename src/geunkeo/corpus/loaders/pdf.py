"""`.pdf` loader (pypdf): page texts joined in order; `metadata["page_starts"]` maps text lines back to pages."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from geunkeo.corpus.base import Document
from geunkeo.corpus.loaders.common import build_document
from geunkeo.corpus.reflow import PAGE_NUMBER as _PAGE_NUMBER
from geunkeo.corpus.reflow import reflow_many
from geunkeo.errors import IngestError

# pypdf logs every recoverable oddity of real-world PDFs; failures surface as IngestError instead.
logging.getLogger("pypdf").setLevel(logging.ERROR)


class PdfLoader:
    suffixes = (".pdf",)

    def load(self, path: Path, root: Path | None = None) -> Iterator[Document]:
        from pypdf import PdfReader  # here, not at the top: every search imports this module (0.3 s)
        from pypdf.errors import PdfReadError, PyPdfError

        try:
            reader = PdfReader(str(path), strict=False)
            if reader.is_encrypted and not reader.decrypt(""):
                raise IngestError(f"{path}: PDF is password-protected; save an unprotected copy", path=str(path))
            pages = [(page.extract_text() or "").replace("\r\n", "\n").strip("\n") for page in reader.pages]
            info_title = (reader.metadata.title if reader.metadata else None) or None
        except IngestError:
            raise
        except (PdfReadError, PyPdfError, OSError, ValueError, KeyError, TypeError) as e:
            raise IngestError(f"{path}: unreadable PDF ({type(e).__name__}: {e}); is the file complete?",
                              path=str(path)) from e
        # sentences are rebuilt page by page, so line numbers still map back to pages
        pages = reflow_many(strip_page_furniture(pages))
        page_starts, line = [], 0
        for text in pages:
            page_starts.append(line)
            line += text.count("\n") + 2  # pages are joined by one blank line
        text = "\n\n".join(pages)
        doc = build_document(path, root, text, title=str(info_title).strip() if info_title else None,
                             metadata={"format": "pdf", "pages": len(pages), "page_starts": page_starts,
                                       "reflowed": True})
        yield doc


def strip_page_furniture(pages: list[str]) -> list[str]:
    """Drop page numbers ("- 3 -", "3 / 10", "Page 3") and running headers/footers: a first or last line that
    repeats on more than half of the pages (documents of three pages or more)."""
    split = [p.split("\n") for p in pages]
    edges = Counter(line.strip() for lines in split for line in {lines[0], lines[-1]} if line.strip())
    repeated = {t for t, n in edges.items() if len(pages) >= 3 and n > len(pages) / 2}
    out = []
    for lines in split:
        while lines and (_PAGE_NUMBER.match(lines[-1].strip()) or lines[-1].strip() in repeated):
            lines = lines[:-1]
        while lines and (_PAGE_NUMBER.match(lines[0].strip()) or lines[0].strip() in repeated):
            lines = lines[1:]
        out.append("\n".join(lines))
    return out
