"""Filter classes found by unseen sets 18-33 (typical university, insurance and public-agency traffic): extensions
listed or ranged after one word, a line's second number, chapters and numbered parts, a 목 of the cited paragraph's
item, rooms by number, floors with their office and English floors, "ext." inside a sentence, clinics and hospitals,
and rewrites that keep true text."""

from __future__ import annotations

from tests.answer.filter_support import removed_items

from geunkeo.answer.rewrite import sentence_spans
from geunkeo.corpus.base import Chunk
from geunkeo.text.entities import extract_citations, extract_contacts

TERMS = Chunk(
    chunk_id="sd#4", doc_id="sd", title="새별손해보험 실손의료비 약관", location="제2장 보상하지 않는 사항 > 제4조",
    lang="ko", article="제4조",
    text="제4조(보상하지 않는 사항) ① 회사는 다음 각 호의 의료비는 보상하지 않습니다.\n"
         "1. 고의로 자신을 해친 경우\n2. 임신과 출산으로 입원한 경우\n"
         "② 회사는 다음 각 호의 비용은 보상하지 않습니다.\n1. 한방 비급여 의료비\n2. 다음 각 목의 비용\n"
         "가. 미용 목적의 성형수술 비용\n나. 시력교정술 비용\n3. 해외 의료비\n"
         "문의: 보상센터 051-700-3300 (내선 211~215), 장학지원 031-777-5513, 5514, 학사팀 내선 4515, 4516\n"
         "방문 접수: 본사 3층 302호 보상창구")
RULES = Chunk(
    chunk_id="hr#3", doc_id="hr", title="Haldon Research Degree Regulations", location="Part 3 Submission", lang="en",
    article="Part 3",
    text="Part 3 Submission\nRegulation 3.1 Submit the thesis with Form RD-7.\nPart 5 Extensions\n"
         "Regulation 5.1 Apply for an extension before the deadline.\nContacts: Graduate Office, Room 2.14, "
         "Tel. +44 1632 960 418; the Doctoral Centre is on the ground floor.")


def test_extensions_and_a_lines_second_number_are_supported_by_their_run():
    text, removed = removed_items("보상 접수는 내선 213, 장학 문의는 031-777-5514, 수업 문의는 내선 4516입니다.", [TERMS], "ko")
    assert removed == [] and "내선 213" in text and "031-777-5514" in text and "내선 4516" in text
    assert removed_items("보상 접수는 내선 216으로 하세요.", [TERMS], "ko")[1] == ["내선 216"]
    assert removed_items("장학 문의는 031-777-5515로 하세요.", [TERMS], "ko")[1] == ["031-777-5515"]


def test_an_extension_after_ext_is_read_in_its_own_sentence():
    # "ext." used to end the sentence: "3356." was left as a sentence of its own and the number was never checked
    answer = "Ask the Graduate Office. It handles claims on ext. 3356. Forms go to Room 2.14."
    assert len(sentence_spans(answer)) == 3
    text, removed = removed_items(answer, [RULES], "en")
    assert removed == ["ext. 3356"] and "3356" not in text and "Room 2.14" in text


def test_chapters_numbered_parts_and_hyphenated_forms_are_supported_only_where_a_context_names_them():
    assert [(e.text, e.article) for e in extract_citations("제5장, Part 4, Form RD-12")] == [
        ("제5장", "M장:5"), ("Part 4", "Mpart:4"), ("Form RD-12", "Mform:RD-12")]
    text, removed = removed_items("세부 사항은 제2장에 있고 절차는 제5장에서 정합니다.", [TERMS], "ko")  # 제2장: the location
    assert removed == ["제5장"] and "제2장" in text
    text, removed = removed_items("Part 3 covers submission and Part 4 covers the viva. Complete Form RD-12, signed by "
                                  "your supervisor, or Form RD-7.", [RULES], "en")
    assert removed == ["Part 4", "Form RD-12"]
    assert "Part 3 covers" in text and "complete the relevant form, signed by your supervisor" in text.casefold()


