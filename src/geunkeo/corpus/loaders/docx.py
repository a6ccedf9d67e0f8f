"""`.docx` loader (python-docx): paragraphs and tables in document order; heading styles become `#` lines."""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from geunkeo.corpus.base import Document
from geunkeo.corpus.loaders.common import build_document, check_zip
from geunkeo.errors import IngestError

if TYPE_CHECKING:
    from docx.table import Table
    from docx.text.paragraph import Paragraph

_HEADING_STYLE = re.compile(r"^(?:Heading|제목)\s*(\d)$", re.I)


class DocxLoader:
    suffixes = (".docx",)

    def load(self, path: Path, root: Path | None = None) -> Iterator[Document]:
        import docx  # here, not at the top: every search imports this module (0.25 s)
        from docx.opc.exceptions import PackageNotFoundError
        from docx.table import Table

        check_zip(path, "DOCX")
        try:
            document = docx.Document(str(path))
        except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, OSError) as e:
            raise IngestError(f"{path}: unreadable DOCX ({type(e).__name__}: {e}); is the file complete?",
                              path=str(path)) from e
        lines: list[str] = []
        title = (document.core_properties.title or "").strip() or None
        for block in _blocks(document):
            if isinstance(block, Table):
                lines.extend(_table_lines(block))
                lines.append("")
                continue
            text = block.text.strip()
            if not text:
                continue
            level = _heading_level(block)
            if level is not None:
                title = title or (text if level <= 1 else None)
                lines.extend(["#" * max(level, 1) + " " + text, ""])
            else:
                lines.extend([text, ""])
        yield build_document(path, root, "\n".join(lines).strip(), title=title, metadata={"format": "docx"})


def _blocks(document) -> Iterator[Paragraph | Table]:
    """Body paragraphs and tables in the order they appear (python-docx lists them separately)."""
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    body = document.element.body
    for child in body.iterchildren():
        tag = child.tag.rsplit("}", 1)[-1]
        if tag == "p":
            yield Paragraph(child, document)
        elif tag == "tbl":
            yield Table(child, document)


def _heading_level(par: Paragraph) -> int | None:
    name = (par.style.name if par.style is not None else "") or ""
    if name.lower() == "title":
        return 1
    m = _HEADING_STYLE.match(name.strip())
    return int(m.group(1)) if m else None


def _table_lines(table: Table) -> list[str]:
    lines = []
    for row in table.rows:
        cells: list[str] = []
        for cell in row.cells:
            text = " ".join(cell.text.split())
            # merged cells repeat the same cell object once per grid column
            if text and (not cells or cells[-1] != text):
                cells.append(text)
        if cells:
            lines.append(" | ".join(cells))
    return lines
