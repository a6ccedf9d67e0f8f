"""Filter classes found by the thirteenth unseen set: units a context supports by naming them (a 약관's 관, 부표,
tariff bands, coded forms, European acts), three-level regulations, bare articles after an outside law, "각 목",
emergency numbers, 사무소/플라자 offices, more country domains, and an office's bracketed contacts before "또는"."""

from __future__ import annotations

from tests.answer.filter_support import removed_items

from geunkeo.corpus.base import Chunk
from geunkeo.text.entities import extract_citations, extract_contacts, extract_departments

TERMS = Chunk(
    chunk_id="ins#3", doc_id="ins", title="든든암보험 약관", location="보통약관 > 제2관", lang="ko", article="제4조~제5조",
    text="제2관 보험금의 지급\n제4조(보험금을 지급하지 않는 사유) 회사는 고의로 자신을 해친 경우 지급하지 않습니다.\n"
         "제5조(보험금의 청구) ① 보험수익자는 청구서를 제출합니다.\n② 진단서는 「의료법」 제3조의 병원에서 발급합니다.\n"
         "부표 2 보험금 지급기준표")
RULES = Chunk(
    chunk_id="cr#5", doc_id="cr", title="학점인정 시행세칙", location="제5조", lang="ko", article="제5조",
    text="제5조(동일성 판단) ① 위원회가 판단한다.\n② 다음 각 목의 기준에 따른다.\n가. 명칭이 같을 것\n나. 내용이 같을 것\n"
         "문의: 교무처 학사관리팀(☎ 02-6200-3315, 본관 2층 204호)")
CODE = Chunk(
    chunk_id="nb#2", doc_id="nb", title="General Regulations", location="Part 7 > 7.3", lang="en", article="7.3.5–7.3.8",
    text="7.3.5 Handling of major cases. (1) Cases go to the Panel.\n(2) The Panel has three members.\n(3) The student "
         "receives the evidence 5 days ahead.\n7.3.8 Records. Outcomes are kept for six years.\n"
         "| Band | Penalty |\n| B1 | Zero for the component |\n| B2 | Zero for the module |\nApply on form AC1. The "
         "Package Travel Regulations and Regulation (EU) No 2015/2302 apply. Advice: nbsu.org.uk/advice")


def test_units_named_anywhere_in_a_context_are_supported_and_others_are_invented():
    assert [(e.text, e.article) for e in extract_citations("제2관과 부표 2, Band B4, form AC2")] == [
        ("제2관", "M관:2"), ("부표 2", "M부표:2"), ("Band B4", "Mband:B4"), ("form AC2", "Mform:AC2")]
    text, removed = removed_items("지급 사유는 제2관과 부표 2에 있고, 분쟁은 제7관, 기준은 부표 3을 보세요.", [TERMS], "ko")
    assert sorted(removed) == ["부표 3", "제7관"] and "제2관" in text
    text, removed = removed_items("Band B1 means zero for the component; Band B4 means expulsion. Use form AC1, not "
                                  "form AC2, under Regulation (EU) No 2015/2302 or Regulation (EC) No 261/2004.",
                                  [CODE], "en")
    assert sorted(removed) == ["Band B4", "Regulation (EC) No 261/2004", "form AC2"]


def test_a_chapter_and_an_invented_article_under_it_leave_one_phrase():
    text, removed = removed_items("분쟁 절차는 제6관 제15조를 참고하세요.", [TERMS], "ko")
    assert "관련 규정을 참고하세요" in text and "관련 규정 관련 규정" not in text


def test_a_bare_article_after_an_outside_law_is_the_contexts_own():
    text, removed = removed_items("진단서는 「의료법」 제3조의 병원에서 발급받아야 합니다(제5조 제2항).", [TERMS], "ko")
    assert removed == [] and "(제5조 제2항)" in text


def test_each_mok_is_not_a_mok_called_gak():
    text, removed = removed_items("위원회는 제5조 제2항 각 목의 기준으로 판단하며, 라목은 없습니다.", [RULES], "ko")
    assert "제5조 제2항 각 목" in text and removed == ["라목"]


def test_three_level_regulations_number_like_sections():
    text, removed = removed_items("Records are kept six years (Regulation 7.3.8); under paragraph (3) of Regulation "
                                  "7.3.5 you get the evidence early (7.3.5(2)). Appeals follow Regulation 7.3.9.",
                                  [CODE], "en")
    assert removed == ["Regulation 7.3.9"] and "(Regulation 7.3.8)" in text and "(7.3.5(2))" in text