def test_a_mok_is_looked_up_in_the_item_of_the_cited_paragraph():
    # ①'s item 2 lists no 목: "제4조 제2항 제2호 라목" must be read in ②'s item 2, which lists 가 and 나 only
    text, removed = removed_items("시력교정술은 제4조 제2항 제2호 나목, 건강검진은 제4조 제2항 제2호 라목에 따라 보상하지 않습니다.",
                                  [TERMS], "ko")
    assert removed == ["제4조 제2항 제2호 라목"] and "제4조 제2항 제2호 나목" in text


def test_a_name_does_not_begin_before_a_word_no_name_holds():
    # "치료를 받으신 경우 약관 제3조": the 약관 under discussion, not a document called "받으신 경우 약관"
    assert [e.regulation for e in extract_citations("입원 치료를 받으신 경우 약관 제4조 제1항에 따라")] == ["약관"]
    assert removed_items("입원 치료를 받으신 경우 약관 제4조 제1항에 따라 보상하지 않습니다.", [TERMS], "ko")[1] == []


def test_rooms_by_number_and_english_floors():
    found = [e.text for e in extract_contacts("같은 층 702호 접수창구, 302호실에서, 임대주택 1,200호, 제702호 서식, the 4th floor")]
    assert found == ["702호", "302호실", "4th floor"]
    text, removed = removed_items("방문하실 경우 같은 층 702호 보상창구를 이용하세요. 본사 3층 302호도 됩니다.", [TERMS], "ko")
    assert removed == ["702호"] and "302호" in text
    text, removed = removed_items("The Graduate Office runs drop-in sessions in Room 2.16 every Wednesday. Visitors can "
                                  "use the walk-in centre on the 4th floor of Haldon House.", [RULES], "en")
    # the building no context names goes with its floor, and is recorded as a name (answer/name_check.py)
    assert removed == ["Room 2.16", "4th floor", "Haldon House"]
    assert "drop-in sessions every Wednesday." in text and "Visitors can use the walk-in centre." in text
    assert removed_items("The Doctoral Centre is on the ground floor.", [RULES], "en")[1] == []


def test_an_invented_email_opening_a_sentence_goes_with_its_particle_when_a_real_office_carries_it():
    text, removed = removed_items("서류는 이메일로도 보낼 수 있습니다. claim@saebyeol.co.kr로 청구서를 첨부해 보내 주시면 보상센터에서 "
                                  "접수합니다.", [TERMS], "ko")
    assert removed == ["claim@saebyeol.co.kr"]
    assert "청구서를 첨부해 보내 주시면 보상센터에서 접수합니다." in text


# -- sets 20 and 21 ---------------------------------------------------------------------------------------------

NOTICE = Chunk(
    chunk_id="hs#1", doc_id="hs", title="해솔공단 보험료 조정 안내", location="문의", lang="ko",
    text="문의: 자격부과부 내선 3471~3, 생활관 행정실(국제관 1층 101호) 031-455-5800~2\n"
         "강동 출장소: 서울특별시 강동구 천호대로 1095, 2층 민원실\n"
         "제출 확인서 발급: 2층 학술정보서비스팀\nInternational office: +82-31-455-5700 / 5701")
HOME = Chunk(
    chunk_id="hw#2", doc_id="hw", title="Harlow Home Insurance Policy", location="Contacts", lang="en",
    text="Policy changes: Harlow Customer Service, 0330 024 7300, 2 Abbey Road, Reading RG1 3BD.")


def test_an_extension_listed_after_another_is_an_extension_too():
    assert [(e.text, e.norm) for e in extract_contacts("자격부과부 내선 3473 또는 3474로")] == [
        ("내선 3473", "ext3473"), ("3474", "ext3474")]
    assert [e.text for e in extract_contacts("내선 1234, 3일 이내")] == ["내선 1234"]
    text, removed = removed_items("접수 확인은 자격부과부 내선 3473 또는 3474로 하실 수 있습니다.", [NOTICE], "ko")
    assert removed == ["3474"] and "내선 3473" in text


