"""Colloquial → formal query rewriting (seed 000 phase 1), driven by the pattern dictionary.

Three kinds of matches, all on whole words (a pattern never fires inside a word: 해 does not touch 해외):
literal mappings (어떻게 해 → 방법), regex patterns with captured content (신청하는법 → 신청 방법) and verb
lemmas read from Kiwi (떼? → 발급, but 내 성적 keeps its pronoun 내). Entities — numbers with units, 제N조
references, Latin-script terms, quoted text and proper nouns — are never rewritten away. The rest of the query
is normalised morpheme by morpheme (particles and 반말 endings dropped, 휴학하려면 → 휴학 시) and the formal
intent nouns go last, the way regulation headings read: "기숙사 언제까지 신청해?" → "기숙사 신청 기한".
Formal and English queries are left exactly as written. A colloquial query that nothing explains is kept, logged
as a warning and queued in the pending-patterns file for the dictionary's next revision.
"""

from __future__ import annotations

import logging
import re
from bisect import bisect_left
from dataclasses import asdict, dataclass, field

from geunkeo.config import QuerySettings
from geunkeo.query.formality import Formality, FormalityDetector
from geunkeo.query.mappings import Mapping, PatternDictionary, load_dictionary
from geunkeo.query.morphs import NOUN_TAGS, PUNCT_TAGS, VERB_TAGS, Tok, tokens
from geunkeo.query.paths import pending_queue_path, user_mappings_path
from geunkeo.query.pending import PendingQueue
from geunkeo.text.patterns import ARTICLE_REF

log = logging.getLogger("geunkeo.query.colloquial")

_ENTITY = re.compile(
    r"\d[\d,.]*\s?(?:%|퍼센트|만원|천원|억원|억|원|학점|학기|년|개월|월|일|시간|시|분|회|번|개|명|세|점|주)?"
    r"|[A-Za-z][A-Za-z0-9&.+\-]*"
    r"|[\"“‘'「『<][^\"”’'」』>]{1,40}[\"”’'」』>]"
)
# Words that carry no content once the question has been turned into a noun phrase.
_FILLER = frozenset(
    [
        "좀", "혹시", "혹시나", "근데", "그럼", "그러면", "아", "음", "걍", "그냥", "막", "진짜", "너무", "요즘",
        "이거", "그거", "저거", "이게", "그게", "저게", "그", "저기", "나", "내가", "저", "제가", "우리", "나도", "저도",
        "있잖아", "말이야", "ㅇㅇ", "알려줘서", "데", "거", "것",
    ]
)
_DROP_PARTICLES = frozenset({"은", "는", "ᆫ", "이", "가", "을", "를", "ᆯ", "도", "요"})
_CONDITIONAL_EC = frozenset({"면", "으면", "려면", "으려면"})
# 돼/해 after an -야 word is obligation (내야 돼 "must pay"), not possibility (돼? "is it allowed?")
_OBLIGATION = frozenset({"돼", "됨", "되나", "돼요", "되나요", "되지"})
_PARTICLE_TAIL = "(?:[은는이가을를도])?"


@dataclass
class ColloquialPattern:
    """One match: which dictionary entry fired, where, and what it became."""

    pattern: str
    formal: str
    context: str
    kind: str  # "mapping" | "regex" | "lemma"
    start: int
    end: int
    text: str  # the matched surface text


@dataclass
class TransformResult:
    original: str
    transformed: str
    patterns: list[ColloquialPattern] = field(default_factory=list)
    contexts: list[str] = field(default_factory=list)  # intents, in match order, deduplicated
    confidence: float = 0.0  # share of the query's colloquial material explained by the matches
    formality: str = "formal"
    reason: str = ""
    queued: bool = False  # True when the query went to the pending-patterns queue
    unexplained: bool = False  # colloquial, yet no pattern matched

    @property
    def changed(self) -> bool:
        return self.transformed != self.original

    def to_dict(self) -> dict:
        d = asdict(self)
        d["changed"] = self.changed
        return d