def test_emergency_numbers_offices_and_country_domains():
    assert [e.text for e in extract_contacts("화재가 나면 119에 먼저 신고하고, 112로 전화하세요. 119명")] == ["119", "112"]
    assert [e.text for e in extract_departments("생활관 B동 관리사무소나 고객플라자를 방문하세요.")] == ["관리사무소", "고객플라자"]
    assert [e.text for e in extract_contacts("visit nbsu.org.uk/advice or kiwi.co.nz")] == ["nbsu.org.uk/advice",
                                                                                        "kiwi.co.nz"]
    assert removed_items("Advice is at nbsu.org.uk/advice.", [CODE], "en")[1] == []


def test_an_invented_contact_after_an_offices_bracketed_contacts_goes_alone():
    text, removed = removed_items("문의는 교무처 학사관리팀(☎ 02-6200-3315, 본관 2층 204호) 또는 credit@saebom.ac.kr로 하시면 "
                                  "됩니다.", [RULES], "ko")
    assert removed == ["credit@saebom.ac.kr"]
    assert "학사관리팀(☎ 02-6200-3315, 본관 2층 204호)으로 하시면 됩니다." in text


WORDING = Chunk(
    chunk_id="tw#ge", doc_id="tw", title="Overseas Travel Insurance – Policy Wording", location="General Exclusions",
    lang="en", article="8",
    text="GENERAL EXCLUSIONS\n8. We will not pay any claim arising from:\n(1) pre-existing medical conditions;\n"
         "(2) participation in the following activities:\n   (a) mountaineering requiring ropes;\n"
         "   (b) scuba diving below 30 metres;\n(3) travel to a country under a travel ban.")
GUIDE = Chunk(
    chunk_id="isg#3", doc_id="isg", title="International Student Guide 2025", location="Section 3", lang="en",
    article="Section 3", text="3. Visa and Immigration\n3.1 Alien Registration. Apply within 90 days of entry.")
CLAIMS = Chunk(
    chunk_id="ho#g", doc_id="ho", title="실손의료비보험 청구 안내", location="청구 방법", lang="ko",
    text="우편 접수: 서울특별시 중구 세종대로 9, 해온손해보험 장기보상센터 (우편번호 04513)")


def test_a_wording_numbered_without_a_word_is_cited_as_clauses_with_lower_case_paragraphs():
    text, removed = removed_items("Scuba diving below 30 metres is excluded under General Exclusions clause 8(2)(b) "
                                  "of this Policy; travel bans fall under clause 8(3).", [WORDING], "en")
    assert removed == [] and "clause 8(2)(b)" in text
    assert removed_items("Mountaineering is excluded by clause 8(1)(a).", [WORDING], "en")[1] == ["clause 8(1)(a)"]


def test_a_section_of_the_guide_is_the_guides_own():
    text, removed = removed_items("Register within 90 days (Section 3.1 of the Guide).", [GUIDE], "en")
    assert removed == [] and "(Section 3.1 of the Guide)" in text


def test_an_invented_address_before_a_real_office_goes_and_the_office_carries_the_sentence():
    text, removed = removed_items("우편으로 청구하시려면 서울특별시 중구 세종대로 69 해온손해보험 장기보상센터로 서류를 보내시면 됩니다.",
                                  [CLAIMS], "ko")
    assert removed == ["서울특별시 중구 세종대로 69"]
    assert text.startswith("우편으로 청구하시려면 해온손해보험 장기보상센터로 서류를 보내시면 됩니다.")


def test_a_rider_numbers_its_articles_again_so_its_articles_are_not_the_main_terms():
    main = Chunk(chunk_id="t#4", doc_id="t", title="든든암보험 약관", location="보통약관 > 제2관", lang="ko",
                 article="제4조", text="제4조(보험금을 지급하지 않는 사유) 회사는 고의로 자신을 해친 경우 지급하지 않습니다.")
    rider = Chunk(chunk_id="t#r", doc_id="t", title="든든암보험 약관", location="특별약관 > 암수술비 특별약관", lang="ko",
                  article="특약 제1조~제2조", text="암수술비 특별약관\n제1조(지급사유) 수술 1회당 가입금액을 지급합니다.\n"
                                               "제2조(세부규정) ① 흡인은 수술에 포함하지 않습니다.\n② 하나만 지급합니다.")
    text, removed = removed_items("암수술비 특별약관 제1조에 따라 지급되며, 같은 특약 제2조 제1항의 예외가 있고, 항암치료는 특약 "
                                  "제4조에서 보장합니다. 고의 사고는 제4조에 따라 지급하지 않습니다.", [main, rider], "ko")
    assert removed == ["특약 제4조"] and "같은 특약 제2조 제1항" in text and "고의 사고는 제4조에 따라" in text
