"""Korean statute layout: 편/장/절/관 headings, 조(조의N) articles, 항 (①… or 제1항), 호 (1.), 목 (가.), 부칙, 별표.

One chunk per article carrying its 편/장/절/관 path, article title and the document title; articles longer than
`max_chunk_chars` are split at 항 boundaries (`제12조`, `제12조~2`, …). 부칙 articles are anchored `부칙제1조`.
Text before the first article is chunk `s0`; other loose text between headings becomes `s1`, `s2`, ….
"""

from __future__ import annotations

import re

from geunkeo.config import CorpusSettings
from geunkeo.corpus.base import Chunk, Document
from geunkeo.corpus.chunkers.common import (
    Block,
    Unit,
    clean_line,
    doc_label,
    emit,
    is_md_heading,
    korean_paragraphs,
)

NAME = "statute"

# ①–⑳ (U+2460…), ㉑–㉟ (U+3251…), ㊱–㊿ (U+32B1…)
CIRCLED = {chr(0x2460 + i): i + 1 for i in range(20)}
CIRCLED.update({chr(0x3251 + i): 21 + i for i in range(15)})
CIRCLED.update({chr(0x32B1 + i): 36 + i for i in range(15)})
_PARA_CIRCLED = re.compile("^([" + "".join(CIRCLED) + "])")
_INLINE_CIRCLED = re.compile("\\s([" + "".join(CIRCLED) + "])")
_PARA_WORD = re.compile(r"^제\s*(\d+)\s*항\s")
_ITEM = re.compile(r"^(\d{1,3})\.\s")  # 호
_SUBITEM = re.compile(r"^([가-하])\.\s")  # 목
_STRUCT = re.compile(r"^제\s*(\d+)\s*(편|장|절|관)(?:\s*의\s*(\d+))?(?:\s+(.{1,60}))?$")
_LEVELS = {"편": 0, "장": 1, "절": 2, "관": 3}
_ARTICLE = re.compile(
    r"^제\s*(\d+)\s*조(?:\s*의\s*(\d+))?"
    r"(?:\s*(?:[(（]([^)）]{0,60})[)）]|【([^】]{0,60})】))?"
    r"(\s*)(.*)$"
)
_SUPPLEMENT = re.compile(r"^부\s*칙(?:\s*([<(〈【\[].*))?$")
_ANNEX = re.compile(r"^\[(별표|별지)\s*(?:제\s*)?(\d*)\s*(?:호)?\s*(?:서식)?\]\s*(.*)$")
_ANNEX_MD = re.compile(r"^(별표|별지)\s*(?:제\s*)?(\d*)\s*(?:호)?\s*(?:서식)?(?:\s+(.*))?$")


def match_article(line: str) -> tuple[str, str | None, str] | None:
    """(key, title, rest) when the cleaned line is an article heading (`제12조의2(휴학) ① …`), else None.

    A line that merely starts with a reference (`제3조에 따라 …`) is not a heading: after the number there
    must be a bracketed title, the end of the line, a 항 marker or `삭제`.
    """
    m = _ARTICLE.match(line)
    if not m:
        return None
    num, sub, t1, t2, space, rest = m.groups()
    title = t1 if t1 is not None else t2
    if title is None:
        if rest and not (_PARA_CIRCLED.match(rest) or (space and rest.startswith(("삭제", "<", "[")))):
            return None
    elif rest and not space:
        return None  # "제3조(정의)에 따른 …" is a reference, not a heading
    key = f"제{int(num)}조" + (f"의{int(sub)}" if sub else "")
    return key, (title.strip() or None) if title is not None else None, rest


def paragraph_label(line: str) -> str | None:
    """'제1항' for a line starting with ① or '제1항 '; None otherwise."""
    m = _PARA_CIRCLED.match(line)
    if m:
        return f"제{CIRCLED[m.group(1)]}항"
    m = _PARA_WORD.match(line)
    return f"제{int(m.group(1))}항" if m else None


def split_inline_paragraphs(line: str, expect: int) -> list[str]:
    """Split "… 한다. ② … ③ …" (항 run together on one line, common in PDF/HWP text) at markers that continue the
    numbering; a marker out of sequence ("①의 경우") is a reference and stays in the text."""
    parts, start = [], 0
    if (m0 := _PARA_CIRCLED.match(line)) and CIRCLED[m0.group(1)] == expect:
        expect += 1  # the line itself opens the expected 항
    for m in _INLINE_CIRCLED.finditer(line):
        if CIRCLED[m.group(1)] == expect:
            parts.append(line[start:m.start()].rstrip())
            start = m.start(1)
            expect += 1
    parts.append(line[start:])
    return [p for p in parts if p]


def count_articles(lines: list[str]) -> int:
    """How many lines are article headings (the chooser's evidence for this chunker)."""
    return sum(1 for line in lines if match_article(clean_line(line)))


