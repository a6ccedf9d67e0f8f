"""`HallucinationFilter` (seed 002 option A): contacts, departments and citations the contexts do not support are
rewritten out of an answer, grammatically, and every removal is reported.

Per sentence: extract entities (geunkeo.text.entities), check each against the `ContextIndex`, then
- an unsupported contact inside parentheses or at the end of a list is cut out and the standard contact
  sentence follows the sentence; when the contact carries the sentence ("전화번호는 02-…입니다", "call … for
  details") the whole sentence becomes the contact sentence;
- an unsupported department becomes "담당 부서" / "the responsible office" (the particle after it re-chosen);
- an unsupported citation in parentheses is dropped, elsewhere it becomes "관련 규정" / "the relevant provision";
- supported citations are kept with the cited article's text attached (REQ-003 citation grounding).
Amounts, dates and percentages are checked too but only reported (`FilterReport.unverified`), never edited.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace

from geunkeo.answer.base import FilterReport, Removal
from geunkeo.answer.context import ContextIndex
from geunkeo.answer.rewrite import (
    LABEL_WORDS,
    PHRASES,
    capitalize_first,
    fix_particle,
    residual_is_empty,
    sentence_spans,
    tidy,
)
from geunkeo.corpus.base import Chunk
from geunkeo.errors import ConfigError
from geunkeo.text.entities import Entity, extract_all, reg_key
from geunkeo.text.patterns import detect_lang

_SEP_LEFT = re.compile(r"(?:\s*(?:[,/·;]|또는|및|or|and)\s*)?(?:" + LABEL_WORDS + r"\s*[:：]?\s*)?$", re.I)
_SEP_RIGHT = re.compile(r"^\s*(?:[,/·;]|또는|및|or|and)\s*", re.I)
# A Korean word ending in a particle, or an English verb/preposition, needs the contact after it: the sentence
# cannot lose just the number ("연락처는 02-… .", "reach them at .").
_NEEDS_OBJECT = re.compile(
    r"(?:[가-힣](?:는|은|이|가|을|를|로|에|의|도|와|과)|\b(?:at|via|to|on|is|are|was|call|dial|email|e-mail|"
    r"contact|visit|reach|phone|fax|number|see|from|by))\s*[:：]?\s*$", re.I)
_DEICTIC_PREFIX = re.compile(r"^(?:같은|동|이|본|당|해당|these|this|thesame)", re.I)
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
    """

    def __init__(self, known_departments: tuple[str, ...] | list[str] = ()):
        self.known_departments = tuple(known_departments)

    def apply(self, text: str, contexts, lang: str | None = None) -> FilterResult:
        """Filter a whole answer text (citation markers [n] may be in it)."""
        spans = sentence_spans(text)
        res = self.apply_sentences([text[s:e] for s, e in spans], contexts, lang=lang or _lang_of(text))
        # re-join with the answer's own spacing (line breaks of lists survive); added sentences get a space
        parts, prev = [], None
        for o in res.sentences:
            if parts:
                parts.append(text[spans[o.anchor - 1][1] : spans[o.anchor][0]] if o.anchor != prev else " ")
            parts.append(o.text)
            prev = o.anchor
        res.text = "".join(parts)
        return res

    def apply_sentences(self, sentences: list[str], contexts, lang: str = "ko") -> FilterResult:
        """Filter an answer given as sentences; the result keeps track of which input sentence each came from."""
        if lang not in PHRASES:
            lang = "en" if lang == "en" else "ko"
        ctx = ContextIndex(_as_chunks(contexts), self.known_departments)
        phrases = PHRASES[lang]
        report = FilterReport()
        out: list[FilteredSentence] = []
        contact_done = any(_CITE_MARK.sub("", s).strip() == phrases["contact"] for s in sentences)
        state = {"last_named": None}
        per_sentence = self._entities(sentences)
        for i, sent in enumerate(sentences):
            if _CITE_MARK.sub("", sent).strip() == phrases["contact"]:
                if not any(o.generic for o in out):
                    out.append(FilteredSentence(phrases["contact"], None, generic=True, anchor=i))
                continue
            bad = self._check(sent, per_sentence[i], ctx, report, state)
            if not bad:
                out.append(FilteredSentence(sent, i, anchor=i))
                continue
            new, whole, needs_contact, repl = _rewrite(sent, bad, lang)
            for e in bad:
                report.removed.append(Removal(e.kind, e.text, repl.get(id(e), phrases["contact"]), sent))
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
    def _entities(self, sentences: list[str]) -> list[list[Entity]]:
        """Entities of each sentence, from one extraction pass over all of them (one pass per answer is what
        keeps the filter within its latency budget). NUL between sentences: no pattern crosses it."""
        joined = _JOIN.join(sentences)
        starts, pos = [], 0
        for sent in sentences:
            starts.append(pos)
            pos += len(sent) + len(_JOIN)
        out: list[list[Entity]] = [[] for _ in sentences]
        i = 0
        for e in extract_all(joined, self.known_departments):
            while i + 1 < len(starts) and e.start >= starts[i + 1]:
                i += 1
            out[i].append(replace(e, start=e.start - starts[i], end=e.end - starts[i]))
        return out

    def _check(self, sent: str, ents: list[Entity], ctx: ContextIndex, report: FilterReport,
               state: dict) -> list[Entity]:
        cites = [e for e in ents if e.kind == "citation"]
        bad: list[Entity] = []
        prev_regs: list[str] | None = None
        for e in ents:
            if e.kind == "department" and any(c.start <= e.start < c.end for c in cites):
                continue  # part of a regulation's name: the citation decides
            if e.is_contact:
                hit = ctx.contact(e)
                if hit is None:
                    bad.append(e)
                else:
                    _keep(report, _kept(e, ctx, hit[1]))
            elif e.kind == "department":
                n = ctx.department(e)
                if n is None:
                    bad.append(e)
                else:
                    _keep(report, _kept(e, ctx, n))
            elif e.kind == "citation":
                regs, kind_word = self._resolve(e, state, prev_regs)
                prev_regs = regs
                found = ctx.citation(e.article, e.paragraph, regs, kind_word)
                if found is None:
                    bad.append(e)
                else:
                    doc, evidence = found
                    item = _kept(e, ctx, doc.n)
                    art_text = doc.articles.get(e.article)
                    item["article_text" if art_text else "evidence"] = (art_text or evidence).strip()[:600]
                    _keep(report, item)
            elif ctx.number(e) is None:
                report.unverified.append({"kind": e.kind, "value": e.text, "sentence": sent})
        return bad

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


