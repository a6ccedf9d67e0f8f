"""Do the retrieved documents answer the question? A check the gate runs for every answerer.

Retrieval always returns something; whether it *answers* is a different question. A question about a fee no document states
("동아리방 대여료는 얼마야?") still finds a notice about the rooms and a table of other fees — each shares words
with the question, neither states that fee. Two checks:

- the focus: the noun the question asks about ("대여료" in "… 대여료는 얼마야?", `question_focus`) and any figure it
  names ("2025년") must appear in the top chunks;
- missing share: the asker's topic words (nouns, numbers, foreign words; not question words, not verbs) that no
  top chunk contains, weighted by how rare each word is among the top chunks' sentences, so the word that names
  the topic (주차, 중성화) counts for more than 학기 or 지원. The score is 1 − that share.

The gate withholds the answer when the focus is unmatched or the score is below
`answer.gate_min_answerability`, calibrated on unanswerable questions written for the project
(benchmarks/data/*_unanswerable.jsonl; figures in docs/benchmarks/answers.md).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache

from geunkeo.answer.base import source_lang
from geunkeo.answer.extractive import chunk_units, compound_holds, ordinals, question_lang, title_terms
from geunkeo.answer.slots import (
    NUMERIC_SLOTS,
    QUESTION_TERMS,
    QUESTION_WORDS,
    count_unit,
    numeric_slot,
    question_slots,
    sentence_slots,
    states_count_of,
)
from geunkeo.retrieve.base import Hit
from geunkeo.text.analyzer import get_analyzer
from geunkeo.text.entities import extract_contacts
from geunkeo.text.kiwi import get_kiwi
from geunkeo.text.patterns import HANGUL

TOP_CHUNKS = 3
ENOUGH_MATCHED = 5


_QUESTION_WORDS = tuple(QUESTION_WORDS["question_words"])
_GENERIC = frozenset(QUESTION_WORDS["generic_nouns"])
_CONTACT_WORDS = frozenset(QUESTION_WORDS["contact_words"])
_MODIFIERS = frozenset(QUESTION_WORDS["modifier_nouns"])
_QUANTITY_ASKED = re.compile(r"얼마|몇|언제|며칠|how\s+(?:much|many|long)|when\b|what\s+(?:percentage|rate|amount)",
                             re.I)
_EN_COUNTED = re.compile(r"\bhow\s+(?:many|much)\s+([A-Za-z][A-Za-z-]{2,})", re.I)
_EN_NOT_FOCUS = frozenset({"does", "did", "do", "is", "are", "was", "were", "will", "would", "can", "could", "should",
                           "shall", "may", "must", "has", "have", "of", "more", "longer", "time", "money", "extra"})
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)(?=\s*년|\b)")
# a year written short: "'31학년도", "’29년", "29년 상반기", "31학년도", "29년 5월" (a bare "10년" is a duration)
_SHORT_YEAR = re.compile(r"[''’‘](\d\d)(?!\d)|(?<![\d.])(\d\d)(?=\s*학년도|년\s*(?:[상하]반기|\d{1,2}\s*월|도\b))")


def _years(query: str) -> list[str]:
    """The years a question names, four digits, whether written in full or short."""
    short = [f"20{a or b}" for a, b in _SHORT_YEAR.findall(query)]
    return list(dict.fromkeys([*_YEAR.findall(query), *short]))


@dataclass
class Answerability:
    score: float
    parts: dict[str, float] = field(default_factory=dict)
    asked: str | None = None  # the number-like slot the question asks for, if any
    missing: list[str] = field(default_factory=list)  # the asker's terms no top chunk contains
    focus: str | None = None  # what the question asks about ("대행료" in "… 대행료는 얼마인가요?")
    unmatched: list[str] = field(default_factory=list)  # the focus or the question's numbers, absent from the top


_NEAR_CHARS = 120


def _fact_near(focus: str, top: list[Hit]) -> bool:
    """Whether a figure (amount, date, count, rate) stands within a sentence's length of `focus` in a top chunk.

    Read on the chunk's text, not on its whole sentences: a PDF page can cut the very sentence that states the
    figure ("지원 한도가 현행 월 15만원에서 월 25만원으로 인상되었으 2 | 3 며")."""
    pattern = re.compile(r"\s*".join(map(re.escape, focus.replace(" ", ""))))
    for h in top:
        text = re.sub(r"\s+", " ", h.chunk.text)
        for m in pattern.finditer(text):
            window = text[max(m.start() - _NEAR_CHARS, 0): m.end() + _NEAR_CHARS]
            if set(NUMERIC_SLOTS) & sentence_slots(window):
                return True
    return False


def _counts(text: str, unit: str) -> bool:
    """Whether `text` gives a number of `unit`, also with a Korean power of ten or an "about" before the unit (N만명, N여개)."""
    return states_count_of(text, unit) or bool(re.search(rf"\d[\d,.]*\s*(?:[만천억]\s*)?(?:여\s*)?(?:개\s*)?{unit}", text))


def query_unit_name(unit: str) -> str:
    """A count unit pattern as a word to show ("(?:번|회|차례)" → 번)."""
    return re.sub(r"^\(\?:([^|)]+).*$", r"\1", unit)


def source_word(source: str) -> str:
    """The asker's word an expansion was made from: "slang:과톡→학과 단체대화방" → "과톡", "기숙사→생활관" → "기숙사"."""
    return source.split(":", 1)[-1].split("→", 1)[0].strip()


