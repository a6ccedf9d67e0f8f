"""Extractive answers keep a list's lead-in sentence together with its items (호/목), where the facts are."""

from __future__ import annotations

from geunkeo.answer.extractive import ExtractiveAnswerer, source_sentences, source_units
from geunkeo.config import AnswerSettings
from geunkeo.corpus.base import Chunk
from geunkeo.retrieve.base import Hit

ARTICLE = """제13조(등록금의 반환) ① 이미 납부한 등록금은 반환하지 아니한다.
② 등록금 반환 금액은 반환 사유가 발생한 날을 기준으로 다음 각 호와 같다.
1. 학기 개시일 전까지: 수업료 전액
2. 학기 개시일부터 30일이 지나기 전까지: 수업료의 6분의 5
3. 학기 개시일부터 30일이 지난 날부터 60일이 지나기 전까지: 수업료의 3분의 2
③ 입학금은 학기 개시일 전에 입학을 포기한 경우에만 반환한다."""


def test_lead_in_sentence_carries_its_items_and_the_list_ends_at_the_next_paragraph():
    units = source_sentences(ARTICLE)
    assert units == [
        "① 이미 납부한 등록금은 반환하지 아니한다.",
        "② 등록금 반환 금액은 반환 사유가 발생한 날을 기준으로 다음 각 호와 같다: (1) 학기 개시일 전까지: 수업료 전액; "
        "(2) 학기 개시일부터 30일이 지나기 전까지: 수업료의 6분의 5; "
        "(3) 학기 개시일부터 30일이 지난 날부터 60일이 지나기 전까지: 수업료의 3분의 2",
        "③ 입학금은 학기 개시일 전에 입학을 포기한 경우에만 반환한다.",
    ]


def test_numbered_lines_without_a_lead_in_stay_separate():
    text = "신청 방법은 포털에서 확인한다.\n1. 포털에 접속하여 신청서를 작성하고 제출한다.\n2. 학과 사무실에서 승인을 받는다."
    assert source_sentences(text) == ["신청 방법은 포털에서 확인한다.", "포털에 접속하여 신청서를 작성하고 제출한다.",
                                      "학과 사무실에서 승인을 받는다."]


def test_answer_quotes_the_refund_rate_from_the_items():
    chunk = Chunk("hakchik#제13조", "hakchik", "학칙", ARTICLE, "학칙 제13조(등록금의 반환)")
    ans = ExtractiveAnswerer(AnswerSettings()).answer("45일 지나서 자퇴하면 수업료 얼마나 돌려받아?",
                                                      [Hit(chunk=chunk, score=1.0)])
    assert "수업료의 3분의 2" in ans.text and "[1]" in ans.text
    # the evaluator reads the quoted list as one cited sentence (no uncited lead-in)
    from geunkeo.checks.claims import split_sentences

    unit = next(s for s in split_sentences(ans.text) if "3분의 2" in s.text)
    assert unit.citations == [1] and "다음 각 호와 같다:" in unit.text


def test_a_chosen_proviso_comes_after_the_sentence_it_limits():
    text = ("신입생은 입학 첫 학기에 일반휴학을 할 수 없다.\n"
            "다만, 질병으로 인한 휴학은 첫 학기에도 할 수 있다.")
    chunk = Chunk("r#제16조", "r", "학칙", text, "학칙 제16조(휴학의 제한)")
    ans = ExtractiveAnswerer(AnswerSettings()).answer("질병 휴학은 첫 학기에도 가능?", [Hit(chunk=chunk, score=1.0)])
    assert [s.text for s in ans.sentences] == ["신입생은 입학 첫 학기에 일반휴학을 할 수 없다.",
                                               "다만, 질병으로 인한 휴학은 첫 학기에도 할 수 있다."]


def test_ocr_bullets_and_labelled_figures_are_quotable_items():
    text = ("0 대내외 여건 변화를 반영하여 재정 건전화계획의 수정계획을 수립하는 등 재무건전성 관리 강화\n"
            "전체 신고 대비 반복신고 감지 비율: 1.25%(1분기)→2.5%(2분기)→7.6%(3분기)\n"
            "이 줄은 페이지가 잘라서 문장이 끝나지 않은 채로 남아 있는 긴 본문의 일부")
    assert source_sentences(text) == [
        "대내외 여건 변화를 반영하여 재정 건전화계획의 수정계획을 수립하는 등 재무건전성 관리 강화",
        "전체 신고 대비 반복신고 감지 비율: 1.25%(1분기)→2.5%(2분기)→7.6%(3분기)",
    ]


def test_another_documents_sentence_supports_only_when_about_as_relevant():
    rule = Chunk("r#제7조", "r", "학칙", "휴학 기간은 통산 3년을 넘을 수 없다.\n휴학 중에는 등록금을 내지 않는다.",
                 "학칙 제7조(휴학)")
    other = Chunk("p#s1", "p", "금리 전망", "기간 중 금리는 동결되었다.", "금리 전망")
    terms = {"휴학": 1.0, "기간": 1.0, "통산": 1.0}
    ans = ExtractiveAnswerer(AnswerSettings()).answer(
        "휴학 기간 통산", [Hit(chunk=rule, score=1.0), Hit(chunk=other, score=0.5)], terms=terms)
    assert ans.text.startswith("휴학 기간은 통산 3년을 넘을 수 없다 [1].")
    assert "금리" not in ans.text  # shares one word of three with the question, from an unrelated document


def test_a_section_title_behind_a_bullet_is_not_an_answer_unit():
    text = ("□ 혁신펀드 1호 운용현황\n"
            "○ 1호 펀드는 2020년부터 2023년까지 운용되었다.\n"
            "- 목표 금액 5,000억원 조성\n"
            "- 신청: 온라인 접수")
    units = [u.text for u in source_units(text)]
    assert "혁신펀드 1호 운용현황" not in units
    assert "1호 펀드는 2020년부터 2023년까지 운용되었다." in units
    assert "목표 금액 5,000억원 조성" in units and "신청: 온라인 접수" in units
    assert "TOEIC 700점 이상" in [u.text for u in source_units("- TOEIC 700점 이상\n- 혁신펀드 2차 추진계획")]
    assert "혁신펀드 2차 추진계획" not in [u.text for u in source_units("- TOEIC 700점 이상\n- 혁신펀드 2차 추진계획")]


def test_bullets_inside_a_long_run_make_items_of_their_own():
    # a two-column page ran its bullet points into one line: each point is a unit a reader can take alone
    text = ("□ 사례 분석\n"
            "· 매주 화요일 20시 단독 판매 상품으로 기획 · 2030세대 시청자가 60%, 첫 구매 고객 다수 유입 효과 · "
            "누적 시청 90만 회, 회당 평균 주문 1.4억원 효과 · 재방문율이 매회 약 5%씩 상승\n")
    units = [u.text for u in source_units(text)]
    assert "누적 시청 90만 회, 회당 평균 주문 1.4억원 효과" in units
    assert len(units) == 4
    # a spaced middle dot that joins two nouns in a short sentence is no bullet
    joined = "3. 다음 각 목의 권리의 양도 · 대여의 대가로 받는 금품은 과세한다.\n"
    assert [u.text for u in source_units(joined)] == ["다음 각 목의 권리의 양도 · 대여의 대가로 받는 금품은 과세한다."]