def test_a_second_number_after_an_international_one():
    assert removed_items("If the line is busy, call +82-31-455-5701.", [NOTICE], "en")[1] == []
    assert removed_items("If the line is busy, call +82-31-455-5702.", [NOTICE], "en")[1] == ["+82-31-455-5702"]


def test_a_floor_with_its_office_and_an_english_floor_number():
    found = [(e.text, e.norm) for e in extract_contacts("같은 건물 1층 민원실에, 중앙도서관 2층 학술정보서비스팀에서, "
                                                        "3층 이상, Floor 2.")]
    assert found == [("1층 민원실", "room1층민원실"), ("중앙도서관 2층 학술정보서비스팀", "room중앙도서관2층학술정보서비스팀"),
                     ("Floor 2", "roomfloor2")]
    # the office's floor is in the notice, the library's is not written: supported by the office's floor
    assert removed_items("확인서는 중앙도서관 2층 학술정보서비스팀에서 발급받습니다.", [NOTICE], "ko")[1] == []
    text, removed = removed_items("방문 접수 창구는 같은 건물 1층 민원실에 마련되어 있습니다. 출장소는 2층 민원실입니다.",
                                  [NOTICE], "ko")
    assert removed == ["1층"] and "2층 민원실" in text  # the invented floor goes, the office word stays
    assert removed_items("Post it to the Claims Unit, Floor 2.", [HOME], "en")[1] == ["Claims Unit", "Floor 2"]


def test_clinics_hospitals_and_helpdesks_are_bodies_but_kinds_of_hospital_are_not():
    from geunkeo.text.entities import extract_departments

    found = [e.text for e in extract_departments(
        "서하마음건강클리닉으로 연결, 종합병원이나 요양병원, 서하대학교병원에서, Seoha University Hospital, the Maintenance "
        "Helpdesk, the Global Mail Room")]
    assert found == ["서하마음건강클리닉", "서하대학교병원", "Seoha University Hospital", "Maintenance Helpdesk",
                     "Global Mail Room"]


def test_rewrites_keep_a_real_number_before_an_invented_extension_and_a_generic_office_before_an_invented_number():
    text, removed = removed_items("Write to Harlow Customer Service at 2 Abbey Road, Reading RG1 3BD or call 0330 024 "
                                  "7300 ext. 214.", [HOME], "en")
    assert removed == ["ext. 214"] and "or call 0330 024 7300." in text
    text, removed = removed_items("환불 문의는 생활관 행정실 031-455-5803으로 연락하세요.", [NOTICE], "ko")
    assert removed == ["031-455-5803"] and "환불 문의는 생활관 행정실로 연락하세요." in text


# -- sets 22 and 23 ---------------------------------------------------------------------------------------------

KO_NOTICE = Chunk(
    chunk_id="sb#1", doc_id="sb", title="[학사공지] 2026학년도 1학기 복학 안내", location="유의사항", lang="ko",
    text="■ 유의사항: 기간 내 복학하지 않으면 「별빛대학교 학칙」 제34조에 따라 제적될 수 있습니다.\n"
         "- 수강신청 일반: 교무처 학사관리팀 ☎ 041.660.2231\n- 시스템 장애: 정보전산원 헬프데스크 ☎ 041) 660-2900, 내선 2905")
KO_RULE = Chunk(chunk_id="sb-rule#16", doc_id="sb-rule", title="별빛대학교 학칙", location="제16조", lang="ko",
                article="제16조", text="제16조(수강신청) ① 학생은 매 학기 수강신청을 하여야 한다.\n② 신청 학점은 18학점 이내로 한다.")
MOTOR = Chunk(
    chunk_id="fm#3", doc_id="fm", title="Fenwick Car Insurance – Combined Product Disclosure Statement", lang="en",
    location="General Exclusions and General Conditions; Endorsements", article="General Exclusions 1–2; General Conditions 1–2",
    text="General Exclusions\nWe will not pay for:\n1. racing;\n2. wear and tear.\nGeneral Conditions\n"
         "1. You must tell us about an accident within 7 days.\n2. You must keep your car roadworthy.\n"
         "Endorsements (apply only if shown in your schedule)\n01 Named driver: only named drivers are covered.\n"
         "02 Tracking device: theft cover needs the tracker.\nContact: Room 108, Grant Hall; Level 2, Building C3; "
         "Harbour Court, Bristol BS1 4QA.")


