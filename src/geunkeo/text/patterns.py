"""Regular expressions for entities that every stage recognises (article references, languages)."""

from __future__ import annotations

import re

HANGUL = re.compile(r"[\uac00-\ud7a3]")
LATIN = re.compile(r"[A-Za-z]")

# 제3조, 제3조의2, 제3조제1항제2호, 제 3 조 제 1 항 — one span, later normalised to a single term.
ARTICLE_REF = re.compile(
    r"제\s?\d+\s?조(?:\s?의\s?\d+)?(?:\s?제?\s?\d+\s?항)?(?:\s?제?\s?\d+\s?호)?"
)


def normalize_article_ref(span: str) -> str:
    """'제 3 조 제1 항' -> '제3조제1항'."""
    return re.sub(r"\s+", "", span)


def detect_lang(text: str) -> str:
    """'ko', 'en' or 'mixed' from the share of Hangul vs Latin letters."""
    ko = len(HANGUL.findall(text))
    en = len(LATIN.findall(text))
    if ko == 0 and en == 0:
        return "ko"
    if ko >= 0.15 * (ko + en) and en >= 0.5 * (ko + en):
        return "mixed"
    return "ko" if ko >= en * 0.15 else "en"
