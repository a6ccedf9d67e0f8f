"""Answer text ↔ sentences with citations: parse "[n]" markers out of generated text and render them back."""

from __future__ import annotations

import re

from geunkeo.answer.base import AnswerSentence, Citation
from geunkeo.answer.rewrite import sentence_spans
from geunkeo.retrieve.base import Hit

_MARK = re.compile(r"\s*[\[【](\d+(?:\s*[,，]\s*\d+)*)[\]】]")
_LEAD = re.compile(r"^\s*(?:답변|answer)\s*[:：]\s*", re.I)
_BULLET = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s+")
_EMPTY_SOURCE = re.compile(r"\(\s*(?:출처|근거|참고|sources?|ref\.?)?\s*[:：]?[\s,;]*\)|(?:출처|근거|Sources?)\s*[:：]\s*$", re.I)


def citation_for(n: int, hits: list[Hit]) -> Citation:
    c = hits[n - 1].chunk
    return Citation(n=n, chunk_id=c.chunk_id, location=c.location or c.title)


def parse_cited(text: str, hits: list[Hit]) -> tuple[list[AnswerSentence], list[int]]:
    """Sentences with their citations; also returns the out-of-range numbers that were dropped."""
    text = _LEAD.sub("", text.strip().replace("**", ""))
    labels = {_squash(x) for h in hits for x in (h.chunk.location, h.chunk.title) if x}
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
        if re.search(r"[가-힣A-Za-z0-9]", clean) and not _is_source_label(clean, labels):
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