def stand_ins(term_sources: dict[str, str] | None) -> dict[str, str]:
    """Each expansion term of a query plan and the asker's word or phrase it stands in for (the plan's own terms,
    source "query", stand for themselves and are left out)."""
    return {t: source_word(src) for t, src in (term_sources or {}).items() if src != "query"}


def _number_in(number: str, text: str) -> bool:
    """Whether `text` names `number`; a year also as Korean documents abbreviate it ('24년, ’24)."""
    if number in text:
        return True
    return len(number) == 4 and number[:2] in ("19", "20") and any(
        f"{q}{number[2:]}" in text for q in ("'", "’", "‘")) or bool(re.search(rf"(?<!\d){number[2:]}(?:년|학년도)", text))


@lru_cache(maxsize=256)
def _tokens(query: str) -> tuple:
    """Kiwi's tokens of a question (asked for its focus and for its focus phrase)."""
    return tuple(get_kiwi().tokenize(query))


def question_focus(query: str, phrase: bool = False) -> str | None:
    """The noun (compound) the question asks about: the nearest topic noun before the question word, with the
    nouns and suffixes written together with it ("등록 대행 수수료는 얼마" → "수수료", "위약금률은" → "위약금률");
    None when the question has no question word (a "설명하시오" task) or only generic nouns precede it. With
    `phrase`, the nouns before it separated by spaces only come too ("건강검진 결과 제출 기간은 언제" → "건강검진
    결과 제출")."""
    if not HANGUL.search(query):
        m = _EN_COUNTED.search(query)  # "How many semesters …": what is counted is what the question is about
        return m.group(1) if m and m.group(1).lower() not in _EN_NOT_FOCUS else None
    toks = _tokens(query)
    qi = next((i for i, t in enumerate(toks) if t.form.startswith(_QUESTION_WORDS)), None)
    if qi is None:
        return None
    for i in range(qi - 1, -1, -1):
        t = toks[i]
        if t.tag not in ("NNG", "NNP", "SL") or t.form in _GENERIC or t.form.endswith("사항"):
            continue
        if i + 1 < qi and toks[i + 1].form == "사항" and toks[i + 1].start == t.end:
            continue  # 변경사항, 제약사항: the kind of answer ("what changed"), not its topic
        if _relational(toks, i):
            continue
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if nxt is not None and nxt.start == t.end and (nxt.tag.startswith("XSV") or nxt.tag.startswith("XSA")
                                                        or nxt.form == "적"):
            continue  # 간주(하다), 미래(적): a verb or a modifier, not the topic
        j = i
        while j > 0 and toks[j - 1].tag in ("NNG", "NNP", "XPN", "SL") and (
                toks[j - 1].end == toks[j].start or (phrase and query[toks[j - 1].end : toks[j].start] == " ")):
            j -= 1
        k = i
        while k + 1 < qi and toks[k + 1].tag == "XSN" and toks[k + 1].start == toks[k].end \
                and toks[k + 1].form not in ("들", "적"):
            k += 1
        return query[toks[j].start: toks[k].end]
    return None


def _relational(toks: tuple, i: int) -> bool:
    """Whether noun `i` places the question in time rather than naming its topic: one syllable after a modifier
    ending (…한 후, …된 뒤). (A noun before 까지 / 부터 is not: "X까지 며칠" asks about the X.)"""
    return i > 0 and toks[i - 1].tag == "ETM" and len(toks[i].form) == 1


