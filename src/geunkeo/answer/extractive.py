"""Extractive answerer (no LLM, the default): the unit that states what was asked first, then at most two
supporting units, each cited.

Only whole units are quoted: sentences that start and end where the source's do, list items with their lead-in,
and notice field lines (`source_units`). Each candidate unit of the top chunks gets the learned unit ranker's
probability that it states the answer (answer/unit_ranker.py; model card docs/models/unit_ranker.md). The most
probable readable unit leads, unless it opens with a proviso, starts inside a sentence or is about another member of
a series the question names (2호 for 1호); supporting units come from the lead's document (another only when the
question compares), by MMR: probability relative to the lead's, plus a bonus for filling an asked slot no chosen
unit fills, minus similarity to what is said. They are shown in reading order; a proviso (단, 다만, 제외, 예외,
그러하지 아니하다) that follows a chosen unit stays with it, and a unit that points back ("그 이후에는") follows the
sentence before it. A count question leads with a number of the asked unit when one is there (`_count_first`).
Garbled units and table rows of bare figures are never shown. A question in another language than the source gets
a note saying so, and the source sentences are quoted verbatim rather than translated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from geunkeo.answer.base import Answer, Answerer, AnswerSentence, source_lang
from geunkeo.answer.cited import citation_for, render
from geunkeo.answer.slots import (
    NUMERIC_SLOTS,
    QUESTION_TERMS,
    asks_several,
    count_unit,
    counts_of,
    field_label,
    label_slots,
    question_slots,
    sentence_slots,
    states_count_of,
    states_other_count,
)
from geunkeo.answer.unit_ranker import (
    EVIDENCE,
    Evidence,
    HitView,
    QueryView,
    UnitRanker,
    bigrams,
    evidence_features,
    feature_matrix,
    get_unit_ranker,
    intrinsic,
)
from geunkeo.config import AnswerSettings
from geunkeo.corpus.reflow import ends_sentence
from geunkeo.retrieve.base import Hit
from geunkeo.retrieve.versions import IN_FORCE
from geunkeo.text.analyzer import get_analyzer
from geunkeo.text.injection import passages, spans_of
from geunkeo.text.kiwi import get_kiwi
from geunkeo.text.patterns import HANGUL, detect_lang
from geunkeo.trace import Trace

_HEADING = re.compile(r"^(?:제\s?\d+\s?조(?:\s?의\s?\d+)?\s?\([^)]{1,30}\)|Article\s+\d+\s*\([^)]{1,40}\))\s*")
NOTES = {
    ("en", "ko"): "The source documents are in Korean; the relevant passages are quoted as written.",
    ("ko", "en"): "관련 원문은 영어로 되어 있어 그대로 인용합니다.",
}
NOT_FOUND = {"ko": "검색된 문서에서 질문에 대한 내용을 찾지 못했습니다.",
             "en": "The retrieved documents do not contain an answer to this question."}


# bullets (">" and "=>" too), numbers, the ㅇ/○ bullet as OCR reads it (O, o, 0) before a word or a "(label)", and
# Q./A. markers
_BULLET = re.compile(r"^\s*(?:[-*•·▶▷■□○●◦▪※>]|=>|\d{1,2}[.)]|[가-하][.)]|\(\d{1,2}\)|[Oo0](?=\s+[가-힣(])|"
                     r"[QA][.:](?=\s))\s*")
# a "label: value" line with a figure ("사용 비율: 2.75%(3분기)→3.5%(4분기)", "접수 기간: 4월 6일 ~ 4월 17일"): an item
_LABELLED = re.compile(r"^[^:：]{2,30}[:：]\s*\S.*\d")
_MD_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
# a quoted remark ("“…”라고 말했다" aside): the speaker's words, not the document's statement
_QUOTED = re.compile(r"^(?:[\"“「『<]|['‘](?!\d))")
_SOURCE_NOTE = re.compile(r"^(?:자료|출처|주\)|주:|주\s?\d\)|Source|Note)\s*[:：)]?", re.I)
# a proviso: a sentence that limits the one before it; one that opens with its marker cannot stand first
_PROVISO_START = r"^(?:단[,\s]|다만|However|Provided)"
PROVISO_LEAD = re.compile(_PROVISO_START, re.I)
_PROVISO = re.compile(_PROVISO_START + r"|^(?:This does not apply|but\b)|그러하지\s?아니|제외한다|예외로", re.I)
_ENDED = re.compile(r"(?:[.!?。]|[다요함음임됨])[\"'”’)\]]*$")


# A sentence that introduces a list ("…다음 각 호와 같다.", "…다음 각 호의 어느 하나에 해당하는 경우에는 …",
# "as follows:") carries its facts in the items below it; quoted alone it says nothing.
_INTRO = re.compile(r"(?:다음\s*각\s*[호목]|다음과\s*같|아래와\s*같|as\s+follows|the\s+following)|:\s*$")
_ITEM = re.compile(r"^\s*(?:\d{1,2}[.)]|[가-하][.)]|\(\d{1,2}\))\s*\S")
_ITEM_MARK = re.compile(r"^\(?(\d{1,2}|[가-하])[.)]\s*")
MAX_ITEMS, MAX_UNIT_CHARS = 10, 700
# a numbered member of a series the question names ("녹색 성장펀드 2호", "4차 공고", "2단계", "제2호", "3번째"): a sentence
# about another member of the same series ("2호 펀드 역시 …") answers about something else
_ORDINAL = re.compile(r"(?<![\d.,])(\d{1,2})\s?(호|차|단계|기|번째)(?![가-힣]?\d)")


def source_sentences(text: str) -> list[str]:
    """Sentences of a chunk worth quoting (see `source_units`), as plain strings."""
    return [u.text for u in source_units(text)]


@dataclass
class Unit:
    """A quotable piece of a chunk: one whole sentence, or one list item (a line that began with a bullet)."""

    text: str
    position: int = 0  # index among the chunk's units


def source_units(text: str) -> list[Unit]:
    """Whole sentences and list items of a chunk: split by line first (ingestion already rebuilt sentences a PDF
    broke across lines), bullets and article headings stripped; headings, metadata, table rows, quoted remarks,
    source notes and pieces that do not end a sentence are skipped.

    A sentence that introduces a list (호/목 items) is kept together with its items, markers included
    ("… 다음 각 호와 같다: (1) …; (2) …"), so the answer quotes the facts and not just the lead-in."""
    analyzer = get_analyzer()
    out: list[Unit] = []
    open_list = False  # the last sentence out introduced a list whose items may follow
    items = 0
    for raw in text.splitlines():
        if open_list and _ITEM.match(raw) and items < MAX_ITEMS:
            # "1. …" → "(1) …" and the lead-in's full stop → ":", so the unit stays one sentence for readers
            # and for sentence splitters (the citation at its end then covers the items too)
            item = _ITEM_MARK.sub(r"(\1) ", " ".join(raw.split()), count=1)
            if len(out[-1].text) + len(item) + 2 <= MAX_UNIT_CHARS:
                lead = re.sub(r"[.。]\s*$", ":", out[-1].text) if items == 0 else out[-1].text
                out[-1].text = f"{lead}{' ' if items == 0 else '; '}{item}"
                items += 1
                continue
        open_list = False
        if _MD_HEADING.match(raw):
            continue  # a section title is not an answer
        bulleted = bool(_BULLET.match(raw) or _LABELLED.match(raw.strip()))
        line = _HEADING.sub("", _BULLET.sub("", raw, count=1)).strip()
        if not line or line.startswith("|") or " | " in line or _SOURCE_NOTE.match(line):
            continue
        if not _ENDED.search(line) and len(line) < (8 if bulleted else 40):
            continue  # a heading, a label, a table cell
        for sent, is_item in _pieces(analyzer.sentences(line), bulleted):
            sent = _HEADING.sub("", sent).strip()
            if len(re.sub(r"\W", "", sent)) < 4 or _QUOTED.match(sent):
                continue
            # a piece that stops mid-sentence (a page cut it, a caption) is not quotable; a list item is whole,
            # unless it is a section title behind a bullet ("□ 녹색 성장펀드 2호 운용현황"): short, no figure
            if _broken(sent):
                continue
            if ends_sentence(sent) or (is_item and not _cut_at_connective(sent) and not _bullet_title(sent)):
                out.append(Unit(sent, position=len(out)))
        if out and out[-1].text in line and _INTRO.search(out[-1].text):
            open_list, items = True, 0
    return out


def _pieces(sents: list[str], bulleted: bool) -> list[tuple[str, bool]]:
    """A line's sentences, long ones split at the bullets inside them, each with whether it is a list item (the
    last piece of a bulleted line; every piece of a run split at its bullets), which is whole without a sentence
    ending."""
    out: list[tuple[str, bool]] = []
    for j, sent in enumerate(sents):
        pieces = _inline_items(sent)
        last = bulleted and j == len(sents) - 1
        out += [(piece, len(pieces) > 1 or (last and k == len(pieces) - 1)) for k, piece in enumerate(pieces)]
    return out


# a bullet inside a line: a two-column or outline page the extraction ran together ("… 효과 · 누적 조회수 …",
# "… 추진 o (재정 …)", "… 확대 > 2018년 …"); a spaced middle dot also joins two nouns ("양도 · 대여"), so only a long
# run is split and only into pieces that stand as phrases
INLINE_BULLET = re.compile(r"\s(?:[·▶▷■□○●◦※>]|=>|ㅇ|[Oo](?=\s+[가-힣(\d])|0(?=\s+\())\s+")
_LONG_RUN, _MIN_PIECE = 90, 12


def _inline_items(sent: str) -> list[str]:
    """A long sentence split at the bullets inside it, each piece at least `_MIN_PIECE` characters (a shorter one
    stays with the piece before it); a short sentence as it is."""
    if len(sent) < _LONG_RUN or not INLINE_BULLET.search(sent):
        return [sent]
    pieces: list[str] = []
    for piece in INLINE_BULLET.split(sent):
        piece = piece.strip()
        if pieces and (len(piece) < _MIN_PIECE or len(pieces[-1]) < _MIN_PIECE):
            pieces[-1] = f"{pieces[-1]} {piece}"
        elif piece:
            pieces.append(piece)
    return pieces


_FINAL_SYLLABLES = "다요음함임됨까니오죠"


def _broken(sent: str) -> bool:
    """Whether a piece that looks like a sentence is a fragment: a full stop where the source had a comma
    ("…판단을 하기 어려우므로.", OCR), or a bracket it opens and never closes ("…규정하고(제4조조, 아울러 …")."""
    if sent.count("(") > sent.count(")"):
        return True
    body = sent.rstrip().removesuffix(".")
    return (body != sent.rstrip() and bool(body) and HANGUL.match(body[-1]) is not None
            and body[-1] not in _FINAL_SYLLABLES and _cut_at_connective(body))


def _bullet_title(item: str) -> bool:
    """A bulleted line that names a section rather than stating something: short, no "label: value", and no
    number but an ordinal ("2호 운용현황" is a title; "DELF B2 이상" is a fact)."""
    return len(item) <= 30 and ":" not in item and "：" not in item and not re.search(r"\d", _ORDINAL.sub("", item))


def _cut_at_connective(item: str) -> bool:
    """Whether a list item stops on a connective ending ("…하기 어려우므로", "…신청하고"): the page cut the
    sentence it began, so it is not a whole item."""
    if not HANGUL.search(item[-3:]):
        return False
    toks = get_kiwi().tokenize(item[-30:])
    return bool(toks) and str(toks[-1].tag) == "EC"


@lru_cache(maxsize=256)
def proper_nouns(text: str) -> frozenset[str]:
    """The proper nouns Kiwi finds in a Korean text (부산은행, 쿠팡); none in other text."""
    if not HANGUL.search(text):
        return frozenset()
    return frozenset(t.form for t in get_kiwi().tokenize(text) if str(t.tag) == "NNP" and len(t.form) >= 2)


@lru_cache(maxsize=256)
def title_terms(title: str) -> frozenset:
    """A document title's BM25 terms (every sentence of the document is about what its title names)."""
    return frozenset(get_analyzer().terms(title)) if title else frozenset()


