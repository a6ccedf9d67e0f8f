"""Filter classes found by the twelfth unseen set: a regulation's forms (별지 서식), handbooks numbered "Policy 4.2.1",
lettered sections and Roman-numbered endorsements, coded items seen whole, call-centre numbers, postcodes, phone
ranges, addresses with town and postcode, and offices written with a space inside."""

from __future__ import annotations

from tests.answer.filter_support import removed_items

from geunkeo.corpus.base import Chunk
from geunkeo.text.entities import extract_contacts

SCHOLARSHIP = Chunk(
    chunk_id="sch#7", doc_id="sch", title="장학금 지급 규정", location="제7조", lang="ko", article="제7조",
    text="제7조(신청) ① 장학금을 받으려는 학생은 별지 제1호 서식의 신청서를 장학복지팀에 제출한다.\n"
         "② 가계곤란장학금은 별지 제2호 서식의 사유서를 첨부한다.")
NOTICE = Chunk(
    chunk_id="gu#3", doc_id="gu", title="주차 안내", location="문의", lang="ko",
    text="1. 거주자우선주차: 주차관리팀(☎ 02-2150-3471~3)\n2. 야간·휴일에는 120 다산콜재단으로 문의하십시오.\n"
         "3. 방문 접수처: 서울특별시 한내구 한내대로 45 (우편번호 06721)")
HANDBOOK = Chunk(
    chunk_id="hb#4", doc_id="hb", title="Employee Handbook", location="Part 4 – Leave", lang="en",
    article="Policy 4.2.1, Policy 4.2.2",
    text="Policy 4.2.1 Annual Leave Entitlement\n(a) Full-time staff get 25 days.\n(b) Part-time staff pro rata.\n"
         "Policy 4.2.2 Booking and Carry-over\n(a) Book two weeks ahead.\n(b) Up to five days carry over.\n"
         "(c) Exceptions to paragraph (b) need the Head of People Services.")
HEALTH = Chunk(
    chunk_id="hp#c", doc_id="hp", title="Health Policy", location="Section C – Benefits; Endorsements", lang="en",
    article="C1, C2; Endorsements I–II",
    text="Section C – Benefits\nC1 In-patient treatment. We pay hospital accommodation.\nC2 Day-patient treatment. "
         "We pay same-day treatment.\nEndorsements\nEndorsement I – Excess. An excess of AUD 500 applies to C1.\n"
         "Endorsement II – Pregnancy exclusion.\nCall our Member Services Centre on 1300 762 114. Claims by post to "
         "GPO Box 4410, Sydney NSW 2001 or 14 Canal Street, Manchester M1 3HE.")


def test_a_form_the_regulation_does_not_attach_is_invented():
    text, removed = removed_items("신청서는 별지 제1호 서식, 재산 확인서는 별지 제5호 서식으로 냅니다.", [SCHOLARSHIP], "ko")
    assert removed == ["별지 제5호 서식"] and "별지 제1호 서식" in text and "관련 서식" in text
    assert removed_items("사유서는 별지 제2호서식입니다.", [SCHOLARSHIP], "ko")[1] == []


def test_an_office_written_with_a_space_inside_is_the_contexts_office():
    text, removed = removed_items("신청서는 소속 학과를 거쳐 장학 복지팀에 냅니다.", [SCHOLARSHIP], "ko")
    assert removed == [] and "장학 복지팀" in text
    assert removed_items("신청서는 장학 지원팀에 냅니다.", [SCHOLARSHIP], "ko")[1] == ["지원팀"]


def test_call_centre_numbers_postcodes_and_phone_ranges():
    assert [(e.text, e.norm) for e in extract_contacts("경찰 민원콜센터 182로 신고, 우편번호 06729")] == [
        ("182", "short182"), ("06729", "zip06729")]
    text, removed = removed_items("야간에는 120 다산콜재단에 문의하세요. 서류는 우편번호 06721로 보내세요.", [NOTICE], "ko")
    assert removed == []
    text, removed = removed_items("주차관리팀(02-2150-3472)에 신청하고, 우편번호 06729로 보내세요.", [NOTICE], "ko")
    assert removed == ["06729"] and "02-2150-3472" in text  # 3471~3 lists 3472
    assert removed_items("주차관리팀(02-2150-3475)에 신청하세요.", [NOTICE], "ko")[1] == ["02-2150-3475"]


def test_handbook_policies_are_sections_with_points():
    answer = "Carry-over is in Policy 4.2.2(b); buying leave is in Policy 4.2.2(d), unpaid leave in Policy 9.4."
    text, removed = removed_items(answer, [HANDBOOK], "en")
    assert sorted(removed) == ["Policy 4.2.2(d)", "Policy 9.4"] and "Policy 4.2.2(b)" in text
    assert removed_items("Part-timers are covered by Policy 4.2.1(b).", [HANDBOOK], "en")[1] == []


def test_lettered_sections_roman_endorsements_and_points_of_a_unit_seen_whole():
    answer = ("Benefits are in Section C; waiting periods in Section E – Waiting Periods. Endorsement II excludes "
              "pregnancy and Endorsement IV adds a second one. Private rooms are limited under C1(b).")
    text, removed = removed_items(answer, [HEALTH], "en")
    # the invented section's title is a name no context gives either (answer/name_check.py): recorded too
    assert sorted(removed) == ["C1(b)", "Endorsement IV", "Section E", "Waiting Periods"]
    assert "Section C" in text and "Endorsement II" in text and "Waiting Periods" not in text


def test_an_invented_line_after_a_real_number_goes_alone():
    text, removed = removed_items("For help, call the Member Services Centre on 1300 762 114 or the after-hours nurse "
                                  "line on 1800 022 765.", [HEALTH], "en")
    assert removed == ["1800 022 765"] and "call the Member Services Centre on 1300 762 114." in text


def test_addresses_keep_their_town_and_postcode_and_abbreviated_streets_match():
    found = [(e.text, e.norm) for e in extract_contacts("Write to 14 Canal St, Manchester M1 3HE or GPO Box 4410, "
                                                        "Sydney NSW 2001.")]
    assert found == [("14 Canal St, Manchester M1 3HE", "14canalstreet"), ("GPO Box 4410, Sydney NSW 2001", "box4410")]
    text, removed = removed_items("Write to 14 Canal St, Manchester M1 3HE, or drop it at 2 Wellington Place, Leeds LS1 "
                                  "4AP.", [HEALTH], "en")
    assert removed == ["2 Wellington Place, Leeds LS1 4AP"] and "14 Canal St" in text and "LS1" not in text
