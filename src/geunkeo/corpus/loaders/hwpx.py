"""`.hwpx` loader (Hancom OWPML, a zip of XML): text runs `<hp:t>` of each paragraph in Contents/section*.xml."""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

from lxml import etree

from geunkeo.corpus.base import Document
from geunkeo.corpus.loaders.common import build_document, check_zip
from geunkeo.errors import IngestError

_SECTION = re.compile(r"^Contents/section(\d+)\.xml$", re.I)
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)


class HwpxLoader:
    suffixes = (".hwpx",)

    def load(self, path: Path, root: Path | None = None) -> Iterator[Document]:
        check_zip(path, "HWPX")
        try:
            with zipfile.ZipFile(path) as zf:
                names = sorted((int(m.group(1)), n) for n in zf.namelist() if (m := _SECTION.match(n)))
                if not names:
                    raise IngestError(f"{path}: no Contents/section*.xml inside; not an HWPX document",
                                      path=str(path))
                paragraphs: list[str] = []
                for _, name in names:
                    paragraphs.extend(section_paragraphs(zf.read(name)))
                title = _package_title(zf)
        except IngestError:
            raise
        except (zipfile.BadZipFile, etree.XMLSyntaxError, OSError, KeyError) as e:
            raise IngestError(f"{path}: unreadable HWPX ({type(e).__name__}: {e}); is the file complete?",
                              path=str(path)) from e
        text = "\n".join(p for p in paragraphs if p.strip())
        yield build_document(path, root, text, title=title, metadata={"format": "hwpx", "sections": len(names)})


def section_paragraphs(xml: bytes) -> list[str]:
    """One string per `<hp:p>`; paragraphs nested in table cells come out as their own lines, in order."""
    tree = etree.fromstring(xml, _PARSER)
    out = []
    for p in tree.iter("{*}p"):
        parts = []
        for t in p.iter("{*}t"):
            # Only runs whose nearest paragraph is `p`, so table cells are not counted twice.
            if _owner_paragraph(t) is p:
                parts.append(_run_text(t))
        out.append("".join(parts).strip())
    return out


def _run_text(t) -> str:
    """`<hp:t>` may contain inline markers (tabs, line breaks) whose tails carry the rest of the text."""
    parts = [t.text or ""]
    for child in t:
        name = etree.QName(child).localname if isinstance(child.tag, str) else ""
        parts.append("\t" if name == "tab" else "\n" if name == "lineBreak" else "")
        parts.append(child.tail or "")
    return "".join(parts)


def _owner_paragraph(el):
    node = el.getparent()
    while node is not None and etree.QName(node).localname != "p":
        node = node.getparent()
    return node


def _package_title(zf: zipfile.ZipFile) -> str | None:
    for name in ("Contents/content.hpf", "content.hpf"):
        if name in zf.namelist():
            tree = etree.fromstring(zf.read(name), _PARSER)
            for el in tree.iter("{*}title"):
                if el.text and el.text.strip():
                    return el.text.strip()
    return None
