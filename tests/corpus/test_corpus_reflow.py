"""Sentences rebuilt across PDF line breaks; units (bullets, headings, tables) and running lines handled."""

from geunkeo.corpus import chunk_document, load_paths
from geunkeo.corpus.base import Document
from geunkeo.corpus.reflow import drop_running_lines, reflow, strip_page_numbers

WRAPPED = (
    "자본금 요건\n"
    "시중은행으로 전환하려는 지방은행은 최저자본금 요건을 충족하여야 하며, 시중은행의 최저자본금은\n"
    "1,000억원 이상이고 지방은행의 최저자본금은 250억원 이상으로 규정되어 있어 전환 시 추가\n"
    "증자가 필요할 수 있습니다. 인가 심사 과정에서 대주주의 적격성과 사업계획의 타당성을 함께 검\n"
    "토합니다.\n"
    "□ 신청 절차\n"
    "○ 예비인가 신청 후 본인가를 신청하는 것이 원칙이나 요건을 충분히 갖춘 경우에는 예비인가를\n"
    "생략할 수 있음\n"
    "1. 신청서 제출\n"
    "구분 2022 2023 2024\n"
)


def test_lines_broken_mid_sentence_are_joined():
    out = reflow(WRAPPED).split("\n")
    assert out[0] == "자본금 요건"  # a short title line stays on its own
    assert out[1].startswith("시중은행으로 전환하려는")
    assert "최저자본금은 1,000억원 이상이고" in out[1]
    assert out[1].endswith("검토합니다.")  # Kiwi joins the word the page edge split: 검\n토 -> 검토
    assert "추가 증자가" in out[1]  # and keeps the space where two words met
    assert out[2] == "□ 신청 절차"
    assert out[3].endswith("예비인가를 생략할 수 있음")  # a bullet continues over its wrapped line
    assert out[4] == "1. 신청서 제출"
    assert out[5] == "구분 2022 2023 2024"


MARGIN = (
    "근로자 또는 종교관련종사자 본인이나 그 배우자의 출산 및 6세 이하 자녀의 보육과 관련하여 사용자 또는 종교단체로부\n"
    "20 터 받는 보육수당의 비과세 한도가 현행 월 10만원에서 월 20만원으로 상향되었으며 자녀공제 대상도 넓어\n"
    "2\n"
    "3 졌다. 금리인하 기대가 크게 확대될 수 있음에 유의하여야 하며 주택가격은 수도권을 중심으로 하락하는 가운데 수도\n"
    "46 경제는 소비 회복세가 더딘 모습을 보이고 있으며 건설투자도 부진한 모습을 보이고 있는 상황이다.\n"
)


def test_margin_numbers_inside_a_sentence_are_dropped():
    out = reflow(MARGIN).strip().split("\n")
    assert len(out) == 1
    # a number inside a word ("로부|20|터", "넓어|2|3|졌다") is the margin's, not the sentence's
    assert "종교단체로부터 받는 보육수당" in out[0]
    assert "자녀공제 대상도 넓어졌다." in out[0]
    # between two words it may be content: it stays
    assert "수도 46 경제는" in out[0]


def test_a_cut_sentence_ending_in_da_is_not_list_item_da():
    text = ("시장 규모가 가장 큰 나라는 중국으로, 전 세계 온라인 소비의 40.5%가 중국에서 창출되고 있\n"
            "다. 한국은 미국, 일본, 영국에 이어 전 세계 5위의 시장규모를 보유하고 있다.\n"
            "가. 첫째 항목은 신청서를 작성하여 학과 사무실에 제출하여야 하며 제출 기한은 개강 후\n"
            "나. 둘째 항목은 지도교수의 확인을 받아 교학팀에 제출하여야 하며 제출 기한은 개강 후\n"
            "다. 셋째 항목이다.")
    out = reflow(text).split("\n")
    # "다." after no "나." item ends the cut sentence; after "가." and "나." it is the third item
    assert out[0].endswith("창출되고 있다. 한국은 미국, 일본, 영국에 이어 전 세계 5위의 시장규모를 보유하고 있다.")
    assert [line[:2] for line in out[1:]] == ["가.", "나.", "다."]


def test_a_date_split_by_the_page_edge_is_one_date():
    text = ("원고는 2021. 7. 27. 보정서와 의견서를 제출하였으나, 특허청 심사관은 2021. 11.\n"
            "26. 해당 보정서와 의견서에 의한 재심사 결과 등록거절결정을 하였다.\n2024.\n1. 신청서 제출")
    out = reflow(text).split("\n")
    assert out[0].endswith("심사관은 2021. 11. 26. 해당 보정서와 의견서에 의한 재심사 결과 등록거절결정을 하였다.")
    assert out[1:] == ["2024.", "1. 신청서 제출"]  # a year alone is a heading, and "1." an item


