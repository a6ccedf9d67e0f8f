"""Extractive answers stay on the member of a series the question names, and stay short."""

from __future__ import annotations

from geunkeo.answer.extractive import ExtractiveAnswerer, names_other_member, ordinals
from geunkeo.config import AnswerSettings
from geunkeo.corpus.base import Chunk
from geunkeo.retrieve.base import Hit

FUND = """혁신펀드 2호는 올해부터 4년간 5,000억원 규모로 조성되며, 혁신펀드는 8년간 총 1조원 규모로 확대된다.
혁신펀드 1호는 4년간 총 5,133억원을 조성하고, 85개 기업에 2,824억원을 투자하였다.
혁신펀드의 운용사는 매년 공모로 선정한다."""


def _hit(text: str, n: int = 1) -> Hit:
    return Hit(chunk=Chunk(f"doc{n}#1", f"doc{n}", f"문서 {n}", text, f"문서 {n}"), score=1.0)


def test_ordinals_by_counter():
    assert ordinals("혁신펀드 1호와 3차 공고, 2단계") == {"호": {"1"}, "차": {"3"}, "단계": {"2"}}
    assert ordinals("2,824억원 4.5호") == {}  # a figure, not a member of a series
    asked = ordinals("혁신펀드 1호의 조성 금액은 얼마인가요?")
    assert names_other_member(asked, "혁신펀드 2호는 5,000억원 규모로 조성된다.")
    assert not names_other_member(asked, "1호와 2호를 합치면 1조원이다.")  # names the one asked too
    assert not names_other_member(asked, "총 5,133억원을 조성하였다.")


def test_a_sentence_about_another_member_does_not_lead():
    ans = ExtractiveAnswerer(AnswerSettings()).answer("혁신펀드 1호의 조성 금액은 얼마인가요?", [_hit(FUND)])
    assert ans.sentences[0].text.startswith("혁신펀드 1호는 4년간 총 5,133억원")


def test_supporting_sentences_stop_at_the_length_budget_but_the_fact_is_always_quoted():
    long_fact = "등록금은 학기마다 " + "정해진 절차에 따라 " * 30 + "납부한다."
    text = f"{long_fact}\n등록금 납부 기간은 3월 2일부터 3월 6일까지이다.\n등록금 분할 납부는 4회까지 가능하다."
    question = "등록금 납부 절차는 어떻게 되나요?"
    wide = ExtractiveAnswerer(AnswerSettings()).answer(question, [_hit(text)])
    assert len(wide.sentences) == 3
    short = ExtractiveAnswerer(AnswerSettings(extractive_max_chars=len(long_fact) + 30)).answer(question, [_hit(text)])
    assert [s.text for s in short.sentences][0] == long_fact
    assert len(short.sentences) == 2  # the second fits (29 chars), the third would not
    tiny = ExtractiveAnswerer(AnswerSettings(extractive_max_chars=10)).answer(question, [_hit(text)])
    assert len(tiny.sentences) == 1
