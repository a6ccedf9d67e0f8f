"""Every figure of a text with a canonical value, for the hallucination filter's figure check.

A figure is an amount (value in base units and a currency), a percentage or fraction (one value: 30% = 3/10 =
10분의 3), a count or duration with its unit (durations in a base unit: 1년 = 12개월 = twelve months, 2주 = 14일),
a date (year when written, month, day, weekday when written) or a clock time (minutes after midnight; 9시 with no
오전/오후 is 9:00 or 21:00). Numbers written as words count too (two weeks, 세 달, 열흘). Two figures are the same
claim when their canonical values are equal, however each text writes them: an amount in won is the same in digits, in 만/억 units or
with a currency sign.

Not figures: article and item numbers (제3조, 제2호: citations are checked elsewhere), list numbering, years alone
(2026년, in 2027), ordinals (3차, 2nd). Unit words, counters, number words and weekdays are data
(geunkeo/data/figure_units.json). Regular expressions only: the filter reads every answer and context this way.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from functools import lru_cache
from importlib import resources

from geunkeo.text.entity_base import Spans, first_char_regex
from geunkeo.text.numbers import korean_value

FIGURE_DATA = json.loads(resources.files("geunkeo.data").joinpath("figure_units.json").read_text("utf-8"))
_DATA = FIGURE_DATA
FIGURE_KINDS = frozenset({"amount", "percent", "fraction", "count", "date", "time"})


@dataclass(frozen=True)
class Figure:
    kind: str  # amount | percent | fraction | count | date | time
    text: str
    start: int
    end: int
    value: Fraction | None = None  # amount, percent, fraction (30% is 3/10), count (in its base unit)
    unit: str = ""  # amount: currency (krw, dollar, gbp, …); count: base unit (day, month, semester, …)
    ymd: tuple[int | None, int, int] | None = None  # date: (year or None, month, day)
    weekday: int | None = None  # date: Monday = 0, when written
    minutes: int | None = None  # time: after midnight; modulo 12 hours when `meridiem` is False
    meridiem: bool = True  # time: whether morning / afternoon is known (오후, pm, 14:00)

    @property
    def key(self) -> str:
        """The canonical value written one way (reports and tests): "amount:25000000krw", "date:-3-5"."""
        if self.kind == "date" and self.ymd:
            y, m, d = self.ymd
            return f"date:{y or ''}-{m}-{d}"
        if self.kind == "time":
            return f"time:{self.minutes}{'' if self.meridiem else '~'}"
        return f"{self.kind}:{self.value}{self.unit}"


def _alt(words, bound: bool = False) -> str:
    """An alternation of `words`, longest first; a space in a word may be absent; ASCII words end at a boundary."""
    parts = []
    for w in sorted(words, key=len, reverse=True):
        rx = re.escape(w).replace(r"\ ", r"\s?")
        parts.append(rx + (r"(?![A-Za-z])" if bound and w[-1:].isalpha() and w.isascii() else ""))
    return "|".join(parts)


def _initials(words) -> str:
    """The characters `words` can start with (either case), for a pattern's one-character lookahead."""
    return "".join(sorted({re.escape(c) for w in words for c in (w[0].lower(), w[0].upper())}))


_D = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
# N만 N,NNN원: the part after the last unit syllable may stand apart before the currency too
_KO_NUM = rf"{_D}(?:\s?[십백천만억조](?:{_D}|\s{_D}(?=\s?(?:[십백천만억조]|원)))?)*"
_NOT_AFTER = r"(?<![\d.,A-Za-z/:\-])(?<!제)(?<!제\s)"
_WD_KO = "월화수목금토일"
_MON = _alt([m.capitalize() for m in _DATA["months_en"]] + [m.upper() for m in _DATA["months_en"] if len(m) > 3])
_WD_EN = _alt([w.capitalize() for w in _DATA["weekdays_en"]])
_KO_WEEKDAY = rf"(?:\s?\(\s?(?P<wd>[{_WD_KO}])(?:요일)?\s?\)|\s(?P<wdw>[{_WD_KO}])요일)"
_EN_WEEKDAY_AFTER = rf"(?:\s?\((?P<wda>{_WD_EN})\))"

