"""Domain vocabulary: students' and customers' words → regulation terms, and an English ↔ Korean glossary.

Both come from `geunkeo/data/domain_vocabulary.json` (plus the user's `$GEUNKEO_HOME/domain_vocabulary.json`,
same schema) and only ever *add* BM25 terms below the user's own weight; the query text, its entities and its
own terms are never touched.

- slang (통금 → 출입 제한, 술 마시면 → 음주, 알바비 → 근로장학금): a `say` phrase fires when all its lemmas
  (Kiwi nouns, adverbs and verb stems + 다, from the query's cached tokens) are among the query's, in any order
  and inflection: 술 마셔도 / 술을 마시면 → {술, 마시다}, 다시 들어도 → {다시, 듣다}. Lemmas are whole morphemes,
  so 술 never fires inside 수술. A phrase Kiwi cannot read as content words (학고 → 학 + 고, 낸 돈) is matched
  on its surface as a whole word, optionally followed by a particle, never inside a longer word.
- glossary (leave of absence ↔ 휴학, refund ↔ 반환): English phrases match as consecutive analyzer terms (stemmed:
  refunds, refunded), longest first, without overlaps; Korean ones like slang. The other language's terms are
  added only when the index holds documents in that language (or the index's languages are unknown). Korean →
  English adds only each entry's first (canonical) English phrase: the others are paraphrases for matching.

Added terms go through the shared analyzer; Hangul terms of one syllable (귀관 → 귀, 관) are dropped because
they would match unrelated words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from geunkeo.errors import ConfigError
from geunkeo.query.morphs import VERB_TAGS, tokens
from geunkeo.query.paths import read_dictionary
from geunkeo.text.analyzer import get_analyzer
from geunkeo.text.patterns import HANGUL

_PARTICLES = "은는이가을를도에의와과랑만까지로서"
_CONTENT = frozenset({"NNG", "NNP", "NR", "NP", "SL", "SN", "SH", "XR", "XPN", "XSN", "MAG"})
_NEUTRAL = frozenset({"XSV", "XSA"})  # 하/되 of 휴학하다: no lemma of their own


def _lemma(tag: str, form: str) -> str | None:
    if tag in _CONTENT:
        return form.lower() if tag == "SL" else form
    if tag in VERB_TAGS:
        return form + "다"
    return None


def query_lemmas(text: str) -> frozenset[str]:
    """Content lemmas of a query (nouns, adverbs, verb stems + 다), from the shared cached tokens."""
    return frozenset(lem for t in tokens(text) if (lem := _lemma(t.tag, t.form)))


def _phrase_lemmas(phrase: str) -> tuple[str, ...] | None:
    """Lemmas of a dictionary-form Korean phrase, or None when Kiwi reads part of it as endings or particles
    (학고 → 학 + 고, 낸 돈 → 내 + ᆫ + 돈): such a phrase is matched on its surface."""
    toks = [t for t in tokens(phrase) if t.tag not in ("SF", "SP", "SS", "SO", "SW")]
    if toks and toks[-1].form == "다" and toks[-1].tag.startswith("E"):
        toks = toks[:-1]
    out = []
    for t in toks:
        lem = _lemma(t.tag, t.form)
        if lem is None and t.tag not in _NEUTRAL:
            return None
        if lem is not None:
            out.append(lem)
    return tuple(out) or None


@dataclass(frozen=True)
class VocabHit:
    term: str
    source: str  # "matched phrase→entry term", shown in the trace


@dataclass
class _Phrase:
    surface: str
    terms: tuple[str, ...]
    regex: re.Pattern | None  # whole-word surface match when the analyzer does not keep the phrase whole


def _load(path: Path | None) -> dict:
    data = read_dictionary("domain_vocabulary.json", path)
    if path is None:
        return data
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected {{'slang': [...], 'glossary': [...]}}")
    for i, e in enumerate(data.get("slang", [])):
        if not isinstance(e, dict) or not e.get("say") or not e.get("means"):
            raise ConfigError(f"{path}: slang[{i}] needs 'say' and 'means' lists (got {e!r})")
    for i, e in enumerate(data.get("glossary", [])):
        if not isinstance(e, dict) or not e.get("en") or not e.get("ko"):
            raise ConfigError(f"{path}: glossary[{i}] needs 'en' and 'ko' lists (got {e!r})")
    return data


def _as_list(v) -> list[str]:
    return [v] if isinstance(v, str) else [str(x) for x in v]


def _useful(term: str) -> bool:
    return not (len(term) == 1 and HANGUL.match(term))


class _Lookup:
    """Which entries of a table fire on a Korean query: lemma phrases indexed by their first lemma, surface
    phrases in one alternation, so a query costs a few dict look-ups and one regex scan, not a loop over all."""

    def __init__(self, table):
        self.by_lemma: dict[str, list[tuple[int, _Phrase]]] = {}
        self.by_surface: dict[str, tuple[int, _Phrase]] = {}
        for ei, (says, _) in enumerate(table):
            for ph in says:
                if ph.regex is None:
                    self.by_lemma.setdefault(ph.terms[0], []).append((ei, ph))
                else:
                    self.by_surface.setdefault(ph.surface, (ei, ph))
        alts = "|".join(re.escape(x) for x in sorted(self.by_surface, key=len, reverse=True))
        self.regex = re.compile(rf"(?<!\w)({alts})(?:[{_PARTICLES}]\w*)?(?!\w)") if alts else None

    def fired(self, text: str) -> list[tuple[int, _Phrase]]:
        """(entry index, the phrase that fired it), in table order, one per entry."""
        lemmas = query_lemmas(text)
        hits: dict[int, _Phrase] = {}
        for lem in lemmas:
            for ei, ph in self.by_lemma.get(lem, ()):
                if ei not in hits and set(ph.terms) <= lemmas:
                    hits[ei] = ph
        if self.regex is not None:
            for m in self.regex.finditer(text):
                ei, ph = self.by_surface[m.group(1)]
                hits.setdefault(ei, ph)
        return sorted(hits.items())


class DomainVocabulary:
    """The slang table and the bilingual glossary, analysed once."""

    def __init__(self, user_path: str | Path | None = None):
        data = _load(None)
        slang, glossary = list(data.get("slang", [])), list(data.get("glossary", []))
        weights = dict(data.get("weights", {}))
        self.sources = ["default"]
        if user_path is not None and Path(user_path).expanduser().is_file():
            user = _load(Path(user_path).expanduser())
            slang += user.get("slang", [])
            glossary += user.get("glossary", [])
            weights.update(user.get("weights", {}))
            self.sources.append(str(user_path))
        self.weights = {"slang": float(weights.get("slang", 0.5)), "glossary": float(weights.get("glossary", 0.5))}
        texts = [p for e in slang for p in (*_as_list(e["say"]), *_as_list(e["means"]))]
        texts += [p for e in glossary for p in (*_as_list(e["en"]), *_as_list(e["ko"]))]
        uniq = list(dict.fromkeys(texts))
        analysed = {t: tuple(a) for t, a in zip(uniq, get_analyzer().terms_batch(uniq), strict=True)}

        def phrases(items: list[str]) -> list[_Phrase]:
            out = []
            for s in items:
                if not HANGUL.search(s):  # English: consecutive (stemmed) analyzer terms
                    if analysed[s]:
                        out.append(_Phrase(s, analysed[s], None))
                    continue
                lemmas = _phrase_lemmas(s)
                if lemmas is not None:
                    out.append(_Phrase(s, lemmas, None))
                else:
                    rx = re.compile(rf"(?<!\w){re.escape(s)}(?:[{_PARTICLES}]\w*)?(?!\w)")
                    out.append(_Phrase(s, (), rx))
            return out

        def targets(items: list[str]) -> list[tuple[str, str]]:
            """(entry term, analyzer term) pairs to add, in order, one-syllable Hangul terms dropped."""
            return [(s, t) for s in items for t in analysed[s] if _useful(t)]

        self.slang = [(phrases(_as_list(e["say"])), targets(_as_list(e["means"]))) for e in slang]
        self.en_ko = [(phrases(_as_list(e["en"])), targets(_as_list(e["ko"]))) for e in glossary]
        self.ko_en = [(phrases(_as_list(e["ko"])), targets(_as_list(e["en"])[:1])) for e in glossary]
        self.n_entries = {"slang": len(self.slang), "glossary": len(glossary)}
        self._slang_ix, self._ko_en_ix = _Lookup(self.slang), _Lookup(self.ko_en)
        self._en_ix: dict[str, list[tuple[int, _Phrase]]] = {}  # first English term → (entry, phrase)
        for ei, (says, _) in enumerate(self.en_ko):
            for ph in says:
                if ph.terms:
                    self._en_ix.setdefault(ph.terms[0], []).append((ei, ph))

    # -- matching ---------------------------------------------------------------------------------------------
    def _expand_set(self, table, lookup: _Lookup, text: str, terms: list[str]) -> list[VocabHit]:
        have = set(terms)
        out: dict[str, VocabHit] = {}
        for ei, fired in lookup.fired(text):
            for entry_term, t in table[ei][1]:
                if t not in have and t not in out:
                    out[t] = VocabHit(t, f"{fired.surface}→{entry_term}")
        return list(out.values())

    def expand_slang(self, text: str, terms: list[str]) -> list[VocabHit]:
        """Regulation terms for the colloquial words in a Korean query (`terms`: its analyzer terms, not
        added again)."""
        return self._expand_set(self.slang, self._slang_ix, text, terms)

    def expand_ko_en(self, text: str, terms: list[str]) -> list[VocabHit]:
        """English terms for the Korean domain terms of a query."""
        return self._expand_set(self.ko_en, self._ko_en_ix, text, terms)

    def expand_en_ko(self, terms: list[str]) -> list[VocabHit]:
        """Korean terms for an English query whose analyzer terms, in order, are `terms`: each phrase matches as
        consecutive terms, longest phrase first, and a position used by one phrase is not used again
        (leave of absence → 휴학, not also absence → 결석)."""
        cands = []
        for i, first in enumerate(terms):
            for ei, p in self._en_ix.get(first, ()):
                n = len(p.terms)
                if tuple(terms[i : i + n]) == p.terms:
                    cands.append((-n, i, ei, p.surface))
        cands.sort()
        used: set[int] = set()
        have = set(terms)
        out: dict[str, VocabHit] = {}
        for negn, i, ei, surface in cands:
            span = set(range(i, i - negn))
            if span & used:
                continue
            used |= span
            for entry_term, t in self.en_ko[ei][1]:
                if t not in have and t not in out:
                    out[t] = VocabHit(t, f"{surface}→{entry_term}")
        return list(out.values())
