"""What a question asks for (amount, duration, date, count, rate, office, condition, difference, definition) and whether
a sentence carries it.

"얼마야?" is answered by a sentence with an amount, "언제?" by one with a date or period, "몇 학기?" by one with a
count. The extractive answerer puts such a sentence first; the gate withholds an answer when the question asks
for a number-like fact (amount, date, count, rate) and no well-matching sentence of the top documents has one.
"""

from __future__ import annotations

import json
import re
from importlib import resources

# the units a count question asks in ("몇 학기", "몇 번")
_COUNT_UNITS = ("개", "명", "번", "회", "학기", "학점", "년", "건", "곳", "가지", "차례", "시간", "주")
# the words of a question about money (with "얼마" they ask an amount)
_MONEY_WORDS = r"금액|비용|가격|요금|수수료|보험료|납부액|지원금|장학금액|한도|자본금|액수|how much|cost|fee|price|amount|premium"
# question cue -> slot; the English cues are matched on the lowercased question
_QUESTION = {
    "amount": re.compile(rf"얼마|{_MONEY_WORDS}|limit", re.I),
    # a length of time, not a point in it: "how long", "얼마나 오래/걸려", "기간은 얼마"
    # "얼마 이내에", "며칠 안에", "몇 주 만에": a length of time within which something happens
    "duration": re.compile(r"얼마\s?(?:나|동안)?\s?(?:오래|걸리|걸려|소요)|"
                           r"기간(?:은|이)?\s?(?:얼마|최대|최장|몇\s?(?:일|주|개월|달|년))|"
                           r"(?:얼마|며칠|몇\s?(?:일|주|개월|달|년))\s?(?:이내|안에|만에)|"
                           r"how long|for how many (?:days|weeks|months|years|semesters)", re.I),
    "date": re.compile(r"언제|기간|기한|날짜|일정|시기|마감|며칠까지|몇\s?일까지|몇\s?월|시행일|"
                       r"when|deadline|period|date", re.I),
    "count": re.compile(r"몇\s?(?:" + "|".join(_COUNT_UNITS) + r")|횟수|인원|how many", re.I),
    "rate": re.compile(r"비율|몇\s?(?:%|퍼센트|프로)|율은|률은|증가율|감소율|percent|rate|ratio", re.I),
    "office": re.compile(r"누가|누구|어디(?:에서|에|로)?|어느\s?(?:기관|부서|곳)|담당|기관은|부서는|"
                         r"who|which office|where", re.I),
    "condition": re.compile(r"요건|조건|자격|대상|경우|기준|해당(?:하|되)|requirement|condition|eligib|criteria",
                            re.I),
    "difference": re.compile(r"차이|다른\s?점|다릅|비교|달라|difference|differ|compare", re.I),
    "definition": re.compile(r"무엇인가|무엇입니까|뭐야|뭔가요|의미|정의|뜻|what is|what are|define|meaning", re.I),
}