def test_a_notice_number_written_after_a_bracket_and_pairs_of_topic_and_number():
    text, removed = removed_items("시스템 오류는 정보전산원 헬프데스크(041-660-2900, 내선 2905)로 연락하세요.", [KO_NOTICE], "ko")
    assert removed == [] and "041-660-2900" in text
    text, removed = removed_items("분할납부 관련 전화 문의는 041-660-2150, 수강신청 문의는 041.660.2231로 하세요.", [KO_NOTICE], "ko")
    assert removed == ["041-660-2150"] and "수강신청 문의는 041.660.2231로 하세요." in text


def test_a_bare_article_is_the_one_the_notice_cites_and_an_english_name_of_a_korean_regulation_is_read_by_kind():
    assert removed_items("기간 내 복학하지 않으면 제34조에 따라 제적될 수 있습니다.", [KO_NOTICE], "ko")[1] == []
    assert removed_items("기간 내 복학하지 않으면 제35조에 따라 제적될 수 있습니다.", [KO_NOTICE], "ko")[1] == ["제35조"]
    text, removed = removed_items("Under Article 16(2) of the Byeolbit University Regulations you can take 18 credits. "
                                 "Ask the 학사관리팀 (Academic Affairs Team).", [KO_RULE, KO_NOTICE], "en")
    assert removed == [] and "(Academic Affairs Team)" in text
    assert removed_items("Article 16(4) of the Byeolbit University Regulations sets the limit.", [KO_RULE], "en")[1] == [
        "Article 16(4) of the Byeolbit University Regulations"]


def test_two_lists_in_one_chunk_endorsement_lines_acronyms_and_articles_of_a_section():
    assert removed_items("Report it within 7 days (General Condition 1); racing is excluded (General Exclusion 1).",
                         [MOTOR], "en")[1] == []
    assert removed_items("Report it under General Condition 3.", [MOTOR], "en")[1] == ["General Condition 3"]
    assert removed_items("If your schedule shows Endorsement 02, the tracker must work.", [MOTOR], "en")[1] == []
    assert removed_items("If your schedule shows Endorsement 07, the tracker must work.", [MOTOR], "en")[1] == [
        "Endorsement 07"]
    assert removed_items("Racing is excluded under General Exclusion 1 of the Fenwick PDS.", [MOTOR], "en")[1] == []


def test_english_buildings_postcodes_and_a_korean_room_number_of_an_english_room():
    found = [(e.text, e.norm) for e in extract_contacts("in Building C1, at Exchange Tower, London E14 9SR, Grant Hall 112호의")]
    assert found == [("Building C1", "roombuildingc1"), ("Exchange Tower, London E14 9SR", "roome149sr"),
                     ("112호", "room112호")]
    text, removed = removed_items("Printed copies are in Building C1; the office is on Level 2, Building C3.", [MOTOR], "en")
    assert removed == ["Building C1"] and "Building C3" in text
    assert removed_items("Write to Harbour Court, Bristol BS1 4QA, or Exchange Tower, London E14 9SR.", [MOTOR],
                         "en")[1] == ["Exchange Tower, London E14 9SR"]
    assert removed_items("상담은 Grant Hall 108호에서, 지원은 Grant Hall 112호에서 받을 수 있습니다.", [MOTOR], "ko")[1] == ["112호"]


