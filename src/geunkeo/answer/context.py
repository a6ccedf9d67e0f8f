"""What the retrieved contexts support: contacts, departments, (regulation, article) pairs and article texts.

A citation is supported only when its regulation and its article appear *together* in one context chunk: the
chunk's title / doc id / location name its regulation, its headings (``제12조(휴학)``) or `Chunk.article` give
its own articles, and references inside its text (``「기숙사 입사 규정」 제5조``) add the pairs they name. How a chunk
is divided into articles, paragraphs, items and points is answer/structure.py's part.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field, replace

from geunkeo.answer.renderings import loose_roman, romanise
from geunkeo.answer.structure import (
    CIRCLED,
    chunk_names,
    extracted_text,
    lists_item,
    own_articles,
    paragraph_numbers,
    rider_articles,
)
from geunkeo.corpus.base import Chunk
from geunkeo.text.entities import (
    EN_DOC_KINDS,
    MENTIONED,
    POSTCODE,
    ROOM,
    SHORT_PHONE,
    Entity,
    extract_citations,
    extract_contacts,
    extract_departments,
    phone_key,
    reg_key,
    room_alternatives,
)
from geunkeo.text.figures import Figure, FigureIndex

_TITLE_STOP = {"the", "and", "for", "this", "our", "your"}
_PHONE_RANGE = re.compile(r"(?P<head>\(?0\d{1,2}\)?[-.\s]?\d{3,4}[-.\s])(?P<first>\d{4})\s?[~∼-]\s?(?P<last>\d{1,4})(?!\d)")
# "031-618-4420, 4421": the line's second number by its last four digits; extensions listed or ranged after one word
# ("내선 6617, 6618", "내선 305~309", "ext. 41-45")
_PHONE_LIST = re.compile(r"(?P<head>(?:\+82[-.\s]?(?:\(0\)\s?)?0?\d{1,2}|\(?0\d{1,2}\)?)[-.\s]?\d{3,4}[-.\s])(?P<first>\d{4})"
                         r"(?P<more>(?:\s?[,/]\s?\d{4}(?![\d-]))+)")
_EXT_RUN = re.compile(r"(?:내선|교내|\b[Ee]xt\.?|\b[Ee]xtension)\s?(?:번호\s?)?(?P<first>\d{2,5})"
                      r"(?P<more>(?:\s?(?:[~∼-]|,|/)\s?\d{1,5}(?!\d))+)")



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

    @property
    def full(self) -> str:
        """The chunk's title, location and text: what an answer may quote of it."""
        return f"{self.chunk.title}\n{self.chunk.location}\n{self.chunk.text}"


