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


def test_public_bodies_ending_in_won_are_organisations():
    names = {e.text for e in extract_departments(
        "한국소비자원을 통한 피해구제도 가능하며, 금융감독원에 분쟁조정을, 특허심판원에 심판을 청구할 수 있고, "
        "한국개발연구원의 보고서를 참고하십시오. 담당 연구원에게 문의하십시오.")}
    assert {"한국소비자원", "금융감독원", "특허심판원", "한국개발연구원"} <= names
    assert "연구원" not in names  # a researcher, not a body


def test_ministries_public_corporations_and_boards():
    text = ("임금체불은 고용노동부에 문의하시고, 보증금은 주택도시보증공사에 문의하십시오. 건축공사에 따른 소음은 "
            "서울 동부에서 많습니다. Cases go to the Student Disciplinary Board.")
    names = {e.text for e in extract_departments(text)}
    assert {"고용노동부", "주택도시보증공사", "Student Disciplinary Board"} <= names
    assert not names & {"건축공사", "동부"}  # construction work and a direction


def test_a_body_of_a_body_is_one_name():
    # the committee belongs to the office: one name, not "… Committee of the Office" and a stray "Planning Affairs"
    names = [e.text for e in extract_departments("Fees are set by the Budget Committee of the Office of Planning Affairs "
                                                 "each year.")]
    assert names == ["Budget Committee of the Office of Planning Affairs"]
