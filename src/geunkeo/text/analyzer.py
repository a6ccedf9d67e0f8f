"""BM25 terms from Korean and English text.

Korean: content morphemes from Kiwi — nouns, verb/adjective lemmas, roots, numbers, foreign words and Hanja;
particles, endings and punctuation dropped. A noun followed by the 하다/되다 suffix yields both the noun and the
verb lemma (휴학하려면 → 휴학, 휴학하다). Article references (제3조제1항제2호) are one term, via Kiwi's
pretokenized spans, plus their article-level prefix (제3조) so "제3조" queries match paragraph references.
English: lowercased word tokens, stop words dropped, Snowball-stemmed. Documents and queries go through the same
code; `Analyzer.version` is stored in the index manifest.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

import Stemmer

from geunkeo.text.kiwi import CURRENT_REVISION, KIWI_OPTIONS, active_revision, get_kiwi, kiwi_version
from geunkeo.text.patterns import ARTICLE_REF, HANGUL, normalize_article_ref

ANALYZER_REVISION = CURRENT_REVISION  # what a new index is built with; Kiwi's options per revision: text/kiwi.py

_NOUN_TAGS = {"NNG", "NNP", "NR", "SN", "SH", "XR"}
_VERB_TAGS = {"VV", "VA", "VV-R", "VA-R", "VV-I", "VA-I"}
_VERB_STOP = {
    "하다", "되다", "있다", "없다", "이다", "아니다", "같다", "않다", "보다", "주다", "가다", "오다", "어떻다", "그렇다", "이렇다",
}
_NOUN_STOP = {"것", "등", "수", "때", "경우", "바", "중", "내", "외", "이", "그", "저"}
_EN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9']*|\d+(?:\.\d+)*")
# Kiwi sometimes leaves the next paragraph's marker (②, 3.) at the end of the previous sentence.
_TRAILING_MARK = re.compile(r"\s+([\u2460-\u2473]|\d{1,2}\.|[가-하]\.)$")
EN_STOPWORDS = frozenset(
    ["a", "an", "the", "and", "or", "but", "if", "then", "else", "of", "to", "in", "on", "at", "by", "for", "with", "from", "into", "onto", "about", "as", "is", "are", "was", "were", "be", "been", "being", "this", "that", "these", "those", "it", "its", "it's", "he", "she", "they", "them", "their", "there", "here", "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "do", "does", "did", "doing", "done", "have", "has", "had", "having", "not", "no", "nor", "so", "than", "too", "very", "can", "could", "should", "would", "may", "might", "must", "shall", "will", "i", "you", "we", "our", "your", "my", "me", "us", "his", "her", "any", "all", "each", "other", "such", "only", "own", "same", "some", "more", "most", "also"]
)


def analyzer_version(revision: int | None = None) -> str:
    """The analyzer's version (Kiwi's and the revision this process analyses with, or `revision`), known without
    loading Kiwi: an index records it, and terms from another version do not match its postings."""
    return f"kiwi-{kiwi_version()}/geunkeo-analyzer-{active_revision() if revision is None else revision}"


def revision_of(version: str) -> int | None:
    """The revision of this Kiwi release that writes `version`, or None (another Kiwi, an unknown revision)."""
    return next((r for r in KIWI_OPTIONS if analyzer_version(r) == version), None)


class Analyzer:
    """Turns text into BM25 terms; one instance per process (see `get_analyzer`)."""

    def __init__(self) -> None:
        self._stemmer = Stemmer.Stemmer("english")

    @property
    def version(self) -> str:
        return analyzer_version()

    # -- public API -------------------------------------------------------------------------------------------
    def terms(self, text: str) -> list[str]:
        """BM25 terms of one text (queries and short texts)."""
        if not HANGUL.search(text):
            return self._english_terms(text)
        tokens = get_kiwi().tokenize(text, pretokenized=_article_spans(text))
        return self.terms_from_tokens(text, tokens)

    def terms_batch(self, texts: Sequence[str]) -> list[list[str]]:
        """BM25 terms of many texts, using Kiwi's multi-threaded batch mode for the Korean ones."""
        out: list[list[str] | None] = [None] * len(texts)
        ko_idx = []
        for i, t in enumerate(texts):
            if HANGUL.search(t):
                ko_idx.append(i)
            else:
                out[i] = self._english_terms(t)
        if ko_idx:
            ko_texts = [texts[i] for i in ko_idx]
            results = get_kiwi().tokenize(ko_texts, pretokenized=_article_spans)
            for i, text, tokens in zip(ko_idx, ko_texts, results, strict=True):
                out[i] = self.terms_from_tokens(text, tokens)
        return [o if o is not None else [] for o in out]

    def sentences(self, text: str) -> list[str]:
        """Sentence split (Kiwi), keeping 조항 numbering inside the sentence it belongs to."""
        text = text.strip()
        if not text:
            return []
        if not HANGUL.search(text):
            parts = re.split(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])", text)
            return [p.strip() for p in parts if p.strip()]
        sents = [s.text.strip() for s in get_kiwi().split_into_sents(text) if s.text.strip()]
        fixed: list[str] = []
        carry = ""
        for sent in sents:
            sent = (carry + " " + sent).strip() if carry else sent
            carry = ""
            m = _TRAILING_MARK.search(sent)
            if m and m.start() > 0:
                carry = m.group(1)
                sent = sent[: m.start()].rstrip()
            fixed.append(sent)
        if carry:
            fixed.append(carry)
        return fixed

    # -- internals --------------------------------------------------------------------------------------------
    def _english_terms(self, text: str) -> list[str]:
        words = [w.lower().strip("'") for w in _EN_WORD.findall(text)]
        words = [w for w in words if w and w not in EN_STOPWORDS]
        return self._stem_all(tuple(words))

    @lru_cache(maxsize=4096)  # noqa: B019 - one analyzer per process; bounded cache of stems
    def _stem_all(self, words: tuple[str, ...]) -> list[str]:
        return self._stemmer.stemWords(list(words))

    def terms_from_tokens(self, text: str, tokens: Iterable) -> list[str]:
        """BM25 terms of Korean `text` from Kiwi tokens already computed for it (the query stages reuse theirs)."""
        terms: list[str] = []
        prev_noun: str | None = None
        for tok in tokens:
            tag = str(tok.tag)
            form = tok.form
            if tag == "NNP" and form.startswith("제") and ("조" in form) and ARTICLE_REF.fullmatch(form):
                ref = normalize_article_ref(form)
                terms.append(ref)
                base = re.match(r"제\d+조(?:의\d+)?", ref)
                if base and base.group(0) != ref:
                    terms.append(base.group(0))
                prev_noun = None
                continue
            if tag in _NOUN_TAGS:
                if form not in _NOUN_STOP:
                    terms.append(form.lower() if tag == "SL" else form)
                prev_noun = form if tag in {"NNG", "NNP", "XR"} else None
                continue
            if tag == "SL":
                terms.extend(self._english_terms(form))
                prev_noun = None
                continue
            if tag in {"XSV", "XSA"} and prev_noun is not None:
                lemma = prev_noun + form + "다"
                terms.append(lemma)
                prev_noun = None
                continue
            if tag in _VERB_TAGS:
                lemma = form + "다"
                if lemma not in _VERB_STOP:
                    terms.append(lemma)
            prev_noun = None
        return terms


def _article_spans(text: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), "NNP") for m in ARTICLE_REF.finditer(text)]


_analyzer: Analyzer | None = None


def get_analyzer() -> Analyzer:
    """The shared analyzer."""
    global _analyzer
    if _analyzer is None:
        _analyzer = Analyzer()
    return _analyzer