def test_a_number_line_between_sentences_stays():
    text = "첫 번째 문단은 여기서 끝나는 완결된 문장으로 길게 이어지면서 마지막에 마침표로 끝납니다.\n12\n다음 문단입니다."
    assert reflow(text).split("\n")[1] == "12"


def test_english_hyphenation_and_sentence_ends():
    text = ("The insurer pays the benefit when the insured person suffers an accidental in-\n"
            "jury during the period of cover and the claim is made within thirty days of it.\n"
            "Article 5 (Exclusions)\n")
    out = reflow(text).split("\n")
    assert "accidental injury during" in out[0]
    assert out[1] == "Article 5 (Exclusions)"


def test_reflow_keeps_written_text_unchanged():
    text = "# 휴학 안내\n\n- 신청 기간: 3월 2일 ~ 3월 13일\n- 신청 방법: 포털에서 신청\n\n문의는 학사지원팀으로 해 주세요.\n"
    assert reflow(text) == text


def test_page_numbers_and_running_lines_are_dropped():
    assert strip_page_numbers("- 12 -\n본문 첫 줄입니다.\n09") == "본문 첫 줄입니다."
    footer = "본 문서는 열람용으로 출력되었습니다"
    docs = [Document(f"d{i}", "판결문", f"{i}쪽 본문의 내용입니다.\n{footer}") for i in range(4)]
    docs.append(Document("other", "다른 문서", f"다른 본문입니다.\n{footer}"))
    assert drop_running_lines(docs) == 4
    assert all(footer not in d.text for d in docs[:4])
    assert footer in docs[4].text  # one page of another source is not a running line


def test_jsonl_pages_are_reflowed_and_cited_by_page(tmp_path):
    body = ("시중은행으로 전환하려는 지방은행은 최저자본금 요건을 충족하여야 하며, 시중은행의 최저자본금은\\n"
            "1,000억원 이상으로 규정되어 있어 전환 시 추가 증자가 필요할 수 있습니다.\\n- 4 -")
    (tmp_path / "pages.jsonl").write_text(
        f'{{"_id": "g-p4", "title": "전환 가이드", "text": "{body}", "page": 4}}\n', encoding="utf-8")
    docs, failures = load_paths([tmp_path])
    assert not failures
    assert docs[0].text == ("시중은행으로 전환하려는 지방은행은 최저자본금 요건을 충족하여야 하며, 시중은행의 "
                            "최저자본금은 1,000억원 이상으로 규정되어 있어 전환 시 추가 증자가 필요할 수 있습니다.")
    chunks = chunk_document(docs[0])
    assert chunks[0].location == "전환 가이드 p.4"
    assert chunks[0].metadata["page"] == 4


# a 개조식 page: the ○ bullet read by OCR as "0", and items whose bullet was lost that open with a topic label
OUTLINE = (
    "□ 지역 투자 확대 계획과 관련된 세부 추진 과제 및 재원 조달 방안의 주요 내용\n"
    "* 출연금 500억 원 출자 → 민간 자금과 함께 약 1조 원 규모의 지역 투자 사업을 추진\n"
    "0 (기부제 개편) 연간 기부 한도를 300만 원에서 1,000만 원으로 높이는 방안을 추진하고\n"
    "기부 방식을 다양화하는 법령 개정안을 마련함\n"
    "(교부금 기준 개선) 지역 여건과 인구 변화를 반영하여 교부금 배분 기준을 새로 마련하고\n"
    "(세부지표) 등 관련 지표를 함께 정비하여 지역 간 재정 격차를 줄이는 방안을 검토\n"
)


def test_outline_items_are_not_joined_to_the_line_before():
    out = reflow(OUTLINE).split("\n")
    assert out[1].endswith("투자 사업을 추진")  # the OCR'd bullet "0 (" opens a new item
    assert out[2].startswith("0 (기부제 개편)") and out[2].endswith("법령 개정안을 마련함")
    # a bracketed topic label opens an item; a bracket followed by a bound word (등) continues the sentence
    assert out[3].startswith("(교부금 기준 개선)") and "기준을 새로 마련하고 (세부지표) 등 관련" in out[3]
    assert len([line for line in out if line]) == 4
