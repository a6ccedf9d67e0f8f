"""Which quotable unit of the top chunks states what was asked: a small learned model, not a rule per case.

Every candidate unit (a sentence, a list item with its lead-in, a notice's field line) gets a feature vector:
how much of the question it holds (weighted terms, raw terms, terms rare among the candidates, character
bigrams, its share of the best overlap), whether it carries what the question asks for (an amount for 얼마, a
date for 언제 …), where it sits (its position in the chunk, the chunk's rank and score), and how it reads (a
lead-in, a start that points back at a sentence not shown, OCR garble, its length). A logistic model turns the
vector into the probability that the unit states the answer. The same probability, taken over the best unit,
is the answer's confidence that the gate compares with a threshold chosen for a stated cost.

The model is trained offline by `scripts/train_unit_ranker.py` on TyDi QA ko (the unit holding the short
answer) and autorag-ko dev (the unit holding the reference's facts); its weights, the features' scaling, the
threshold and the cross-validated figures are in `data/unit_ranker.json`; the model card is
docs/models/unit_ranker.md.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import NamedTuple, Protocol

import numpy as np

from geunkeo.answer.slots import states_count_of, states_other_count
from geunkeo.text.kiwi import get_kiwi
from geunkeo.text.patterns import HANGUL

FEATURES = (
    "overlap", "overlap_raw", "overlap_rare", "bigrams", "overlap_relative", "overlap_first",
    "slot", "asks_figure_has", "asks_figure_lacks", "figure", "label_answers",
    "position", "chunk_rank", "chunk_score", "title_share", "other_member",
    "length", "short", "lead_in", "dangling", "no_ending", "garble", "digit_share", "cut_start", "cross_lingual",
    "bias_ko",
    "pool_coverage", "asked_unit", "other_unit",
)
# what the answerability head reads of a question: the two best unit probabilities and what the best unit holds,
# then the evidence (`evidence_features`): how much of the question the top chunks hold, and the one top chunk that
# holds most of it (a look-alike question finds its words spread over several documents); of the question's nouns
# that chunk lacks, how rare they are in the whole index (a rare word no top chunk holds: the documents are about something
# else), whether the rarest noun of the question is among them and how much of it the chunks still hold (대응책 in a
# text on 대응: a paraphrase; 부산은행 beside 은행: another bank); a number they lack; a name (proper noun) of the
# question that chunk lacks, or that no chunk of the index holds (a paraphrase is rarely a name); whether it crosses
# languages; the top chunk's dense score; the word-overlap rules' score and whether their focus check failed
EVIDENCE = ("coverage", "chunk_coverage", "noun_missing_max_rarity", "noun_missing_share", "rarest_noun_missing",
            "rarest_held_part", "number_missing", "proper_missing", "proper_unindexed", "cross_lingual", "dense_top")
QUESTION_FEATURES = ("p_best", "p_second", "best_overlap_raw", "best_bigrams", "best_asks_figure_lacks", *EVIDENCE)

_LEAD_IN = re.compile(r"(?:다음\s*각\s*[호목]|다음과\s*같|아래와\s*같|as\s+follows|the\s+following)|:\s*$")
_ITEMS_ATTACHED = re.compile(r"[:;]\s*\(\d{1,2}\)")
_NOISE = re.compile(r"[^\w\s.,%()·~\-:/'\"“”‘’\[\]<>※①-⑳『』「」《》〈〉]")
_BIGRAM_DROP = re.compile(r"[\W_]+")
# the tags of a first word that points back at a sentence not shown: a determiner (그, 이, 동), a pronoun (이, 이것),
# a conjunctive adverb (그러나, 따라서)
_POINTING = frozenset({"MM", "NP", "MAJ", "XR", "VA-I"})  # 이러한 (XR), 그렇다면 (VA-I) too
# the tags of a first word that shows the unit starts inside a sentence a page or column cut ("등의 비용부담 …",
# "상하였다.", "의 대화인 …"): a verb or adjective, an ending, a particle, a suffix, a dependent noun, an interjection
_CUT = ("VV", "VA", "VX", "VCP", "VCN", "E", "J", "XS", "NNB", "IC", "SO", "SF")


class Candidate(Protocol):
    """What the ranker reads of a candidate (answer/extractive.py `_Candidate`)."""

    rank: int
    terms: frozenset
    overlap: float
    slot: bool
    figure: bool
    other_member: bool
    label: bool

    @property
    def text(self) -> str: ...

    @property
    def position(self) -> int: ...


@dataclass(frozen=True)
class QueryView:
    """What the ranker reads of the question, computed once per question."""

    weights: dict[str, float]  # the query's weighted BM25 terms (question words removed)
    bigrams: frozenset[str]
    asks_figure: bool
    lang: str
    count_unit: str | None = None  # the unit a count question asks in ("몇 학기" → 학기), answer/slots.count_unit
    proper: frozenset[str] = frozenset()  # the question's proper nouns (Kiwi NNP): 부산은행, 쿠팡, 네이버


@dataclass(frozen=True)
class HitView:
    """What the ranker reads of a retrieved chunk: its rank's score relative to the top, its language, how much
    of the question its title holds."""

    score_ratio: float
    lang: str
    title_share: float


def bigrams(text: str) -> frozenset[str]:
    """Character bigrams of a text with spaces and punctuation dropped (robust to spacing, typos, particles)."""
    s = _BIGRAM_DROP.sub("", text.lower())
    return frozenset(s[i: i + 2] for i in range(len(s) - 1))


class Shape(NamedTuple):
    """How a unit reads on its own (`intrinsic`)."""

    length: float  # log length, 1.0 at 400 characters
    short: float
    lead_in: float  # introduces a list or what follows ("다음과 같다", "as follows:")
    dangling: float  # its first word points back at a sentence not shown
    no_ending: float  # it stops without a sentence ending
    garble: float  # symbols outside text punctuation, spaced-out syllables
    digits: float  # share of digits
    cut_start: float  # it starts inside a sentence: a verb, an ending, a particle or a dependent noun first


def _particle_alone(text: str) -> bool:
    """Whether the unit opens with a particle the extraction cut from its noun ("의 내부에 …"): a first word of one or
    two syllables that Kiwi reads as particles once a noun stands before it (alone it may read "의" as a noun)."""
    word = text.split(maxsplit=1)[0] if text.strip() else ""
    if not 1 <= len(word) <= 2 or not all("\uac00" <= ch <= "\ud7a3" for ch in word):
        return False
    toks = get_kiwi().tokenize("학교" + word)
    return len(toks) >= 2 and str(toks[0].tag) == "NNG" and all(str(t.tag).startswith("J") for t in toks[1:])


def _cut_start(head: list, text: str) -> bool:
    """Whether the first morphemes show a sentence begun before the unit: an ending, particle, suffix or bound noun
    first, or a verb stem that ends there ("…하였다", "…하고"). A verb or adjective turned modifier ("높은 금리에도
    …") opens a sentence, and an interjection inside the first word is Kiwi misreading an abbreviation."""
    first = str(head[0].tag) if head else ""
    if _particle_alone(text):
        return True
    if not first.startswith(_CUT) or first in _POINTING:
        return False
    if first.startswith("V") and len(head) > 1 and str(head[1].tag) == "ETM":
        return False
    return not (first == "IC" and len(text) > head[0].len and not text[head[0].len].isspace())


@lru_cache(maxsize=4096)
def intrinsic(text: str) -> Shape:
    """How a unit reads on its own (cached: the same chunks come back)."""
    n = max(len(text), 1)
    words = text.split()
    single = sum(1 for w in words if len(w) == 1 and HANGUL.match(w)) / max(len(words), 1)
    garble = min(1.0, len(_NOISE.findall(text)) / n * 5 + single)
    digits = sum(ch.isdigit() for ch in text) / n
    dangling = no_ending = cut = 0.0
    if HANGUL.search(text[:12]):
        head = get_kiwi().tokenize(text[:12])
        first = str(head[0].tag) if head else ""
        dangling = float(first in _POINTING)
        cut = float(_cut_start(head, text))
    if HANGUL.search(text[-12:]):
        tail = get_kiwi().tokenize(text[-12:])
        no_ending = float(not any(str(t.tag) in ("EF", "ETN") for t in tail[-3:]))
    # a lead-in that carries its items ("… 다음 각 호와 같다: (1) …; (2) …", extractive.source_units) states them
    lead_in = bool(_LEAD_IN.search(text)) and not _ITEMS_ATTACHED.search(text)
    return Shape(min(math.log1p(n) / math.log1p(400), 1.5), float(n < 25), float(lead_in),
                 dangling, no_ending, garble, digits, cut)


def feature_matrix(query: QueryView, cands: Sequence[Candidate], hits: Sequence[HitView]) -> np.ndarray:
    """One row of `FEATURES` per candidate."""
    if not cands:
        return np.zeros((0, len(FEATURES)))
    best = max(c.overlap for c in cands) or 1.0
    # a term rare among the candidates tells them apart: inverse document frequency over the candidate pool
    df: dict[str, int] = {}
    for c in cands:
        for t in query.weights:
            if t in c.terms:
                df[t] = df.get(t, 0) + 1
    idf = {t: math.log(1 + len(cands) / (1 + df.get(t, 0))) for t in query.weights}
    idf_total = sum(idf.values()) or 1.0
    raw_total = len(query.weights) or 1
    held_anywhere = {t for c in cands for t in query.weights if t in c.terms}
    coverage = sum(query.weights[t] for t in held_anywhere) / (sum(query.weights.values()) or 1.0)
    order = sorted(range(len(cands)), key=lambda i: -cands[i].overlap)
    first = {i: r for r, i in enumerate(order)}
    rows = []
    for i, c in enumerate(cands):
        hit = hits[c.rank]
        held = [t for t in query.weights if t in c.terms]
        ub = bigrams(c.text)
        big = len(query.bigrams & ub) / len(query.bigrams) if query.bigrams else 0.0
        shape = intrinsic(c.text)
        rows.append((
            c.overlap, len(held) / raw_total, sum(idf[t] for t in held) / idf_total, big, c.overlap / best,
            1.0 / (1 + first[i]),
            float(c.slot), float(query.asks_figure and c.figure), float(query.asks_figure and not c.figure),
            float(c.figure), float(c.label),
            1.0 / (1 + c.position), 1.0 / (1 + c.rank), hit.score_ratio, hit.title_share, float(c.other_member),
            *shape,
            float(query.lang != hit.lang), float(hit.lang == "ko"), coverage,
            float(query.count_unit is not None and states_count_of(c.text, query.count_unit)),
            float(query.count_unit is not None and states_other_count(c.text, query.count_unit)),
        ))
    return np.asarray(rows, dtype=float)


@dataclass(frozen=True)
class Evidence:
    """What the answer stage knows about a question's top chunks besides its units: their texts, the index's
    rarity of the question's terms (VectorStore.term_rarity; a term it does not give counts as 0.5; none at all:
    the rarity features are unknown), the top chunk's language and dense score, and the query plan's expansions
    with the asker's words they stand in for (an expansion a chunk holds — 퇴사 for "기숙사 나가다" — counts as that
    chunk holding the asker's word). Not the word-overlap rules' verdict: the gate asks the rules beside the head,
    and a head that reads their verdict learns to repeat it (and shifts whenever a rule changes) instead of catching
    what they miss. An unknown feature is NaN, which the model reads as its training mean."""

    top_texts: Sequence[str]
    rarity: dict[str, float]
    top_lang: str
    dense_top: float | None  # None: the search had no dense side (a BM25-only search)
    stand_ins: Mapping[str, str] = field(default_factory=dict)  # expansion term -> the asker's word or phrase


def _with_stand_ins(held: set[str], topic: list[str], stand_ins: Mapping[str, str]) -> set[str]:
    """`held` and every topic word that an expansion in it stands in for (the word is in the expansion's source)."""
    sources = [stand_ins[t] for t in held if t in stand_ins]
    return held | {t for t in topic if any(t in s for s in sources)} if sources else held


def evidence_features(query: QueryView, cands: Sequence[Candidate], ev: Evidence) -> np.ndarray:
    """`EVIDENCE` of one question."""
    flats = [re.sub(r"\s+", "", t).lower() for t in ev.top_texts] or [""]
    topic = list(query.weights)
    total = sum(query.weights.values()) or 1.0
    held_by = [_with_stand_ins({t for t in topic if t.lower() in f}, topic, ev.stand_ins) for f in flats]
    held_by[0] |= {t for t in topic if any(t in c.terms for c in cands if c.rank == 0)}
    anywhere = set().union(*held_by) | {t for t in topic if any(t in c.terms for c in cands)}
    best = max(range(len(flats)), key=lambda i: sum(query.weights[t] for t in held_by[i]))
    held, flat = held_by[best], flats[best]
    # nouns, numbers and foreign words: a verb's lemma (신청하다) is rarely written as such
    nouns = [t for t in topic if not (HANGUL.search(t) and t.endswith("다"))]
    rare = {t: ev.rarity.get(t, 0.5) for t in nouns}
    unknown = float("nan")
    missing = [t for t in nouns if t not in held]
    rarest = max(nouns, key=lambda t: rare[t]) if nouns else None
    part = 1.0
    if rarest is not None and rarest not in held:
        grams = bigrams(rarest)
        part = sum(g in flat for g in grams) / len(grams) if grams else 0.0
    return np.asarray([
        sum(query.weights[t] for t in anywhere) / total,
        sum(query.weights[t] for t in held) / total,
        max((rare[t] for t in missing), default=0.0) if ev.rarity else unknown,
        sum(rare[t] for t in missing) / (sum(rare.values()) or 1.0) if ev.rarity else unknown,
        float(rarest is not None and rarest not in held),
        part,
        float(any(any(ch.isdigit() for ch in t) for t in missing)),
        float(any(t.lower() not in flat for t in query.proper)),
        float(any(ev.rarity.get(t, 0.0) >= 0.999 for t in query.proper)) if ev.rarity else unknown,
        float(query.lang != ev.top_lang),
        unknown if ev.dense_top is None else ev.dense_top,
    ])


def question_features(x: np.ndarray, probs: np.ndarray, evidence: np.ndarray) -> np.ndarray:
    """`QUESTION_FEATURES` of one question from its candidates' feature rows, their probabilities and its
    `evidence_features`."""
    if not len(x):
        return np.concatenate([np.zeros(5), evidence])
    order = np.argsort(-probs)
    best = x[order[0]]
    second = probs[order[1]] if len(order) > 1 else 0.0
    return np.concatenate([[probs[order[0]], second, best[FEATURES.index("overlap_raw")],
                            best[FEATURES.index("bigrams")], best[FEATURES.index("asks_figure_lacks")]], evidence])


@dataclass(frozen=True)
class Logistic:
    """A logistic model over standardised features."""

    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float

    def __call__(self, x: np.ndarray) -> np.ndarray:
        # a feature far outside what training saw (no dense score in a BM25-only search: 0 where training saw
        # 0.85-0.95) counts as at most 5 standard deviations, not 45
        # an unknown feature (NaN) counts as its training mean
        z = np.nan_to_num(np.clip((x - self.mean) / self.scale, -5.0, 5.0), nan=0.0) @ self.weights + self.bias
        return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))

    @classmethod
    def from_dict(cls, d: dict) -> Logistic:
        return cls(np.asarray(d["mean"], float), np.asarray(d["scale"], float), np.asarray(d["weights"], float),
                   float(d["bias"]))

    def to_dict(self) -> dict:
        return {"mean": self.mean.round(6).tolist(), "scale": self.scale.round(6).tolist(),
                "weights": self.weights.round(6).tolist(), "bias": round(self.bias, 6)}