def test_an_invented_channel_among_real_ones_goes_alone():
    text, removed = removed_items("Submit your appeal in writing to the Dean, Room 108, Grant Hall, or by email to "
                                  "appeals@fenwick.example.", [MOTOR], "en")
    assert removed == ["appeals@fenwick.example"] and "Submit your appeal in writing to the Dean, Room 108, Grant Hall." in text
    text, removed = removed_items("You can email your claim to claims@fenwick.example or hand it in at Room 108.", [MOTOR], "en")
    assert removed == ["claims@fenwick.example"] and "You can hand it in at Room 108." in text
    # a number a citation word names ends its sentence: the next sentence is filtered on its own
    text, removed = removed_items("A £55 charge applies under General Condition 9. To cancel, call us on 0800 046 7700.",
                                  [MOTOR, "Cancellations carry a £55 charge."], "en")
    assert removed == ["General Condition 9", "0800 046 7700"] and "the responsible office." not in text


# -- sets 24 and 25 ---------------------------------------------------------------------------------------------

RIDERS = Chunk(
    chunk_id="ys#r", doc_id="ys", title="윤별손해보험 운전자보험 특별약관", location="운전자 비용 특별약관", lang="ko",
    text="교통사고처리지원금 특별약관\n제1조(보상하는 손해)\n① 회사는 형사합의금을 지급합니다.\n"
         "② 다음 중 어느 하나에 해당하는 경우에는 지급하지 않습니다.\n1. 음주운전 중 사고\n2. 사고 후 도주한 경우\n"
         "벌금 특별약관\n제1조(보상하는 손해)\n① 회사는 벌금을 2,000만원 한도로 보상합니다.\n"
         "② 어린이보호구역 사고는 3,000만원 한도로 보상합니다.\n③ 제1항의 벌금은 확정판결에 따릅니다.\n"
         "문의: 보상2팀, 실손보상팀 02-3701-5500")
FIRE = Chunk("df#3", "df", "다별화재 주택화재보험 보통약관",
             "제3조(보상하는 손해) ① 회사는 다음의 손해를 보상합니다.\n1. 직접손해\n2. 소방손해\n3. 피난손해\n"
             "② 회사는 잔존물 제거비용을 추가로 지급합니다.", "제2관 보험금의 지급 > 제3조", article="제3조")
ORDINANCE = Chunk("hp#7", "hp", "한별구 공영주차장 설치 및 관리 조례",
                  "제7조(주차요금의 감면) ① 구청장은 다음 각 호의 자동차에 대하여 주차요금을 감면할 수 있다.\n"
                  "1. 장애인 자동차\n2. 국가유공자 자동차\n3. 다음 각 목의 자동차\n가. 경형자동차\n나. 저공해자동차\n"
                  "② 감면을 받으려는 자는 증명 서류를 제시하여야 한다.", "제2장 주차요금 > 제7조", article="제7조")


def test_each_rider_of_a_chunk_numbers_its_own_articles():
    text, removed = removed_items("벌금 특별약관 제1조 제2항에 따라 3,000만원까지 보상되고, 일반 사고는 같은 조 제1항에 따라 "
                                  "2,000만원 한도입니다.", [RIDERS], "ko")
    assert removed == [] and "벌금 특별약관 제1조 제2항" in text
    text, removed = removed_items("교통사고처리지원금 특별약관 제1조①에 따라 받을 수 있지만, 같은 조 제2항 제3호에 따라 "
                                  "뺑소니는 제외됩니다.", [RIDERS], "ko")
    assert removed == ["같은 조 제2항 제3호"]  # the rider's ② lists two items


def test_names_of_a_korean_regulation_abbreviated_or_without_its_boetong():
    assert removed_items("주택화재보험 약관 제3조 제1항에 따라 소방손해(같은 항 제2호)도 보상됩니다.", [FIRE], "ko")[1] == []
    text, removed = removed_items("한별구 공영주차장 조례 제7조 제1항 제3호 가목에 따라 감면되고, 같은 조 제2항에 따라 서류를 "
                                  "제시합니다. 겹치면 제7조 제4항을 따릅니다.", [ORDINANCE], "ko")
    assert removed == ["제7조 제4항"] and "같은 조 제2항" in text


