"""Answer text ↔ sentences with citations: parse citation markers out of generated text and render them back.

A model may mark its sources in other shapes than the prompt's [n] (data/citation_markers.json): every shape is
first rewritten as [n] or [n, m] (`canonical_markers`), so the sentence splitter keeps a marker written after the
full stop with its sentence and one parser reads them all."""

from __future__ import annotations

import json
import re
from importlib import resources

from geunkeo.answer.base import AnswerSentence, Citation
from geunkeo.answer.rewrite import sentence_spans
from geunkeo.retrieve.base import Hit

_MARK = re.compile(r"\s*[\[【](\d+(?:\s*[,，]\s*\d+)*)[\]】]")
_FENCE = re.compile(r"</?\s*document\b[^>]*>", re.I)  # the prompt's context fence, copied with a context
_LEAD = re.compile(r"^\s*(?:답변|answer)\s*[:：]\s*", re.I)
_BULLET = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s+")
_EMPTY_SOURCE = re.compile(r"\(\s*(?:출처|근거|참고|sources?|ref\.?)?\s*[:：]?[\s,;]*\)|(?:출처|근거|Sources?)\s*[:：]\s*$", re.I)


_MARKERS = json.loads(resources.files("geunkeo.data").joinpath("citation_markers.json").read_text("utf-8"))


def _alternation(words: list[str]) -> str:
    # longest first, and a space in a label may be written or not
    return "|".join(re.escape(w).replace(r"\ ", r"\s?") for w in sorted(words, key=len, reverse=True))


_LABEL = rf"(?:{_alternation(_MARKERS['labels'])})\s*[:：]?\s*"
_NUMBERS = rf"\d{{1,2}}(?:\s*(?:{_alternation(_MARKERS['joiners'])})\s*(?:{_LABEL})?\d{{1,2}})*"
_SUPERSCRIPT_DIGITS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_ANY_MARKER = re.compile(
    rf"[{re.escape(_MARKERS['brackets_open'])}]\s*(?:{_LABEL})*(?P<bracketed>{_NUMBERS})\s*"
    rf"[{re.escape(_MARKERS['brackets_close'])}]"
    rf"|[{re.escape(_MARKERS['parens_open'])}]\s*(?:{_LABEL})+(?P<labelled>{_NUMBERS})\s*"
    rf"[{re.escape(_MARKERS['parens_close'])}]"
    rf"|(?P<superscript>[{_SUPERSCRIPT_DIGITS}]+(?:[,，]\s*[{_SUPERSCRIPT_DIGITS}]+)*)", re.I)
_LISTED_MARKERS = re.compile(r"\[\d+(?:, \d+)*\](?:\s*[,，、]\s*\[\d+(?:, \d+)*\])+")
_EXPONENT_BEFORE = re.compile(rf"(?:\d|(?<![A-Za-z])(?:{_alternation(_MARKERS['exponent_units'])}))\s*$")


def canonical_markers(text: str, contexts: int) -> str:
    """`text` with every citation marker written as [n] or [n, m]; `contexts` is how many numbered contexts
    there are (it decides whether superscript ¹² is context 12 or contexts 1 and 2). A superscript that is an
    exponent (after a digit or a unit) or names no context stays as written."""

    def rewrite(m: re.Match[str]) -> str:
        if m.group("superscript") is None:
            return "[" + ", ".join(re.findall(r"\d{1,2}", m.group("bracketed") or m.group("labelled"))) + "]"
        if _EXPONENT_BEFORE.search(text[max(0, m.start() - 4) : m.start()]):
            return m.group(0)
        nums = _superscript_numbers(m.group("superscript"), contexts)
        return "".join(f"[{n}]" for n in nums) if nums else m.group(0)

    # "[1], [2]": one marker, so no comma is left in the sentence when the markers are taken out
    return _LISTED_MARKERS.sub(lambda m: "[" + ", ".join(re.findall(r"\d+", m.group(0))) + "]",
                               _ANY_MARKER.sub(rewrite, text))