def ordinals(text: str) -> dict[str, set[str]]:
    """Numbered members of a series a text names, by counter: "1호 펀드와 2차 공고" → {"호": {"1"}, "차": {"2"}}."""
    out: dict[str, set[str]] = {}
    for number, counter in _ORDINAL.findall(text):
        out.setdefault(counter, set()).add(number)
    return out


_NUMBERING = re.compile(r"^\s*(?:\(?\d{1,2}[.)]|\(?[가-하][.)]|[ⅠⅡⅢⅣⅤⅥⅦⅧⅨⅩ]+\.?|[IVX]+\.|[①-⑳□■○●◦▶▷-])\s*")


def _on_topic(c: _Candidate) -> bool:
    return c.overlap > 0 or c.slot


# a chapter number: a Roman numeral sign, or Latin numerals with a full stop or before Korean ("I am …" is no chapter)
_CHAPTER = re.compile(r"^\s*(?:[ⅠⅡⅢⅣⅤⅥⅦⅧⅨⅩ]+\.?\s|[IVX]{1,4}\.\s|(?:II|III|IV|V|VI|VII|VIII|IX|X)\s(?=[가-힣]))")
_CHAPTER_TITLE_CHARS = 30


def is_heading(text: str) -> bool:
    """Whether a unit is a heading: short, no sentence ending, no figure past its numbering and no "label: value"
    (a section title says what follows, not what the question asked)."""
    shape = intrinsic(text)
    body = _NUMBERING.sub("", text)
    if _CHAPTER.match(text) and len(body) <= _CHAPTER_TITLE_CHARS and not re.search(r"\d", body):
        return True  # "Ⅱ 이렇게 추진해 왔습니다": a chapter's title, whatever its ending
    return bool(shape.short and shape.no_ending and ":" not in body and not re.search(r"\d", body))


