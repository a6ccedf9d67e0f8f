"""The one reader of numbers in Korean and English text: amounts, percentages, counted quantities, fractions and
dates, each with its value.

Korean numerals mix Arabic digits with the unit syllables 십·백·천 (10, 100, 1,000) inside a group and 만·억·조
(10^4, 10^8, 10^12) between groups, so "2천5백만원" is (2×1000 + 5×100) × 10^4 = 25,000,000 won, "1억 2천만 원"
is 120,000,000 and "만 원" (a unit with no digit) is 10,000. English scale words (1.5 million) and currency
codes before or after the number (KRW 30,000, 30,000 won, $100) are read too. Values are exact (Decimal).

Used by the hallucination filter (geunkeo.text.entities.extract_numbers), the claim-support checker
(geunkeo.checks.support.extract_entities) and the live answer verification (geunkeo.answer.verify). Regular
expressions only, no Kiwi: the filter runs this over every answer and context within a few milliseconds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache

# -- data ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Quantity:
    """One number found in a text.

    kind: "amount" (unit "krw" / "usd"), "percent" (unit "%"), "count" (a counted quantity: unit 개월, 일, 년,
    학기, 명, 회, …), "fraction" (3분의 2: value 2/3, norm "2/3"), "number" (no unit) or "date" (value None,
    norm "YYYY-MM-DD", "MM-DD" or "YYYY-MM").
    """

    kind: str
    text: str
    start: int
    end: int
    value: Decimal | None
    unit: str = ""
    norm: str = ""  # what is compared: the value (and unit) written one way, e.g. "25000000krw", "30%", "03-05"

    @property
    def number(self) -> str:
        """The value as written in `norm`, without the unit ("25000000", "3.5", "2/3", a date's norm)."""
        if self.kind in ("date", "fraction") or self.value is None:
            return self.norm
        return format_value(self.value)


def format_value(v: Decimal) -> str:
    """25000000, 3.5, 0.25: integral values without a decimal point, others without trailing zeros."""
    if v == v.to_integral_value():
        return str(int(v))
    return format(v.normalize(), "f")


# -- patterns --------------------------------------------------------------------------------------------------

_SMALL = {"십": 10, "백": 100, "천": 1_000}
_BIG = {"만": 10**4, "억": 10**8, "조": 10**12}
_SCALE = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
_UNITS_KO = "십백천만억조"
_D = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
_PLAIN = re.compile(_D)

# unit word → (kind, normalised unit). Longer words first in the pattern (개월 before 개, 학기 before 학).
_UNIT = {
    "원": ("amount", "krw"), "won": ("amount", "krw"), "krw": ("amount", "krw"),
    "달러": ("amount", "usd"), "dollars": ("amount", "usd"), "dollar": ("amount", "usd"), "usd": ("amount", "usd"),
    "%": ("percent", "%"), "퍼센트": ("percent", "%"), "프로": ("percent", "%"), "percent": ("percent", "%"),
    "per cent": ("percent", "%"),
    "개월": ("count", "개월"), "개 학기": ("count", "학기"), "개학기": ("count", "학기"), "개": ("count", "개"),
    "학기": ("count", "학기"), "학점": ("count", "학점"), "학년": ("count", "학년"), "시간": ("count", "시간"),
    "일": ("count", "일"), "월": ("count", "월"), "년": ("count", "년"), "주": ("count", "주"),
    "세": ("count", "세"), "살": ("count", "세"), "회": ("count", "회"), "명": ("count", "명"),
    "건": ("count", "건"), "배": ("count", "배"),
    "days": ("count", "일"), "day": ("count", "일"), "months": ("count", "개월"), "month": ("count", "개월"),
    "years": ("count", "년"), "year": ("count", "년"), "weeks": ("count", "주"), "week": ("count", "주"),
    "hours": ("count", "시간"), "hour": ("count", "시간"), "credits": ("count", "학점"), "credit": ("count", "학점"),
    "semesters": ("count", "학기"), "semester": ("count", "학기"), "times": ("count", "회"),
    "persons": ("count", "명"), "people": ("count", "명"),
}
_PREFIX = {"krw": "krw", "₩": "krw", "usd": "usd", "us$": "usd", "$": "usd"}
_NO_UNIT = ("number", "")


def _alternation(words) -> str:
    parts = []
    for w in sorted(words, key=len, reverse=True):
        rx = re.escape(w).replace(r"\ ", r"\s?")
        if w == "원":
            # 원칙, 원문, 원본 …: a word that starts with 원 is not the currency
            rx += "(?![칙문본래장서격활어안형점])"
        elif w.isascii() and w[-1].isalpha():
            rx += r"\b"
        parts.append(rx)
    return "|".join(parts)


def _first(chars: str, pattern: str, flags: int = 0) -> re.Pattern:
    """A one-character lookahead in front: most positions fail at once (this runs over every context)."""
    return re.compile(f"(?=[{chars}])(?:{pattern})", flags)


# A numeral: digits, then unit syllables each optionally followed by more digits; digits after a space join
# only when a unit syllable follows them ("2천 5백만", "1억 2천만"), so "5만 2023년" stays two numbers.
# Not after 제 (제2조, 제3항 are article references) nor inside a word or a longer number.
_NUMERAL = _first(
    "0-9$₩KkUu",
    r"(?<![\d.A-Za-z])(?<!제)(?<!제\s)"
    r"(?:(?P<pre>KRW|USD|US\$|\$|₩)\s?)?"
    rf"(?P<num>{_D}(?:\s?[{_UNITS_KO}](?:{_D}|\s{_D}(?=\s?[{_UNITS_KO}]))?)*)"
    r"(?:\s?(?P<scale>thousand|million|billion|trillion)\b)?"
    rf"(?:\s?(?P<unit>{_alternation(_UNIT)}))?",
    re.I,
)
# a unit syllable with no digit before a currency word: 만 원, 천 원, 백만 원, 십만원 (not 수백만 원: approximate)
_BARE = _first(_UNITS_KO, r"(?<![가-힣\d.,])(?P<num>[십백천]?[만억조]|[십백천])\s?원(?![칙문본래장서격활어안형점])")
_NATIVE = {"한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9, "열": 10}
_NATIVE_UNIT = {"명": "명", "개": "개", "번": "회", "회": "회", "살": "세", "달": "개월", "해": "년", "학기": "학기",
                "가지": "가지"}
# 해 (year) only after a space: "에 한해" is "limited to", not one year
_COUNTER = _first("한두세네다여일아열", r"(?<![가-힣])(?P<n>다섯|여섯|일곱|여덟|아홉|한|두|세|네|열)"
                  r"(?:\s?(?P<unit>학기|가지|명|개|번|회|살|달)|\s(?P<year>해))(?!째)")
_FRACTION = _first("0-9", r"(?<![\d.])(?P<den>\d+)\s?분의\s?(?P<num>\d+)(?![\d.])")
_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december"]
_MON = "|".join(_MONTHS)
_DATE = _first(
    "0-9JFMASONDjfmasond", r"(?<!\d)(?:(?P<y>\d{4})\s?년\s?)?(?P<m>\d{1,2})\s?월\s?(?P<d>\d{1,2})\s?일"
    r"|(?<![\d.])(?P<y2>\d{4})[./-]\s?(?P<m2>\d{1,2})[./-]\s?(?P<d2>\d{1,2})(?!\d)\.?"
    rf"|\b(?P<mon>{_MON})\s(?P<d3>\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s(?P<y3>\d{{4}})\b)?"
    rf"|(?<![\d.])(?P<d4>\d{{1,2}})(?:st|nd|rd|th)?\s(?P<mon4>{_MON})\b(?:,?\s(?P<y4>\d{{4}})\b)?"
    r"|(?<!\d)(?P<y5>\d{4})\s?년\s?(?P<m5>\d{1,2})\s?월(?!\s?\d)"
    # the end of a range whose start has the year: "2026. 3. 16.(월) ~ 3. 20.(금)"
    r"|(?:(?<=~)|(?<=~\s))(?P<m6>\d{1,2})\.\s?(?P<d6>\d{1,2})\.",
    re.I,
)


# -- reading ---------------------------------------------------------------------------------------------------


def _korean_value(num: str) -> Decimal | None:
    """Value of a numeral like "2천5백만", "1억 2천만", "1,000억", "3.4조", "천만", "만"."""
    if _PLAIN.fullmatch(num):
        return Decimal(num.replace(",", ""))
    total = Decimal(0)
    section = Decimal(0)  # the group below the next 만/억/조
    cur: Decimal | None = None
    for tok in re.findall(rf"{_D}|[{_UNITS_KO}]", num):
        if tok in _SMALL:
            section += (cur if cur is not None else Decimal(1)) * _SMALL[tok]
            cur = None
        elif tok in _BIG:
            group = section + (cur or 0)
            total += (group if group else Decimal(1)) * _BIG[tok]
            section, cur = Decimal(0), None
        else:
            try:
                cur = Decimal(tok.replace(",", ""))
            except InvalidOperation:
                return None
    return total + section + (cur or 0)


def korean_value(num: str) -> Decimal | None:
    """The value of a numeral with Korean unit syllables ("2천5백만" → 25000000), None when it is not one."""
    return _korean_value(num)


def _quantity(kind: str, text: str, start: int, end: int, value: Decimal, unit: str) -> Quantity:
    shown = format_value(value)
    norm = shown + ("%" if kind == "percent" else unit)
    return Quantity(kind, text, start, end, value, unit, norm)


def _valid_date(mo: int, d: int | None) -> bool:
    return 1 <= mo <= 12 and (d is None or 1 <= d <= 31)


def _dates(text: str) -> list[Quantity]:
    out = []
    for m in _DATE.finditer(text):
        d: int | None
        if m.group("m"):
            y, mo, d = m.group("y"), int(m.group("m")), int(m.group("d"))
        elif m.group("m2"):
            y, mo, d = m.group("y2"), int(m.group("m2")), int(m.group("d2"))
        elif m.group("mon"):
            y, mo, d = m.group("y3"), _MONTHS.index(m.group("mon").lower()) + 1, int(m.group("d3"))
        elif m.group("mon4"):
            y, mo, d = m.group("y4"), _MONTHS.index(m.group("mon4").lower()) + 1, int(m.group("d4"))
        elif m.group("m5"):
            y, mo, d = m.group("y5"), int(m.group("m5")), None
        else:
            y, mo, d = None, int(m.group("m6")), int(m.group("d6"))
        if not _valid_date(mo, d):
            continue
        norm = f"{y}-{mo:02d}" if d is None else f"{y + '-' if y else ''}{mo:02d}-{d:02d}"
        out.append(Quantity("date", m.group(0), m.start(), m.end(), None, "", norm))
    return out


def _blank(text: str, spans) -> str:
    chars = list(text)
    for s, e in spans:
        chars[s:e] = " " * (e - s)
    return "".join(chars)


@lru_cache(maxsize=2048)
def _find(text: str) -> tuple[Quantity, ...]:
    found: list[Quantity] = _dates(text)
    for m in _FRACTION.finditer(text):
        num, den = int(m.group("num")), int(m.group("den"))
        if den and not any(q.start < m.end() and m.start() < q.end for q in found):
            found.append(Quantity("fraction", m.group(0), m.start(), m.end(), Decimal(num) / Decimal(den), "",
                                  f"{num}/{den}"))
    rest = _blank(text, [(q.start, q.end) for q in found]) if found else text
    for m in _NUMERAL.finditer(rest):
        numeral, scale, unit_word, pre = m.group("num", "scale", "unit", "pre")
        value = _korean_value(numeral)
        if value is None:
            continue
        if scale:
            value *= _SCALE[scale.lower()]
        kind, unit = _UNIT.get(" ".join(unit_word.lower().split()), _NO_UNIT) if unit_word else _NO_UNIT
        if pre and kind in ("number", "amount"):
            kind, unit = "amount", _PREFIX[pre.lower()]
        if "조" in numeral and kind != "amount":
            continue  # 3조 without a currency is an article reference (제 dropped), not 3 × 10^12
        s, e = m.span()
        found.append(_quantity(kind, text[s:e], s, e, value, unit))
    for m in _BARE.finditer(rest):
        if any(q.start < m.end() and m.start() < q.end for q in found):
            continue
        value = _korean_value(m.group("num"))
        if value is not None:
            found.append(_quantity("amount", m.group(0), m.start(), m.end(), value, "krw"))
    for m in _COUNTER.finditer(rest):
        if any(q.start < m.end() and m.start() < q.end for q in found):
            continue
        found.append(_quantity("count", m.group(0), m.start(), m.end(), Decimal(_NATIVE[m.group("n")]),
                               _NATIVE_UNIT[m.group("unit") or m.group("year")]))
    found.sort(key=lambda q: q.start)
    return tuple(found)


def find_quantities(text: str) -> list[Quantity]:
    """Every number in `text` with its value, in order of position, without overlaps: dates first, then
    fractions (3분의 2), then numerals with their unit (2천5백만원, 30%, 3개월, 6개 학기, KRW 30,000, 1.5 million),
    unit-only amounts (만 원) and native Korean counts (두 번, 한 학기)."""
    return list(_find(text))


def parse_quantity(text: str) -> Quantity | None:
    """The quantity that `text` (stripped) consists of, or None when it is not exactly one number."""
    t = text.strip()
    found = _find(t)
    if len(found) == 1 and found[0].start == 0 and found[0].end == len(t):
        return found[0]
    return None


def parse_number(text: str) -> float | int | None:
    """The value of one written number: parse_number("2천5백만원") == 25_000_000, ("5백원") == 500,
    ("1.5 million") == 1_500_000, ("30%") == 30; None when `text` is not exactly one number (or is a date)."""
    q = parse_quantity(text)
    if q is None or q.value is None:
        return None
    return int(q.value) if q.value == q.value.to_integral_value() else float(q.value)