_DATES = [
    first_char_regex("0-9", rf"(?<!\d)(?:(?P<y>\d{{4}})\s?년\s?)?(?P<m>\d{{1,2}})\s?월\s?(?P<d>\d{{1,2}})\s?일{_KO_WEEKDAY}?"),
    first_char_regex("0-9", rf"(?<![\d.])(?P<y>\d{{4}})\s?(?P<sep>[./-])\s?(?P<m>\d{{1,2}})\s?(?P=sep)\s?(?P<d>\d{{1,2}})(?!\d)\.?"
               rf"{_KO_WEEKDAY}?"),
    # a date with no year written with dots ("3. 5.") only with its weekday, or as the end of a range
    first_char_regex("0-9", rf"(?<![\d.])(?P<m>\d{{1,2}})\.\s?(?P<d>\d{{1,2}})\.(?:{_KO_WEEKDAY}|(?=\s?(?:부터|까지|[~∼])))"),
    first_char_regex("0-9", rf"(?:(?<=[~∼])|(?<=[~∼]\s))(?P<m>\d{{1,2}})\.\s?(?P<d>\d{{1,2}})\.{_KO_WEEKDAY}?"),
    first_char_regex("0-9MTWFS", rf"(?:(?P<wdb>{_WD_EN}),?\s)?(?<![\d.])(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s(?:of\s)?(?P<mon>{_MON})\b\.?"
               rf"(?:,?\s(?P<y>\d{{4}})\b)?{_EN_WEEKDAY_AFTER}?"),
    first_char_regex("JFMASONDTW", rf"(?:(?P<wdb>{_WD_EN}),?\s)?(?P<mon>{_MON})\b\.?\s(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?![\d:])"
               rf"(?:,?\s(?P<y>\d{{4}})\b)?{_EN_WEEKDAY_AFTER}?"),
]
# the first day of a day range within a single month, D–D Month / M월 D일~D일 (the other end is a date of its own)
_EN_RANGE_START = first_char_regex("0-9", rf"(?<![\d.])(?P<d>\d{{1,2}})\s?[–—-]\s?(?=\d{{1,2}}\s(?P<mon>{_MON})\b)")
_KO_RANGE_END = re.compile(rf"\s?(?:[~∼–-]|부터|에서)\s?(?P<d>\d{{1,2}})\s?일(?!\s?(?:간|이내)){_KO_WEEKDAY}?")
_MERIDIEM = _DATA["meridiem"]
_TIMES = [
    first_char_regex("0-9오새아저밤낮", r"(?:(?P<ap>오전|오후|새벽|아침|저녁|밤|낮)\s?)?(?<![\d.])(?P<h>\d{1,2})\s?시"
               r"(?![간행점기작설스청험각장대민의경도])(?:\s?(?P<mi>\d{1,2})\s?분(?![의기])|\s?(?P<half>반))?"),
    first_char_regex("0-9", r"(?<![\d:.])(?P<h>[01]?\d|2[0-3])\s?:\s?(?P<mi>[0-5]\d)(?![\d:])"
               r"(?:\s?(?P<ap>[AaPp](?:\.[Mm]\.|[Mm]))(?![A-Za-z]))?"),
    first_char_regex("0-9", r"(?<![\d:.])(?P<h>1[0-2]|0?[1-9])(?:\.(?P<mi>[0-5]\d))?\s?(?P<ap>[AaPp](?:\.[Mm]\.|[Mm]))(?![A-Za-z])"),
]
_FRACTIONS = [
    first_char_regex("0-9", r"(?<![\d.])(?P<den>\d{1,3})\s?분의\s?(?P<num>\d{1,3})(?![\d.])"),
    first_char_regex("0-9", r"(?<![\d./])(?P<num>\d{1,2})/(?P<den>\d{1,2})(?![\d/])"),
]
_AMOUNT_BEFORE = first_char_regex(_initials(_DATA["currency_before"]), rf"(?<![A-Za-z])(?P<cur>{_alt(_DATA['currency_before'], bound=True)})\s?(?P<num>{_KO_NUM})"
                            rf"(?:\s?(?P<scale>{_alt(_DATA['scales_en'], bound=True)}))?", re.I)