def _keep(report: FilterReport, item: dict[str, str]) -> None:
    """Record a supported item once per (kind, value, context)."""
    key = (item["kind"], item["value"], item["context"])
    if not any((k["kind"], k["value"], k["context"]) == key for k in report.kept):
        report.kept.append(item)


def _kept(e: Entity, ctx: ContextIndex, n: int) -> dict[str, str]:
    chunk = ctx.docs[n - 1].chunk
    return {"kind": e.kind, "value": e.text, "context": str(n), "chunk_id": chunk.chunk_id,
            "location": chunk.location}


def _close(sent: str) -> str:
    """End a sentence with a full stop before another sentence is appended after it."""
    if re.search(r"[.!?。…]\s*(?:\[\d+(?:\s*,\s*\d+)*\])*$", sent):
        return sent
    return sent + "."


def _lang_of(text: str) -> str:
    return "en" if detect_lang(text) == "en" else "ko"


# -- rewriting --------------------------------------------------------------------------------------------------


def _paren_group(s: str, start: int, end: int) -> tuple[int, int] | None:
    open_ = s.rfind("(", 0, start)
    if open_ == -1 or ")" in s[open_:start]:
        return None
    close = s.find(")", end)
    if close == -1 or "(" in s[end:close]:
        return None
    return open_, close + 1


