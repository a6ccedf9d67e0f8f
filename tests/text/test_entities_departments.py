"""Organisation names of insurers, companies and ministries ending in 부, told apart from ordinary words."""

from __future__ import annotations

import pytest

from geunkeo.text.entities import extract_departments


@pytest.mark.parametrize("text, name", [
    ("자세한 사항은 보험금지급심사부(02.3456.7890)로 문의하세요", "보험금지급심사부"),
    ("고객지원부로 연락하십시오.", "고객지원부"),
    ("교육부의 지침에 따른다.", "교육부"),
])
def test_an_office_ending_in_bu_is_an_organisation(text, name):
    assert [e.text for e in extract_departments(text)] == [name]


@pytest.mark.parametrize("text", ["대부분의 학생은 일부 과목을 듣는다.", "납부 여부를 확인한다.", "세부 내용은 전부 공개한다.",
                                  "흉부 X선 결과서를 낸다."])
def test_ordinary_words_ending_in_bu_are_not(text):
    assert extract_departments(text) == []