_AMOUNT_AFTER = first_char_regex("0-9", rf"{_NOT_AFTER}(?P<num>{_KO_NUM})(?:\s?(?P<scale>{_alt(_DATA['scales_en'], bound=True)}))?"
                           rf"\s?(?P<cur>{_alt(_DATA['currency_after'], bound=True)})(?![칙문본래장서격활어안형점])")
# (프로 before a syllable is a word: 프로그램)
_PERCENT = first_char_regex("0-9", rf"{_NOT_AFTER}(?P<num>{_D})\s?(?:{_alt(set(_DATA['percent']) - {'프로'}, bound=True)}|프로(?![가-힣]))",
                      re.I)
_COUNT_KO = first_char_regex("0-9", rf"{_NOT_AFTER}(?P<num>{_KO_NUM})\s?(?P<unit>{_alt(_DATA['counters_ko'])})")
_NATIVE = first_char_regex(_initials(_DATA["native_ko"]), rf"(?<![가-힣])(?P<n>{_alt(_DATA['native_ko'])})\s?"
                     rf"(?P<unit>{_alt(set(_DATA['native_ko_counters']) - {'해'})}|(?<=\s)해)(?![째가-힣])")
_NATIVE_DAYS = first_char_regex(_initials(_DATA["native_ko_days"]), rf"(?<![가-힣])(?P<w>{_alt(_DATA['native_ko_days'])})")
_EN_WORDS = _alt(_DATA["number_words_en"], bound=True)
# "three (3) working days", "two consecutive semesters", "a 30-day period"
_COUNT_EN = first_char_regex("0-9" + _initials(_DATA["number_words_en"]), rf"(?<![\w.,\-$£€])(?P<num>{_D}|(?i:{_EN_WORDS}))(?:\s\(\d+\))?(?:\s|-)"
                       rf"(?:(?i:{_alt(_DATA['unit_adjectives_en'])})\s|[A-Z][a-z]+\s)?"  # "60 Westmere credits"
                       rf"(?i:(?P<unit>{_alt(_DATA['units_en'], bound=True)}))")
_FLOOR_EN = first_char_regex("0-9Ff", r"\b(?:(?P<n>\d{1,2})(?:st|nd|rd|th)\s[Ff]loor|(?:Floor|FLOOR)\s(?P<m>\d{1,2})\b)")
# "Level N" is a floor or the level of a test or licence (N층 or N급): read as a "level", which either supports
_LEVEL_EN = first_char_regex("L", r"\b(?:Level|LEVEL)\s(?P<n>\d{1,2})\b")
# an answer's lower-case "level 4" is not read (a test's levels are often listed apart from their numbers), a
# context's is, as support only
_LEVEL_LOWER = first_char_regex("l", r"\blevel\s(?P<n>\d{1,2})\b")
# the units each unit's figure may be supported by besides its own
_UNIT_ALSO = {"day": ("workday",), "workday": ("day",), "floor": ("level",), "grade": ("level",),
              "level": ("floor", "grade")}
# "5번 항목", "3번 문항": a number naming an item, not a count; "1년 6개월": the months of a duration written in two
_NOT_A_COUNT = re.compile(r"\s?(?:항목|문항|번지|번째|째)")
_DURATION_HEAD = re.compile(r"\d\s?년\s?$")


def _num(text: str) -> Fraction | None:
    value = korean_value(re.sub(r"\s", "", text)) if re.search(r"[십백천만억조]", text) else None
    if value is None and re.fullmatch(_D, text):
        value = korean_value(text)
    return Fraction(value) if value is not None else None


def _word_or_num(text: str) -> Fraction | None:
    word = _DATA["number_words_en"].get(text.lower())
    return Fraction(word) if word is not None else _num(text)


_CURRENCY_BEFORE = {k.lower(): v for k, v in _DATA["currency_before"].items()}
_CURRENCY_AFTER = {k.lower(): v for k, v in _DATA["currency_after"].items()}
_COUNTERS_KO = {k.replace(" ", ""): v for k, v in _DATA["counters_ko"].items()}
_UNITS_EN = {k: v for k, v in _DATA["units_en"].items()}
_WEEKDAYS = {**_DATA["weekdays_ko"], **_DATA["weekdays_en"]}