def _delete_span(s: str, e: Entity) -> tuple[int, int]:
    """The span to cut for a list item: the item, its label and one separator (left, else right)."""
    left = _SEP_LEFT.search(s[: e.start])
    start = left.start() if left and left.group(0) else e.start
    end = e.end
    if start == e.start or not re.match(r"\s*(?:[,/·;]|또는|및|or|and)", left.group(0) if left else "", re.I):
        right = _SEP_RIGHT.match(s[e.end :])
        if right and start == e.start:
            end = e.end + right.end()
    return start, end


def _rewrite(s: str, bad: list[Entity], lang: str) -> tuple[str, bool, bool, dict[int, str]]:
    """(new sentence, replace whole sentence?, append contact sentence?, replacement per entity id)."""
    phrases = PHRASES[lang]
    edits: list[tuple[int, int, str]] = []
    repl: dict[int, str] = {}
    needs_contact = False
    groups: dict[tuple[int, int], list[Entity]] = {}
    loose: list[Entity] = []
    for e in bad:
        g = _paren_group(s, e.start, e.end)
        (groups.setdefault(g, []) if g else loose).append(e)
    for (gs, ge), items in groups.items():
        inner = s[gs + 1 : ge - 1]
        for e in sorted(items, key=lambda x: -x.start):
            inner = inner[: e.start - gs - 1] + inner[e.end - gs - 1 :]
        inner = re.sub(r"참조|참고|see|cf\.?|according to|under|per", " ", inner, flags=re.I)
        if residual_is_empty(inner):
            if gs > 0 and s[gs - 1] == " " and ge < len(s) and re.match(r"[가-힣]", s[ge]):
                gs -= 1  # "팀 (…)에서" → "팀에서": the particle re-attaches to its noun
            edits.append((gs, ge, ""))
            for e in items:
                repl[id(e)] = phrases["contact"] if e.is_contact else ""
                needs_contact |= e.is_contact
        else:
            for e in items:
                a, b = _delete_span(s, e)
                edits.append((a, b, ""))
                repl[id(e)] = phrases["contact"] if e.is_contact else ""
                needs_contact |= e.is_contact
    for e in loose:
        if e.is_contact:
            nxt = s[e.end :]
            a, b = _delete_span(s, e)
            attached = bool(re.match(r"[가-힣A-Za-z0-9]", nxt)) or bool(
                re.match(r"\s+(?![,/·;]|또는|or\b|및|and\b|\[\d)", nxt) and not re.match(r"\s*$", nxt))
            # the second item of a list ("A 또는 B입니다") goes with its separator, whatever follows it
            in_list = (bool(re.match(r"\s*(?:[,/·;]|또는|및|or\b|and\b)", s[a : e.start], re.I))
                       and bool(re.search(r"[\dA-Za-z]\)?$", s[:a]))  # after another contact, not a word
                       and not any(x is not e and x.is_contact and 0 <= a - x.end <= 12 for x in bad))
            if not in_list and (attached or _NEEDS_OBJECT.search(s[:a])):
                salvaged = _salvage_head(s, e.start, lang)
                if salvaged is not None:  # "…받으며, 문의는 02-…로 하세요" → "…받습니다." + contact sentence
                    head, limit = salvaged
                    inside = [x for x in bad if x.end <= limit]
                    new, _, _, repl = _rewrite(head, inside, lang) if inside else (head, False, False, {})
                    repl.update({id(x): phrases["contact"] for x in bad if x not in inside})
                    return new, False, True, repl
                return "", True, True, {id(x): phrases["contact"] for x in bad}
            edits.append((a, b, ""))
            repl[id(e)] = phrases["contact"]
            needs_contact = True
        else:
            word = phrases[e.kind]
            start = e.start
            if lang == "en" or e.text[:1].isascii():
                m = re.search(r"\bthe\s+$", s[: e.start], re.I)
                start = m.start() if m else e.start
                word = PHRASES["en"][e.kind] if lang == "en" else word
            edits.append((start, e.end, word))
            repl[id(e)] = word
    new = _apply(s, edits)
    if residual_is_empty(new):
        return "", True, True, {id(x): phrases["contact"] for x in bad}
    if lang == "en":
        new = capitalize_first(new)
    return new, False, needs_contact, repl


