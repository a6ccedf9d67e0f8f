"""The sentence beside a chosen one often states the rest of the fact in other words; a figure there is kept."""

from __future__ import annotations

from geunkeo.answer.extractive import ExtractiveAnswerer
from geunkeo.answer.slots import sentence_slots
from geunkeo.config import AnswerSettings
from geunkeo.corpus.base import Chunk
from geunkeo.retrieve.base import Hit

SURVEY = ("온라인 장터 이용실태조사에 따르면 응답자의 절반 이상이 장터를 이용한 적이 있다고 응답함.\n"
          "· 온라인 장터 이용 경험률이 가장 큰 세대는 30대(64.1%)와 40대(58.3%)로 나타남. "
          "온라인 장터를 통해 주로 구매하는 상품 유형은 식품이 51.2%로 가장 많았음.\n"
          "앞으로도 관련 기관은 이용자 보호를 위해 지속적으로 노력하겠습니다.\n"
          "장터 운영 기관은 이용자에게 정기적으로 안내를 제공할 계획임.")


def _answer(question: str) -> str:
    chunk = Chunk("survey#1", "survey", "소비 동향 리포트", SURVEY, "소비 동향 리포트 p.2")
    return ExtractiveAnswerer(AnswerSettings()).answer(question, [Hit(chunk=chunk, score=1.0)]).text


def test_a_neighbour_stating_a_figure_is_kept_though_it_shares_few_words():
    text = _answer("온라인 장터 이용자 중 비율이 가장 높은 연령대와 가장 많이 구매하는 상품 유형은 무엇인가요?")
    assert "식품이 51.2%" in text
    assert "30대(64.1%)" in text  # "세대" for 연령대, "경험률" for 비율: few shared words, but beside the lead


def test_a_neighbour_without_a_figure_needs_the_usual_overlap():
    text = _answer("온라인 장터 이용자 중 비율이 가장 높은 연령대와 가장 많이 구매하는 상품 유형은 무엇인가요?")
    assert "노력하겠습니다" not in text


def test_an_article_number_is_not_an_amount():
    assert "amount" not in sentence_slots("제7조(보증금) ① 관생은 입사할 때 보증금을 낸다.")
    assert "amount" not in sentence_slots("제12조에 따라 납부한다.")
    assert "amount" in sentence_slots("국고채 50조 발행")


INTRO = "2025학년도 1학기 재학생 등록금 납부 일정을 알려 드립니다."
NOTICE = ("- 정규 등록 기간: 2025. 2. 24.(월) ~ 2. 28.(금) 16:00\n"
          "- 추가 등록 기간: 2025. 3. 4.(화) ~ 3. 7.(금) 16:00")
RULE = "③ 제1회 납부액은 해당 학기 등록금의 4분의 1 이상으로 하며, 정규 등록 기간에 납부하여야 한다."


def test_the_best_retrieved_chunks_dated_item_leads_a_when_question():
    hits = [Hit(Chunk("tuition#s2", "tuition", "2025학년도 1학기 등록금 납부 안내", NOTICE, "등록금 납부 안내 > 1. 납부 기간"), 1.0),
            Hit(Chunk("hakchik#제12조", "hakchik", "학칙", RULE, "학칙 제12조(분할납부)"), 0.8),
            Hit(Chunk("tuition#s1", "tuition", "2025학년도 1학기 등록금 납부 안내", INTRO, "등록금 납부 안내"), 0.7)]
    ans = ExtractiveAnswerer(AnswerSettings()).answer("2025학년도 1학기 등록금 정규 납부 기간은 언제입니까?", hits)
    # the title's words (2025학년도 1학기 등록금 납부) say which document, not which of its sentences answers
    assert ans.sentences[0].text.startswith("정규 등록 기간: 2025. 2. 24.(월)")
