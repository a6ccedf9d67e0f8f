"""What every chunker shares: a parsed `Unit` (one article or section) and how units become `Chunk`s.

Chunkers only parse lines into units; `emit` applies the shared rules: unique anchors, splitting units longer than
`max_chunk_chars` at block (항/paragraph) boundaries with the heading repeated, and human-readable locations.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from geunkeo.config import CorpusSettings
from geunkeo.corpus.base import Chunk, Document
from geunkeo.corpus.versions import version_metadata

# Sentence ends for over-long lines: Korean "…다." and Western punctuation, followed by whitespace.
_SENTENCE_END = re.compile(r"(?<=[.!?。？！])\s+")
_MD_MARK = re.compile(r"^\s{0,3}#{1,6}\s+")
_BOLD = re.compile(r"^\*\*(.+?)\*\*(.*)$")


@dataclass
class Block:
    """A run of lines that should stay together: one 항, one English paragraph, one text paragraph."""

    label: str | None
    lines: list[str]
    line: int | None = None  # index of the block's first line in the document text (maps chunks to pages)

    def text(self) -> str:
        return "\n".join(self.lines)


@dataclass
class Unit:
    anchor: str  # before de-duplication and part numbering
    heading: str  # repeated at the top of continuation parts so each part reads on its own
    location: str  # without the paragraph range
    path: list[str]
    line: int  # index of the unit's first line in the document text
    blocks: list[Block] = field(default_factory=list)
    article: str | None = None
    article_title: str | None = None
    extra: dict = field(default_factory=dict)

    def text(self) -> str:
        return "\n".join(b.text() for b in self.blocks if b.lines)


ParaFormat = Callable[[list[str]], str]


def doc_label(doc: Document) -> str:
    """What a location starts with: the document title, or its doc_id for untitled records."""
    return doc.title or doc.doc_id


def korean_paragraphs(labels: list[str]) -> str:
    """[제1항] -> ' 제1항'; [제1항, 제2항, 제3항] -> ' 제1항~제3항'."""
    if not labels:
        return ""
    return f" {labels[0]}" if len(labels) == 1 else f" {labels[0]}~{labels[-1]}"


def no_paragraphs(labels: list[str]) -> str:
    return ""


def clean_line(line: str) -> str:
    """A line without Markdown heading markers or wrapping bold, trimmed."""
    s = _MD_MARK.sub("", line.strip())
    m = _BOLD.match(s)
    if m:
        s = (m.group(1) + m.group(2)).strip()
    return s.strip()


def is_md_heading(line: str) -> int:
    """The Markdown heading level of a line (0 when it is not a heading)."""
    m = re.match(r"^\s{0,3}(#{1,6})\s+\S", line)
    return len(m.group(1)) if m else 0


def split_long(text: str, max_chars: int) -> list[tuple[str, str]]:
    """Pieces of at most `max_chars` with the separator that preceded each ("\n" or " "): by line, then by
    sentence, then (last resort) by hard cut."""
    pieces: list[tuple[str, str]] = []
    for line in text.split("\n"):
        if len(line) <= max_chars:
            pieces.append((line, "\n"))
            continue
        sep = "\n"
        for sent in _SENTENCE_END.split(line):
            while len(sent) > max_chars:
                pieces.append((sent[:max_chars], sep))
                sent, sep = sent[max_chars:], ""
            if sent:
                pieces.append((sent, sep))
            sep = " "
    return pieces


def _parts(unit: Unit, max_chars: int, min_chars: int) -> list[list[Block]]:
    """Greedy packing of blocks into parts of at most `max_chars`; a block too long on its own is cut further.

    The first part already starts with the heading line; later parts get the heading prepended, so they pack
    against `max_chars` minus the heading.
    """
    budget = max(max_chars - len(unit.heading) - 1, max_chars // 2)
    blocks: list[Block] = []
    for k, b in enumerate(unit.blocks):
        if len(b.text()) <= (max_chars if k == 0 else budget):
            blocks.append(b)
        else:
            blocks.extend(Block(b.label, [p], b.line) for p in _pack_lines(split_long(b.text(), budget), budget))
    parts: list[list[Block]] = []
    size = 0
    for b in blocks:
        n = len(b.text()) + 1
        if parts and size + n <= (max_chars + 1 if len(parts) == 1 else budget):
            parts[-1].append(b)
            size += n
        else:
            parts.append([b])
            size = n
    # A tiny tail part is worse for retrieval than a slightly long previous part.
    if len(parts) > 1 and sum(len(b.text()) for b in parts[-1]) < min_chars:
        parts[-2].extend(parts.pop())
    return parts


def _pack_lines(pieces: list[tuple[str, str]], budget: int) -> list[str]:
    out: list[str] = []
    for text, sep in pieces:
        if out and len(out[-1]) + 1 + len(text) <= budget:
            out[-1] = out[-1] + sep + text
        else:
            out.append(text)
    return out


def emit(doc: Document, units: list[Unit], settings: CorpusSettings, chunker: str,
         para_format: ParaFormat = no_paragraphs) -> list[Chunk]:
    """Turn parsed units into chunks: unique anchors, splits at block boundaries, locations with 항 ranges."""
    chunks: list[Chunk] = []
    seen: dict[str, int] = {}
    used: set[str] = set()
    for unit in units:
        if not unit.text().strip():
            continue
        anchor = _unique(unit.anchor, seen, used)
        whole = unit.text()
        parts = [unit.blocks] if len(whole) <= settings.max_chunk_chars else _parts(
            unit, settings.max_chunk_chars, settings.min_chunk_chars)
        for i, blocks in enumerate(parts, start=1):
            labels = list(dict.fromkeys(b.label for b in blocks if b.label))
            body = "\n".join(b.text() for b in blocks if b.lines)
            text = body if i == 1 or not unit.heading else f"{unit.heading}\n{body}"
            part_anchor = anchor if i == 1 else _unique(f"{anchor}~{i}", seen, used)
            first_line = next((b.line for b in blocks if b.line is not None), unit.line)
            meta = {"chunker": chunker, "line": first_line, "kind": doc.kind, **unit.extra}
            if len(parts) > 1:
                meta["part"] = f"{i}/{len(parts)}"
            meta.update(version_metadata(doc))
            chunks.append(Chunk(
                chunk_id=f"{doc.doc_id}#{part_anchor}",
                doc_id=doc.doc_id,
                title=doc.title,
                text=text.strip(),
                location=(unit.location + para_format(labels)).strip(),
                lang=doc.lang,
                path=list(unit.path),
                article=unit.article,
                article_title=unit.article_title,
                paragraphs=labels,
                metadata=meta,
            ))
    return chunks


def _unique(anchor: str, seen: dict[str, int], used: set[str]) -> str:
    """`anchor`, or `anchor_2`, `anchor_3`, … when the document already has it (e.g. two 부칙 with 제1조)."""
    key = anchor
    while key in used:
        seen[anchor] = seen.get(anchor, 1) + 1
        key = f"{anchor}_{seen[anchor]}"
    used.add(key)
    return key
