"""English rules: `Part`/`Chapter` headings, `Article 5 (Title)`, `Section 3`, numbered rules `1.1.2`, paragraphs `(1)`.

One chunk per article/section/numbered rule, keyed as written (`Article 5`, `Section 3`, `1.1.2`); numbered
headings with a title and no text of their own (`1.1 Application`) become the `path` of the rules below them.
"""

from __future__ import annotations

import re

from geunkeo.config import CorpusSettings
from geunkeo.corpus.base import Chunk, Document
from geunkeo.corpus.chunkers.common import Block, Unit, clean_line, doc_label, emit, is_md_heading

NAME = "english-rules"

_TITLE_TAIL = r"(?:\s*\(([^)]{1,80})\)|\s*[.:\u2013\u2014-]\s+([^.]{1,80}?)\.?|\s+([A-Z][^.]{0,80}?))?\s*"
_ARTICLE = re.compile(r"^(Article|Section|Rule|§)\s*(\d+[A-Za-z]?(?:[.-]\d+)*)" + _TITLE_TAIL + r"$", re.I)
_ARTICLE_INLINE = re.compile(r"^(Article|Section|Rule)\s+(\d+[A-Za-z]?)\s*\(([^)]{1,80})\)\s+(\S.*)$", re.I)
_GROUP = re.compile(r"^(Part|Chapter|Title|Division)\s+([IVXLC]+|\d+[A-Za-z]?)\b\s*[.:\u2013\u2014-]?\s*(.*)$", re.I)
_NUMBERED = re.compile(r"^(\d{1,3}(?:\.\d{1,3})+)\.?\s+(\S.*)$")
# "1 General": a top-level numbered title (no full stop after the number, so "1. The firm …" lists are not it).
_NUMBERED_TOP = re.compile(r"^(\d{1,3})\s+([A-Z][^.;:]{0,60})$")
# A numbered rule's text starts with a word (optionally quoted): "155.7 18:2" in a table is not a rule.
_WORDY = re.compile(r"^[\"'\u201c(\[]?[A-Za-z\uac00-\ud7a3]")
_PARA = re.compile(r"^\((\d{1,3})\)\s")
_GROUP_RANK = {"part": 1, "title": 1, "chapter": 2, "division": 3}


def paragraph_range(labels: list[str]) -> str:
    """['(1)'] -> ' (1)'; ['(1)', '(2)', '(3)'] -> ' (1)~(3)'."""
    if not labels:
        return ""
    return f" {labels[0]}" if len(labels) == 1 else f" {labels[0]}~{labels[-1]}"


def match_heading(line: str) -> tuple[str, str | None, str] | None:
    """(key, title, rest) for `Article 5 (Coverage)`, `Section 3. Claims`, `1.1.2 Text…`; else None."""
    m = _ARTICLE_INLINE.match(line)
    if m:
        return f"{_word(m.group(1))} {m.group(2)}", m.group(3).strip(), m.group(4)
    m = _ARTICLE.match(line)
    if m:
        title = next((g for g in m.groups()[2:] if g), None)
        return f"{_word(m.group(1))} {m.group(2)}", title.strip() if title else None, ""
    m = _NUMBERED_TOP.match(line)
    if m:
        return m.group(1), m.group(2).strip(), ""
    m = _NUMBERED.match(line)
    if m and _WORDY.match(m.group(2)):
        rest = m.group(2).strip()
        # A short line without a final full stop is a heading title; otherwise the rule's own text.
        if len(rest) <= 80 and not rest.endswith((".", ":", ";")):
            return m.group(1), rest, ""
        return m.group(1), None, line
    return None


def count_headings(lines: list[str]) -> int:
    """How many lines are Article/Section/numbered-rule headings."""
    return sum(1 for line in lines if match_heading(clean_line(line)))


def _word(w: str) -> str:
    return "Section" if w == "§" else w.capitalize()


class _Parser:
    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.units: list[Unit] = []
        self.current: Unit | None = None
        self.groups: list[tuple[int, str]] = []  # (rank, heading): Part 1, Chapter 2, Division 3, Markdown #=1…
        self.numbered: dict[str, str] = {}  # "1.1" -> "1.1 Application" (titles of numbered headings)
        self.loose = 0

    def close(self) -> None:
        if self.current is not None:
            self.units.append(self.current)
            self.current = None

    def feed(self, i: int, raw: str) -> None:
        line = clean_line(raw)
        if not line:
            return
        md = is_md_heading(raw)
        if line == self.doc.title and not self.units and self.current is None and not self.groups:
            return  # the document's own title line
        if (h := match_heading(line)) is not None:
            self._heading(i, line, *h)
        elif (m := _GROUP.match(line)) and len(line) <= 100 and not line.endswith("."):
            self._group(_GROUP_RANK[m.group(1).lower()], line)
        elif md:
            self._group(md, line)
        else:
            self._content(i, line)

    def _group(self, rank: int, line: str) -> None:
        self.close()
        while self.groups and self.groups[-1][0] >= rank:
            self.groups.pop()
        self.groups.append((rank, line))

    def group_path(self) -> list[str]:
        return [g for _, g in self.groups]

    def _path(self, key: str) -> list[str]:
        parents = []
        if key[0].isdigit():
            bits = key.split(".")
            parents = [self.numbered[p] for p in (".".join(bits[:k]) for k in range(1, len(bits))) if p in self.numbered]
        return [*self.group_path(), *parents]

    def _heading(self, i: int, line: str, key: str, title: str | None, rest: str) -> None:
        self.close()
        if key[0].isdigit() and title:
            self.numbered[key] = line
            # Drop titles of deeper, now-finished branches (1.2.x after 1.3 starts).
            depth = key.count(".")
            for k in [k for k in self.numbered if k.count(".") > depth and not k.startswith(key + ".")]:
                del self.numbered[k]
        heading = f"{key} ({title})" if title and not key[0].isdigit() else (f"{key} {title}" if title else key)
        label = f"({m.group(1)})" if (m := _PARA.match(rest)) else None
        self.current = Unit(anchor=key, heading=heading, location=f"{doc_label(self.doc)} {heading}",
                            path=self._path(key), line=i, blocks=[Block(label, [line])], article=key,
                            article_title=title)

    def _content(self, i: int, line: str) -> None:
        if self.current is None:
            where = self.group_path()
            # Text before any heading is the preamble, `s0`, as in the Korean statute chunker.
            preamble = not self.units and not where
            self.loose += 0 if preamble else 1
            self.current = Unit(anchor="s0" if preamble else f"s{self.loose}", heading=where[-1] if where else "",
                                location=" > ".join([doc_label(self.doc), *where[-1:]]), path=where, line=i)
        m = _PARA.match(line) if self.current.article else None
        if m or not self.current.blocks:
            self.current.blocks.append(Block(f"({m.group(1)})" if m else None, [line], i))
        else:
            self.current.blocks[-1].lines.append(line)


class EnglishRulesChunker:
    """Chunks of an English rulebook or policy wording."""

    name = NAME

    def __init__(self, settings: CorpusSettings | None = None) -> None:
        self.settings = settings or CorpusSettings()

    def chunk(self, doc: Document) -> list[Chunk]:
        parser = _Parser(doc)
        for i, raw in enumerate(doc.text.split("\n")):
            parser.feed(i, raw)
        parser.close()
        # Title-only numbered headings ("1.1 Application") carry no text of their own; they live on in `path`.
        units = [u for u in parser.units
                 if not (u.article and u.article[0].isdigit() and u.article_title and len(u.text().split("\n")) == 1)]
        return emit(doc, units, self.settings, NAME, paragraph_range)