class _Parser:
    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.units: list[Unit] = []
        self.current: Unit | None = None
        self.part: str | None = None  # a Markdown heading that is not 편/장/절/관 (e.g. "골절진단 특별약관")
        self.levels: list[str | None] = [None, None, None, None]
        self.supplement: str | None = None
        self.started = False  # seen any structure yet (text before that is the preamble)
        self.loose = 0

    def path(self) -> list[str]:
        return [p for p in (self.part, *self.levels, self.supplement) if p]

    def close(self) -> None:
        if self.current is not None:
            # A 부칙 heading followed directly by articles leaves only its heading line: nothing to index.
            heading_only = self.current.extra.pop("heading_only", False)
            if not (heading_only and len(self.current.text().split("\n")) <= 1):
                self.units.append(self.current)
            self.current = None

    def feed(self, i: int, raw: str) -> None:
        line = clean_line(raw)
        if not line:
            return
        md = is_md_heading(raw)
        if line == self.doc.title and not self.started and self.current is None:
            return  # the document's own title line ("# 학칙" or a plain first line)
        if (art := match_article(line)) is not None:
            self._article(i, line, *art)
        elif (m := _STRUCT.match(line)) and not line.endswith("."):
            self.close()
            self.started = True
            level = _LEVELS[m.group(2)]
            self.levels[level] = line
            for lower in range(level + 1, 4):
                self.levels[lower] = None
            self.supplement = None
        elif _SUPPLEMENT.match(line):
            self.close()
            self.started = True
            self.levels = [None, None, None, None]
            self.supplement = line
            self.current = Unit(anchor="부칙", heading=line, location=f"{doc_label(self.doc)} {line}", path=self.path(),
                                line=i, blocks=[Block(None, [line])], extra={"heading_only": True})
        elif (m := _ANNEX.match(line) or (_ANNEX_MD.match(line) if md else None)):
            self.close()
            self.started = True
            kind, num, rest = m.group(1), m.group(2) or "", (m.group(3) or "").strip()
            label = f"[{kind} {num}]".replace(" ]", "]")
            self.current = Unit(anchor=f"{kind}{num}", heading=line,
                                location=f"{doc_label(self.doc)} {label} {rest}".strip(), path=self.path(), line=i,
                                blocks=[Block(None, [line])], extra={"annex": True})
        elif md:
            self.close()
            self.started = True
            self.part, self.levels, self.supplement = line, [None, None, None, None], None
        else:
            self._content(i, line)

    def _article(self, i: int, line: str, key: str, title: str | None, rest: str) -> None:
        self.close()
        self.started = True
        heading = f"{key}({title})" if title else key
        prefix = "부칙" if self.supplement else ""
        self.current = Unit(
            anchor=prefix + key,
            heading=heading,
            location=f"{doc_label(self.doc)} {prefix + ' ' if prefix else ''}{heading}",
            path=self.path(),
            line=i,
            blocks=[],
            article=key,
            article_title=title,
            extra={"supplementary": True} if prefix else {},
        )
        first_label = paragraph_label(rest)
        segments = split_inline_paragraphs(line, 2) if first_label == "제1항" else [line]
        self.current.blocks.append(Block(first_label, [segments[0]], i))
        for seg in segments[1:]:
            self.current.blocks.append(Block(paragraph_label(seg), [seg], i))

    def _content(self, i: int, line: str) -> None:
        if self.current is None:
            if not self.started and not self.units:
                self.current = Unit(anchor="s0", heading="", location=doc_label(self.doc), path=[], line=i)
            else:
                self.loose += 1
                where = self.path()
                self.current = Unit(anchor=f"s{self.loose}", heading=where[-1] if where else "",
                                    location=" ".join([doc_label(self.doc), *where[-1:]]), path=where, line=i)
        # 항 markers count inside articles and 부칙 bodies; elsewhere "①" is just text.
        numbered = bool(self.current.article or self.supplement)
        last = self.current.blocks[-1].label if self.current.blocks else None
        segments = split_inline_paragraphs(line, int(last[1:-1]) + 1) if numbered and last else [line]
        for seg in segments:
            label = paragraph_label(seg) if numbered else None
            if label or not self.current.blocks:
                self.current.blocks.append(Block(label, [seg], i))
            else:
                self.current.blocks[-1].lines.append(seg)
        if self.current.article and (_ITEM.match(line) or _SUBITEM.match(line)):
            key = "items" if _ITEM.match(line) else "subitems"
            self.current.extra[key] = self.current.extra.get(key, 0) + 1


class StatuteChunker:
    """Chunks of a Korean statute-style document (학칙, 규정, 약관)."""

    name = NAME

    def __init__(self, settings: CorpusSettings | None = None) -> None:
        self.settings = settings or CorpusSettings()

    def chunk(self, doc: Document) -> list[Chunk]:
        parser = _Parser(doc)
        for i, raw in enumerate(doc.text.split("\n")):
            parser.feed(i, raw)
        parser.close()
        return emit(doc, parser.units, self.settings, NAME, korean_paragraphs)