def test_numbered_units_a_direct_line_label_and_an_office_that_names_its_place():
    from geunkeo.text.entities import extract_departments

    assert [e.text for e in extract_departments("분쟁조정3국에 배정되고 보상2팀이 처리합니다.")] == ["분쟁조정3국", "보상2팀"]
    assert [e.text for e in extract_departments("대전에 계시면 대전사무소(대전광역시)로 오세요")] == ["대전사무소"]
    text, removed = removed_items("추가 문의는 실손보상팀 직통 02-3701-5520으로 하세요.", [RIDERS], "ko")
    assert removed == ["02-3701-5520"] and "추가 문의는 실손보상팀으로 하세요." in text


def test_a_second_alternative_of_several_words_after_its_particle_goes():
    text, removed = removed_items("누리집 www.hansol.example/seorim 에서 신청하시거나 seorim@hansol.example 로 메일을 보내셔도 됩니다.",
                                  [Chunk("n#1", "n", "안내", "누리집: www.hansol.example/seorim", "안내")], "ko")
    assert removed == ["seorim@hansol.example"] and "에서 신청하셔도 됩니다." in text


# -- sets 26 and 27 ---------------------------------------------------------------------------------------------

CLAIMS = Chunk("hu#7", "hu", "한울생명 건강보험 약관",
               "제7조(보험금의 청구) ① 보험수익자는 다음의 서류를 제출하여야 합니다.\n1. 청구서\n2. 사고증명서\n3. 신분증\n"
               "4. 그 밖에 필요한 서류\n② 사고증명서는 의료기관에서 발급한 것이어야 합니다.", "제7조", article="제7조")
DORM_NOTICE = Chunk("dn#1", "dn", "학생생활관 입사 안내",
                    "■ 입사 장소: 학생생활관 A동 1층 행정실(102호)\n■ 택배: B동 1층 택배실\n■ 경비실 내선 1888\n"
                    "Records: Room G.14, Hollin Building. Regulations Part 4.", "입사 안내")


def test_a_bare_part_of_the_article_a_list_is_under():
    answer = "### 청구 서류 (**제7조 제1항**)\n1. 청구서\n2. 사고증명서\n5. 가족관계증명서 (**제1항 제5호**)"
    text, removed = removed_items(answer, [CLAIMS], "ko")
    assert removed == ["제1항 제5호"] and "제7조 제1항" in text
    assert removed_items("### 청구 서류 (**제7조 제1항**)\n1. 청구서\n3. 신분증 (**제1항 제3호**)", [CLAIMS], "ko")[1] == []


def test_a_building_floor_and_room_a_basement_an_office_by_its_extension_and_lettered_rooms():
    assert removed_items("장소: 학생생활관 A동 1층 102호 행정실", [DORM_NOTICE], "ko")[1] == []  # "A동 1층 행정실(102호)"
    assert removed_items("택배는 B동 지하 1층에서 받습니다.", [DORM_NOTICE], "ko")[1] == ["B동 지하 1층"]
    assert removed_items("분실물은 생활관 사감실 내선 1890으로 문의하세요.", [DORM_NOTICE], "ko")[1] == ["사감실", "내선 1890"]
    text, removed = removed_items("Collect it from Room G.14, not Room G.01. Penalties are in Part 4.", [DORM_NOTICE], "en")
    assert removed == ["Room G.01"] and "Part 4." in text
    assert removed_items("Declare it to the Medical Screening Line first.", [DORM_NOTICE], "en")[1] == [
        "Medical Screening Line"]


# -- sets 28 and 29 ---------------------------------------------------------------------------------------------

HAKCHIK = Chunk("hn#39", "hn", "한별누리대학교 학칙",
                "제39조(조기졸업) ① 6학기 이상 이수한 학생은 조기졸업을 신청할 수 있다.\n② 신청은 학사지원팀에 한다.\n"
                "③ 조기졸업자는 졸업논문을 면제한다.\n문의: 생활관 행정실 063-850-7710, 장학복지팀 사무실(학생회관 2층 204호)\n"
                "신청서는 붙임 1과 같다. 부산보상지점: 부산광역시 부산진구 중앙대로 672, 한결부산타워 11층 (우 47230)",
                "제39조", article="제39조")