class ContextIndex:
    """Everything the filter checks answers against, built once per answer from the context chunks."""

    def __init__(self, chunks: list[Chunk], known_departments: tuple[str, ...] = (), question: str = ""):
        self.docs: list[ContextDoc] = []
        self.contacts: dict[str, tuple[str, int]] = {}  # kind:norm → (surface, n)
        self.departments: dict[str, int] = {}  # dept_key → n
        self._figures: FigureIndex | None = None  # the contexts' figures (n = 1, 2, …) and the question's (n = 0)
        self._question = question
        self.texts: list[str] = []
        self._compact: str | None = None
        self._acronymless: str | None = None  # the compact texts without bracketed acronyms ("(iss)")
        self._asideless: str | None = None  # the compact texts without short bracketed asides ("(구 청사)")
        self._roman_addresses: dict[str, tuple[str, int]] | None = None
        self._ranges: list[tuple[str, str, str, str, int]] | None = None
        self._mentioned: dict[str, tuple[ContextDoc, str] | None] = {}
        self.known_departments = known_departments
        for n, chunk in enumerate(chunks, start=1):
            self._add(n, chunk)

    def _add(self, n: int, chunk: Chunk) -> None:
        reading = _reading(chunk, self.known_departments)
        doc = _numbered(reading.doc, n)
        self.texts.append(doc.full.casefold())
        for key, surface in reading.contacts:
            self.contacts.setdefault(key, (surface, n))
        for norm in reading.departments:
            self.departments.setdefault(norm, n)
        self.docs.append(doc)

    @staticmethod
    def _riders(doc: ContextDoc, text: str) -> None:
        """Each rider of a chunk that holds several 특별약관 has its own articles and paragraphs (a rider's 제1조
        제2항 is that rider's ②, not the chunk's first 제1조's)."""
        for name, key, body in rider_articles(text):
            doc.pairs.setdefault((name, key), body[:200])
            doc.mentioned.setdefault((name, key), set()).update(CIRCLED[c] for c in body if c in CIRCLED)
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
                # "미리내관 3층 장학상담팀": the contexts give the building's floor or the office's floor;
                # "Linden Hall 317호" in a Korean answer is the English context's "Room 317"
                n = next((k for parts in room_alternatives(e.text) if (k := self._compact_parts_n(parts))), None)
            return (e.text, n) if n else None
        if hit is None and e.kind == "address" and not e.norm.startswith(POSTCODE):
            # "<number> <road>-daero" in English is the Korean context's <road>대로 <number>, and the other way
            return self._roman_addresses_of().get(roman_address(e.norm))
        if hit is None and e.norm.startswith((SHORT_PHONE, POSTCODE)):  # "1332" with no "국번없이", "(06721)"
            digits = re.sub(r"\D", "", e.norm)
            return next(((digits, d.n) for d in self.docs
                         if re.search(rf"(?<![\d\-.]){digits}(?![\d\-])", d.chunk.text)), None)
        if hit is None and e.kind in ("phone", "fax"):  # "02-3381-7410~2" lists 7410, 7411 and 7412; "내선 305~309" 307
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
        """(digits before the range, first, last, surface, n) of each "02-3381-7410~2" in the contexts, of each
        further number of a list ("031-618-4420, 4421") and of each extension run ("내선 305~309", "내선 6617, 6618";
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
                    head = phone_key(m.group("head") + m.group("first"))[:-4]  # "+82-33-415-" is 033415
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
        in order ("누리구 공공도서관 조례" → "누리구 공공도서관 설치 및 운영 조례")."""
        words = [reg_key(w) for w in name.split()]
        if len(words) < 2:
            return []
        out = []
        for d in self.docs:
            if _in_order(reg_key(d.chunk.title or ""), words):
                out.extend(sorted(d.names))
        return out

    def titled_like(self, name: str) -> list[str]:
        """Name keys of the contexts whose title shares most of an English document name's words: "the KSU
        Exchange Handbook" is the "Kangnam Sollim University Exchange Handbook" (2 of 3 words)."""
        words = {w.casefold() for w in re.findall(r"[A-Za-z]{3,}", name)} - _TITLE_STOP
        if len(words) < 2:
            return []
        out = []
        for d in self.docs:
            title = {w.casefold() for w in re.findall(r"[A-Za-z]{3,}", d.chunk.title)}
            # "the Marlowe PDS": an acronym stands for the title's words it is the initials of
            initials = _initials(d.chunk.title)
            shared = len(words & title) + sum(1 for w in re.findall(r"\b[A-Z]{2,5}\b", name)
                                             if w.casefold() in words and w.casefold() not in title and w in initials)
            if shared >= max(2, -(-2 * len(words) // 3)):
                out.extend(sorted(d.names))
        return out

    def holds_text(self, text: str) -> bool:
        """Whether a context holds `text`, ignoring spaces and case."""
        return self.text_n(text) is not None

    def text_n(self, text: str) -> int | None:
        """n of the first context that holds `text`, ignoring spaces and case."""
        return self._compact_n(re.sub(r"\s+", "", text).casefold())

    def _compact_texts(self) -> str:
        """The contexts' texts without spaces, NUL-separated, built once."""
        if self._compact is None:
            self._compact = "\x00".join(re.sub(r"\s+", "", t) for t in self.texts)
        return self._compact

    def _compact_parts_n(self, parts: tuple[str, ...]) -> int | None:
        """n of the first context whose compact text holds all `parts`, in order; else whose text does without its
        short bracketed asides (a building's other name between it and its floor: "<건물>(<별칭>) 2층")."""
        if len(parts) == 1:
            return self._compact_n(parts[0])
        found = next((n for n, text in enumerate(self._compact_texts().split("\x00"), start=1)
                      if _in_order(text, parts)), None)
        if found is None:
            if self._asideless is None:
                self._asideless = re.sub(r"\([^()\x00]{1,12}\)", "", self._compact_texts())
            found = next((n for n, text in enumerate(self._asideless.split("\x00"), start=1)
                          if _in_order(text, parts)), None)
        return found

    def _roman_addresses_of(self) -> dict[str, tuple[str, int]]:
        """The contexts' street addresses by their romanised key (built when an address is first unsupported)."""
        if self._roman_addresses is None:
            self._roman_addresses = {}
            for key, hit in self.contacts.items():
                if key.startswith("address:") and not key.startswith(("address:" + ROOM, "address:" + POSTCODE)):
                    self._roman_addresses.setdefault(roman_address(key[len("address:"):]), hit)
        return self._roman_addresses

    def _compact_n(self, needle: str) -> int | None:
        """n of the first context whose text, without spaces, holds `needle` (casefolded, without spaces)."""
        compact = self._compact_texts()
        at = compact.find(needle)
        return compact.count("\x00", 0, at) + 1 if at >= 0 else None

    def department(self, e: Entity) -> int | None:
        """n of the context that names this department (whole-word, spacing-insensitive)."""
        if e.norm in self.departments:
            return self.departments[e.norm]
        if self._compact_n(e.norm) is None:  # absent from every text without spaces: no regex needed
            # "Student Housing Services Office" is the context's "Student Housing Services (SHS) Office"
            if self._acronymless is None:
                self._acronymless = re.sub(r"\([a-z]{2,6}\)", "", self._compact_texts())
            at = self._acronymless.find(e.norm) if e.text.isascii() and len(e.norm) > 8 else -1
            return self._acronymless.count("\x00", 0, at) + 1 if at >= 0 else None
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

    def figure(self, f: Figure) -> int | None:
        """n of the context holding figure `f` (0: the question does), else None. The contexts' figures are read
        when an answer first has one to check; a context's title and location count (an answer names the document
        it quotes, with the year and term in its title)."""
        if self._figures is None:
            self._figures = FigureIndex()
            for d in self.docs:
                self._figures.add(d.full, d.n)
            if self._question:
                self._figures.add(self._question, 0)
        return self._figures.support(f)

    def citation(self, art: str, para: int | None, regs: list[str] | None, kind_word: str = "",
                 item: str | None = None) -> tuple[ContextDoc, str] | None:
        """(context, evidence) supporting article `art` (its paragraph `para` and item `item`, when given) of one
        of `regs` (reg_key()s); `regs=None` means any regulation of the contexts, preferring those whose name
        contains `kind_word` (약관, 규정, terms…)."""
        if art.startswith("M"):  # named anywhere in a context: a form, chapter, 부표, band or outside act
            if art not in self._mentioned:  # an answer may name one unit many times: each is searched once
                kind, _, code = art[1:].partition(":")
                rx = re.compile(MENTIONED[kind].context.format(code=re.escape(code)))
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
                    if lists_item(rider, art, item, para):
                        return d, evidence
                    item_refuted = True
                    continue
                if item and (art not in d.articles or (para is not None and para not in d.paragraphs.get(art, ()))):
                    by_reference.append((d, evidence))  # a reference, or a chunk without that paragraph's text,
                    continue                            # cannot show its items
                if item and not lists_item(d.articles.get(art, ""), art, item, para):
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
    def _has_paragraph(d: ContextDoc, name: str, art: str, para: int) -> bool:
        if art not in d.articles or name not in d.names:
            return para in d.mentioned.get((name, art), set())  # only a reference: it must name the paragraph
        seen = d.paragraphs.get(art, set())
        # paragraphs are numbered from 1: a chunk that holds ④ onwards of a split article still proves ① to ③
        return (para in seen or para < max(seen)) if seen else para == 1


def _in_order(text: str, parts: list[str] | tuple[str, ...]) -> bool:
    """Whether `text` holds every one of `parts`, each after the one before it."""
    at = 0
    for part in parts:
        at = text.find(part, at)
        if at < 0:
            return False
        at += len(part)
    return True


def _initials(title: str) -> set[str]:
    """The acronyms of a title's runs of capitalised words ("Key Facts Statement" → KFS, KF, FS)."""
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


_ROAD_PART = re.compile(r"[가-힣]+|[a-z]+")
_HANGUL_WORD = re.compile(r"[가-힣]+")


def roman_address(norm: str) -> str:
    """An address key either language shares: its road romanised, then its numbers in order of size ("은하로31"
    and "31eunha-ro" are both "eunharo|31")."""
    road = "".join(romanise(w) if _HANGUL_WORD.fullmatch(w) else w for w in _ROAD_PART.findall(norm))
    return loose_roman(road) + "|" + "-".join(sorted(re.findall(r"\d+", norm), key=int))


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
    # "the SeaBreeze policy" names "SeaBreeze Domestic Travel Insurance Policy Wording": its name, then its kind
    m = _EN_NAMED.fullmatch(short)
    return m is not None and m.group(1) in long_ and m.group(2) in long_[long_.index(m.group(1)) + len(m.group(1)):]


_EN_NAMED = re.compile(r"([a-z0-9'\-]{3,}?)(" + EN_DOC_KINDS + ")")


@dataclass(frozen=True)
class _Reading:
    """One chunk as the filter reads it: its ContextDoc (numbered 0), its contacts (key, surface) and departments."""

    doc: ContextDoc
    contacts: tuple[tuple[str, str], ...]
    departments: tuple[str, ...]


# a chunk's reading is kept, as its figures are (text/figures.py): the same chunks come back across questions, and
# an LLM answer's regeneration is filtered against the same contexts again
_READINGS: dict[tuple, _Reading] = {}
_READINGS_MAX = 4096
_READINGS_LOCK = threading.Lock()


def _reading(chunk: Chunk, known_departments: tuple[str, ...]) -> _Reading:
    key = (chunk.chunk_id, chunk.doc_id, chunk.title, chunk.location, chunk.text, chunk.lang, chunk.article,
           chunk.article_title, repr(chunk.path), repr(chunk.paragraphs), repr(chunk.metadata), known_departments)
    found = _READINGS.get(key)
    if found is None:
        found = _read(chunk, known_departments)
        with _READINGS_LOCK:
            if len(_READINGS) >= _READINGS_MAX:
                _READINGS.pop(next(iter(_READINGS)))
            _READINGS[key] = found
    return found


def clear_context_cache() -> None:
    """Forget the chunks read so far (to time a first reading)."""
    with _READINGS_LOCK:
        _READINGS.clear()


def _numbered(doc: ContextDoc, n: int) -> ContextDoc:
    """A copy of a kept reading's ContextDoc as context `n`, its tables its own (checks may add to them)."""
    return replace(doc, n=n, names=set(doc.names), articles=dict(doc.articles),
                   paragraphs={k: set(v) for k, v in doc.paragraphs.items()}, riders=dict(doc.riders),
                   pairs=dict(doc.pairs), mentioned={k: set(v) for k, v in doc.mentioned.items()})


def _read(chunk: Chunk, known_departments: tuple[str, ...]) -> _Reading:
    """What the filter reads of one chunk, whatever its number among an answer's contexts."""
    text = extracted_text(chunk.text)
    if text != chunk.text:
        chunk = replace(chunk, text=text)
    doc = ContextDoc(n=0, chunk=chunk, names=chunk_names(chunk))
    full = doc.full
    contacts = tuple((_ckey(e), e.text) for e in extract_contacts(full) if not e.placeholder)
    departments = tuple(e.norm for e in extract_departments(full, known_departments))
    doc.articles, headings = own_articles(chunk)
    for key, art_text in doc.articles.items():
        doc.paragraphs[key] = paragraph_numbers(chunk, key, art_text)
        for name in doc.names:
            doc.pairs[(name, key)] = art_text[:200]
    ContextIndex._riders(doc, text)
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
        elif c.ref == "bare" and prev is not None and same_sentence:
            names = prev[1]
        else:
            names = list(doc.names)
        prev = (c.end, names)
        for name in names:
            doc.pairs.setdefault((name, c.article), snippet)
            if c.paragraph:
                doc.mentioned.setdefault((name, c.article), set()).add(c.paragraph)
    return _Reading(doc, contacts, departments)