def _weekday(m: re.Match[str]) -> int | None:
    names = m.groupdict()
    word = next((names[g] for g in ("wd", "wdw", "wdb", "wda") if names.get(g)), None)
    return _WEEKDAYS.get(word) if word in _WEEKDAYS else _WEEKDAYS.get((word or "").lower())


def _date(m: re.Match[str]) -> Figure | None:
    names = m.groupdict()
    mon = names.get("mon")
    mo = _DATA["months_en"][mon.lower()] if mon else int(names["m"])
    d = int(names["d"])
    if not (1 <= mo <= 12 and 1 <= d <= 31):
        return None
    y = int(names["y"]) if names.get("y") else None
    return Figure("date", m.group(0), m.start(), m.end(), ymd=(y, mo, d), weekday=_weekday(m))


def _dates(text: str) -> list[Figure]:
    out: list[Figure] = []
    for rx in _DATES:
        for m in rx.finditer(text):
            f = _date(m)
            if f is None:
                continue
            out.append(f)
            tail = _KO_RANGE_END.match(text, m.end()) if rx is _DATES[0] and f.ymd else None
            if tail and f.ymd and 1 <= int(tail.group("d")) <= 31:  # "4월 19일~23일": the 23rd of that month
                out.append(Figure("date", text[tail.start("d") : tail.end()], tail.start("d"), tail.end(),
                                  ymd=(f.ymd[0], f.ymd[1], int(tail.group("d"))), weekday=_weekday(tail)))
    for m in _EN_RANGE_START.finditer(text):
        mo, d = _DATA["months_en"][m.group("mon").lower()], int(m.group("d"))
        if 1 <= d <= 31:
            out.append(Figure("date", m.group("d"), m.start("d"), m.end("d"), ymd=(None, mo, d)))
    return out


def _times(text: str) -> list[Figure]:
    out = []
    for rx in _TIMES:
        for m in rx.finditer(text):
            h, mi = int(m.group("h")), int(m.group("mi") or 0) + (30 if m.groupdict().get("half") else 0)
            if h > 24 or mi >= 60:
                continue
            ap = _MERIDIEM.get((m.group("ap") or "").lower().replace(".", "").strip()) if m.group("ap") else None
            known = ap is not None or h > 12 or h == 0 or m.group("h").startswith("0")
            hour = (h % 12 + (12 if ap == "pm" else 0)) if ap else (h % 24 if known else h % 12)
            out.append(Figure("time", m.group(0), m.start(), m.end(), minutes=hour * 60 + mi, meridiem=known))
    return out


def _fractions(text: str) -> list[Figure]:
    out = []
    for rx in _FRACTIONS:
        for m in rx.finditer(text):
            num, den = int(m.group("num")), int(m.group("den"))
            if den and (rx is _FRACTIONS[0] or 0 < num < den):  # "24/7", "3/2" are not shares
                out.append(Figure("fraction", m.group(0), m.start(), m.end(), Fraction(num, den)))
    return out


def _amounts(text: str) -> list[Figure]:
    out = []
    for rx, currencies in ((_AMOUNT_BEFORE, _CURRENCY_BEFORE), (_AMOUNT_AFTER, _CURRENCY_AFTER)):
        for m in rx.finditer(text):
            value = _num(m.group("num"))
            if value is None or ("조" in m.group("num") and rx is _AMOUNT_AFTER and m.group("cur") != "원"):
                continue
            if m.group("scale"):
                value *= _DATA["scales_en"][m.group("scale").lower()]
            out.append(Figure("amount", m.group(0), m.start(), m.end(), value, currencies[m.group("cur").lower()]))
    return out


def _percents(text: str) -> list[Figure]:
    return [Figure("percent", m.group(0), m.start(), m.end(), v / 100)
            for m in _PERCENT.finditer(text) if (v := _num(m.group("num"))) is not None]


