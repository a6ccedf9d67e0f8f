"""Filter classes found by the fifteenth unseen set (typical traffic): floors and rooms, a 목 of a 별표, numbered points
of a section, 자치회-type bodies, "exclusion 4.2(d)", and rewrites that keep a real site, street, office or town."""

from __future__ import annotations

from tests.answer.filter_support import removed_items

from geunkeo.corpus.base import Chunk
from geunkeo.text.entities import extract_citations, extract_contacts, extract_departments

ACADEMIC = Chunk(
    chunk_id="cr#45", doc_id="cr", title="청람대학교 학칙", location="제45조; 별표 3; 문의", lang="ko", article="제45조",
    text="제45조(조기졸업) ① 평점평균 4.0 이상이면 신청할 수 있다.\n② 신청은 학과를 거쳐 한다.\n"
         "[별표 3] 졸업인증 기준\n가. 외국어: TOEIC 600점\n나. 정보: 자격증 1종\n다. 봉사: 30시간\n"
         "문의: 교무처 학사지원팀, 본관 2층 204호, 교양교육센터(031-580-2611), 재무회계팀(대학본부 3층)\n"
         "등록금 반환신청서(별지 제2호 서식)는 학교 홈페이지(https://www.seohae.ac.kr)에서 내려받는다.\n"
         "우편 접수: 서울특별시 중구 세종대로 136 한결빌딩 8층")
EXCHANGE = Chunk(
    chunk_id="gx#3", doc_id="gx", title="Exchange Student Handbook", location="Section 3; Section 4", lang="en",
    article="Section 3", text="3.2 Course registration. (1) Register on the GNU Portal. (2) Add or drop in week 1. (3) "
                              "Korean-taught courses need approval.\n4.2 Exclusions. We do not pay for: (a) routine care; "
                              "(b) grooming; (c) breeding; (d) dental treatment unless caused by an accident.\n"
                              "Office hours: Room 204, International Center. Claims: Harbourline Pet Claims, PO Box 7712, Bristol "
                              "BS99 3LN.")


def test_floors_and_rooms_are_checked_where_a_building_or_room_number_names_them():
    found = [(e.text, e.norm) for e in extract_contacts("본관 3층 203호, 대학본부 2층, Room 205; 3층 이상 건물")]
    assert found == [("본관 3층 203호", "room본관3층203호"), ("대학본부 2층", "room대학본부2층"), ("Room 205", "roomroom205")]
    text, removed = removed_items("방문은 본관 2층 204호로 하시고, 서류는 대학본부 2층 학사지원팀에 내세요.", [ACADEMIC], "ko")
    # the building a context names stays, its invented floor goes (and no contact sentence follows: none went)
    assert removed == ["2층"] and "본관 2층 204호" in text and "서류는 대학본부 학사지원팀에 내세요." in text
    assert "연락처" not in text
    text, removed = removed_items("우편 접수 주소는 서울특별시 중구 세종대로 136 한결빌딩 9층입니다.", [ACADEMIC], "ko")
    assert removed == ["9층"] and text == "우편 접수 주소는 서울특별시 중구 세종대로 136 한결빌딩입니다."
    assert removed_items("The office is in Room 205.", [EXCHANGE], "en")[1] == ["Room 205"]


def test_a_mok_of_a_table_and_numbered_points_of_a_section():
    assert [(e.text, e.item) for e in extract_citations("별표 3 라목")] == [("별표 3 라목", "-라")]
    text, removed = removed_items("외국어 기준은 별표 3 가목, 대체 교과목은 별표 3 라목에 있습니다.", [ACADEMIC], "ko")
    assert removed == ["별표 3 라목"] and "별표 3 가목" in text
    text, removed = removed_items("Registration is on the portal (Section 3.2(1)); approval is under Section 3.2(4).",
                                  [EXCHANGE], "en")
    assert removed == ["Section 3.2(4)"]
    assert removed_items("Dental care is excluded (exclusion 4.2(d)).", [EXCHANGE], "en")[1] == []


def test_student_bodies_are_offices():
    assert [e.text for e in extract_departments("이의신청은 생활관자치회나 총학생회에 하세요.")] == ["생활관자치회", "총학생회"]


def test_rewrites_keep_the_real_site_office_and_town():
    text, removed = removed_items("신청서(별지 제2호 서식)는 학교 홈페이지 https://www.seohae.ac.kr/tuition/refund 에서 "
                                  "내려받을 수 있습니다.", [ACADEMIC], "ko")
    assert removed == ["https://www.seohae.ac.kr/tuition/refund"]
    assert text.startswith("신청서(별지 제2호 서식)는 학교 홈페이지에서 내려받을 수 있습니다.")
    text, removed = removed_items("문의는 교양교육센터(031-580-2610) 또는 gradcert@cheongram.ac.kr로 하시면 됩니다.",
                                  [ACADEMIC], "ko")
    assert text.startswith("문의는 교양교육센터로 하시면 됩니다.")
    text, removed = removed_items("Post the form to Harbourline Pet Claims, PO Box 7713, Bristol BS99 3LN.",
                                  [EXCHANGE], "en")
    assert removed == ["PO Box 7713"] and "Bristol BS99 3LN" in text


