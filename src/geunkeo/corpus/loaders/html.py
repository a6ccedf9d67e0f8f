"""`.html`/`.htm` loader (lxml): title from <title> or <h1>; script/style/nav dropped; headings kept as `#` lines."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import lxml.etree
import lxml.html

from geunkeo.corpus.base import Document
from geunkeo.corpus.encoding import read_text
from geunkeo.corpus.loaders.common import build_document
from geunkeo.errors import IngestError

_DROP = {"script", "style", "nav", "noscript", "template", "iframe", "svg", "header", "footer", "form", "button"}
_BLOCK = {
    "p", "div", "section", "article", "main", "aside", "li", "ul", "ol", "dl", "dt", "dd", "table", "tr",
    "blockquote", "pre", "address", "figure", "figcaption", "body", "br", "hr",
}
_HEADINGS = {f"h{i}": i for i in range(1, 7)}
_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>")
_PARSER = lxml.html.HTMLParser(huge_tree=True, remove_comments=True)


class HtmlLoader:
    suffixes = (".html", ".htm")

    def load(self, path: Path, root: Path | None = None) -> Iterator[Document]:
        raw, encoding = read_text(path)
        try:
            # huge_tree: libxml2 otherwise stops at 256 levels of nesting and drops the rest of the page silently
            tree = lxml.html.document_fromstring(_XML_DECL.sub("", raw) or "<html></html>", parser=_PARSER)
        except (lxml.etree.ParserError, ValueError) as e:
            raise IngestError(f"{path}: not parseable as HTML ({e})", path=str(path)) from e
        title = _title(tree)
        body = tree.find("body")
        lines: list[str] = []
        _walk(body if body is not None else tree, lines)
        text = "\n".join(_clean_lines(lines))
        yield build_document(path, root, text, title=title, metadata={"encoding": encoding, "format": "html"})


def _title(tree) -> str | None:
    for xpath in ("//title", "//h1"):
        for el in tree.xpath(xpath):
            t = " ".join(el.text_content().split())
            if t:
                return t
    return None


def _walk(root, lines: list[str]) -> None:
    """Depth-first text extraction: block elements start new lines, table cells are joined with ' | '.

    Iterative, with an explicit stack: a page nested thousands of levels deep (lxml parses it with huge_tree)
    would overflow Python's recursion limit and lose everything below."""
    # (what to do, element): "open" walks it, "close" ends its block, "tail" appends the text after it
    stack: list[tuple[str, lxml.html.HtmlElement]] = [("open", root)]
    while stack:
        kind, item = stack.pop()
        if kind == "tail":
            _append_inline(lines, item.tail)
            continue
        tag = item.tag if isinstance(item.tag, str) else ""
        if kind == "close":
            if tag in _BLOCK:
                lines.append("")
            continue
        if tag in _DROP or not tag:
            continue
        if tag in _HEADINGS:
            text = " ".join(item.text_content().split())
            if text:
                lines.extend(["", "#" * _HEADINGS[tag] + " " + text, ""])
            continue
        if tag == "tr":
            cells = [" ".join(c.text_content().split()) for c in item
                     if isinstance(c.tag, str) and c.tag in ("td", "th")]
            lines.append(" | ".join(c for c in cells if c))
            continue
        if tag in _BLOCK:
            lines.append("")
        _append_inline(lines, item.text)
        stack.append(("close", item))
        for child in reversed(item):
            stack.append(("tail", child))
            stack.append(("open", child))


def _append_inline(lines: list[str], text: str | None) -> None:
    """Append inline text to the current line, keeping one space where the source had whitespace."""
    if not text:
        return
    piece = " ".join(text.split())
    lead = " " if text[:1].isspace() else ""
    trail = " " if text[-1:].isspace() and piece else ""
    if lines and lines[-1]:
        if lines[-1].endswith(" "):
            lead = ""
        lines[-1] += lead + piece + trail
    elif piece:
        lines.append(piece + trail)


def _clean_lines(lines: list[str]) -> list[str]:
    """Strip lines and collapse runs of blank lines into one (paragraph boundaries)."""
    out: list[str] = []
    for line in lines:
        s = line.strip()
        if s or (out and out[-1]):
            out.append(s)
    while out and not out[-1]:
        out.pop()
    return out