def _counts(text: str) -> list[Figure]:
    out = []
    for m in _COUNT_KO.finditer(text):
        word = re.sub(r"\s", "", m.group("unit"))
        unit, times, not_before = _COUNTERS_KO[word]
        value = _num(m.group("num"))
        if value is None or "조" in m.group("num") or text[m.end() : m.end() + 1] in set(not_before) - {""}:
            continue
        if word.startswith("년") and value >= 1000:  # 2026년: a year, not a duration
            continue
        if re.fullmatch(r"\d{5,}", m.group("num")):  # a student or case number, not a count
            continue
        if _NOT_A_COUNT.match(text, m.end()) or (unit == "month" and _DURATION_HEAD.search(text, 0, m.start())):
            continue
        out.append(Figure("count", m.group(0), m.start(), m.end(), value * times, unit))
    for m in _FLOOR_EN.finditer(text):
        out.append(Figure("count", m.group(0), m.start(), m.end(), Fraction(int(m.group("n") or m.group("m"))), "floor"))
    for m in _LEVEL_EN.finditer(text):
        out.append(Figure("count", m.group(0), m.start(), m.end(), Fraction(int(m.group("n"))), "level"))
    for m in _NATIVE.finditer(text):
        unit, times = _DATA["native_ko_counters"][m.group("unit")]
        out.append(Figure("count", m.group(0), m.start(), m.end(), Fraction(_DATA["native_ko"][m.group("n")] * times),
                          unit))
    for m in _NATIVE_DAYS.finditer(text):
        out.append(Figure("count", m.group(0), m.start(), m.end(), Fraction(_DATA["native_ko_days"][m.group("w")]),
                          "day"))
    for m in _COUNT_EN.finditer(text):
        unit, times = _UNITS_EN[" ".join(m.group("unit").lower().split())]
        value = _word_or_num(m.group("num"))
        if value is None or (unit == "month" and times == 12 and value >= 1000):
            continue
        out.append(Figure("count", m.group(0), m.start(), m.end(), value * times, unit))
    return out


_READERS = (_dates, _times, _fractions, _amounts, _percents, _counts)


@lru_cache(maxsize=4096)
def _extract(text: str) -> tuple[Figure, ...]:
    taken = Spans()
    found: list[Figure] = []
    for read in _READERS:  # earlier kinds win an overlap: 3월 15일 is a date, not 15 days
        for f in read(text):
            if not taken.overlaps(f.start, f.end):
                taken.add(f.start, f.end)
                found.append(f)
    return tuple(sorted(found, key=lambda f: f.start))


_EXAMPLE = re.compile(r"^\W{0,4}(?:" + _alt(_DATA["example_cues"]) + r")", re.I)


def works_an_example(sentence: str) -> bool:
    """Whether a sentence opens as a worked example ("For example, a 5-credit load costs …"): its figures are
    hypotheses of the answer's own."""
    return _EXAMPLE.match(sentence) is not None


def extract_figures(text: str) -> list[Figure]:
    """Every figure of `text`, in order of position, without overlaps (read once per text: chunks recur)."""
    return list(_extract(text))


def clear_figure_cache() -> None:
    """Forget the texts read so far (to time a first reading)."""
    _extract.cache_clear()
    _plain_numbers.cache_clear()


_PLAIN_NUMBER = first_char_regex("0-9", rf"(?<![\d.,\-])(?:{_D})(?!\d|,\d|-\d)")
_RANGE_START = re.compile(rf"(?<![\d.,])(?P<n>{_D})\s?(?:to|or|and|[–—~∼-])\s?$")
_LEADING_NUMBER = re.compile(rf"{_D}|[A-Za-z]+")
_PLAIN_MIN = 100  # a table's bare cell supports an amount only from this value on (small numbers coincide)


@lru_cache(maxsize=4096)
def _plain_numbers(text: str) -> tuple[Fraction, ...]:
    """The values of the numbers of `text` that are no figure, from _PLAIN_MIN on (read once per text)."""
    taken = Spans((f.start, f.end) for f in _extract(text))
    return tuple(v for m in _PLAIN_NUMBER.finditer(text)
                 if not taken.overlaps(m.start(), m.end()) and (v := _num(m.group(0))) is not None and v >= _PLAIN_MIN)