GUIDE = Chunk("wm#2", "wm", "Westmere Exchange Guide", "2.4 Insurance. See Schedule B for the minimum cover. Contact "
              "Bluewater Emergency Assistance before admission. International Student Services (ISS) Office, Level 2.",
              "Section 2")


def test_articles_written_without_je_in_chat_answers():
    text, removed = removed_items("근거는 학칙 39조 2항이에요~ 참고로 조기졸업자는 39조 4항에 따라 논문이 면제돼요.", [HAKCHIK], "ko")
    assert removed == ["39조 4항"] and "학칙 39조 2항" in text
    # amounts: the one with its currency is a figure the context does not give, neither is an article
    assert removed_items("올해 예산은 50조 원이고 1조 3000억이 늘었어요.", [HAKCHIK], "ko")[1] == ["50조 원"]


def test_attachments_postcodes_and_lettered_schedules():
    text, removed = removed_items("신청서는 붙임 1에 있고, 증빙 양식은 붙임 3을 참고하세요.", [HAKCHIK], "ko")
    assert removed == ["붙임 3"] and "관련 첨부 자료" in text
    text, removed = removed_items("주소는 부산광역시 부산진구 중앙대로 672, 한결부산타워 11층이고 우편번호는 47279입니다.", [HAKCHIK], "ko")
    assert removed == ["47279"] and "한결부산타워 11층입니다." in text
    assert removed_items("The minimum cover is in Schedule B, not Schedule C.", [GUIDE], "en")[1] == ["Schedule C"]


def test_rewrites_that_keep_the_real_office_in_chat_and_small_model_answers():
    text, removed = removed_items("궁금한 건 생활관 행정실 063-850-7710으로 전화하거나 dorm@hanbyeol.example로 메일 보내면 돼요.",
                                  [HAKCHIK], "ko")
    assert removed == ["dorm@hanbyeol.example"] and "063-850-7710으로 전화하면 돼요." in text
    text, removed = removed_items("서류는 장학복지팀 사무실인 학생회관 3층 304호로 제출하세요.", [HAKCHIK], "ko")
    assert removed == ["학생회관 3층 304호"] and "서류는 장학복지팀 사무실로 제출하세요." in text
    text, removed = removed_items("You must contact Bluewater Emergency Assistance on +61 2 8555 0910 (24 hours).", [GUIDE], "en")
    # (the context gives no hours either: the aside goes too)
    assert removed == ["24 hours", "+61 2 8555 0910"] and "contact Bluewater Emergency Assistance." in text
    # "International Student Services Office" is the context's "International Student Services (ISS) Office"
    assert removed_items("Visit the International Student Services Office, Level 2.", [GUIDE], "en")[1] == []


# -- set 30 -----------------------------------------------------------------------------------------------------

KO_OFFICE = Chunk("gh#1", "gh", "가온별대학교 학사공지", "문의: 학사지원팀 02-2287-3120, 본관 2층 204호", "문의")
EN_FAQ = Chunk("gh#faq", "gh-faq", "Gaonbyeol University – FAQ for International Students",
               "Section 1. Getting Started\n1.1 Which office helps? The Office of International Affairs (국제교류처).",
               "Section 1", article="Section 1")


def test_english_renderings_glossed_by_the_real_korean_in_brackets():
    text, removed = removed_items("Contact the Academic Affairs Support Team (학사지원팀) at 02-2287-3120; the office is Room "
                                  "204 on the 2nd floor of the Main Building (본관 2층 204호).", [KO_OFFICE], "en")
    assert removed == [] and "Academic Affairs Support Team (학사지원팀)" in text
    # an English name glossed by a Korean office the contexts do not name is still invented
    assert removed_items("Contact the Student Welfare Team (학생복지팀).", [KO_OFFICE], "en")[1] == ["Student Welfare Team",
                                                                                        "학생복지팀"]
    assert removed_items("See Section 1.1 of the FAQ.", [EN_FAQ], "en")[1] == []