@dataclass(frozen=True)
class UnitRanker:
    """The unit model (which unit states the answer) and the answerability head (does any unit of the top chunks
    state it), with the threshold on the head's probability chosen at training for a stated cost."""

    units: Logistic
    answerable: Logistic | None
    threshold: float

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        return self.units(x) if len(x) else np.zeros(0)

    def answer_probability(self, x: np.ndarray, probs: np.ndarray, evidence: np.ndarray) -> float:
        """The probability that the top chunks hold the answer (0 without candidates; the best unit's probability
        when no answerability head was trained)."""
        if not len(x):
            return 0.0
        if self.answerable is None:
            return float(probs.max())
        return float(self.answerable(question_features(x, probs, evidence)[None, :])[0])

    @classmethod
    def from_dict(cls, d: dict) -> UnitRanker:
        if tuple(d["features"]) != FEATURES:
            raise ValueError(f"unit ranker was trained on features {tuple(d['features'])}, the code computes "
                             f"{FEATURES}; retrain it with scripts/train_unit_ranker.py")
        head = d.get("answerable")
        if head and tuple(d.get("question_features", ())) != QUESTION_FEATURES:
            raise ValueError("the answerability head was trained on other question features; retrain it with "
                             "scripts/train_unit_ranker.py")
        return cls(Logistic.from_dict(d["units"]), Logistic.from_dict(head) if head else None,
                   float(d["threshold"]))


@lru_cache(maxsize=1)
def get_unit_ranker() -> UnitRanker:
    """The ranker shipped in data/unit_ranker.json (read once per process)."""
    text = resources.files("geunkeo.data").joinpath("unit_ranker.json").read_text("utf-8")
    return UnitRanker.from_dict(json.loads(text))
