"""A figure written in the other language's notation is the same value and unit (geunkeo.text.figures), with
examples made up for these tests."""

from __future__ import annotations

import pytest

from geunkeo.text.figures import FigureIndex, extract_figures


def _supported(answer: str, context: str) -> bool:
    index = FigureIndex()
    index.add(context, 1)
    figures = extract_figures(answer)
    assert figures, f"no figure read in {answer!r}"
    return all(index.support(f) == 1 for f in figures)


@pytest.mark.parametrize("answer, context", [
    ("a 67-year-old member", "가입 연령: 만 67세 이하"),
    ("a 67-years-old member", "가입 연령: 만 67세 이하"),
    ("OPIc Level 6 or above", "OPIc 6급 이상 취득자"),  # a test's level is its 급
    ("on Level 6 of the library", "도서관 6층 열람실"),  # a floor too
    ("한자능력검정 6급 이상", "Hanja Proficiency Test level 6 or higher"),
    ("오후 7시 30분까지", "open until 7:30 p.m."),
    ("KRW 73,400 a month", "월 보험료 73,400원"),
    ("7만 3,400원", "a premium of KRW 73,400"),
])
def test_the_same_figure_in_either_notation_is_supported(answer: str, context: str) -> None:
    assert _supported(answer, context)


@pytest.mark.parametrize("answer, context", [
    ("a 68-year-old member", "가입 연령: 만 67세 이하"),
    ("a 67-year-old member", "보험기간 67년"),  # an age is no duration
    ("OPIc Level 5 or above", "OPIc 6급 이상 취득자"),
    ("한자능력검정 5급 이상", "Hanja Proficiency Test level 6 or higher"),
])
def test_another_value_or_unit_is_not(answer: str, context: str) -> None:
    assert not _supported(answer, context)


@pytest.mark.parametrize("text", ["3급여 지급", "연봉이 2급증했다"])
def test_words_starting_with_geup_are_no_level(text: str) -> None:
    assert not [f for f in extract_figures(text) if f.unit == "grade"]


def test_a_level_stands_for_a_floor_or_a_grade_only() -> None:
    index = FigureIndex()
    index.add("주차장은 지하 2층", 1)
    level = next(f for f in extract_figures("Level 2") if f.unit == "level")
    assert index.support(level) == 1
    two_days = next(f for f in extract_figures("2일") if f.unit == "day")
    index_levels = FigureIndex()
    index_levels.add("TOPIK level 2", 1)
    assert index_levels.support(two_days) is None
