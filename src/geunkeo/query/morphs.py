"""Cached Kiwi analysis of short query texts, shared by the query stages so a query is tokenized once."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from geunkeo.text.analyzer import get_analyzer
from geunkeo.text.kiwi import get_kiwi
from geunkeo.text.patterns import ARTICLE_REF, HANGUL

NOUN_TAGS = frozenset({"NNG", "NNP", "NNB", "NR", "SN", "SL", "SH", "XR", "XPN", "XSN"})
VERB_TAGS = frozenset({"VV", "VA", "VV-R", "VA-R", "VV-I", "VA-I", "VX", "VX-R", "VX-I"})
PUNCT_TAGS = frozenset({"SF", "SP", "SS", "SSO", "SSC", "SE", "SO", "SW", "SB"})


class Tok(NamedTuple):
    form: str
    tag: str
    start: int
    end: int


@lru_cache(maxsize=4096)
def tokens(text: str) -> tuple[Tok, ...]:
    """Kiwi morphemes of `text` with character offsets; article references (제3조제1항) stay one NNP token."""
    spans = [(m.start(), m.end(), "NNP") for m in ARTICLE_REF.finditer(text)]
    return tuple(
        Tok(t.form, str(t.tag), t.start, t.start + t.len) for t in get_kiwi().tokenize(text, pretokenized=spans)
    )


@lru_cache(maxsize=8192)
def analyzer_terms(text: str) -> tuple[str, ...]:
    """`get_analyzer().terms(text)`, reusing the cached Kiwi tokens so a query is tokenized only once."""
    analyzer = get_analyzer()
    if not HANGUL.search(text):
        return tuple(analyzer.terms(text))
    # same tokenizer call as Analyzer.terms (article spans pretokenized), so the terms are identical
    return tuple(analyzer.terms_from_tokens(text, tokens(text)))