class ColloquialTransformer:
    """Rewrites colloquial Korean queries into formal noun phrases (see the module docstring)."""

    def __init__(
        self,
        dictionary: PatternDictionary | None = None,
        pending: PendingQueue | None = None,
        detector: FormalityDetector | None = None,
    ):
        self.dictionary = dictionary or load_dictionary()
        self.pending = pending
        self.detector = detector or FormalityDetector()
        lits = sorted((m for m in self.dictionary.mappings if m.pos is None), key=lambda m: -len(m.pattern))
        self._literal: dict[str, Mapping] = {m.pattern: m for m in lits}
        alternation = "|".join(re.escape(m.pattern) for m in lits)
        self._literal_re = re.compile(rf"(?<!\w)(?:{alternation})(?!\w)") if lits else None
        self._lemmas = {m.pattern: m for m in self.dictionary.mappings if m.pos is not None}
        self._regexes = [
            (r, re.compile(rf"(?<!\w)(?:{r.pattern}){_PARTICLE_TAIL}(?!\w)")) for r in self.dictionary.regex_patterns
        ]

    @classmethod
    def from_settings(cls, qs: QuerySettings) -> ColloquialTransformer:
        """Default dictionary + the user's file, pending queue at the configured path."""
        pending = None if qs.pending_queue is False else PendingQueue(pending_queue_path(qs.pending_queue))
        return cls(load_dictionary(user_mappings_path(qs.user_mappings)), pending)

    # -- public API -------------------------------------------------------------------------------------------
    def detect_patterns(self, query: str) -> list[ColloquialPattern]:
        """Non-overlapping dictionary matches in `query` (whitespace-normalised), longest first, entities kept."""
        text = " ".join(query.split())
        return self._matches(text, tokens(text))

    def transform(self, query: str, formality: Formality | None = None, queue: bool = True) -> TransformResult:
        """Rewrite `query` to formal Korean; formal/English queries and unexplained ones come back unchanged.

        An unexplained colloquial query goes to the pending queue unless `queue=False` (the QueryPipeline then
        calls `queue` itself, after its domain vocabulary had a chance to explain the query)."""
        text = " ".join(query.split())
        form = formality or self.detector.detect(text)
        if form.label in ("formal", "english"):
            return self._done(TransformResult(text, text, formality=form.label, reason=f"{form.label}: left as written"))
        matches = self.detect_patterns(text)
        toks = tokens(text)  # cached: detect_patterns tokenized the same text
        if not matches:
            res = TransformResult(text, text, formality=form.label, reason="no pattern matched")
            if form.label == "colloquial":
                res.unexplained = True
                res.reason = "colloquial but no pattern matched: kept original"
                if queue:
                    self.queue(res)
            return self._done(res)
        rewritten, leftover = self._rebuild(text, toks, matches)
        covered = sum(m.end - m.start for m in matches)
        contexts = list(dict.fromkeys(m.context for m in matches))
        res = TransformResult(
            text, rewritten or text, matches, contexts, round(covered / (covered + leftover), 3), form.label,
            reason=f"{len(matches)} pattern(s) matched",
        )
        return self._done(res)

    def queue(self, res: TransformResult) -> None:
        """Put an unexplained colloquial query on the pending-patterns queue (deduplicated there, with counts)."""
        if not _queueable(res.original):
            res.reason += ", not queued (only Korean colloquial text is kept for the dictionary)"
            return
        res.reason += ", queued for review"
        if self.pending is not None:
            try:
                self.pending.add(res.original, formality=res.formality)
                res.queued = True
            except OSError as exc:  # a read-only home must not break search
                log.warning("pending queue not writable: %s", exc, extra={"geunkeo": {"path": str(self.pending.path)}})
        log.warning("unrecognised colloquial query", extra={"geunkeo": {"query": res.original, "formality": res.formality}})

    # -- matching ---------------------------------------------------------------------------------------------
    def _matches(self, text: str, toks: tuple[Tok, ...]) -> list[ColloquialPattern]:
        protected = _entity_spans(text, toks)
        cands: list[ColloquialPattern] = []
        for rp, rx in self._regexes:
            for m in rx.finditer(text):
                cands.append(ColloquialPattern(rp.pattern, " ".join(m.expand(rp.replacement).split()), rp.context,
                                               "regex", m.start(), m.end(), m.group(0)))
        if self._literal_re is not None:
            for m in self._literal_re.finditer(text):
                mp = self._literal[m.group(0)]
                if not mp.applies_to(text):
                    continue
                cands.append(ColloquialPattern(mp.pattern, mp.formal, mp.context, "mapping", m.start(), m.end(), m.group(0)))
        if self._lemmas:
            cands.extend(self._lemma_matches(text, toks))
        # longest span wins; on ties regex (it keeps captured content) before literal before lemma
        order = {"regex": 0, "mapping": 1, "lemma": 2}
        cands.sort(key=lambda c: (-(c.end - c.start), order[c.kind], c.start))
        chosen: list[ColloquialPattern] = []
        for c in cands:
            if any(c.start < o.end and o.start < c.end for o in chosen):
                continue
            if any(c.start < e and s < c.end and text[s:e] not in c.formal for s, e in protected):
                log.debug("match dropped: it would rewrite an entity", extra={"geunkeo": {"match": c.text}})
                continue
            chosen.append(c)
        for c in chosen:
            if c.kind == "mapping" and c.context == "possibility" and c.text in _OBLIGATION:
                before = text[: c.start].rstrip()
                if before.endswith("야"):
                    c.formal, c.context = "", "obligation"
        return sorted(chosen, key=lambda c: c.start)

    def _lemma_matches(self, text: str, toks: tuple[Tok, ...]) -> list[ColloquialPattern]:
        out = []
        for s, e in _words(text):
            wt = [t for t in _within(toks, s, e) if t.tag not in PUNCT_TAGS]
            if not wt or wt[0].tag not in VERB_TAGS or wt[0].start != s:
                continue
            mp = self._lemmas.get(wt[0].form + "다")
            if mp is None or not all(t.tag.startswith(("E", "VX")) for t in wt[1:]) or not mp.applies_to(text):
                continue
            formal = mp.formal + (" 시" if any(t.form in _CONDITIONAL_EC for t in wt[1:]) else "")
            end = wt[-1].end
            out.append(ColloquialPattern(mp.pattern, formal, mp.context, "lemma", s, end, text[s:end]))
        return out

    # -- rebuilding -------------------------------------------------------------------------------------------
    def _rebuild(self, text: str, toks: tuple[Tok, ...], matches: list[ColloquialPattern]) -> tuple[str, int]:
        """Per sentence, content words in order then the formal replacements; returns the text and the leftover
        colloquial chars. Sentences are rebuilt one by one so an intent stays next to the words it asks about."""
        out: list[str] = []
        leftover = 0
        for lo, hi in _sentences(text):
            content: list[str] = []
            intents: list[str] = []
            pos = lo
            for m in [*(m for m in matches if lo <= m.start < hi), None]:
                gap_end = m.start if m is not None else hi
                for s, e in _words(text, pos, gap_end):
                    word, colloquial = _normalise_word(text, s, e, toks)
                    leftover += (e - s) if colloquial else 0
                    if word:
                        content.append(word)
                if m is not None:
                    # a verb lemma's noun (떼 → 발급) is content and stays in place; question intents go last
                    (content if m.kind == "lemma" else intents).append(m.formal)
                    pos = max(pos, m.end)
            out.extend(" ".join(content + intents).split())
        words: list[str] = []
        for w in out:
            if w not in words or w == "시":  # 시 may legitimately repeat ("휴학 시 … 복학 시")
                words.append(w)
        return " ".join(words), leftover

    def _done(self, res: TransformResult) -> TransformResult:
        log.info(
            "query transform",
            extra={"geunkeo": {"stage": "query.transform", "original": res.original, "transformed": res.transformed,
                               "patterns": [p.pattern for p in res.patterns], "contexts": res.contexts,
                               "formality": res.formality, "reason": res.reason}},
        )
        return res


