"""Figures read with their canonical value (geunkeo.text.figures): every notation of one amount, duration, date or
time is one value; article numbers, list numbering and years alone are no figures."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest

from geunkeo.text.figures import FigureIndex, extract_figures, works_an_example


def _keys(text: str) -> list[tuple[str, str]]:
    return [(f.text, f.key) for f in extract_figures(text)]


@pytest.mark.parametrize("written", ["480만 원", "4,800,000원", "₩4,800,000", "KRW 4,800,000", "4백8십만원",
                                     "4.8 million won"])
def test_one_amount_in_every_notation(written):
    (f,) = extract_figures(f"등록금은 {written}입니다")
    assert (f.kind, f.value, f.unit) == ("amount", 4_800_000, "krw")


def test_currencies_before_and_after_the_number():
    found = {f.text: (f.value, f.unit) for f in extract_figures("NZ$75, £1,250, €40, US$12.50, 90 dollars, 20 pounds")}
    assert found == {"NZ$75": (75, "dollar"), "£1,250": (1250, "gbp"), "€40": (40, "eur"), "US$12.50": (Fraction(25, 2),
                     "dollar"), "90 dollars": (90, "dollar"), "20 pounds": (20, "gbp")}


def test_percentages_and_fractions_share_one_value():
    values = [f.value for f in extract_figures("수수료는 25%, 등록금의 4분의 1, 1/4 share, 25 percent, 25퍼센트")]
    assert values == [Fraction(1, 4)] * 5
    assert extract_figures("open 24/7") == []  # not a share


@pytest.mark.parametrize(("written", "unit", "value"), [
    ("18개월", "month", 18), ("1년 6개월", "month", 12), ("two years", "month", 24), ("세 달", "month", 3),
    ("3주", "day", 21), ("열흘", "day", 10), ("a 45-day period", "day", 45), ("five (5) business days", "workday", 5),
    ("7영업일", "workday", 7), ("4개 학기", "semester", 4), ("two consecutive terms", "semester", 2),
    ("2시간", "minute", 120), ("90 minutes", "minute", 90), ("12 Tamarind credits", "credit", 12),
    ("만 19세", "age", 19), ("18층", "floor", 18), ("3rd floor", "floor", 3), ("세 번", "times", 3),
    ("다섯 명", "person", 5),
])
def test_counts_and_durations_in_a_base_unit(written, unit, value):
    f = extract_figures(written)[0]
    assert (f.kind, f.unit, f.value) == ("count", unit, value)


def test_dates_in_every_usual_notation():
    assert _keys("2027년 5월 3일(월)") == [("2027년 5월 3일(월)", "date:2027-5-3")]
    assert extract_figures("2027년 5월 3일(월)")[0].weekday == 0
    assert [f.key for f in extract_figures("2027. 5. 3.(월) ~ 5. 7.(금)")] == ["date:2027-5-3", "date:-5-7"]
    assert [f.key for f in extract_figures("2027-05-03, 3 May 2027, May 3, 2027, Monday 3 May")] == \
        ["date:2027-5-3"] * 3 + ["date:-5-3"]
    assert [f.key for f in extract_figures("5월 3일부터 7일까지")] == ["date:-5-3", "date:-5-7"]
    assert [f.key for f in extract_figures("held 3–7 May")] == ["date:-5-3", "date:-5-7"]
    assert extract_figures("Friday, 7 May")[0].weekday == 4


def test_clock_times():
    assert [f.minutes for f in extract_figures("오후 3시 30분, 15:30, 3.30 pm, 3:30 p.m.")] == [930] * 4
    nine = extract_figures("9시까지")[0]  # 9:00 or 21:00
    assert (nine.minutes, nine.meridiem) == (540, False)
    assert extract_figures("3시간")[0].kind == "count"


def test_no_figures_in_articles_list_numbers_years_ordinals_and_ids():
    text = "제3조 제2항에 따라 2026년에 개정되었고, 2026학년도 신입생은 1. 신청서 2. 사본을 내며 3차 심사는 학번 2026104455인 학생"
    assert [f.text for f in extract_figures(text)] == []
    assert extract_figures("공지 4번 항목, 세부 사항, 일반 휴학") == []


def test_an_answer_figure_is_supported_by_the_same_value_only():
    ctx = FigureIndex()
    ctx.add("신청 기간은 2027년 5월 3일(월)부터 5월 7일(금)까지이며 오후 5시에 마감한다. 수수료는 30,000원(처리 "
            "기간 2주)이고 연체 시 수수료의 10%를 더한다. 기간은 6 to 12 months.", 1)

    def supported(answer: str) -> bool:
        return ctx.support(extract_figures(answer)[0]) is not None

    assert supported("3만 원") and supported("KRW 30,000") and not supported("3만 5천 원")
    assert supported("14일") and supported("two weeks") and not supported("10일")
    assert supported("5월 7일") and supported("May 7") and not supported("5월 8일")
    assert supported("17:00") and supported("5 pm") and not supported("오후 6시")
    assert supported("3,000원")  # 10% of 30,000원: worked out from the context's figures
    assert supported("6 months") and supported("12 months") and not supported("9 months")  # a range's first number


def test_a_weekday_the_date_does_not_have_is_not_supported():
    ctx = FigureIndex()
    ctx.add("마감: 2027. 5. 7.(금)", 1)
    assert ctx.support(extract_figures("5월 7일(금)")[0]) == 1
    assert ctx.support(extract_figures("5월 7일(목)")[0]) is None
    plain = FigureIndex()
    plain.add("마감: 2027년 5월 7일", 1)  # no weekday written: the calendar decides
    weekday = "월화수목금토일"[date(2027, 5, 7).weekday()]
    other = "월화수목금토일"[(date(2027, 5, 7).weekday() + 1) % 7]
    assert plain.support(extract_figures(f"5월 7일({weekday})")[0]) == 1
    assert plain.support(extract_figures(f"5월 7일({other})")[0]) is None


def test_worked_examples_are_recognised():
    assert works_an_example("예를 들어 6학점을 들으면 …") and works_an_example("- For example, a 4-credit course …")
    assert not works_an_example("수강료는 학점당 5만 원이며, 예를 들어 …")  # a cue only counts at the start


def test_a_korean_amount_written_in_two_parts_is_one_amount():
    from geunkeo.text.figures import extract_figures

    (fig,) = extract_figures("월 이용료는 4만 6,500원이다.")
    assert fig.kind == "amount" and fig.value == 46500
    assert [f.value for f in extract_figures("총 3억 5천만 원")] == [350000000]