def _members(text: str) -> dict[str, set[int]]:
    """Series members by counter (차, 기, 단계, 번째). Not 호: in regulations it numbers an article's items (제2호,
    3항1호, ", 2호"), laws (법률 제12345호) and rooms far more often than a series the question could mean."""
    return {counter: {int(n) for n in numbers} for counter, numbers in ordinals(text).items() if counter != "호"}


def other_members(query: str, top: list[Hit]) -> list[str]:
    """The numbered members of a series the question names (the 3rd plan, the 2nd cohort, phase 2) that no top chunk
    names while one names another member of that series: the documents are about another plan, fund or phase."""
    asked = _members(query)
    if not asked:
        return []
    said: dict[str, set[int]] = {}
    for h in top:
        for counter, numbers in _members(f"{h.chunk.title} {h.chunk.location} {h.chunk.text}").items():
            said.setdefault(counter, set()).update(numbers)
    return [f"{'/'.join(map(str, sorted(numbers)))}{counter} (the documents name "
            f"{', '.join(map(str, sorted(said[counter])))}{counter})"
            for counter, numbers in asked.items() if said.get(counter) and not said[counter] & numbers]


def topic_words(query: str) -> list[str]:
    """The asker's topic words: nouns, numbers and foreign words (verbs are paraphrased too freely to miss); not
    question words or generic nouns. "경제적으로 뭐가 달라짐?": a noun made a modifier by 적 says how, not what about."""
    return [t for t in dict.fromkeys(get_analyzer().terms(query))
            if t not in QUESTION_TERMS and t not in _GENERIC and not (HANGUL.search(t) and t.endswith("다"))
            and not (HANGUL.search(t) and re.search(rf"(?<![가-힣]){re.escape(t)}적(?:으로|인|이다|이)", query))]


UNKNOWN_RARITY = 0.5  # a term the index's rarity does not cover counts as middling
UNINDEXED = 0.999  # VectorStore.term_rarity of a term no chunk holds is 1.0


@dataclass(frozen=True)
class AbsentWord:
    """A topic word of the question that no passage the answer quotes holds."""

    term: str
    rarity: float  # in the index (VectorStore.term_rarity): 1.0 = no chunk holds it
    elsewhere: bool  # a retrieved passage the answer does not quote holds it


def absent_from_cited(query: str, cited: list[Hit], rarity: dict[str, float] | None,
                      term_sources: dict[str, str] | None = None, others: list[Hit] | None = None) -> list[AbsentWord]:
    """The question's topic words that no passage the answer quotes holds (in its title, location or text), rarest
    first, each saying whether one of the `others` (retrieved, not quoted) holds it.

    The top chunks may hold every word of a look-alike question between them while the passage quoted is about
    another company, country or act: a rare word of the question missing from what is quoted, though the
    retrieval found it elsewhere, says the answer is about something else. Words an expansion of the query plan
    stood in for, when the expansion is quoted, are not missing; a question in another language than the quoted
    passages is not judged here ([])."""
    if not cited or any(h.chunk.lang not in (question_lang(query), "mixed") for h in cited):
        return []
    flat = _flat(cited)
    # the terms the answerer already read of each quoted chunk (chunk_units is cached), its title's and location's
    found = frozenset().union(*(ts for h in cited for _, ts in chunk_units(h.chunk.text)),
                              *(title_terms(h.chunk.title) | title_terms(h.chunk.location) for h in cited))
    stood_for = {w for e, w in stand_ins(term_sources).items() if re.sub(r"\s+", "", e).lower() in flat}
    absent = [t for t in topic_words(query) if t.lower() not in flat and not compound_holds(t, found)
              and not any(t in w for w in stood_for)]
    rare, rest = rarity or {}, _flat(others or [])
    words = [AbsentWord(t, round(rare.get(t, UNKNOWN_RARITY), 4), t.lower() in rest) for t in absent]
    return sorted(words, key=lambda w: -w.rarity)


def _flat(hits: list[Hit]) -> str:
    return re.sub(r"\s+", "", " ".join(f"{h.chunk.title} {h.chunk.location} {h.chunk.text}" for h in hits)).lower()