_NUM = r"\d[\d,]*(?:\.\d+)?"
_SENTENCE = {
    "amount": re.compile(rf"{_NUM}\s*(?:조|억|천만|백만|만|천)?\s*(?:원|달러|불|엔|위안)|\$\s?{_NUM}|"
                         rf"(?<![\d,.])(?<!제)(?<!제\s){_NUM}\s*(?:조(?!\s?의|\s?\()|억)|(?:KRW|USD|won)\s?{_NUM}|{_NUM}\s*(?:won|dollars?)|무료|면제",
                         re.I),
    "date": re.compile(rf"\d{{4}}\s*[.년/-]\s*\d{{1,2}}|\d{{1,2}}\s*월\s*\d{{1,2}}\s*일|\d{{1,2}}\s*월|"
                       rf"{_NUM}\s*(?:개월|일\s*이내|일\s*전|일\s*후|일간|일까지|주\s*이내|년\s*이내|년간|학기)|"
                       rf"분기|상반기|하반기|\d{{2,4}}년|(?<![\d.])\d{{1,2}}\s*년(?!도)|\d{{1,2}}\s*일(?:에|까지|부터)|매월|매년|매주|매일|부터|까지|이내|"
                       r"(?:January|February|March|April|May|June|July|August|September|October|November|"
                       r"December)|\bwithin\b|\bdays?\b|\bmonths?\b|\byears?\b", re.I),
    # a number of days, weeks, months, years, semesters or hours, not a calendar date ("3월 28일", "2025년")
    "duration": re.compile(r"(?<![\d.월])(?<!월\s)\d{1,3}(?:\.\d+)?\s*(?:개월|달|개\s*학기|학기|년(?!도)|일(?!\s*[(（])|"
                           r"주일?|시간|분(?!\s?의))|\b\d{1,3}\s+(?:days?|weeks?|months?|years?|semesters?|hours?)\b|"
                           r"\b(?:one|two|three|four|five|six|ten|twelve)\s+(?:days?|weeks?|months?|years?|semesters?)\b",
                           re.I),
    "count": re.compile(rf"{_NUM}\s*(?:개|명|건|회|번|학기|학점|곳|가지|차례|시간|년|주|인|종|개소|대)|"
                        rf"\b{_NUM}\s+(?:times|persons?|people|semesters?|credits?)", re.I),
    "rate": re.compile(rf"{_NUM}\s*(?:%|퍼센트|%p|배|bp)|{_NUM}\s*분의\s*{_NUM}|percent", re.I),
    "office": re.compile(r"[가-힣]{1,12}(?:부|처|청|원|위원회|센터|팀|과|실|은행|기관|법원|총장|장관|학장|위원장)"
                         r"(?:은|는|이|가|에서|에|의|장)?\b|office|department|committee|center|bank", re.I),
    "condition": re.compile(r"경우|때에는|때|요건|조건|자격|이상|이하|미만|초과|이내|충족|해당하는|한하여|"
                            r"if\b|when\b|unless|provided|at least|more than|less than", re.I),
    "difference": re.compile(r"반면|달리|다르|차이|비해|보다|대비|에 비하여|whereas|unlike|while|compared", re.I),
    "definition": re.compile(r"(?:이)?란\s|라\s?함은|말한다|의미한다|뜻한다|정의|means|refers to|is defined", re.I),
}

NUMERIC_SLOTS = ("amount", "duration", "date", "count", "rate")

QUESTION_WORDS: dict = json.loads(resources.files("geunkeo.data").joinpath("question_words.json").read_text("utf-8"))
# BM25 terms of the question words themselves: they say what is asked, not what it is about
QUESTION_TERMS = frozenset(QUESTION_WORDS["question_terms"])


_PART_MARKERS = tuple(QUESTION_WORDS["part_markers"])
_ASKING = re.compile("|".join(QUESTION_WORDS["question_words"]) + r"|\b(?:what|when|where|which|who|how|why)\b", re.I)


def asks_several(question: str) -> bool:
    """Whether a question asks more than one thing: two question words ("언제 … 몇 종 …, 어떤 기관 …") or a marker
    joining two questions ("그리고", "또한", "각각", "and what")."""
    low = question.lower()
    return len(_ASKING.findall(question)) >= 2 or any(m in low for m in _PART_MARKERS)


# 원 as a currency after a figure, not inside a word (위원회, 지원, 원천)
_MONEY = re.compile(rf"{_MONEY_WORDS}|(?<=[\d만억천])\s?원", re.I)