def test_an_and_inside_an_english_office_name_and_an_ampersand_are_one_name():
    assert [e.text for e in extract_departments("call the Lost and Stolen Pets Unit on 0345 600 2210")] == [
        "Lost and Stolen Pets Unit"]
    council = Chunk(chunk_id="c#1", doc_id="c", title="Charges", location="Help", lang="en",
                    text="Reduced charges: contact the Revenues and Benefits Service.")
    assert removed_items("Ask the Revenues & Benefits Service.", [council], "en")[1] == []


GRAD = Chunk(
    chunk_id="igu#3", doc_id="igu", title="Ilsan Global University Graduate School Handbook", location="Section 3",
    lang="en", article="Section 3",
    text="Section 3 – Registration\n3.1 Course Registration. Register for 6 to 12 credits.\n3.2 Add/Drop. First week.\n"
         "Graduate School Office – Room 402, Veritas Hall. Mailing address: 123 Hosu-ro, Ilsandong-gu, Goyang-si. "
         "Head office: Level 9, 200 Collins Street, Melbourne VIC 3000.")


def test_a_salvaged_clause_loses_the_invented_contact_inside_its_brackets():
    dorm = Chunk(chunk_id="h#c", doc_id="h", title="학사안내", location="문의", lang="ko",
                 text="병무상담실: 학생회관 1층 112호, 031-550-1600")
    text, removed = removed_items("병무상담실(학생회관 1층 112호, 031-550-1630)에서도 상담받을 수 있고, 서류는 경기도 화성시 "
                                  "한빛대학로 200으로 보내면 됩니다.", [dorm], "ko")
    assert sorted(removed) == ["031-550-1630", "경기도 화성시 한빛대학로 200"]
    assert "031-550-1630" not in text and "병무상담실(학생회관 1층 112호)에서도 상담받을 수 있습니다." in text


def test_korean_roads_in_english_levels_and_abbreviated_document_names():
    found = [(e.text, e.norm) for e in extract_contacts("mail it to 102 Hosu-ro, Ilsandong-gu; Level 21")]
    assert found == [("102 Hosu-ro, Ilsandong-gu", "102hosu-ro"), ("Level 21", "roomlevel21")]
    text, removed = removed_items("Write to 102 Hosu-ro, Ilsandong-gu, or visit Level 9.", [GRAD], "en")
    assert removed == ["102 Hosu-ro"]
    assert removed_items("Head office is on Level 21.", [GRAD], "en")[1] == ["Level 21"]
    text, removed = removed_items("According to Section 3.1 of the IGU Graduate School Handbook, register for 6 "
                                  "credits; Section 3.4 of the IGU Graduate School Handbook covers leave.", [GRAD], "en")
    assert removed == ["Section 3.4 of the IGU Graduate School Handbook"] and "Section 3.1 of the IGU" in text


def test_circled_paragraphs_after_an_article_are_checked():
    rules = Chunk(chunk_id="s#21", doc_id="s", title="솔뫼대학교 학칙", location="제21조", lang="ko", article="제21조",
                  text="제21조(편입학) ① 결원 범위에서 허가한다.\n② 일반편입학은 제3학년에 한한다.\n③ 학사편입학은 100분의 2 "
                       "이내이다.\n④ 중복 합격하면 하나의 대학에만 등록한다.\n문의: 학사지원팀 이메일(haksa@solmoe.ac.kr)")
    assert [(e.text, e.paragraph) for e in extract_citations("(제21조 ③), 제21조 ⑤항")] == [("제21조 ③", 3),
                                                                                        ("제21조 ⑤항", 5)]
    text, removed = removed_items("학사편입학은 100분의 2 이내입니다(제21조 ③). 중복 합격은 제21조 ⑤에 있습니다.", [rules], "ko")
    assert removed == ["제21조 ⑤"] and "(제21조 ③)" in text
    text, removed = removed_items("문의는 grade@solmoe.ac.kr 또는 학사지원팀 이메일(haksa@solmoe.ac.kr)로 보내시면 됩니다.",
                                  [rules], "ko")
    assert removed == ["grade@solmoe.ac.kr"] and "문의는 학사지원팀 이메일(haksa@solmoe.ac.kr)로 보내시면 됩니다." in text


def test_a_call_with_its_object_before_an_invented_number_hands_over_to_the_next_verb():
    text, removed = removed_items("You can call them on 0800 023 4657 or visit nbsu.org.uk/advice.", [GRAD, Chunk(
        chunk_id="n#1", doc_id="n", title="Advice", location="Advice", lang="en", text="Advice: nbsu.org.uk/advice")],
        "en")
    assert removed == ["0800 023 4657"] and text.startswith("You can visit nbsu.org.uk/advice.")
