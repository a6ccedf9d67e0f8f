"""Filter classes found by the eleventh unseen set: sections numbered "4. Title" with no section word, a policy's
lettered Parts, Korea's short public numbers, street addresses, and Colleges and Schools as offices."""

from __future__ import annotations

from tests.answer.filter_support import removed_items

from geunkeo.corpus.base import Chunk
from geunkeo.text.entities import extract_contacts

COUNCIL = Chunk(
    chunk_id="cp#4", doc_id="cp", title="Complaints Policy", location="4 Complaint stages", lang="en",
    article="4 Complaint stages",
    text="4. Complaint stages\n(1) Stage 1 is answered within 10 working days.\n(2) Stage 2 review. The review "
         "shall be—\n(a) co-ordinated by the Feedback Unit;\n(b) carried out by a Head of Service.\n(3) The Stage 2 "
         "response is final.\n6. The Ombudsman\nYou may write to the Ombudsman, PO Box 7711, Coventry CV4 0EH.")
MOTOR = Chunk(
    chunk_id="pds#c", doc_id="pds", title="Car Insurance PDS", location="Part C — What we do not cover", lang="en",
    article="Clauses 10", text="PART C — WHAT WE DO NOT COVER\n10. General exclusions\n10.1 We will not pay where the "
                               "car is unroadworthy.\n10.2 Clause 10.1 does not apply to a stolen car.")
TRAVEL = Chunk(
    chunk_id="tr#10", doc_id="tr", title="누리 해외여행보험 약관", location="제10조", lang="ko", article="제10조",
    text="제10조(분쟁의 조정) ① 분쟁이 있으면 금융감독원(국번없이 1332)에 조정을 신청할 수 있다.\n"
         "② 방문 접수: 서울특별시 성북구 안암로 145 서연관 2층 보상팀")


def test_sections_numbered_without_a_word_are_cited_with_one():
    answer = ("The Stage 2 reply is final (section 4(3)); a Head of Service reviews it (clause 4(2)(b)). "
              "You may then write to the Ombudsman (section 6).")
    text, removed = removed_items(answer, [COUNCIL], "en")
    assert removed == [] and "(section 4(3))" in text and "(section 6)" in text
    text, removed = removed_items("A hearing may be held under clause 4(2)(d) or section 7.", [COUNCIL], "en")
    assert sorted(removed) == ["clause 4(2)(d)", "section 7"]


def test_a_numbered_list_sentence_is_not_a_section_heading():
    items = Chunk(chunk_id="l#1", doc_id="l", title="Guide", location="Guide", lang="en",
                  text="Steps:\n1. Fill in the form and sign it.\n2. Send it to the office.")
    assert removed_items("Follow the guide (section 2).", [items], "en")[1] == ["section 2"]


def test_a_lettered_part_the_policy_does_not_have_is_invented_and_takes_no_real_part_with_it():
    text, removed = removed_items("Racing is excluded in Part E. Unroadworthy cars are excluded (Part C, clause 10.1).",
                                  [MOTOR], "en")
    assert removed == ["Part E"] and "(Part C, clause 10.1)" in text
    text, removed = removed_items("Under Part C, clause 10.4 a hire car is excluded.", [MOTOR], "en")
    assert removed == ["clause 10.4"] and text.startswith("Under the relevant provision a hire car")


def test_short_public_numbers_are_phones_only_where_the_text_says_so():
    found = [(e.text, e.norm) for e in extract_contacts("금융감독원(국번없이 1332), 소비자상담센터(1372), 1345번으로 전화")]
    assert found == [("1332", "short1332"), ("1372", "short1372"), ("1345", "short1345")]
    assert extract_contacts("설립(1998) 이후 1350번지에서 1300번째") == []
    text, removed = removed_items("금융감독원(국번없이 1332)이나 한국소비자원(1372)에 문의하세요.", [TRAVEL], "ko")
    assert "1372" in removed and "1332" not in removed and "1372" not in text


def test_street_addresses_are_checked_by_road_and_number():
    found = [(e.text, e.norm) for e in extract_contacts("서울특별시 성북구 안암로 150 학생회관 1층 학사팀에 제출")]
    # the building and floor (with the office on it) are checked on their own: a real street with an invented floor
    # loses only the floor
    assert found == [("서울특별시 성북구 안암로 150", "안암로150"), ("학생회관 1층 학사팀", "room학생회관1층학사팀")]
    assert extract_contacts("100만원으로 150명을 뽑는다") == []
    text, removed = removed_items("서류는 서울특별시 성북구 안암로 145 서연관 2층 보상팀에 내세요.", [TRAVEL], "ko")
    assert removed == [] and "안암로 145" in text
    text, removed = removed_items("서류는 서울특별시 성북구 안암로 150 학생회관 1층 보상팀에 내세요.", [TRAVEL], "ko")
    assert "서울특별시 성북구 안암로 150" in removed and "안암로 150" not in text
    text, removed = removed_items("Write to the Ombudsman at PO Box 7711 or PO Box 9000.", [COUNCIL], "en")
    assert removed == ["PO Box 9000"] and "PO Box 7711" in text


def test_a_college_or_school_the_contexts_do_not_name_is_an_invented_office():
    text, removed = removed_items("Send the form to the Doctoral College.", [COUNCIL], "en")
    assert removed == ["Doctoral College"] and "the responsible office" in text


NOTICE = Chunk(
    chunk_id="nt#3", doc_id="nt", title="수강신청 안내", location="문의", lang="ko",
    text="수강신청 문의: 교무처 학사관리팀 (02) 3290-1114 / haksa@seoyeon.ac.kr\n보험금 청구 서류: claim@nuri-ins.co.kr\n"
         "Claims: lodge online at harbourline.com.au/claims.")


def test_an_office_keeps_the_sentence_when_every_contact_after_it_is_invented():
    text, removed = removed_items("문의는 학사관리팀 02-3290-1120 또는 sugang@seoyeon.ac.kr로 보내주세요.", [NOTICE], "ko")
    assert sorted(removed) == ["02-3290-1120", "sugang@seoyeon.ac.kr"] and "문의는 학사관리팀으로 보내주세요." in text
    # a real number after the office stays, and carries the sentence
    text, removed = removed_items("문의는 학사관리팀 (02) 3290-1114 또는 sugang@seoyeon.ac.kr로 보내주세요.", [NOTICE], "ko")
    assert removed == ["sugang@seoyeon.ac.kr"] and "학사관리팀 (02) 3290-1114로 보내주세요." in text


def test_an_invented_alternative_after_an_honorific_or_goes_and_its_ending_moves():
    text, removed = removed_items("서류는 claim@nuri-ins.co.kr로 보내시거나 팩스 1588-7711로 보내셔도 됩니다.", [NOTICE], "ko")
    assert removed == ["1588-7711"] and "서류는 claim@nuri-ins.co.kr로 보내셔도 됩니다." in text


def test_an_invented_last_alternative_goes_with_its_verb():
    text, removed = removed_items("You can lodge a claim online at harbourline.com.au/claims or email photos of the "
                                  "damage to claims@harbourline.com.au.", [NOTICE], "en")
    assert removed == ["claims@harbourline.com.au"]
    assert text.startswith("You can lodge a claim online at harbourline.com.au/claims.")