def names_other_member(asked: dict[str, set[str]], text: str) -> bool:
    """Whether `text` names another member of a series the question asks about (2호 for a question on 1호) and
    not the one asked."""
    if not asked:
        return False
    said = ordinals(text)
    return any(said.get(counter) and not (said[counter] & numbers) for counter, numbers in asked.items())


@lru_cache(maxsize=512)
def chunk_units(text: str) -> tuple[tuple[Unit, frozenset], ...]:
    """`source_units` of a chunk with each unit's BM25 terms; cached, because the answerer and the gate's
    answerability check read the same top chunks."""
    units = _not_instructions(text, source_units(text))
    terms = get_analyzer().terms_batch([u.text for u in units])
    return tuple((u, frozenset(t)) for u, t in zip(units, terms, strict=True))


def _not_instructions(text: str, units: list[Unit]) -> list[Unit]:
    """`units` less those inside an instruction-like passage of the chunk (geunkeo.text.injection): a document's
    message to the model is data, never a fact to quote, and not evidence that the chunk answers."""
    spans = spans_of(text)
    if not spans:
        return units
    ranges = passages(text, list(spans))

    def inside(u: Unit) -> bool:
        at = text.find(u.text)
        if at < 0:  # a unit rebuilt from broken lines: read it on its own
            return bool(spans_of(u.text))
        return any(a < at + len(u.text) and at < b for a, b in ranges)

    return [u for u in units if not inside(u)]


