"""What the retrieved contexts support: contacts, departments, (regulation, article) pairs and article texts.

A citation is supported only when its regulation and its article appear *together* in one context chunk: the
chunk's title / doc id / location name its regulation, its headings (``제12조(휴학)``) or `Chunk.article` give
its own articles, and references inside its text (``「장학금 지급 규정」 제5조``) add the pairs they name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from geunkeo.corpus.base import Chunk
from geunkeo.text.entities import (
    EN_DOC_KINDS,
    MENTIONED,
    POSTCODE,
    ROOM,
    SHORT_PHONE,
    Entity,
    article_key,
    extract_citations,
    extract_contacts,
    extract_departments,
    extract_numbers,
    phone_key,
    reg_key,
    room_alternatives,
)

_HEADING = re.compile(r"(?m)^[ \t]*(?:제\s?(\d+)\s?조(?:\s?의\s?(\d+))?\s?\(|(?:Article|ARTICLE)\s+(\d+)\b"
                      r"|(?:Section|SECTION|Clause|CLAUSE|§|Policy(?=\s\d+\.\d))\s?(\d+)\b|(?:Schedule|SCHEDULE)\s?(\d+)\b"
                      r"|(?:Regulation|REGULATION|Rule|RULE)\s?(\d+)\b|\[?별표\s?(\d+)\]?"
                      r"|(?:Article|ARTICLE)\s+([IVXL]{1,6})\b|Endorsement\s?(\d+)\b|Endorsement\s([IVX]{1,5})\b|(?:Section|SECTION)\s([A-Z])\b(?![.\d])|(?:Annex|ANNEX)\s([A-Z0-9])\b"
                      r"|(?:Appendix|APPENDIX)\s([A-Z0-9])\b|(?:Part|PART)\s([A-Z])\b)")
_SECTION_LINE = re.compile(r"(?m)^[ \t]*Section\s(\d+)\b")  # "Article VII … Section 2. Grounds …"
_ADDENDA_LINE = re.compile(r"(?m)^[ \t]*부\s?칙\b")
# a policy's numbered lists named by their heading: "Section 4 – General Exclusions", "General Conditions"
_LIST_HEADING = re.compile(r"\b(?:General\s)?(Condition|Exclusion)s\b", re.I)
_RIDER_LINE = re.compile(r"(?m)^[ \t]*([가-힣A-Za-z0-9·][가-힣A-Za-z0-9·\s]{0,38}?특별약관)[ \t]*$")
_KO_ARTICLE_LINE = re.compile(r"(?m)^[ \t]*제\s?(\d+)\s?조(?:\s?의\s?(\d+))?\s?\(")
_ENDORSEMENTS_LINE = re.compile(r"(?m)^[ \t]*Endorsements\b")
_NUMBERED_LINE = re.compile(r"(?m)^[ \t]*(\d{1,2})[ \t]+[A-Z].*$")
_LIST_LINE = re.compile(r"(?m)^[ \t]*(?:General\s)?(Condition|Exclusion)s[ \t]*$", re.I)
_CIRCLED = {chr(0x2460 + i): i + 1 for i in range(20)}
_TITLE_STOP = {"the", "and", "for", "this", "our", "your"}
_ANY_POINT = re.compile(r"\((?:[a-z]|[ivx]{1,4})\)|(?m:^[ \t]*[a-z][.)]\s)")
_PHONE_RANGE = re.compile(r"(?P<head>\(?0\d{1,2}\)?[-.\s]?\d{3,4}[-.\s])(?P<first>\d{4})\s?[~∼-]\s?(?P<last>\d{1,4})(?!\d)")
# "031-920-5513, 5514": the line's second number by its last four digits; extensions listed or ranged after one word
# ("내선 4515, 4516", "내선 211~215", "ext. 20-24")
_PHONE_LIST = re.compile(r"(?P<head>(?:\+82[-.\s]?(?:\(0\)\s?)?0?\d{1,2}|\(?0\d{1,2}\)?)[-.\s]?\d{3,4}[-.\s])(?P<first>\d{4})"
                         r"(?P<more>(?:\s?[,/]\s?\d{4}(?![\d-]))+)")
_EXT_RUN = re.compile(r"(?:내선|교내|\b[Ee]xt\.?|\b[Ee]xtension)\s?(?:번호\s?)?(?P<first>\d{2,5})"
                      r"(?P<more>(?:\s?(?:[~∼-]|,|/)\s?\d{1,5}(?!\d))+)")
# "(2)" opening a line, or a sentence running on after the previous paragraph or the heading's "(Title)"
# (a line's own "(2) participation in …" may start lower-case: a list under "8. We will not pay any claim arising from:")
_EN_PARA = re.compile(r"(?m)^[ \t]*\((\d+)\)(?=\s+[A-Za-z])|(?<=[.;:)]\s)\((\d+)\)(?=\s+[A-Z])")
_ITEM_NUM = re.compile(r"(?:^|\s)(\d{1,2})[.)]\s")  # a 호 in running text: "… 손해 1. 고의로 … 2. 전쟁으로 …"
_LIST_ITEM = re.compile(r"(?m)^[ \t]*(?:(?:General\s)?Conditions?|GC|Exclusions?)\s?(\d{1,2})\b")
_ITEM_WORD = re.compile(r"\b[Ii]tem\s(\d{1,2})\b")  # a schedule's rows: "Item 4 Rental vehicle excess: …"
_LOC_SPLIT = re.compile(r"\s(?:제\s?\d+\s?조|Article\s\d+|§)")


@dataclass
class ContextDoc:
    """One numbered context block (n is 1-based, as cited in answers)."""

    n: int
    chunk: Chunk
    names: set[str] = field(default_factory=set)  # reg_key()s naming the chunk's own regulation
    articles: dict[str, str] = field(default_factory=dict)  # own article key → its text in this chunk
    paragraphs: dict[str, set[int]] = field(default_factory=dict)  # own article key → paragraph numbers seen
    riders: dict[tuple[str, str], str] = field(default_factory=dict)  # (특별약관 name, article key) → its text
    pairs: dict[tuple[str, str], str] = field(default_factory=dict)  # (reg_key, article) → evidence snippet
    mentioned: dict[tuple[str, str], set[int]] = field(default_factory=dict)  # paragraphs named in references


def _chunk_names(chunk: Chunk) -> set[str]:
    raw = [chunk.title, chunk.doc_id.rsplit("/", 1)[-1], _LOC_SPLIT.split(chunk.location)[0]]
    raw.append(str(chunk.metadata.get("regulation", "")))
    return {k for k in (reg_key(r) for r in raw if r) if len(k) >= 2}


def _own_articles(chunk: Chunk) -> tuple[dict[str, str], set[int]]:
    """Article key → text, for the article the chunk is (Chunk.article / location) and every heading in it; and
    where the Korean headings' "제" stand (an article's own heading is not a reference to it)."""
    text = chunk.text
    # articles after a "부칙" line (or in a chunk of the addenda) are the addenda's own: 부칙 제2조 is not 제2조
    addenda = _ADDENDA_LINE.search(text)
    in_addenda = "부칙" in f"{chunk.article} {chunk.location} {' '.join(chunk.path)}"
    addenda_at = addenda.start() if addenda else (0 if in_addenda else len(text) + 1)
    found = list(_HEADING.finditer(text))
    # a heading's key is the key its words give (article_key); 부칙's 제2조 is the addenda's, not the regulation's
    heads = [(("부칙" if h.group(1) and h.start() >= addenda_at else "") + article_key(h.group(0)), h.start())
             for h in found]
    ko_heads = {text.index("제", h.start()) for h in found if h.group(1)}
    arts: dict[str, str] = {}
    for i, (key, start) in enumerate(heads):
        # an article runs to the next article (the addenda's included, or the 부칙 line): its "Section 2." lines are
        # its paragraphs, not its end
        # ("Policy 4.2.1 …", "Policy 4.2.2 …" are headings of one section 4: it runs on past them)
        later = [h[1] for h in heads[i + 1 :] if h[0] != key and (_is_article(h[0]) or not _is_article(key))]
        if addenda and start < addenda.start():
            later.append(addenda.start())
        end = min(later, default=len(text))
        arts.setdefault(key, text[start:end])
    listed = _LIST_HEADING.search(f"{chunk.article or ''} {text.lstrip().split(chr(10), 1)[0]}")
    if listed:
        # a chunk holding both lists ("General Exclusions … General Conditions …") keys each from its heading line
        heads = [(m.group(1).lower(), m.start()) for m in _LIST_LINE.finditer(text)]
        if len({k for k, _ in heads}) > 1:
            for i, (kind, start) in enumerate(heads):
                end = heads[i + 1][1] if i + 1 < len(heads) else len(text)
                arts.setdefault("GC" if kind == "condition" else "Exc", text[start:end])
        arts.setdefault("GC" if listed.group(1).lower() == "condition" else "Exc", text)
    endorsements = _ENDORSEMENTS_LINE.search(text)
    if endorsements:  # "Endorsements (apply only if …)\n01 Named driver restriction: …": endorsement 1
        for m in _NUMBERED_LINE.finditer(text, endorsements.end()):
            arts.setdefault(f"End{int(m.group(1))}", m.group(0))
    own = article_key(chunk.article) if chunk.article else ""
    if not own:
        m = re.search(r"제\s?\d+\s?조(?:\s?의\s?\d+)?|Article\s\d+|(?:Section|Clause|Schedule)\s\d+",
                      chunk.location)
        own = article_key(m.group(0)) if m else ""
    if own[:1].isdigit() and in_addenda:  # the chunker's "제1조" under a 부칙 heading
        own = "부칙" + own
    if own and own not in arts:
        end = heads[0][1] if heads and heads[0][1] > 0 else len(text)
        arts[own] = text[:end]
    if chunk.lang == "en" and (chunk.article or "").strip().isdigit():
        # a wording numbered with no word ("8. We will not pay …"): "clause 8(2)(b)" and "section 8" name it too
        arts.setdefault("§" + own, arts[own])
    # units numbered without a heading word: "Part 2 - …\n2.1 …" and "4. Complaint stages" are sections 2 and 4;
    # "B1 Accidental injury: …" is item B1
    for pattern, prefix in ((_ANY_SUB_SECTION, "§"), (_NUMBERED_HEADING, "§"), (_CODED_ITEM, "Pt")):
        for key, unit_text in _runs(text, pattern, prefix).items():
            arts.setdefault(key, unit_text)
    return arts, ko_heads


def _is_article(key: str) -> bool:
    """A 조 or Article key ("12", "12-2", "부칙2"), as opposed to a section, schedule or list."""
    return key[:1].isdigit() or key.startswith("부칙")


def _dotted(key: str) -> bool:
    """Keys whose paragraphs are numbered "6.1", "6.2" (sections, clauses, regulations)."""
    return key.startswith(("§", "R"))


def _paragraph_numbers(chunk: Chunk, key: str, text: str) -> set[int]:
    nums = {_CIRCLED[c] for c in text if c in _CIRCLED}
    nums |= {int(m.group(1) or m.group(2)) for m in _EN_PARA.finditer(text)}
    if key.isdigit():  # an article divided into "Section 1.", "Section 2." lines
        nums |= {int(n) for n in _SECTION_LINE.findall(text)}
    if key.startswith("Pt"):  # coded items: "C1 …", "C2 …"
        nums |= {int(n) for n in re.findall(rf"(?m)^[ \t]*{key[2:]}(\d{{1,2}})\b", text)}
    if _dotted(key):  # a handbook's sub-sections: "6.1 A graduate student …" under Section 6
        nums |= {int(m.group(0).rpartition(".")[2]) for m in re.finditer(_sub_section(key[1:], r"\d+"), text)}
    if chunk.article and article_key(chunk.article) == key:
        nums |= {int(m.group(1)) for p in chunk.paragraphs if (m := re.search(r"(\d+)", p))}
    return nums


class ContextIndex:
    """Everything the filter checks answers against, built once per answer from the context chunks."""

    def __init__(self, chunks: list[Chunk], known_departments: tuple[str, ...] = ()):
        self.docs: list[ContextDoc] = []
        self.contacts: dict[str, tuple[str, int]] = {}  # kind:norm → (surface, n)
        self.departments: dict[str, int] = {}  # dept_key → n
        self.numbers: dict[str, int] = {}
        self.texts: list[str] = []
        self._compact: str | None = None
        self._ranges: list[tuple[str, str, str, str, int]] | None = None
        self._mentioned: dict[str, tuple[ContextDoc, str] | None] = {}
        self.known_departments = known_departments
        for n, chunk in enumerate(chunks, start=1):
            self._add(n, chunk)

    def _add(self, n: int, chunk: Chunk) -> None:
        text = chunk.text
        full = f"{chunk.title}\n{chunk.location}\n{text}"
        self.texts.append(full.casefold())
        for e in extract_contacts(full):
            if not e.placeholder:
                self.contacts.setdefault(_ckey(e), (e.text, n))
        for e in extract_departments(full, self.known_departments):
            self.departments.setdefault(e.norm, n)
        for e in extract_numbers(text):
            self.numbers.setdefault(f"{e.kind}:{e.norm}", n)
        doc = ContextDoc(n=n, chunk=chunk, names=_chunk_names(chunk))
        doc.articles, headings = _own_articles(chunk)
        for key, art_text in doc.articles.items():
            doc.paragraphs[key] = _paragraph_numbers(chunk, key, art_text)
            for name in doc.names:
                doc.pairs[(name, key)] = art_text[:200]
        self._riders(doc, text)
        last_named: str | None = None
        prev: tuple[int, list[str]] | None = None  # (end, names) of the previous reference
        for c in extract_citations(text):
            if c.start in headings:  # an article's own heading, not a reference (부칙's 제2조 is not 제2조)
                continue
            snippet = text[max(0, c.start - 60) : c.end + 60]
            # resolved as the filter resolves answers: 같은 규정 → the last named one; a bare 제25조 right after
            # 「학칙」 제3조 in the same sentence → 학칙; otherwise the chunk's own regulation
            same_sentence = prev is not None and not re.search(r"[.!?。\n]", text[prev[0] : c.start])
            if c.ref == "named" and c.regulation:
                names = [reg_key(c.regulation)]
                last_named = names[0]
            elif c.ref == "same" and last_named:
                names = [last_named]
            elif c.ref == "bare" and same_sentence:
                names = prev[1]
            else:
                names = list(doc.names)
            prev = (c.end, names)
            for name in names:
                doc.pairs.setdefault((name, c.article), snippet)
                if c.paragraph:
                    doc.mentioned.setdefault((name, c.article), set()).add(c.paragraph)
        self.docs.append(doc)

    @staticmethod
    def _riders(doc: ContextDoc, text: str) -> None:
        """A chunk holding several 특별약관, each numbering its articles from 제1조 ("교통사고처리지원금 특별약관\n제1조
        …\n벌금 특별약관\n제1조 …"): each rider's articles and paragraphs are its own ("벌금 특별약관 제1조 제2항")."""
        riders = list(_RIDER_LINE.finditer(text))
        for i, r in enumerate(riders):
            end = riders[i + 1].start() if i + 1 < len(riders) else len(text)
            name = reg_key(r.group(1))
            arts = list(_KO_ARTICLE_LINE.finditer(text, r.end(), end))
            for j, a in enumerate(arts):
                body = text[a.start() : arts[j + 1].start() if j + 1 < len(arts) else end]
                key = a.group(1) + (f"-{a.group(2)}" if a.group(2) else "")
                doc.pairs.setdefault((name, key), body[:200])
                doc.mentioned.setdefault((name, key), set()).update(_CIRCLED[c] for c in body if c in _CIRCLED)
                doc.riders.setdefault((name, key), body)

    # -- checks -------------------------------------------------------------------------------------------------
    def contact(self, e: Entity) -> tuple[str, int] | None:
        """(context surface, n) of a supported contact, else None."""
        if e.placeholder:
            return None
        hit = self.contacts.get(_ckey(e))
        if hit is None and e.norm.startswith(ROOM):  # a floor or room the contexts write, with or without spaces
            n = self._compact_n(e.norm[len(ROOM):])
            if n is None:
                # "중앙도서관 2층 학술정보서비스팀": the contexts give the building's floor or the office's floor;
                # "Grant Hall 108호" in a Korean answer is the English context's "Room 108"
                alts = room_alternatives(e.text) + [f"room{m.group(1)}" for m in [re.search(r"(\d{2,4})호", e.text)] if m]
                n = next((k for alt in alts if (k := self._compact_n(alt))), None)
            return (e.text, n) if n else None
        if hit is None and e.norm.startswith((SHORT_PHONE, POSTCODE)):  # "1332" with no "국번없이", "(06721)"
            digits = re.sub(r"\D", "", e.norm)
            return next(((digits, d.n) for d in self.docs
                         if re.search(rf"(?<![\d\-.]){digits}(?![\d\-])", d.chunk.text)), None)
        if hit is None and e.kind in ("phone", "fax"):  # "02-2150-3471~3" lists 3471, 3472 and 3473; "내선 211~215" 213
            for head, first, last, surface, n in self._phone_ranges():
                tail = e.norm[len(head):]
                if e.norm.startswith(head) and tail.isdigit() and len(tail) == len(first) and first <= tail <= last:
                    return surface, n
        if hit is None and e.kind == "url":
            for key, val in self.contacts.items():
                if key.startswith("url:") and (key[4:] + "/").startswith(e.norm + "/"):
                    return val
        return hit

    def _phone_ranges(self) -> list[tuple[str, str, str, str, int]]:
        """(digits before the range, first, last, surface, n) of each "02-2150-3471~3" in the contexts, of each
        further number of a list ("031-920-5513, 5514") and of each extension run ("내선 211~215", "내선 4515, 4516";
        head "ext"), read once (an answer may hold many invented numbers)."""
        if self._ranges is None:
            self._ranges = []
            for d in self.docs:
                text = d.chunk.text
                for m in _PHONE_RANGE.finditer(text):
                    first, last = m.group("first"), m.group("last")
                    last = first[: len(first) - len(last)] + last
                    self._ranges.append((re.sub(r"\D", "", m.group("head")), first, last, m.group(0), d.n))
                for m in _PHONE_LIST.finditer(text):
                    head = phone_key(m.group("head") + m.group("first"))[:-4]  # "+82-31-780-" is 031780
                    self._ranges += [(head, x, x, m.group(0), d.n) for x in re.findall(r"\d{4}", m.group("more"))]
                for m in _EXT_RUN.finditer(text):
                    prev = m.group("first")
                    self._ranges.append(("ext", prev, prev, m.group(0), d.n))
                    for sep, x in re.findall(r"([~∼-]|,|/)\s?(\d{1,5})", m.group("more")):
                        x = prev[: max(len(prev) - len(x), 0)] + x  # "211~5" is 211 to 215
                        self._ranges.append(("ext", prev if sep in "~∼-" else x, x, m.group(0), d.n))
                        prev = x
        return self._ranges

    def all_titles_korean(self) -> bool:
        """Whether every context's title is written in Korean (an English answer can only translate its names)."""
        return bool(self.docs) and all(re.search(r"[가-힣]", d.chunk.title or "") for d in self.docs)

    def titled_with_words(self, name: str) -> list[str]:
        """Name keys of the contexts whose title holds every word of a Korean regulation name of two words or more,
        in order ("한솔구 공영주차장 조례" → "한솔구 공영주차장 설치 및 관리 조례")."""
        words = [reg_key(w) for w in name.split()]
        if len(words) < 2:
            return []
        out = []
        for d in self.docs:
            title = reg_key(d.chunk.title or "")
            at = 0
            for w in words:
                at = title.find(w, at)
                if at < 0:
                    break
                at += len(w)
            else:
                out.extend(sorted(d.names))
        return out

    def titled_like(self, name: str) -> list[str]:
        """Name keys of the contexts whose title shares most of an English document name's words: "the IGU
        Graduate School Handbook" is the "Ilsan Global University Graduate School Handbook" (3 of 4 words)."""
        words = {w.casefold() for w in re.findall(r"[A-Za-z]{3,}", name)} - _TITLE_STOP
        if len(words) < 2:
            return []
        out = []
        for d in self.docs:
            title = {w.casefold() for w in re.findall(r"[A-Za-z]{3,}", d.chunk.title)}
            # "the Wattlegate PDS": an acronym stands for the title's words it is the initials of
            initials = _initials(d.chunk.title)
            shared = len(words & title) + sum(1 for w in re.findall(r"\b[A-Z]{2,5}\b", name)
                                             if w.casefold() in words and w.casefold() not in title and w in initials)
            if shared >= max(2, -(-2 * len(words) // 3)):
                out.extend(sorted(d.names))
        return out

    def holds_text(self, text: str) -> bool:
        """Whether a context holds `text`, ignoring spaces and case."""
        return self._compact_n(re.sub(r"\s+", "", text).casefold()) is not None

    def _compact_n(self, needle: str) -> int | None:
        """n of the first context whose text, without spaces, holds `needle` (casefolded, without spaces)."""
        if self._compact is None:
            self._compact = "\x00".join(re.sub(r"\s+", "", t) for t in self.texts)
        at = self._compact.find(needle)
        return self._compact.count("\x00", 0, at) + 1 if at >= 0 else None

    def department(self, e: Entity) -> int | None:
        """n of the context that names this department (whole-word, spacing-insensitive)."""
        if e.norm in self.departments:
            return self.departments[e.norm]
        if self._compact_n(e.norm) is None:  # absent from every text without spaces: no regex needed
            return None
        chars = [re.escape(c) for c in e.norm]  # dept_key: spacing, "the" and (주) do not matter
        rx = re.compile(r"(?<![가-힣a-z])" + r"\s*".join(chars))
        for n, t in enumerate(self.texts, start=1):
            if rx.search(t):
                return n
        return None

    def regulation(self, name: str) -> int | None:
        """n of a context whose regulation is `name`, or whose text names it."""
        key = reg_key(name)
        if len(key) < 2:
            return None
        for d in self.docs:
            if any(_same_reg(key, nm) for nm in d.names) or any(nm == key for nm, _ in d.pairs):
                return d.n
        for n, t in enumerate(self.texts, start=1):
            if key in re.sub(r"[\s「」『』·ㆍ]", "", t):
                return n
        return None

    def number(self, e: Entity) -> int | None:
        key = f"{e.kind}:{e.norm}"
        if key in self.numbers:
            return self.numbers[key]
        if e.kind == "date" and len(e.norm) == 5:  # "3월 15일" is supported by "2024년 3월 15일"
            for k, n in self.numbers.items():
                if k.startswith("date:") and k.endswith(e.norm):
                    return n
        return None

    def citation(self, art: str, para: int | None, regs: list[str] | None, kind_word: str = "",
                 item: str | None = None) -> tuple[ContextDoc, str] | None:
        """(context, evidence) supporting article `art` (its paragraph `para` and item `item`, when given) of one
        of `regs` (reg_key()s); `regs=None` means any regulation of the contexts, preferring those whose name
        contains `kind_word` (약관, 규정, terms…)."""
        if art.startswith("M"):  # named anywhere in a context: a form, chapter, 부표, band or outside act
            if art not in self._mentioned:  # an answer may name one unit many times: each is searched once
                kind, _, code = art[1:].partition(":")
                rx = re.compile(MENTIONED[kind][1].format(code=re.escape(code)))
                # a chunk's location names its chapter ("제3장 성적 > 제12조") where its text may not
                self._mentioned[art] = next(((d, d.chunk.text[:200]) for d in self.docs
                                             if rx.search(d.chunk.text) or rx.search(d.chunk.location or "")), None)
            return self._mentioned[art]
        docs = self.docs
        if regs is None and kind_word:
            preferred = [d for d in docs if any(kind_word in nm for nm in d.names)]
            docs = preferred or docs
        by_reference: list[tuple[ContextDoc, str]] = []
        item_refuted = False  # a context holding the article's own text does not list the item
        for d in docs:
            for (name, a), evidence in d.pairs.items():
                if a != art:
                    continue
                if regs is not None and not any(_same_reg(r, name) for r in regs):
                    continue
                if regs is None and name not in d.names:
                    continue
                if para is not None and not self._has_paragraph(d, name, art, para):
                    continue
                rider = d.riders.get((name, art))
                if item and rider is not None:  # a rider's own 제1조, not the chunk's first 제1조
                    own = replace(d, articles={art: rider}, paragraphs={art: {_CIRCLED[c] for c in rider if c in _CIRCLED}})
                    if self._has_item(own, art, item, para):
                        return d, evidence
                    item_refuted = True
                    continue
                if item and (art not in d.articles or (para is not None and para not in d.paragraphs.get(art, ()))):
                    by_reference.append((d, evidence))  # a reference, or a chunk without that paragraph's text,
                    continue                            # cannot show its items
                if item and not self._has_item(d, art, item, para):
                    item_refuted = True
                    continue
                return d, evidence
        return by_reference[0] if by_reference and not item_refuted else None

    def numbers_sections(self, kind: str = "§") -> bool:
        """Whether a context is divided into numbered sections or clauses (§ keys), so "(6.1)" can be checked; with
        kind "Pt", whether one codes its items "C3 …", so "(C3)" can be."""
        return any(key.startswith(kind) for d in self.docs for key in d.articles)

    def cited_regulations(self, kind_word: str) -> list[str]:
        """Keys of the regulations the contexts cite by name whose name holds `kind_word` (조례, 약관, …)."""
        return sorted({name for d in self.docs for name, _ in d.pairs if kind_word in name and name not in d.names})

    @staticmethod
    def _has_item(d: ContextDoc, art: str, item: str, para: int | None = None) -> bool:
        """An article (or the cited paragraph of it) whose text lists numbered items must list this one, and the
        item's 목 (가. 나. …) or lettered point ((a) (b) …) when it lists any; one known only by reference, or
        with no list in the context, cannot be checked, so its items pass."""
        num, _, mok = item.partition("-")
        text = d.articles.get(art, "")
        seg = _paragraph_text(text, art, para) if para else None
        where = seg if seg is not None else text
        if num.startswith("."):  # "9.2.6(b)": a sub-sub-section of 9.2, then its points
            return _has_sub_section(where, art, para, num[1:], mok)
        if re.fullmatch(r"[a-z]|[ivx]{2,4}", num):  # "Section 4.2(b)(iii)", "5.3(iii)": points, then sub-points
            if seg is not None and not _LETTERED.search(seg) and _LETTERED.search(text):
                return False  # the article letters the points of another paragraph, not of this one
            if (seg is not None and not _ANY_POINT.search(seg)
                    and text.find(seg) + len(seg.rstrip()) < len(text.rstrip())):
                return False  # "C1(b)": C1 is seen whole, up to C2, and lists no points at all
            return _has_points(where, item.split("-"))
        if num:
            listed = set(_ITEM_NUM.findall(seg if seg is not None else text))
            if art.startswith(("Sch", "Anx", "Apx")):  # "Item 7" rows as well as "7." lines
                listed |= set(_ITEM_WORD.findall(text))
            if art in ("GC", "Exc"):  # "Exclusion 3 – …", "GC 2 – …" lines
                listed |= set(_LIST_ITEM.findall(text))
            if seg is not None and not listed and _ITEM_NUM.search(text):
                return f"제{num}호" in seg.replace(" ", "")  # 제1항 lists no 호 although ③ does
            if listed and num not in listed and f"제{num}호" not in text.replace(" ", ""):
                return False
            if _dotted(art) and seg is not None and re.search(r"\(\d{1,2}\)", seg) and f"({num})" not in seg:
                return False  # "Section 3.2(4)": 3.2 numbers its points (1)-(3)
        if not mok:
            return True
        # the cited paragraph's own item: "제4조 제2항 제2호 라목" is ②'s item 2, not ①'s
        return _has_mok(seg if seg is not None else text, num, mok)

    @staticmethod
    def _has_paragraph(d: ContextDoc, name: str, art: str, para: int) -> bool:
        if art not in d.articles or name not in d.names:
            return para in d.mentioned.get((name, art), set())  # only a reference: it must name the paragraph
        seen = d.paragraphs.get(art, set())
        # paragraphs are numbered from 1: a chunk that holds ④ onwards of a split article still proves ① to ③
        return (para in seen or para < max(seen)) if seen else para == 1


_ITEM_AT = r"(?:^|(?<=\s))"
_MOK = re.compile(_ITEM_AT + r"([가-하])[.)]\s")
_NEXT_ITEM_OR_PARAGRAPH = re.compile(_ITEM_AT + r"(?:\d{1,2}[.)]\s|[①-⑳])")


# "2.1 …" at a line's start or after a sentence end (group 1: the section); "C3 You must …" (group 1: the letter)
_ANY_SUB_SECTION = re.compile(r"(?m)(?:^[ \t]*(\d{1,2})\.[1-9]\d?(?:\.[1-9]\d?)?\s|(?<=[.;:–—]\s)(\d{1,2})\.[1-9]\d?\s+(?=[A-Z(]))")
_CODED_ITEM = re.compile(r"(?m)^[ \t]*([A-H])(\d{1,2})\b[ \t]+(?=[A-Z(])")
# a section heading numbered without a word: "4. Complaint stages" on its own line (a title, no closing stop), as
# councils and statutes number them; "section 4(3)" and "clause 4(2)(b)" cite it
_NUMBERED_HEADING = re.compile(r"(?m)^[ \t]*(\d{1,2})\.[ \t]+[A-Z][A-Za-z'’&,\- ]{2,60}$")


def _runs(text: str, pattern: re.Pattern[str], prefix: str) -> dict[str, str]:
    """prefix + unit → its text, for a document whose lines are numbered by unit ("2.1", "2.2" under section 2;
    "C1", "C2" under part C): from the unit's first line to the first line of another unit."""
    starts = [(next(g for g in m.groups() if g), m.start()) for m in pattern.finditer(text)]
    out: dict[str, str] = {}
    for i, (unit, start) in enumerate(starts):
        key = prefix + (str(int(unit)) if unit.isdigit() else unit)
        if key in out:
            continue
        end = next((st for u, st in starts[i + 1 :] if u != unit), len(text))
        out[key] = text[start:end]
    return out


def _sub_section(article: str, para: str) -> str:
    """Where sub-section `article`.`para` starts: at a line's start ("6.1 A graduate …"), or inside a line after a
    sentence ends ("… Confirmation. 3.1 New employees serve …", "Leave. 4.2 Employees must …") when a capital or
    a bracket follows, so "$3.3 million" and "rated 4.2 out of 5" are not sub-sections."""
    return (rf"(?m)(?:^[ \t]*(?:[A-Z][a-z]+\s)?{article}\.{para}\b|(?<=[.;:–—]\s){article}\.{para}\b(?=\s+[A-Z(]))")


def _paragraph_text(text: str, art: str, para: int) -> str | None:
    """The text of paragraph `para` of an article (② … up to ③; "(2) …"; a section's "4.2 …"), or None when the
    article does not mark its paragraphs that way."""
    if art.startswith("Pt"):
        start = re.search(rf"(?m)^[ \t]*{art[2:]}{para}\b", text)
        nxt = re.compile(r"(?m)^[ \t]*[A-H]\d{1,2}\b")
    elif _dotted(art):
        n = re.escape(art[1:])
        start = re.search(_sub_section(n, str(para)), text)
        nxt = re.compile(_sub_section(n, rf"(?!{para}(?!\d))\d+"))  # the next paragraph, not "9.2.1" under 9.2
        if start is None:  # a clause whose paragraphs are "(1) …", "(2) …" lines
            start = re.search(rf"(?m)^[ \t]*\({para}\)", text)
            nxt = re.compile(r"(?m)^[ \t]*\(\d+\)")
    elif art.isdigit() and _SECTION_LINE.search(text):
        start = re.search(rf"(?m)^[ \t]*Section\s{para}\b", text)
        nxt = _SECTION_LINE
    elif 1 <= para <= 20:
        start = re.search(chr(0x245F + para), text)  # ① is U+2460
        nxt = re.compile(r"[①-⑳]")
    else:
        return None
    if start is None:
        return None
    end = nxt.search(text, start.end())
    return text[start.start() : end.start() if end else len(text)]


def _has_mok(text: str, num: str, mok: str) -> bool:
    """Whether item `num` of an article's text lists 목 `mok` ("2. … 가. … 나. …"), or, with no `num`, whether the
    text (a paragraph) does; an item without a listed 목 cannot be checked, so it passes."""
    if not num:
        listed = set(_MOK.findall(text))
        return not listed or mok in listed
    start = re.search(_ITEM_AT + re.escape(num) + r"[.)]\s", text)
    if start is None:
        return True
    nxt = _NEXT_ITEM_OR_PARAGRAPH.search(text, start.end())
    segment = text[start.end() : nxt.start() if nxt else len(text)]
    listed = set(_MOK.findall(segment))
    return not listed or mok in listed


_ROMAN = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii"]
_POINT_KINDS = {"letter": r"\([a-z]\)", "number": r"\(\d{1,2}\)", "roman": r"\((?:" + "|".join(_ROMAN) + r")\)"}


_LETTERED = re.compile(r"\([a-z]\)|(?m:^[ \t]*[a-z][.)]\s)")


def _has_points(text: str, parts: list[str]) -> bool:
    """Whether the nested points `parts` ("b", "iii") are listed: each "(x)" found, then looked for between it and
    its next sibling; a level that lists no points of its kind cannot be checked, so it passes."""
    seg = text
    for depth, p in enumerate(parts):
        kind = ("number" if p.isdigit() else
                "roman" if p in _ROMAN and depth > 0 and re.fullmatch(r"[a-z]", parts[depth - 1]) else "letter")
        found = re.search(rf"\({p}\)|(?m:^[ \t]*{p}[.)]\s)", seg)  # "(c)" or " c. …" opening a line
        if found is None:
            return not re.search(_POINT_KINDS[kind] + r"|(?m:^[ \t]*[a-z][.)]\s)", seg)
        sibling = (str(int(p) + 1) if kind == "number" else
                   _ROMAN[_ROMAN.index(p) + 1] if kind == "roman" and p != _ROMAN[-1] else chr(ord(p[0]) + 1))
        start = found.end()
        nxt = re.compile(rf"\({sibling}\)|(?m:^[ \t]*{sibling}[.)]\s)").search(seg, start)
        seg = seg[start : nxt.start() if nxt else len(seg)]
        if depth + 1 < len(parts) and nxt is not None and not re.search(r"\((?:[a-z]|\d{1,2}|[ivx]{1,4})\)", seg):
            return False  # "(d)" seen whole, up to "(e)", and it lists no sub-points: "(d)(ii)" is not one
    return True


def _has_sub_section(text: str, art: str, para: int | None, num: str, rest: str) -> bool:
    """Whether "9.2.6" (article 9, paragraph 2, sub-section 6) is numbered in the text, then its points `rest`; a
    paragraph that neither numbers nor names any sub-section of its own cannot be checked, so it passes ("only
    under 17.4.1 or 17.4.2" names two, so 17.4.3 is not one)."""
    if para is None or not _dotted(art):
        return True
    head = rf"(?m)^[ \t]*(?:[A-Z][a-z]+\s)?{re.escape(art[1:])}\.{para}\."  # "4.2.2 …", "Policy 4.2.2 …"
    start = re.search(head + re.escape(num) + r"\b", text)
    if start is None:
        named = set(re.findall(rf"(?<![\d.]){re.escape(art[1:])}\.{para}\.(\d+)\b", text))
        return num in named or not named
    nxt = re.compile(head + r"\d").search(text, start.end())
    return not rest or _has_points(text[start.end() : nxt.start() if nxt else len(text)], rest.split("-"))


def _initials(title: str) -> set[str]:
    """The acronyms of a title's runs of capitalised words ("Product Disclosure Statement" → PDS, PD, DS)."""
    words = re.findall(r"[A-Za-z][A-Za-z'’-]*", title)
    out = set()
    for i in range(len(words)):
        run = ""
        for w in words[i : i + 5]:
            if not w[0].isupper():
                break
            run += w[0]
            if len(run) >= 2:
                out.add(run)
    return out


def _ckey(e: Entity) -> str:
    kind = "phone" if e.kind == "fax" else e.kind  # a fax number quoted as a phone is still that number
    return f"{kind}:{e.norm}"


_REG_END = re.compile(r"(?:규정|학칙|약관|규칙|세칙|지침|법|요강|내규|정관|준칙|조례|terms|regulations?|policy|rules|"
                      r"conditions|bylaws|code|handbook|procedures?|charter|guidelines?|guide|manual|wording)$")


def _same_reg(a: str, b: str) -> bool:
    """Same regulation: equal keys, or one contains the other and the shorter still ends like a regulation's
    name ("학칙" ⊂ "한빛대학교학칙"; but a document called "연구년" does not name "교원연구년운영지침")."""
    if not a or not b:
        return False
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    if len(short) >= 2 and short in long_ and bool(_REG_END.search(short)):
        return True
    # "the BlueWave policy" names "BlueWave Overseas Travel Insurance Policy Wording": its name, then its kind
    m = _EN_NAMED.fullmatch(short)
    return bool(m) and m.group(1) in long_ and m.group(2) in long_[long_.index(m.group(1)) + len(m.group(1)):]


_EN_NAMED = re.compile(r"([a-z0-9'\-]{3,}?)(" + EN_DOC_KINDS + ")")