def _sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans: a sentence ends at ?, ! or . followed by a space (3.5 and 제1.2항 stay whole)."""
    spans, lo = [], 0
    for m in re.finditer(r"[?!.]+(?=\s)", text):
        spans.append((lo, m.end()))
        lo = m.end()
    spans.append((lo, len(text)))
    return [(a, b) for a, b in spans if text[a:b].strip()]


def _words(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    end = len(text) if end is None else end
    return [(start + m.start(), start + m.end()) for m in re.finditer(r"\S+", text[start:end])]


def _within(toks: tuple[Tok, ...], s: int, e: int) -> list[Tok]:
    """Tokens starting in [s, e); tokens are sorted by start, so this is two binary searches."""
    return list(toks[bisect_left(toks, s, key=lambda t: t.start) : bisect_left(toks, e, key=lambda t: t.start)])


def _entity_spans(text: str, toks: tuple[Tok, ...]) -> list[tuple[int, int]]:
    spans = [(m.start(), m.end()) for m in ARTICLE_REF.finditer(text)]
    spans += [(m.start(), m.end()) for m in _ENTITY.finditer(text)]
    spans += [(t.start, t.end) for t in toks if t.tag == "NNP"]
    return spans


def _normalise_word(text: str, s: int, e: int, toks: tuple[Tok, ...]) -> tuple[str, bool]:
    """One unmatched word in formal shape: (surface to keep or "", whether it still sounded colloquial)."""
    surface = text[s:e]
    wt = _within(toks, s, e)
    core = [t for t in wt if t.tag not in PUNCT_TAGS]
    if not core or surface.strip("?!.~,") in _FILLER:
        return "", False
    if surface.strip("?!.~,") == "때":  # 신청할 때 → 신청 시
        return "시", False
    if core[0].tag in ("VV", "XSV", "XSA") and core[0].form in ("하", "되") and all(t.tag.startswith(("E", "VX")) for t in core[1:]):
        # a bare light verb (해야, 돼서) carries no content of its own; 하려면 keeps its condition as 시
        return ("시" if any(t.form in _CONDITIONAL_EC for t in core[1:]) else ""), False
    # the noun run at the start of the word (휴학, 장학금, 제12조, GPA)
    n = 0
    while n < len(core) and core[n].tag in NOUN_TAGS:
        n += 1
    rest = core[n:]
    if n == 0:
        colloquial = any(t.tag in ("EF", "EC") for t in rest)
        return surface.rstrip("?!.~,"), colloquial
    noun = text[core[0].start : core[n - 1].end]
    if all(t.tag == "JC" or (t.tag.startswith("J") and t.form in _DROP_PARTICLES) for t in rest):
        return noun, False
    if rest and rest[0].tag in ("XSV", "XSA") and rest[0].form in ("하", "되"):
        if any(t.form in _CONDITIONAL_EC for t in rest[1:]):
            return f"{noun} 시", False
        return noun, False
    if rest and rest[0].tag == "VCP":  # 얼마야, 언제야: copula + ending
        return noun, False
    return surface.rstrip("?!.~,"), any(t.tag in ("EF", "EC") for t in rest)


def _queueable(text: str) -> bool:
    """Korean colloquial text worth a dictionary entry: at least two Hangul syllables, and mostly Hangul."""
    syllables = sum(1 for c in text if "\uac00" <= c <= "\ud7a3")
    jamo = sum(1 for c in text if "\u3131" <= c <= "\u318e")
    letters = sum(1 for c in text if c.isalpha())
    return syllables >= 2 and syllables + jamo >= 0.5 * letters