def _page_of(hit: Hit) -> tuple[str, object] | None:
    """(document, page) of a hit's chunk when its source has pages (PDF, JSONL `page`), else None."""
    page = hit.chunk.metadata.get("page")
    return None if page is None else (hit.chunk.doc_id, page)


def _jaccard(a: frozenset, b: frozenset) -> float:
    return len(a & b) / len(a | b) if a or b else 1.0


def compound_holds(term: str, terms: frozenset[str] | set[str]) -> bool:
    """Whether a Korean compound of the sentence ends in the question's noun: 일반휴학 and 질병휴학 are 휴학."""
    return len(term) >= 2 and bool(HANGUL.match(term)) and not term.endswith("다") and any(
        len(u) > len(term) and u.endswith(term) for u in terms)


def _bound_prefers(query: str, theirs: set[str], ours: set[str]) -> bool:
    """Whether a question asking the most (최대, 최고) or the least (최소, 최저) of a count is answered better by
    the unit giving `theirs` than by the one giving `ours`: its extreme count is beyond the other's."""
    words = set(get_analyzer().terms(query)) & _BOUND_WORDS
    if not words or not theirs or not ours:
        return False
    high = lambda nums: max(float(n) for n in nums)  # noqa: E731
    low = lambda nums: min(float(n) for n in nums)  # noqa: E731
    if words & {"최대", "최고"}:
        return high(theirs) > high(ours)
    return low(theirs) < low(ours)


def _label_answers(label: str, asked: list[str], weights: dict[str, float]) -> bool:
    """Whether a field line's label answers one of the asked slots: "일시" answers 언제; "신청 기간" only a question
    about 신청 (the notice's other dates answer other questions)."""
    for slot, qualifier in label_slots(label).items():
        if slot in asked and (not qualifier or set(get_analyzer().terms(qualifier)) & set(weights)):
            return True
    return False


def question_lang(query: str) -> str:
    return "en" if detect_lang(query) == "en" else "ko"


@dataclass
class _Candidate:
    rank: int  # hit index
    unit: Unit
    terms: frozenset
    overlap: float  # weighted share of the query's terms in the unit
    slot: bool  # carries what the question asks for
    score: float  # the hand-weighted score the ranker replaced (kept as its baseline: scripts/train_unit_ranker.py)
    figure: bool = False  # states an amount, date, count or rate
    other_member: bool = False  # about another member of a series the question names (2호 for 1호)
    label: bool = False  # a notice's field line whose label answers what is asked
    prob: float = 0.0  # the unit ranker's probability that the unit states the answer (answer/unit_ranker.py)

    @property
    def text(self) -> str:
        return self.unit.text

    @property
    def position(self) -> int:
        return self.unit.position


