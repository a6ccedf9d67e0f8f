"""Markdown-headed documents (notices, guides) and plain text: one chunk per section or paragraph block.

Sections keep their heading path in `path` and their heading as the first line of the text; long sections are
split on paragraph boundaries. Plain text is packed paragraph by paragraph into blocks of at most
`max_chunk_chars`. Anchors are `s1`, `s2`, … (`s3~2` for the second part of a split section).
"""

from __future__ import annotations

import re
from dataclasses import replace

from geunkeo.config import CorpusSettings
from geunkeo.corpus.base import Chunk, Document
from geunkeo.corpus.chunkers.common import Block, Unit, clean_line, doc_label, emit, is_md_heading

MARKDOWN = "markdown-sections"
TEXT_SECTIONS = "text-sections"
PLAIN = "paragraphs"

# Plain-text section titles common in Korean notices: "1. 상담 기간", "□ 신청 방법", "[문의]" — short, on their own
# line, starting with a word, not a sentence. (○/- bullets are list items in Korean documents, not titles.)
_TEXT_HEADING = re.compile(r"^(?:\d{1,2}\.\s+|[□■◆◇]\s*)([\uac00-\ud7a3A-Za-z].{0,37})$|^\[([^\]]{1,38})\]$")
_SENTENCE_TAIL = re.compile(r"(?:[.:;,?!]|다|요|음|함|임)$")


def count_headings(lines: list[str]) -> int:
    """How many lines are Markdown headings."""
    return sum(1 for line in lines if is_md_heading(line))


def text_heading_lines(lines: list[str]) -> list[int]:
    """Indices of plain-text section titles: a short numbered/bulleted line followed by a non-empty line."""
    out = []
    for i, line in enumerate(lines[:-1]):
        s = line.strip()
        if _TEXT_HEADING.match(s) and not _SENTENCE_TAIL.search(s) and lines[i + 1].strip():
            out.append(i)
    return out


def chunk_text_sections(doc: Document, settings: CorpusSettings) -> list[Chunk]:
    """Plain text with section titles ("2. 제출 서류"): the titles become level-2 headings, then as Markdown."""
    lines = doc.text.split("\n")
    for i in text_heading_lines(lines):
        lines[i] = "## " + lines[i].strip()
    # The title repeated as the first line is the document's own heading, not a section.
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is not None and lines[first].strip() == doc.title:
        lines[first] = "# " + doc.title
    chunks = chunk_markdown(replace(doc, text="\n".join(lines)), settings)
    for c in chunks:
        c.metadata["chunker"] = TEXT_SECTIONS
    return chunks


def chunk_markdown(doc: Document, settings: CorpusSettings) -> list[Chunk]:
    """One chunk per Markdown section; the document's own `# title` heading is not a section."""
    units: list[Unit] = []
    stack: list[tuple[int, str]] = []  # (level, heading)
    current: Unit | None = None
    blank = True
    for i, raw in enumerate(doc.text.split("\n")):
        level = is_md_heading(raw)
        line = clean_line(raw) if level else raw.strip()
        if level:
            if current is not None:
                units.append(current)
                current = None
            if line == doc.title and not units and not stack:
                continue
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, line))
            path = [h for _, h in stack]
            current = Unit(anchor="", heading=line, location=" > ".join([doc_label(doc), *path]), path=path, line=i,
                           blocks=[Block(None, [line])])
            blank = True
            continue
        if not line:
            blank = True
            continue
        if current is None:
            path = [h for _, h in stack]
            current = Unit(anchor="", heading="", location=" > ".join([doc_label(doc), *path]), path=path, line=i)
        if blank or not current.blocks:
            current.blocks.append(Block(None, [line], i))
        else:
            current.blocks[-1].lines.append(line)
        blank = False
    if current is not None:
        units.append(current)
    # A heading directly followed by a sub-heading has no text of its own: it lives on in its children's path.
    units = [u for u in units if not (u.heading and len(u.blocks) == 1 and len(u.blocks[0].lines) == 1)]
    for n, unit in enumerate(units, start=1):
        unit.anchor = f"s{n}"
    return emit(doc, units, settings, MARKDOWN)


def chunk_paragraphs(doc: Document, settings: CorpusSettings) -> list[Chunk]:
    """Plain text: paragraphs (blank-line separated) packed into blocks of at most `max_chunk_chars`."""
    paragraphs: list[tuple[int, str]] = []
    start = 0
    buf: list[str] = []
    for i, raw in enumerate(doc.text.split("\n") + [""]):
        s = raw.strip()
        if s:
            if not buf:
                start = i
            buf.append(s)
        elif buf:
            paragraphs.append((start, "\n".join(buf)))
            buf = []
    if not paragraphs:
        return []
    # One unit holding every paragraph; `emit` packs them into parts when the text is too long.
    unit = Unit(anchor="s1", heading="", location=doc_label(doc), path=[], line=paragraphs[0][0],
                blocks=[Block(None, [p], start) for start, p in paragraphs])
    chunks = emit(doc, [unit], settings, PLAIN)
    # Plain-text parts are blocks in their own right: s1, s2, … rather than s1, s1~2, ….
    for n, c in enumerate(chunks, start=1):
        c.chunk_id = f"{doc.doc_id}#s{n}"
        if len(chunks) > 1:
            c.location = f"{doc_label(doc)} [{n}/{len(chunks)}]"
    return chunks


class _SettingsChunker:
    name = ""

    def __init__(self, settings: CorpusSettings | None = None) -> None:
        self.settings = settings or CorpusSettings()


class MarkdownChunker(_SettingsChunker):
    """One chunk per Markdown section."""

    name = MARKDOWN

    def chunk(self, doc: Document) -> list[Chunk]:
        return chunk_markdown(doc, self.settings)


class TextSectionsChunker(_SettingsChunker):
    """Plain text whose sections have titles like "2. 제출 서류"."""

    name = TEXT_SECTIONS

    def chunk(self, doc: Document) -> list[Chunk]:
        return chunk_text_sections(doc, self.settings)


class ParagraphChunker(_SettingsChunker):
    """Plain text packed paragraph by paragraph."""

    name = PLAIN

    def chunk(self, doc: Document) -> list[Chunk]:
        return chunk_paragraphs(doc, self.settings)
