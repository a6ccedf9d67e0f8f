"""Text surgery for the hallucination filter: sentence spans, particles, generic phrases, tidying.

The filter never substitutes blindly: after a name is replaced or a parenthesis removed, the Korean particle
that followed is re-chosen for the new final syllable (을/를, 이/가, 은/는, 와/과, 으로/로 …), duplicated
generic phrases are merged and punctuation left behind is cleaned up.
"""

from __future__ import annotations

import re

PHRASES = {
    "ko": {
        "contact": "자세한 연락처는 해당 부서에 직접 문의해 주시기 바랍니다.",
        "department": "담당 부서",
        "citation": "관련 규정",
    },
    "en": {
        "contact": "Please contact the responsible office directly for contact details.",
        "department": "the responsible office",
        "citation": "the relevant provision",
    },
}

# -- sentences -------------------------------------------------------------------------------------------------

_END = re.compile(r"[.!?。](?:[\"'”’)\]]*)(?:\s*\[\d+(?:\s*,\s*\d+)*\])*(?=\s|$)|\n")
_NO_BREAK_BEFORE = re.compile(r"(?:^|[\s(])(?:\d{1,2}|Art|No|e\.g|i\.e|Tel|Fax|ext|Rm|Dr|Mr|Ms|Mrs|Prof|vs|cf|s|ss|Sec|Sch|cl|para|pp?)$",
                              re.I)  # "s. 9.4(1)", "p. 12": abbreviations before a number
_LOWER_NEXT = re.compile(r"\s+[a-z]")
_YEAR_END = re.compile(r"(?<![\d.])\d{4}$")
_DATE_NEXT = re.compile(r"\s?\d{1,2}\.\s?\d{1,2}(?!\d)")
# "… applies under General Condition 9. To cancel, …": a number a citation word names can end a sentence
_CITED_NUMBER_END = re.compile(r"\b(?:Condition|Article|Section|Clause|Regulation|Exclusion|Schedule|Part|Endorsement|"
                               r"Chapter|Appendix|Annex|Item|Level|Floor|Room)\s\d{1,2}$")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence; citation markers ``[n]`` after the full stop stay with their sentence."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _END.finditer(text):
        # the longest abbreviation is 4 characters and its boundary 1: an 8-character window sees all of them
        if (m.group(0) != "\n" and _NO_BREAK_BEFORE.search(text[max(start, m.start() - 8) : m.start()])
                and not _CITED_NUMBER_END.search(text, max(start, m.start() - 24), m.start())):
            continue
        if m.group(0) == "." and _YEAR_END.search(text, max(start, m.start() - 5), m.start()) and _DATE_NEXT.match(
                text, m.end()):
            continue  # "2026. 3. 5.": a date written with dots, not a sentence ending in a year
        if (m.group(0) != "\n" and _LOWER_NEXT.match(text, m.end())  # "by 10:00 a.m. on the day": not an end
                and not ("가" <= text[m.start() - 1 : m.start()] <= "힣")):  # "…있습니다. claim@…로": a new one
            continue
        end = m.end() if m.group(0) != "\n" else m.start()
        if text[start:end].strip():
            spans.append(_strip_span(text, start, end))
        start = m.end()
    if text[start:].strip():
        spans.append(_strip_span(text, start, len(text)))
    return spans


def _strip_span(text: str, s: int, e: int) -> tuple[int, int]:
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    return s, e


# -- Korean particles ------------------------------------------------------------------------------------------


def final_consonant(ch: str) -> int | None:
    """Index of the final consonant (0 = none) of a Hangul syllable, None for anything else."""
    code = ord(ch) - 0xAC00
    if 0 <= code <= 11171:
        return code % 28
    return None


def has_batchim(word: str) -> bool | None:
    """Whether the word's last syllable ends in a consonant (None when it is not Hangul)."""
    f = final_consonant(word[-1]) if word else None
    return None if f is None else f != 0