def _superscript_numbers(run: str, contexts: int) -> list[int]:
    """The contexts a run of superscript digits names: each comma-separated group is one number when a context
    has it, else each of its digits when every digit is one (¹² over five contexts: 1 and 2); [] otherwise."""
    out: list[int] = []
    for group in re.split(r"[,，]\s*", run):
        digits = [_SUPERSCRIPT_DIGITS.index(ch) for ch in group]
        whole = int("".join(map(str, digits)))
        if 1 <= whole <= contexts:
            out.append(whole)
        elif all(1 <= d <= contexts for d in digits):
            out.extend(digits)
        else:
            return []
    return out


def citation_for(n: int, hits: list[Hit]) -> Citation:
    c = hits[n - 1].chunk
    return Citation(n=n, chunk_id=c.chunk_id, location=c.location or c.title)


def parse_cited(text: str, hits: list[Hit], question: str = "") -> tuple[list[AnswerSentence], list[int]]:
    """Sentences with their citations; also returns the out-of-range numbers that were dropped. A sentence that
    only repeats (part of) `question` is no answer and is left out, as are the context fences a model copies."""
    text = _FENCE.sub("\n", text)
    text = canonical_markers(_LEAD.sub("", text.strip().replace("**", "")), len(hits))
    labels = {_squash(x) for h in hits for x in (h.chunk.location, h.chunk.title) if x}
    asked = _squash(question)
    out: list[AnswerSentence] = []
    invalid: list[int] = []
    for s, e in sentence_spans(text):
        raw = text[s:e]
        nums: list[int] = []
        for m in _MARK.finditer(raw):
            for part in re.split(r"[,，]", m.group(1)):
                n = int(part)
                if 1 <= n <= len(hits):
                    if n not in nums:
                        nums.append(n)
                else:
                    invalid.append(n)
        clean = _BULLET.sub("", _EMPTY_SOURCE.sub("", _MARK.sub("", raw))).strip()
        clean = re.sub(r"\s+([.!?])", r"\1", clean)
        echo = asked and len(_squash(clean)) >= 8 and _squash(clean) in asked
        if re.search(r"[가-힣A-Za-z0-9]", clean) and not _is_source_label(clean, labels) and not echo:
            out.append(AnswerSentence(text=clean, citations=[citation_for(n, hits) for n in nums]))
    return out, invalid


def _squash(text: str) -> str:
    return re.sub(r"\W+", "", text)


def _is_source_label(sentence: str, labels: set[str]) -> bool:
    """A small model echoes a context's header ("한빛대학교 학칙 제30조(조기졸업) 제1항~제2항") as if it were a
    sentence: a label with at most a few characters around it says nothing."""
    s = _squash(sentence)
    return any(label and label in s and len(s) - len(label) < 6 for label in labels)


def render(sentences: list[AnswerSentence]) -> str:
    """Sentences joined, each with its markers before the final full stop: '… 할 수 있다 [1].'"""
    parts = []
    for s in sentences:
        if not s.citations:
            parts.append(s.text)
            continue
        marks = "".join(f"[{c.n}]" for c in s.citations)
        if s.text.endswith(("”", "\"")):  # a quotation: the marker goes after it, not inside
            parts.append(f"{s.text} {marks}")
            continue
        m = re.search(r"([.!?。]+[\"'’)]*)$", s.text)
        if m:
            parts.append(f"{s.text[: m.start()]} {marks}{m.group(1)}")
        else:
            # a source line with no full stop ("수강정정: 1회 3과목 이내, 학기당 6과목 이내") ends at its
            # markers, so the next sentence does not read on from it (nor does the filter read both as one)
            stop = "." if re.search(r"[\w)\]]$", s.text) else ""
            parts.append(f"{s.text} {marks}{stop}")
    return " ".join(parts)