def assess(query: str, hits: list[Hit], terms: dict[str, float] | None = None,
           term_sources: dict[str, str] | None = None, top_chunks: int = TOP_CHUNKS) -> Answerability:
    """How much of what `query` is about the top chunks contain (score 1 = all of it, 0 = none), and what is
    missing.

    `terms` are the query plan's weighted BM25 terms and `term_sources` where each expansion came from
    (`QueryPlan.info["term_sources"]`: "slang:과톡→학과 단체대화방", "기숙사→생활관"). An expansion found in the chunks stands
    in for the asker's word it was made from: "기숙사 통금" is answered by a chunk on 생활관 출입 제한. For a question
    in another language than the top chunks, the plan's terms in the chunks' language are the only words that can
    match."""
    qlang = question_lang(query)
    src = source_lang(qlang, hits)  # an other-language chunk first: the answer is drawn from that language
    top = [h for h in hits if h.chunk.lang == src][:top_chunks] if src else hits[:top_chunks]
    if not top:
        return Answerability(0.0, {})
    own = topic_words(query)
    if all(h.chunk.lang not in (qlang, "mixed") for h in top):
        if not terms:  # no query plan to translate with: not judged here
            return Answerability(1.0, {"cross_lingual_unchecked": 1.0})
        own = [t for t in terms if bool(HANGUL.search(t)) == (qlang == "en") and t not in QUESTION_TERMS]
    if not own:  # no topic word ("???"), or another language without a glossary translation
        return Answerability(0.0, {"matched": 0.0}, missing=["(no word of the question to find in the documents' language)"])
    units = [(r, ts) for r, h in enumerate(top) for _, ts in chunk_units(h.chunk.text)]
    found = frozenset().union(*(ts for _, ts in units), *(title_terms(h.chunk.title) for h in top))
    # rarity among the top chunks' sentences: the word that names the topic counts for more than 학기 or 지원
    n = max(len(units), 1)
    weights = {t: math.log(1 + n / (1 + sum(1 for _, ts in units if t in ts))) for t in own}
    total = sum(weights.values()) or 1.0
    stood_for = {w for e, w in stand_ins(term_sources).items() if e in found}
    text = "".join(h.chunk.text for h in top).replace(" ", "").replace(",", "")
    lowered = text.lower()
    # a word the chunks write with other spacing or that Kiwi tokenised otherwise there (a compound split by a space)
    missing = [t for t in own if t not in found and not any(t in w for w in stood_for)
               and not (len(t) >= 3 and t.lower() in lowered)]
    if any(t in _CONTACT_WORDS for t in missing) and any(extract_contacts(h.chunk.text) for h in top):
        # "어디로 전화해서 연락하면 돼?": a number in the top chunks answers 전화 and 연락
        missing = [t for t in missing if t not in _CONTACT_WORDS]
    share = sum(weights[t] for t in missing) / total
    focus = question_focus(query)
    unmatched = [focus] if focus and focus.replace(" ", "") not in text and any(t in focus for t in missing) else []
    whole = question_focus(query, phrase=True)
    if not unmatched and whole and whole != focus:
        # "건강검진 결과 제출 기간": a noun of the phrase the asked noun ends that no top chunk holds (건강검진)
        # says the documents are about another 갱신
        gone = [t for t in get_analyzer().terms(whole[: len(whole) - len(focus or "")]) if t in missing
                and t not in _MODIFIERS and not compound_holds(t, found)]  # 교과목 holds 과목
        if gone:
            unmatched.append(f"{whole} ({', '.join(gone)})")
    # a figure is asked for only by a quantity question word: "어떤 가격에 … 조정되는 거래가격인가요?" names a price
    # and asks what it is, not how much
    asked = numeric_slot(question_slots(query)) if _QUANTITY_ASKED.search(query) else None
    if focus and asked and not unmatched and focus.replace(" ", "") in text and not _fact_near(focus, top):
        # "수수료는 얼마?": a sentence (or its neighbour) must name the 수수료 together with a figure
        unmatched.append(f"{focus} ({asked})")
    unit = count_unit(query) if asked == "count" else None
    if unit and not unmatched and not any(_counts(h.chunk.text, unit) for h in top):
        # "몇 건": some number of 건 must be in the top chunks (a number of another unit counts something else)
        unmatched.append(f"{focus or query_unit_name(unit)} (a number of {query_unit_name(unit)})")
    # a year the question names ("2025년") must appear in what answers it
    unmatched += [x for x in _years(query) if not _number_in(x, text)]
    unmatched += other_members(query, top)
    matched = len(own) - len(missing)
    parts = {"missing_share": round(share, 4), "stand_ins": float(len(stood_for)), "matched": float(matched)}
    # a long question whose many topic words the documents do share is about them, even when it also uses words
    # they phrase differently ("미 연준" for 미국 연방준비제도)
    score = 1.0 if matched >= ENOUGH_MATCHED else round(1 - share, 4)
    return Answerability(score, parts, asked, missing, focus, unmatched)
