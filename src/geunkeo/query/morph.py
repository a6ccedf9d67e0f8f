"""Morphological variants of a query for the BM25 side (seed 000 phase 2): lemma and surface forms from Kiwi.

`noun` mode keeps nouns (and the noun inside 휴학하다); `full` mode adds verb lemmas, conjugated surface forms of
noun+하다 predicates (휴학하다 → 휴학, 휴학하, 휴학한, 휴학할, 휴학해, …) and, for short queries, the nouns of
Kiwi's second-best analysis, which rescues queries Kiwi splits differently from the documents (typos, spacing).
Our BM25 analyzer already lemmatises documents and queries alike, so in term space most variants collapse into
terms the query has; the pipeline adds only what is new and the ablation benchmark measures what that is worth.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from geunkeo.errors import ConfigError
from geunkeo.query.morphs import Tok, tokens
from geunkeo.text.kiwi import get_kiwi

_NOUNS = {"NNG", "NNP", "XR"}
_VERBS = {"VV", "VA", "VV-R", "VA-R", "VV-I", "VA-I"}
_SURFACE_SUFFIXES = ("하", "한", "할", "해", "하는", "하여", "했", "하고", "하려면")
_ALT_MAX_CHARS = 40
_SKIP_LEMMAS = {"하다", "되다", "있다", "없다", "이다", "아니다", "어떻다", "싶다", "주다"}


@dataclass(frozen=True)
class Expansion:
    nouns: tuple[str, ...] = ()
    lemmas: tuple[str, ...] = ()
    surfaces: tuple[str, ...] = ()
    alternatives: tuple[str, ...] = ()  # nouns only Kiwi's second analysis found

    def variants(self) -> list[str]:
        """Every distinct variant, nouns first."""
        return list(dict.fromkeys([*self.nouns, *self.lemmas, *self.surfaces, *self.alternatives]))

    def as_dict(self) -> dict[str, list[str]]:
        return {"nouns": list(self.nouns), "lemmas": list(self.lemmas), "surfaces": list(self.surfaces),
                "alternatives": list(self.alternatives)}


@dataclass
class _Acc:
    nouns: list[str] = field(default_factory=list)
    lemmas: list[str] = field(default_factory=list)
    surfaces: list[str] = field(default_factory=list)


def _collect(toks: tuple[Tok, ...], full: bool) -> _Acc:
    acc = _Acc()
    for i, t in enumerate(toks):
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if t.tag in _NOUNS:
            acc.nouns.append(t.form)
            if not full:
                continue
            if nxt is not None and nxt.tag in ("XSV", "XSA") and nxt.form in ("하", "되"):
                acc.lemmas.append(f"{t.form}{nxt.form}다")
                acc.surfaces.extend(t.form + s for s in _SURFACE_SUFFIXES)
        elif full and t.tag in _VERBS and t.form + "다" not in _SKIP_LEMMAS:
            acc.lemmas.append(t.form + "다")
    return acc


def _expand_noun(text: str) -> Expansion:
    return Expansion(nouns=tuple(dict.fromkeys(_collect(tokens(text), full=False).nouns)))


def _expand_full(text: str) -> Expansion:
    acc = _collect(tokens(text), full=True)
    alts: list[str] = []
    # Kiwi's runner-up analysis rescues short keyword queries; on long questions it costs more than it finds
    results = get_kiwi().analyze(text, top_n=2) if len(text) <= _ALT_MAX_CHARS else []
    if len(results) > 1:
        seen = set(acc.nouns)
        alts = [t.form for t in results[1][0] if str(t.tag) in _NOUNS and t.form not in seen and len(t.form) > 1]
    return Expansion(tuple(dict.fromkeys(acc.nouns)), tuple(dict.fromkeys(acc.lemmas)),
                     tuple(dict.fromkeys(acc.surfaces)), tuple(dict.fromkeys(alts)))


MODES: dict[str, Callable[[str], Expansion]] = {"noun": _expand_noun, "full": _expand_full}


class MorphologicalExpander:
    """Lemma and surface variants of a query, cached (LRU) per text."""

    def __init__(self, mode: str = "full", cache_size: int = 4096):
        if mode not in MODES:
            raise ConfigError(f"morph_mode must be one of {sorted(MODES)}, got {mode!r}")
        self.mode = mode
        self._expand = lru_cache(maxsize=cache_size)(MODES[mode])

    def expand(self, text: str) -> Expansion:
        """Variants of `text` (Korean; English text yields nothing — its stemmer already conflates forms)."""
        return self._expand(text)

    def cache_info(self):
        return self._expand.cache_info()