class FigureIndex:
    """The figures of some texts (the contexts, the question), each with the number of the text it came from, and
    whether a figure of an answer is one of them."""

    def __init__(self) -> None:
        self.amounts: dict[tuple[str, Fraction], int] = {}
        self.ratios: dict[Fraction, int] = {}  # percentages and fractions: 30% is 3/10
        self.counts: dict[tuple[str, Fraction], int] = {}
        self.dates: list[tuple[tuple[int | None, int, int], int | None, int]] = []
        self.times: list[tuple[int, bool, int]] = []
        self.plain: dict[Fraction, int] = {}  # numbers with no unit ("| 250,000 |" under "(단위: 원)")

    def add(self, text: str, n: int) -> None:
        figures = extract_figures(text)
        for f in figures:
            if f.kind == "amount" and f.value is not None:
                self.amounts.setdefault((f.unit, f.value), n)
            elif f.kind in ("percent", "fraction") and f.value is not None:
                self.ratios.setdefault(f.value, n)
            elif f.kind == "count" and f.value is not None:
                self.counts.setdefault((f.unit, f.value), n)
                self._range_start(text, f, n)
            elif f.kind == "date" and f.ymd:
                self.dates.append((f.ymd, f.weekday, n))
            elif f.kind == "time" and f.minutes is not None:
                self.times.append((f.minutes, f.meridiem, n))
        for v in _plain_numbers(text):
            self.plain.setdefault(v, n)
        for m in _LEVEL_LOWER.finditer(text):  # a context's "<test> level N" supports an answer's N급 too
            self.counts.setdefault(("level", Fraction(int(m.group("n")))), n)

    def _range_start(self, text: str, f: Figure, n: int) -> None:
        """The first number of a range counts in the unit written after the second ("6 to 12 credits", "3~5일")."""
        first = _RANGE_START.search(text, max(0, f.start - 16), f.start)
        own = _LEADING_NUMBER.match(f.text)
        value = _word_or_num(own.group(0)) if own else None
        start = _num(first.group("n")) if first else None
        if value and start is not None and f.value is not None:
            self.counts.setdefault((f.unit, start * f.value / value), n)

    def support(self, f: Figure) -> int | None:
        """The number of the text holding `f` (same kind and value), else None."""
        if f.kind == "amount" and f.value is not None:
            hit = self.amounts.get((f.unit, f.value))
            return hit if hit is not None else self.plain.get(f.value) or self._computed(f.unit, f.value)
        if f.kind in ("percent", "fraction") and f.value is not None:
            return self.ratios.get(f.value)
        if f.kind == "count" and f.value is not None:
            hit = self.counts.get((f.unit, f.value))
            # N영업일 is also written 영업일 기준 N일; N층 and N급 are both "Level N"
            return hit if hit is not None else next(
                (n for unit in _UNIT_ALSO.get(f.unit, ()) if (n := self.counts.get((unit, f.value))) is not None), None)
        if f.kind == "date" and f.ymd:
            return self._date(f.ymd, f.weekday)
        if f.kind == "time" and f.minutes is not None:
            return next((n for m, known, n in self.times
                         if m == f.minutes or (not (known and f.meridiem) and m % 720 == f.minutes % 720)), None)
        return None

    def _date(self, ymd: tuple[int | None, int, int], weekday: int | None) -> int | None:
        """A date with the same month and day (and year, when both give one) whose weekday, where the answer writes
        one, is not contradicted by the context's weekday or by the calendar."""
        y, m, d = ymd
        for (cy, cm, cd), cw, n in self.dates:
            if (cm, cd) != (m, d) or (y and cy and y != cy):
                continue
            if weekday is not None and _weekday_of(y or cy, m, d, cw) not in (None, weekday):
                continue
            return n
        return None

    def _computed(self, currency: str, value: Fraction) -> int | None:
        """An amount that is a context amount times a context percentage (the answer worked out 30% of a limit).
        Sums, differences and amounts times a count are not tried: among a table's amounts they coincide with
        invented ones too often."""
        for (c, a), n in self.amounts.items():
            if c == currency and any(a * r == value for r in self.ratios if r < 1):
                return n
        return None


def _weekday_of(year: int | None, month: int, day: int, written: int | None) -> int | None:
    """The weekday of a date: as the context writes it, else from the calendar when a year is known."""
    if written is not None:
        return written
    if year is None:
        return None
    try:
        return date(year, month, day).weekday()
    except ValueError:
        return None
