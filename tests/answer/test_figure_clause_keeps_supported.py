"""An unsupported figure in a clause that also holds supported figures: a stand-in replaces it and the clause with
its supported figures stays (answer/figure_edits.py); examples made up for these tests."""

from __future__ import annotations

from geunkeo.answer.filter import HallucinationFilter

KO_CONTEXT = ["상담 접수: 2027. 4. 6.(화) 10:00 ~ 16:00, 학생회관 1층 민원실."]
EN_CONTEXT = ["The advice desk is open on weekdays from 8:30 a.m. to 4:30 p.m."]


def test_a_korean_clause_with_supported_times_keeps_them() -> None:
    out = HallucinationFilter().apply("안내문은 민원실에 있고, 상담 접수는 4월 9일(금) 오전 10시부터 오후 4시까지입니다.",
                                      KO_CONTEXT, lang="ko").text
    assert "4월 9일" not in out
    assert "오전 10시부터 오후 4시까지" in out


def test_an_english_clause_with_a_supported_time_keeps_it() -> None:
    out = HallucinationFilter().apply("The advice desk is open on weekdays from 8:30 a.m. to 5:30 p.m.; it is busy "
                                      "in March.", EN_CONTEXT, lang="en").text
    assert "5:30 p.m." not in out
    assert "from 8:30 a.m." in out


def test_the_other_end_of_a_range_goes_with_the_unsupported_one() -> None:
    out = HallucinationFilter().apply("상담은 많습니다. 접수 기간은 4월 6일~4월 9일입니다.", KO_CONTEXT, lang="ko").text
    assert "4월 9일" not in out and "4월 6일~" not in out