# -- set 31 -----------------------------------------------------------------------------------------------------

TABLE = Chunk("mr#b2", "mr", "미르손해보험 자동차보험 보통약관",
              "[별표 2] 대물배상 지급기준\n1. 수리비용: 필요 타당한 비용\n2. 대차료: 통상의 요금 (25일 한도)\n"
              "3. 휴차료: 30일 한도\n4. 시세하락손해:\n가. 1년 이하: 20%\n나. 2년 이하: 15%\n"
              "문의: 보상서비스본부 대물보상부 02-6950-4400", "별표", article="별표 2")


def test_a_mok_of_an_item_seen_whole_without_one_and_insurers_compensation_departments():
    text, removed = removed_items("교통비는 별표 2 제2호 라목에, 시세하락은 별표 2 제4호 나목에 있습니다.", [TABLE], "ko")
    assert removed == ["별표 2 제2호 라목"] and "별표 2 제4호 나목" in text
    assert removed_items("문의는 대물보상부(02-6950-4400)로 하세요.", [TABLE], "ko")[1] == []
    assert removed_items("서류는 대인보상부 팩스(02-6950-4410)로 보내세요.", [TABLE], "ko")[1] == ["대인보상부", "02-6950-4410"]
    assert "(호)" not in removed_items("학기당 500,000원이 지급됩니다(별표 4호).", [TABLE], "ko")[0]


def test_english_rooms_and_floors_by_the_korean_ones_of_the_same_number():
    dorm = Chunk("gh#d", "gh", "가온별대학교 생활관 안내", "문의: 생활관 행정실(누리관 1층 101호) 02-2287-3700", "문의")
    text, removed = removed_items("Contact the Dormitory Administration Office (생활관 행정실) in Room 101 on the 1st floor of "
                                  "Nuri Hall, 02-2287-3700.", [dorm], "en")
    assert removed == [] and "Room 101" in text
    assert removed_items("The office is in Room 102 on the 3rd floor.", [dorm], "en")[1] == ["Room 102", "3rd floor"]


# -- sets 32 and 33 ---------------------------------------------------------------------------------------------

OCR = Chunk("ms#3", "ms", "미래빛대학교 도서관 규정",
            "제9조(학위논문의 제출) ① 학위논문을 제출하\n여야 한다.\n② 전자파일은 동의서(별지 제３호서식)와 함께 제출한다.\n"
            "③ 정당한 사유가 있으면 공개를 유예할 수 있다.\n문의: 학 술 정 보 팀 ☎ 02 - 2260 - 4415, （０３１）７７０－３１５０\n"
            "The Stu-\ndent Casework Unit handles appeals. PART II Cover.", "p. 4", article="제9조")


def test_contexts_read_as_extraction_should_have_given_them():
    text, removed = removed_items("문의는 학술정보팀(02-2260-4415, 031-770-3150)으로 하세요. The Student Casework Unit handles it.",
                                  [OCR], "ko")
    assert removed == []
    # 같은 조 after a cited form is the article cited before the form: 제9조 has no ④
    text, removed = removed_items("(도서관 규정 제9조 제1항) 동의서(별지 제3호서식)와 함께 냅니다(같은 조 제2항). 같은 조 제4항에 따라 "
                                  "유예할 수 있습니다.", [OCR], "ko")
    assert removed == ["같은 조 제4항"] and "같은 조 제2항" in text
    assert removed_items("Part II covers it, Part III does not.", [OCR], "en")[1] == ["Part III"]


def test_full_width_numbers_in_an_answer_are_read_as_the_contexts_are():
    ctx = [Chunk("fw#1", "fw", "규정", "제５조(신청) ① 신청은 학사팀에 한다.\n문의: 02-123-4567", "제5조")]
    assert removed_items("（０２）１２３－４５６７로 문의하세요. 제５조에 따라 신청합니다.", ctx, "ko")[1] == []
    assert removed_items("（０２）９９９－４５６７로 문의하세요.", ctx, "ko")[1] == ["(02)999-4567"]