# (after a consonant, after a vowel); 으로/로 is special-cased for ㄹ.
_PAIRS = [("이에요", "예요"), ("이라고", "라고"), ("이라는", "라는"), ("이라", "라"), ("이란", "란"),
          ("이나", "나"), ("이랑", "랑"), ("이며", "며"), ("을", "를"), ("은", "는"), ("과", "와"), ("이", "가")]
_RO_TAILS = ("", "는", "도", "서", "써", "부터", "의", "만")


_DIGIT_READING = dict(zip("0123456789", "영일이삼사오육칠팔구", strict=True))  # 1588-0000으로, 02-…-9999로


def fix_particle(prev: str, rest: str) -> str:
    """Re-choose the particle at the start of `rest` for a word ending in `prev`'s last character (a Hangul
    syllable, or a digit read the Korean way)."""
    if not prev or not rest:
        return rest
    f = final_consonant(_DIGIT_READING.get(prev[-1], prev[-1]))
    if f is None:
        return rest
    hangul = re.match(r"[가-힣]*", rest)
    run = hangul.group(0) if hangul else ""  # `*` always matches; the test is for the checker
    tail = rest[len(run):]
    for base in ("으로", "로"):
        if run.startswith(base) and run[len(base):] in _RO_TAILS:
            want = "으로" if f not in (0, 8) else "로"  # 8 = ㄹ: 서울로, not 서울으로
            return want + run[len(base):] + tail
    for cons, vow in _PAIRS:
        if run in (cons, vow):
            return (cons if f != 0 else vow) + tail
    return rest


# -- cleanup ---------------------------------------------------------------------------------------------------

_MERGES = [
    (re.compile(r"(담당 부서)(?:인|이신|,)?\s*\(?\s*담당 부서\s*\)?"), r"\1"),
    (re.compile(r"(관련 규정)(?:\s*(?:및|,|과|와|또는|·)\s*관련 규정|\s+관련 규정)+"), r"\1"),  # "제4관 제15조" both
    (re.compile(r"(?i)(the responsible office)(?:\s*\(\s*the responsible office\s*\)|\s*(?:,|or|and)\s*"
                r"the responsible office)+"), r"\1"),
    (re.compile(r"(?i)(the relevant provision)(?:\s*(?:,|and|or)\s*the relevant provision|\s+the relevant provision)+"),
     r"\1"),
]


def tidy(text: str) -> str:
    """Merge repeated generic phrases and clean whitespace/punctuation left by removals."""
    for rx, rep in _MERGES:
        text = rx.sub(rep, text)
    text = re.sub(r"\(\s*[,/·;]?\s*\)", "", text)
    text = re.sub(r"\(\s*[,/·;]\s*", "(", text)
    text = re.sub(r"\s*[,/·;]\s*\)", ")", text)
    text = re.sub(r"[ \t]{2,}", " ", text)
    text = re.sub(r"\s+([.,;:!?)\]])", r"\1", text)
    text = re.sub(r"([(\[])\s+", r"\1", text)
    text = re.sub(r",\s*([.!?])", r"\1", text)
    text = re.sub(r",\s*,", ",", text)
    text = re.sub(r"^[\s,;:]+", "", text)
    text = re.sub(r"\s*[:：]\s*([.!?]|$)", r"\1", text)  # a label whose value was removed
    return text.strip()


def capitalize_first(text: str) -> str:
    for i, ch in enumerate(text):
        if ch.isalpha():
            return text[:i] + ch.upper() + text[i + 1 :] if ch.islower() else text
    return text


def residual_is_empty(text: str) -> bool:
    """True when nothing but labels, punctuation and citation markers is left of a sentence."""
    rest = re.sub(r"\[\d+(?:\s*,\s*\d+)*\]", " ", text)
    rest = re.sub(LABEL_WORDS, " ", rest, flags=re.I)
    return not re.search(r"[가-힣A-Za-z0-9]", rest)


LABEL_WORDS = (
    r"(?:대표\s?)?(?:전화\s?번호|전화|연락처|문의처|문의|팩스\s?번호|팩스|이메일|전자\s?우편|메일|홈페이지|웹사이트|"
    r"주소|tel\.?|phone|telephone|call|fax|e-?mail|website|web|url|homepage|contact|inquiries|☎|📞)"
)
