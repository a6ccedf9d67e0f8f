"""geunkeo.text.entities: the extraction the filter (and the evaluation stage) relies on."""

from __future__ import annotations

import pytest

from geunkeo.text.entities import (
    article_key,
    extract_all,
    extract_citations,
    extract_contacts,
    extract_departments,
    extract_numbers,
    phone_key,
    url_key,
)


@pytest.mark.parametrize("text,key", [
    ("02-880-1234", "028801234"), ("02.880.1234", "028801234"), ("02 880 1234", "028801234"),
    ("028801234", "028801234"), ("(02) 880-1234", "028801234"), ("+82-2-880-1234", "028801234"),
    ("+82 (0)2 880 1234", "028801234"), ("+82 10 1234 5678", "01012345678"), ("010-1234-5678", "01012345678"),
    ("031-123-4567", "0311234567"), ("0505-123-4567", "05051234567"), ("1588-1234", "15881234"),
    ("1544 0000", "15440000"),
])
def test_phone_formats_normalise_to_digits(text, key):
    found = extract_contacts(f"전화 {text}로 연락")
    assert [(e.kind, e.text, e.norm) for e in found] == [("phone", text, key)]
    assert phone_key(text) == key


@pytest.mark.parametrize("text", ["02-XXXX-XXXX", "031-XXX-XXXX", "0X-XXXX-XXXX", "02-123-XXXX", "02-○○○-○○○○",
                                  "1588-XXXX", "XXX-XXXX-XXXX"])
def test_placeholders_are_phones_that_no_context_can_support(text):
    [e] = extract_contacts(f"문의: {text}")
    assert (e.kind, e.text, e.placeholder, e.norm) == ("phone", text, True, "")


def test_fax_email_and_url():
    text = "전화 02-123-4567, 팩스: 02-123-4568, Help@Univ.AC.kr, https://www.univ.ac.kr/notice/ 참고"
    got = [(e.kind, e.text, e.norm) for e in extract_contacts(text)]
    assert got == [("phone", "02-123-4567", "021234567"), ("fax", "02-123-4568", "021234568"),
                   ("email", "Help@Univ.AC.kr", "help@univ.ac.kr"),
                   ("url", "https://www.univ.ac.kr/notice/", "univ.ac.kr/notice")]
    assert url_key("HTTP://WWW.Example.com/a/.") == "example.com/a"


def test_numbers_that_are_not_phones():
    text = "2024-03-15까지 2025. 3. 1. 학번 2025123456, 1,000,000원, 제12조 제3항"
    assert extract_contacts(text) == []


def test_departments_by_suffix_with_stop_words_and_particles():
    text = ("학술연구지원팀(02-1234-5678)에 문의. 학생처장에게 교무처로 학사관리과에서 처리. 학생과 교수, 규정과 달리, "
            "연락처는, 결과를, 사실, 휴학원을, 강의실에서, 학과 사무실에 Research Support Team and the Office of "
            "Academic Affairs.")
    assert [e.text for e in extract_departments(text)] == [
        "학술연구지원팀", "학생처", "교무처", "학사관리과", "Research Support Team", "Office of Academic Affairs"]


def test_known_department_names_without_a_suffix():
    text = "학생상담소장과 국제교류관에서"  # 상담소 is a suffix; 국제교류관 only a known name
    assert [e.text for e in extract_departments(text)] == ["학생상담소"]
    assert [e.text for e in extract_departments(text, known=["국제교류관"])] == ["학생상담소", "국제교류관"]


def test_citation_tuples_and_how_the_regulation_is_named():
    text = ("「학칙」 제12조 제1항에 따라, 같은 규정 제3조의2, 이 약관 제5조, 학사운영규정 제5조제2항제3호, "
            "장학금 지급 규정 제12조, 휴학하는 경우 학칙 제13조, 신청 방법 제3조")
    got = [(e.text, e.citation_tuple(), e.ref) for e in extract_citations(text)]
    assert got == [
        ("「학칙」 제12조 제1항", ("학칙", "12", 1, None), "named"),
        ("같은 규정 제3조의2", ("같은 규정", "3-2", None, None), "same"),
        ("이 약관 제5조", ("이 약관", "5", None, None), "this"),
        ("학사운영규정 제5조제2항제3호", ("학사운영규정", "5", 2, "3"), "named"),
        ("장학금 지급 규정 제12조", ("장학금 지급 규정", "12", None, None), "named"),
        ("학칙 제13조", ("학칙", "13", None, None), "named"),
        ("제3조", (None, "3", None, None), "bare"),
    ]


def test_english_citations():
    text = "Under Article 5(2) of the Travel Insurance Terms and Article 7 of these Terms, Art. 3(1)(a) applies."
    got = [(e.text, e.citation_tuple(), e.ref) for e in extract_citations(text)]
    assert got == [
        ("Article 5(2) of the Travel Insurance Terms", ("Travel Insurance Terms", "5", 2, None), "named"),
        ("Article 7 of these Terms", ("these Terms", "7", None, None), "this"),
        ("Art. 3(1)(a)", (None, "3", 1, "a"), "bare"),
    ]
    assert article_key("제12조의2") == "12-2" and article_key("Article 12") == "12"


def test_amounts_dates_percentages():
    text = "2024년 3월 15일까지 등록금의 30%를 반환하며 수수료는 1만 원, 최대 1,000,000원; March 5, 2024."
    got = [(e.kind, e.norm) for e in extract_numbers(text)]
    assert got == [("date", "2024-03-15"), ("percent", "30%"), ("amount", "10000krw"), ("amount", "1000000krw"),
                   ("date", "2024-03-05")]


def test_extract_all_orders_by_position_and_drops_numbers_inside_contacts():
    kinds = [e.kind for e in extract_all("학사지원팀(02-880-1234)에 3월 2일까지 「학칙」 제13조")]
    assert kinds == ["department", "phone", "date", "citation"]


def test_a_regulation_named_alone_is_a_citation_without_an_article():
    got = [(e.text, e.citation_tuple()) for e in extract_citations("「학칙」 제3조와 「교원 연구년 운영 지침」을 보세요")]
    assert got == [("「학칙」 제3조", ("학칙", "3", None, None)), ("「교원 연구년 운영 지침」", ("교원 연구년 운영 지침", "", None, None))]