_KO_CLAUSE = re.compile(r"([가-힣]+),\s+")
_EN_CLAUSE = re.compile(r"(?:,\s+(?:and|but|while|whereas)\s+|;\s+)")
_JONGSEONG_B = 17  # ㅂ as a final consonant


def _final_form(word: str) -> str | None:
    """'받으며' → '받습니다', '신청하고' → '신청합니다', '지급되며' → '지급됩니다', '팀이며' → '팀입니다';
    None when the connective ending is not one of these."""
    for ending in ("으며", "지만", "며", "고"):
        if word.endswith(ending) and len(word) > len(ending):
            stem = word[: -len(ending)]
            break
    else:
        return None
    if ending == "으며":
        return stem + "습니다"
    last = stem[-1]
    code = ord(last) - 0xAC00
    if not 0 <= code <= 11171:
        return None
    if code % 28:  # consonant-final stem: 받고 → 받습니다
        return stem + "습니다"
    if last == "이" and len(stem) > 1:  # copula after a noun: 학사지원팀이며 → 학사지원팀입니다
        return stem[:-1] + "입니다"
    return stem[:-1] + chr(ord(last) + _JONGSEONG_B) + "니다"  # 하 → 합니다, 되 → 됩니다, 보내 → 보냅니다


def _salvage_head(s: str, pos: int, lang: str) -> tuple[str, int] | None:
    """The sentence's clauses before the one at `pos`, closed as a sentence of their own, when that can be done
    cleanly (Korean connective endings -며/-으며/-고/-지만; English ', and' / ', but' / ';'). Also returns up to
    where the head keeps the original offsets."""
    if lang == "en":
        cuts = list(_EN_CLAUSE.finditer(s, 0, pos))
        if cuts and len(s[: cuts[-1].start()].split()) >= 3:
            return s[: cuts[-1].start()].rstrip() + ".", cuts[-1].start()
        return None
    cuts = list(_KO_CLAUSE.finditer(s, 0, pos))
    if not cuts or not s[: cuts[-1].start(1)].split():
        return None
    word = cuts[-1].group(1)
    final = _final_form(word)
    if final is None:
        return None
    same = len(os.path.commonprefix([word, final]))
    return s[: cuts[-1].start(1)] + final + ".", cuts[-1].start(1) + same


def _apply(s: str, edits: list[tuple[int, int, str]]) -> str:
    """Apply non-overlapping edits, re-choose particles at every junction, then tidy."""
    edits = sorted(edits)
    merged: list[tuple[int, int, str]] = []
    for a, b, r in edits:
        if merged and a < merged[-1][1]:  # overlapping (an item inside a dropped group): keep the wider edit
            pa, pb, pr = merged[-1]
            merged[-1] = (pa, max(pb, b), pr if pb >= b else r)
            continue
        merged.append((a, b, r))
    out, junctions, pos = [], [], 0
    for a, b, r in merged:
        out.append(s[pos:a])
        out.append(r)
        pos = b
        junctions.append(sum(len(x) for x in out))
    out.append(s[pos:])
    text = "".join(out)
    for j in reversed(junctions):
        head, rest = text[:j], text[j:]
        if head and re.match(r"[가-힣]", head[-1]):
            group = re.match(r"\([^()]*\)", rest)  # "담당 부서(내선 1234)으로": the particle after the aside
            if group:
                text = head + group.group(0) + fix_particle(head, rest[group.end() :])
            else:
                text = head + fix_particle(head, rest)
    return tidy(text)