def question_slots(question: str) -> list[str]:
    """The slots a question asks for, most specific first (amount before condition, …). "얼마나 오래" and
    "기간은 얼마" ask a length of time: 얼마 there asks no amount unless the question names money too."""
    slots = [slot for slot, pattern in _QUESTION.items() if pattern.search(question)]
    if "duration" in slots and "amount" in slots:
        # "비용이 얼마나 소요돼?" asks money; "얼마나 오래", "기간은 얼마" a length of time
        money = _MONEY.search(question)
        time = re.search(r"오래|기간|(?:며칠|몇\s?(?:일|주|개월|달|년))\s?(?:이내|안에|만에)|how long", question, re.I)
        slots.remove("duration" if money and not time else "amount")
    if "duration" in slots:  # the length first: "기간" also matched the date cue
        slots.remove("duration")
        slots.insert(0, "duration")
    return slots


def sentence_slots(sentence: str) -> set[str]:
    """The slots a sentence can fill."""
    return {slot for slot, pattern in _SENTENCE.items() if pattern.search(sentence)}


_COUNT_UNIT = re.compile(r"몇\s?(" + "|".join(_COUNT_UNITS) + ")")
_SAME_UNIT = {"번": "(?:번|회|차례)", "회": "(?:번|회|차례)", "차례": "(?:번|회|차례)"}


def count_unit(question: str) -> str | None:
    """The unit a Korean count question asks in ("기숙사는 최대 몇 학기" → 학기), as a pattern (번, 회 and 차례 are one)."""
    m = _COUNT_UNIT.search(question)
    return _SAME_UNIT.get(m.group(1), m.group(1)) if m else None


def states_count_of(sentence: str, unit: str) -> bool:
    """Whether a sentence gives a number of `unit`: "2개 학기", "통산 6학기" for 학기, not "6학점" or "2025학년도
    1학기" (which names a semester)."""
    return bool(re.search(rf"(?<!학년도\s)(?<!학년도)(?<![\d,.제]){_NUM}\s*(?:개\s*)?{unit}", sentence))


_SLOT_LABELS: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in QUESTION_WORDS["slot_labels"].items()}
_FIELD_LINE = re.compile(r"^\s*(?:[-•·*]\s*)?(?P<label>[가-힣A-Za-z][가-힣A-Za-z ]{0,11}?)\s*:\s*\S")


def field_label(line: str) -> str | None:
    """The label of a notice's field line ("접수 기간" of "접수 기간: 2026. 4. 6.(월) ~ …"), else None."""
    m = _FIELD_LINE.match(line)
    return m.group("label").strip() if m else None


def label_slots(label: str) -> dict[str, str]:
    """Slot → what the label says besides it: "일시" → {date: ""}, "신청 기간" → {date: "신청"}."""
    out = {}
    for slot, labels in _SLOT_LABELS.items():
        word = next((w for w in labels if label.endswith(w)), None)
        if word is not None:
            out[slot] = label[: len(label) - len(word)].strip()
    return out


def counts_of(sentence: str, unit: str) -> set[str]:
    """The numbers a sentence gives of `unit` (as written, thousands commas dropped), by the rule of
    `states_count_of`; "1,2학기" (two semesters listed) gives 1 and 2, and a calendar year ("2026년 3월") none."""
    found = re.findall(rf"(?<!학년도\s)(?<!학년도)(?<![\d,.제])(\d{{1,3}}(?:,\d{{3}})+|\d+(?:\.\d+)?)\s*(?:개\s*)?{unit}"
                       rf"(?!\s*\d+\s*월)", sentence)
    return {n.replace(",", "") for n in found if not re.fullmatch(r"(?:19|20)\d\d", n)}


def states_other_count(sentence: str, unit: str) -> bool:
    """Whether a sentence gives a number of a count unit other than `unit` and none of `unit` ("최대 9학점까지" for
    a question asking how many 학기)."""
    others = [u for u in _COUNT_UNITS if u != "개" and not re.fullmatch(unit, u)]  # "2개 학기" is 학기
    return not states_count_of(sentence, unit) and any(states_count_of(sentence, u) for u in others)


def numeric_slot(slots: list[str]) -> str | None:
    """The first number-like slot a question asks for (the kind a missing fact can be told by)."""
    return next((s for s in slots if s in NUMERIC_SLOTS), None)
