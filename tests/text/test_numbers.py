"""geunkeo.text.numbers: the one number parser (filter, support checker and answer verification read it)."""

from __future__ import annotations

import pytest

from geunkeo.text.numbers import find_quantities, parse_number, parse_quantity


@pytest.mark.parametrize("text,value,kind,norm", [
    # Korean numerals: 십·백·천 inside a group, 만·억·조 between groups, digits mixed in
    ("2천5백만원", 25_000_000, "amount", "25000000krw"),
    ("2천 5백만 원", 25_000_000, "amount", "25000000krw"),
    ("5백원", 500, "amount", "500krw"),
    ("5백만원", 5_000_000, "amount", "5000000krw"),
    ("1억 2천만 원", 120_000_000, "amount", "120000000krw"),
    ("3억5천만원", 350_000_000, "amount", "350000000krw"),
    ("1,000억 원", 100_000_000_000, "amount", "100000000000krw"),
    ("3.4조 원", 3_400_000_000_000, "amount", "3400000000000krw"),
    ("3만5000원", 35_000, "amount", "35000krw"),
    ("100만원", 1_000_000, "amount", "1000000krw"),
    ("1,000,000원", 1_000_000, "amount", "1000000krw"),
    ("250억", 25_000_000_000, "number", "25000000000"),
    # a unit with no digit before the currency
    ("만 원", 10_000, "amount", "10000krw"),
    ("천만 원", 10_000_000, "amount", "10000000krw"),
    ("백만원", 1_000_000, "amount", "1000000krw"),
    # currencies before or after, English scale words
    ("KRW 30,000", 30_000, "amount", "30000krw"),
    ("30,000 won", 30_000, "amount", "30000krw"),
    ("₩30,000", 30_000, "amount", "30000krw"),
    ("$1,200", 1_200, "amount", "1200usd"),
    ("500달러", 500, "amount", "500usd"),
    ("USD 1.5 million", 1_500_000, "amount", "1500000usd"),
    ("1.5 million", 1_500_000, "number", "1500000"),
    ("2 billion won", 2_000_000_000, "amount", "2000000000krw"),
    # rates, counted quantities, fractions
    ("30%", 30, "percent", "30%"),
    ("3.5 %", 3.5, "percent", "3.5%"),
    ("20퍼센트", 20, "percent", "20%"),
    ("15 percent", 15, "percent", "15%"),
    ("3개월", 3, "count", "3개월"),
    ("6개 학기", 6, "count", "6학기"),
    ("6개학기", 6, "count", "6학기"),
    ("2학기", 2, "count", "2학기"),
    ("18학점", 18, "count", "18학점"),
    ("30일", 30, "count", "30일"),
    ("3 months", 3, "count", "3개월"),
    ("두 번", 2, "count", "2회"),
    ("한 달", 1, "count", "1개월"),
    ("3분의 2", 2 / 3, "fraction", "2/3"),
])
def test_one_number_table(text, value, kind, norm):
    q = parse_quantity(text)
    assert q is not None and (q.kind, q.norm) == (kind, norm)
    assert parse_number(text) == pytest.approx(value)


def test_the_issue_cases_exactly():
    assert parse_number("2천5백만원") == 25_000_000
    assert parse_number("5백원") == 500
    assert isinstance(parse_number("2천5백만원"), int)


@pytest.mark.parametrize("text,norm", [
    ("2024년 3월 15일", "2024-03-15"), ("3월 5일", "03-05"), ("2024.03.01", "2024-03-01"),
    ("2025. 2. 10.", "2025-02-10"), ("2024-3-1", "2024-03-01"), ("March 5, 2024", "2024-03-05"),
    ("5 March 2024", "2024-03-05"), ("March 5", "03-05"), ("2024년 3월", "2024-03"),
])
def test_dates(text, norm):
    q = parse_quantity(text)
    assert q is not None and q.kind == "date" and q.norm == norm and q.value is None
    assert parse_number(text) is None


def test_the_end_of_a_date_range_without_its_year():
    text = "정규 등록: 2025. 2. 24.(월) ~ 2. 28.(금) 16:00, 추가 등록 2025. 3. 4.(화) ~3. 7.(금)"
    assert [q.norm for q in find_quantities(text) if q.kind == "date"] == [
        "2025-02-24", "02-28", "2025-03-04", "03-07"]


def test_quantities_in_running_text_in_order_without_overlaps():
    text = "2024년 3월 15일까지 등록금의 30%를 반환하며 수수료는 1만 원, 최대 1,000,000원; March 5, 2024."
    assert [(q.kind, q.norm, q.text) for q in find_quantities(text)] == [
        ("date", "2024-03-15", "2024년 3월 15일"), ("percent", "30%", "30%"), ("amount", "10000krw", "1만 원"),
        ("amount", "1000000krw", "1,000,000원"), ("date", "2024-03-05", "March 5, 2024")]
    text = "최저자본금은 시중은행 1,000억 원, 지방은행 250억 원이다."
    assert [q.norm for q in find_quantities(text)] == ["100000000000krw", "25000000000krw"]


@pytest.mark.parametrize("text,expected", [
    ("제2조 원칙에 따른다", []),  # an article, and 원칙 is not the currency
    ("제12조의2 제3항", [("number", "2")]),  # 제3항 is not a number; the 의2 digit is plain
    ("법 3조에 따른다", []),  # 조 without a currency is an article, not 3 × 10^12
    ("만 18세 이상", [("count", "18세")]),  # 만 = "full" (age), not 10,000
    ("수백만 원이 든다", []),  # approximate: no value
    ("3만 2024년", [("number", "30000"), ("count", "2024년")]),  # digits after a space join only before a unit
    ("세 번째 학생은 두 명", [("count", "2명")]),  # an ordinal is not a count
    ("1,2학기", [("number", "1"), ("count", "2학기")]),
    ("C+ 이하 과목에 한해 재수강한다", []),  # 에 한해 = "limited to", not one year (한 해)
    ("한 해 동안", [("count", "1년")]),
])
def test_what_is_not_read_as_a_number(text, expected):
    assert [(q.kind, q.norm) for q in find_quantities(text)] == expected


def test_parse_quantity_needs_exactly_one_number():
    assert parse_quantity("30일 이내") is None
    assert parse_quantity("30% 또는 40%") is None
    assert parse_number("학칙") is None