@dataclass
class RankedUnits:
    """The candidate units of the top chunks with their features (rows in candidate order) and probabilities."""

    candidates: list[_Candidate]
    units_by_hit: dict[int, tuple]
    features: np.ndarray
    weights: dict[str, float]
    view: QueryView
    slots: list[str]  # what the question asks for (answer/slots.question_slots), most specific first

    def evidence(self, hits: list[Hit], rarity: dict[str, float], top: int,
                 stand_ins: dict[str, str] | None = None) -> np.ndarray:
        """The answerability head's evidence features over the top `top` hits (unit_ranker.evidence_features);
        `stand_ins` maps each expansion term to the asker's word or phrase it was made from."""
        if not hits:
            return np.zeros(len(EVIDENCE))
        dense = hits[0].scores.get("dense")
        ev = Evidence([h.chunk.text for h in hits[:top]], rarity, hits[0].chunk.lang,
                      None if dense is None else float(dense), stand_ins or {})
        return evidence_features(self.view, self.candidates, ev)

    @property
    def probabilities(self) -> np.ndarray:
        return np.asarray([c.prob for c in self.candidates])


_SLOT_BONUS = 0.25
_SUPPORT_SHARE = 0.2  # a supporting unit is at least this probable relative to the lead (autorag-ko dev)
_MAX_SUPPORT = 2
# a supporting unit that fills an asked slot (an amount, a date, an office …) no chosen unit fills gets this much
# more; chosen on autorag-ko dev and the sample set (key facts in the closing note of session 13)
_FILL_WEIGHT = 0.5
_COUNT_SHARE = 0.3  # a unit giving a number of the asked unit leads if it is this probable relative to the lead
_RIVAL_SHARE = 0.5  # a unit giving another number of the asked unit is shown if this probable relative to the lead
_MAX_GARBLE = 0.5  # units garbled beyond this (unit_ranker.intrinsic) are never shown
_MIN_LETTERS = 0.1  # a unit shown has at least this share of letters (and two)
_MMR_LAMBDA = 0.5
_TITLE_TERM_WEIGHT = 0.35
_BOUND_WORDS = frozenset({"최대", "최소", "최고", "최저"})
_BOUND_WORD_WEIGHT = 0.35
_OTHER_MEMBER_FACTOR = 0.5
_NOVELTY_WEIGHT = 1.0  # a question asking several things: the share of its words no chosen unit holds yet


def _fills(text: str, asked: frozenset[str] | set[str]) -> set[str]:
    """The asked slots a unit fills: by what it states, or by its field label ("장소: …" answers where)."""
    label = field_label(text)
    return set(asked) & (sentence_slots(text) | (set(label_slots(label)) if label else set()))


# a figure a reader of another language can take from a Korean passage: a number with its unit, or a longer number
# (not an article's number: 제14조)
_FIGURE = re.compile(r"(?<![제\d])(?:\d[\d,.]*\d?\s?(?:%|퍼센트|조|억|만|천|원|달러|년|월|일|개월|개(?:\s?학기)?|학기|학점|회|명|"
                     r"시간|주|배|bp)|\d{4}\.\s?\d{1,2}\.\s?\d{1,2}|\d[\d,]{2,}(?:\.\d+)?)")
_MAX_FIGURES = 6


def _source_note(lang: str, source: str, lead: Hit, units: list[_Candidate]) -> str:
    """The note before passages quoted in another language than the question's; for an English question it names
    the lead passage's document and place and lists the figures the passages give, so the reader has the facts
    without reading Korean ("They are from 학칙 제15조(휴학) and give: 2개 학기, 6개 학기.")."""
    note = NOTES[(lang, source)]
    if lang != "en":
        return note
    where = lead.chunk.location or lead.chunk.title
    figures = list(dict.fromkeys(m.group(0).strip().rstrip(".") for c in units for m in _FIGURE.finditer(c.unit.text)))
    listed = f" and give: {', '.join(figures[:_MAX_FIGURES])}" if figures else ""
    return f"{note} They are from {where}{listed}." if where else note


def readable(text: str) -> bool:
    """Whether a unit can be shown: not garbled OCR, and not a table row of figures without its labels ("4 71.5
    731 64.2 60.9"; a field line "일시: 2026. 5. 14.(목) 15:00" has its label)."""
    chars = [ch for ch in text if not ch.isspace()]
    letters = sum(ch.isalpha() for ch in chars)
    return intrinsic(text).garble < _MAX_GARBLE and letters >= max(2.0, _MIN_LETTERS * len(chars))


class ExtractiveAnswerer(Answerer):
    name = "extractive"

    def __init__(self, settings: AnswerSettings | None = None, ranker: UnitRanker | None = None):
        s = settings or AnswerSettings()
        self.ranker = ranker or get_unit_ranker()
        self.max_sentences = s.max_sentences
        self.top_chunks = s.extractive_top_chunks
        self.max_chars = s.extractive_max_chars

    def answer(self, query: str, hits: list[Hit], trace: Trace | None = None, *,
               terms: dict[str, float] | None = None, ranked: RankedUnits | None = None) -> Answer:
        """The unit the ranker finds most likely to state the answer first, then at most two supporting units of
        the same document, each cited; `terms` are the query plan's weighted BM25 terms when available, `ranked`
        the units of `hits` already ranked for them (`ranked_units`; the answer pipeline ranks once for the gate
        too)."""
        trace = trace if trace is not None else Trace()
        lang = question_lang(query)
        if not hits:
            return Answer(query=query, text=NOT_FOUND[lang], lang=lang, answerer=self.name, trace=trace,
                          sentences=[AnswerSentence(NOT_FOUND[lang], generic=True)])
        ranked = ranked or self.ranked_units(query, hits, terms)
        doc_of = [h.chunk.title or h.chunk.doc_id for h in hits]
        asked = frozenset(ranked.slots[:2])
        chosen = self._choose(ranked.candidates, doc_of, ranked.weights if asks_several(query) else None,
                              "difference" in asked, asked)
        chosen = self._count_first(chosen, ranked.candidates, query, ranked.slots, doc_of)
        ordered = chosen[:1] + sorted(chosen[1:], key=lambda c: (c.rank, c.unit.position))
        ordered = self._with_context(ordered, ranked.units_by_hit)
        trace.decide("answer.extractive", "units chosen", candidates=len(ranked.candidates), chosen=len(ordered),
                     probabilities=[round(c.prob, 3) for c in ordered])
        sentences: list[AnswerSentence] = []
        src_langs = {hits[c.rank].chunk.lang if hits[c.rank].chunk.lang in ("ko", "en") else "ko" for c in ordered}
        note_lang = next(iter(src_langs - {lang}), None)
        if note_lang:
            sentences.append(AnswerSentence(_source_note(lang, note_lang, hits[ordered[0].rank], ordered),
                                            generic=True))
        for c in ordered:
            text = f"“{c.unit.text}”" if note_lang else c.unit.text
            sentences.append(AnswerSentence(text, citations=[citation_for(c.rank + 1, hits)]))
        return Answer(query=query, text=render(sentences), lang=lang, sentences=sentences, contexts=list(hits),
                      answerer=self.name, trace=trace)

    def ranked_units(self, query: str, hits: list[Hit], terms: dict[str, float] | None = None) -> RankedUnits:
        """The candidate units of the top chunks, each with the unit ranker's features and probability."""
        lang = question_lang(query)
        slots = question_slots(query)
        # the query's weighted terms: the plan's, else the query's own (analysed once, read by both steps)
        weights = dict(terms) if terms else dict.fromkeys(get_analyzer().terms(query), 1.0)
        # "최대 몇 학기": 최대 says what is asked (the upper bound), not what it is about; any limit sentence has it
        weights = {t: (w * _BOUND_WORD_WEIGHT if t in _BOUND_WORDS else w) for t, w in weights.items()}
        cands, units_by_hit = self._candidates(query, hits, weights, slots, source_lang(lang, hits))
        topic = {t: w for t, w in weights.items() if t not in QUESTION_TERMS} or weights
        view = QueryView(topic, bigrams(query), bool(set(slots[:2]) & set(NUMERIC_SLOTS)), lang,
                         count_unit(query) if "count" in slots[:2] else None, proper_nouns(query))
        total = sum(topic.values()) or 1.0
        hit_views = [HitView(h.score / hits[0].score if hits[0].score > 0 else 0.0, h.chunk.lang,
                             sum(w for t, w in topic.items() if t in title_terms(h.chunk.title)) / total)
                     for h in hits]
        x = feature_matrix(view, cands, hit_views)
        for c, p in zip(cands, self.ranker.probabilities(x), strict=True):
            c.prob = float(p)
        return RankedUnits(cands, units_by_hit, x, weights, view, slots)

    def _candidates(self, query: str, hits: list[Hit], weights: dict[str, float], slots: list[str],
                    only_lang: str | None = None) -> tuple[list[_Candidate], dict[int, tuple]]:
        # the best chunks, and any lower hit from the same page of a document as one of them: the rest of the page
        # a chunk boundary cut off ("…시장규모는 3.1조 USD" | "전 세계 모바일 결제의 27.5%가 인도에서 …");
        # with `only_lang` (base.source_lang), the best chunks in that language
        # a version of a regulation that is not in force is not quoted (retrieve/versions.py marks it when the one
        # in force was retrieved too; the gate still warns if an answer cites it)
        pool = [(r, h) for r, h in enumerate(hits) if (only_lang is None or h.chunk.lang == only_lang)
                and h.chunk.metadata.get("version_status") in (None, IN_FORCE)]
        top_pages = {_page_of(h) for _, h in pool[: self.top_chunks]} - {None}
        units_by_hit = {r: chunk_units(hit.chunk.text) for i, (r, hit) in enumerate(pool)
                        if i < self.top_chunks or _page_of(hit) in top_pages}
        asked = ordinals(query)
        cands: list[_Candidate] = []
        seen: set[str] = set()
        for r, units in units_by_hit.items():
            # every sentence of a document is about what its title names (a notice's term and topic): a
            # question word the title holds says little about which sentence answers, the others say more
            titled = title_terms(hits[r].chunk.title)
            own = {t: w * (_TITLE_TERM_WEIGHT if t in titled else 1.0) for t, w in weights.items()}
            own_total = sum(own.values()) or 1.0
            # a field line of a notice ("일시: 2026. 5. 14.(목) 15:00") is about what the notice's title names and
            # answers what its label says: under a question asking for that, it shares the title's words in full
            title_share = sum(w for t, w in weights.items() if t in titled) / (sum(weights.values()) or 1.0)
            for unit, tset in units:
                if unit.text in seen or unit.text.endswith("?"):  # a question in the source answers nothing
                    continue
                seen.add(unit.text)
                overlap = sum(w for t, w in own.items() if t in tset or compound_holds(t, tset)) / own_total
                has_slot = bool(slots) and bool(set(slots[:2]) & sentence_slots(unit.text))
                label = field_label(unit.text) if slots else None
                answers_label = bool(label and _label_answers(label, slots[:2], weights))
                if answers_label:
                    overlap, has_slot = max(overlap, title_share), True
                score = (overlap * (1 + (_SLOT_BONUS if has_slot else 0.0)) + 0.1 / (1 + unit.position)
                         + 0.15 / (1 + r))
                figure = bool(set(NUMERIC_SLOTS) & sentence_slots(unit.text))
                other = names_other_member(asked, unit.text)
                if other:
                    score *= _OTHER_MEMBER_FACTOR
                cands.append(_Candidate(r, unit, tset, overlap, has_slot, score, figure, other, answers_label))
        return cands, units_by_hit

    def _choose(self, cands: list[_Candidate], doc_of: list[str], parts: dict[str, float] | None = None,
                compares: bool = False, asked: frozenset[str] = frozenset()) -> list[_Candidate]:
        """The lead (the most probable unit that is not about another member of the asked series, does not open
        with a proviso and does not start inside a sentence), then supporting units by MMR over their probability
        relative to the lead's, with a bonus for filling an `asked` slot no chosen unit fills: from the lead's
        document unless the question compares, at least `_SUPPORT_SHARE` of the lead's probability, readable."""
        pool = sorted((c for c in cands if readable(c.unit.text)), key=lambda c: -c.prob)
        if not pool:
            return []
        # a unit that starts inside a sentence ("등의 비용부담 …") is no answer to read first
        leads = [c for c in pool if not c.other_member and not PROVISO_LEAD.match(c.unit.text)
                 and not intrinsic(c.unit.text).cut_start and not is_heading(c.unit.text)] or pool
        # what is quoted shares a word with the question or gives what it asks: a bare verb sentence of the page
        # says nothing to the asker
        topical = any(_on_topic(c) for c in pool)  # none is when no word can match (another language)
        leads = [c for c in leads if _on_topic(c)] or leads
        lead = leads[0]
        chosen = [lead]
        # a supporting unit that starts inside a sentence is a fragment too (its antecedent is on another page)
        rest = [c for c in pool if c is not lead and c.prob >= _SUPPORT_SHARE * lead.prob and not is_heading(c.unit.text)
                and not intrinsic(c.unit.text).cut_start and (_on_topic(c) or not topical)
                and (compares or doc_of[c.rank] == doc_of[lead.rank])]
        total = (sum(parts.values()) or 1.0) if parts else 1.0
        while len(chosen) < min(self.max_sentences, 1 + _MAX_SUPPORT) and rest:
            # MMR: probability minus similarity to what is already said (notices repeat their contact line), plus,
            # for a question asking several things (`parts`), the share of its words no chosen unit holds yet
            said = frozenset().union(*(x.terms for x in chosen))
            filled = set().union(*(_fills(x.unit.text, asked) for x in chosen))

            def mmr(c: _Candidate, said: frozenset = said, filled: set[str] = filled) -> float:
                novel = sum(w for t, w in parts.items() if t in c.terms and t not in said) / total if parts else 0.0
                # relative to the lead's probability: on the scale of the similarity it is weighed against
                fills = _FILL_WEIGHT if _fills(c.unit.text, asked - filled) else 0.0
                return (c.prob / (lead.prob or 1.0) + _NOVELTY_WEIGHT * novel + fills
                        - _MMR_LAMBDA * max(_jaccard(c.terms, x.terms) for x in chosen))

            room = self.max_chars - sum(len(x.unit.text) for x in chosen)
            ready = [c for c in rest if len(c.unit.text) <= room]
            if not ready:
                break
            nxt = max(ready, key=mmr)
            rest.remove(nxt)
            if max(_jaccard(nxt.terms, x.terms) for x in chosen) < 0.7:
                chosen.append(nxt)
        return chosen

    def _count_first(self, chosen: list[_Candidate], cands: list[_Candidate], query: str, slots: list[str],
                     doc_of: list[str]) -> list[_Candidate]:
        """For a question asking how many of a unit: a lead that gives no number of it gives way to a unit of the
        top chunks that does, and no unit of another document that counts something else is quoted. When the top
        chunks count the asked unit differently (one figure per kind of case), the most probable unit with a number
        no chosen unit gives is shown too, so the reader sees the figures the documents give, not one of them.
        Count questions are rare in the ranker's training data, so it barely learned the asked-unit features."""
        unit = count_unit(query) if "count" in slots[:2] else None
        if not unit or not chosen:
            return chosen
        counting = [c for c in cands if c.rank < self.top_chunks and not c.other_member and readable(c.unit.text)
                    and c.prob >= _COUNT_SHARE * chosen[0].prob and states_count_of(c.unit.text, unit)]
        if counting and not states_count_of(chosen[0].unit.text, unit):
            lead = max(counting, key=lambda c: c.prob)
            chosen = [lead, *(c for c in chosen if c is not lead)][: 1 + _MAX_SUPPORT]
        said = set().union(*(counts_of(c.unit.text, unit) for c in chosen))
        rivals = [c for c in counting if c not in chosen and c.prob >= _RIVAL_SHARE * chosen[0].prob
                  and counts_of(c.unit.text, unit) - said]
        if said and rivals:
            rival = max(rivals, key=lambda c: c.prob)
            chosen = [chosen[0], rival, *chosen[1:]][: 1 + _MAX_SUPPORT]
            # "최대 몇": across passages the largest count leads; within one the source's order stands (its general
            # rule before the exception that raises it)
            if rival.rank != chosen[0].rank and _bound_prefers(query, counts_of(rival.unit.text, unit), said):
                chosen = [rival, chosen[0], *chosen[2:]]
        doc = doc_of[chosen[0].rank]
        return [chosen[0], *(c for c in chosen[1:] if doc_of[c.rank] == doc or not states_other_count(c.unit.text, unit))]

    def _with_context(self, chosen: list[_Candidate], units_by_hit: dict[int, tuple]) -> list[_Candidate]:
        """Each chosen unit directly followed by the proviso that limits it (the source's next unit, when it is
        one); a chosen unit that opens with a proviso ("다만, …") or points back at the sentence before it ("그
        이후에는 …", "이 경우 …") is preceded by that sentence."""
        placed: set[tuple[int, int]] = set()
        out: list[_Candidate] = []

        def place(rank: int, pos: int, cand: _Candidate | None = None) -> None:
            unit, terms = units_by_hit[rank][pos]
            out.append(cand or _Candidate(rank, unit, terms, 0.0, False, 0.0))
            placed.add((rank, pos))

        for c in chosen:
            key = (c.rank, c.unit.position)
            if key in placed:
                continue
            units = units_by_hit.get(c.rank, ())
            prev = c.unit.position - 1
            pointing = PROVISO_LEAD.match(c.unit.text) or intrinsic(c.unit.text).dangling
            if pointing and prev >= 0 and (c.rank, prev) not in placed:
                place(c.rank, prev)
            place(c.rank, c.unit.position, c)
            nxt = c.unit.position + 1
            if nxt < len(units) and (c.rank, nxt) not in placed and _PROVISO.search(units[nxt][0].text):
                place(c.rank, nxt)
        return out
