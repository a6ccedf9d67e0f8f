"""An invented office with its number, given as another item of a list, goes whole; the real ones before it stay."""

from __future__ import annotations

from tests.answer.filter_support import removed_items

from geunkeo.answer.filter import HallucinationFilter
from geunkeo.corpus.base import Chunk

FILTER = HallucinationFilter()


def test_english_invented_alternative_is_removed_item_by_item():
    ctx = [Chunk("hb#a7", "hb", "Student Handbook", "Article 7 (Leave) (1) A student may take leave for up to two "
                 "semesters.\n(2) Contact the Academic Affairs Office at 02-880-1234.", "Student Handbook Article 7",
                 lang="en")]
    answer = ("Under Article 7, a student may take leave for up to two semesters; call the Academic Affairs Office at "
              "02-880-1234 or the Student Wellness Department at 02-555-0199 [1].")
    out = FILTER.apply(answer, ctx, lang="en").text
    assert "Student Wellness" not in out and "02-555-0199" not in out
    assert "Article 7" in out and "Academic Affairs Office at 02-880-1234" in out


def test_korean_invented_alternative_office_is_removed_with_its_number():
    ctx = [Chunk("t#7", "t", "상해보험 약관", "제7조(보험금의 청구) ② 청구권은 3년간 행사하지 아니하면 소멸합니다.\n문의: 보상심사팀 02-1588-0100",
                 "상해보험 약관 제7조")]
    answer = "보험금 청구는 보상심사팀(02-1588-0100) 또는 보험금지급심사부(02.3456.7890)로 문의하세요 [1]."
    out = FILTER.apply(answer, ctx, lang="ko").text
    assert "지급심사부" not in out and "3456" not in out
    assert "보상심사팀(02-1588-0100)" in out


LIFE = Chunk("lf#5", "lf", "온누리생명 암보험 특약", "제5조(보험금의 지급) ① 회사는 청구서류를 접수한 날부터 3영업일 이내에 "
             "보험금을 지급합니다.\n② 지급이 늦어지면 그 사유를 알립니다.\n문의: 고객센터 1588-2200, 팩스 0505-300-3471",
             "제5조", article="제5조")
EN_LIFE = Chunk("el#2", "el", "Onnuri Life Cancer Rider", "Article 2 (Benefit) (1) The rider pays KRW 30 million. (2) "
                "It is paid once.\nClaims: fax 0505-300-3471, phone 1588-2200. Claims are accepted until 30 June.", "Article 2", article="Article 2",
                lang="en")


def test_invented_contacts_after_a_real_one_in_a_list_go_alone():
    res = FILTER.apply("Claims can be faxed to 0505-300-3471, sent to claims@onnuri.example, or made by phone on "
                       "1588-9999.", [EN_LIFE], lang="en")
    assert res.text.startswith("Claims can be faxed to 0505-300-3471.")
    assert sorted(r.value for r in res.report.removed) == ["1588-9999", "claims@onnuri.example"]
    res = FILTER.apply("Call 1588-2200 or 1588-9999 for help.", [EN_LIFE], lang="en")
    assert res.text.startswith("Call 1588-2200 for help.")


def test_an_invented_channel_after_via_is_an_aside():
    res = FILTER.apply("Claims are accepted until 30 June via https://claims.onnuri.example, and questions go to "
                       "1588-2200.", [EN_LIFE], lang="en")
    assert res.text.startswith("Claims are accepted until 30 June, and questions go to 1588-2200.")


def test_a_clause_after_an_invented_contact_clause_stands_alone():
    res = FILTER.apply("청구서류는 팩스 0505-300-9999로 보내시면 되고, 접수 후 3영업일 이내에 보험금이 지급됩니다(제5조 제1항).",
                       [LIFE], lang="ko")
    assert res.text.startswith("접수 후 3영업일 이내에 보험금이 지급됩니다(제5조 제1항).")
    assert [r.value for r in res.report.removed] == ["0505-300-9999"]


def test_an_invented_second_channel_after_geona_goes_and_the_first_keeps_the_ending():
    terms = Chunk(chunk_id="m#7", doc_id="m", title="실손 약관", location="청구", lang="ko",
                  text="청구 서류는 팩스(0505-170-7702)로 제출할 수 있다.")
    text, removed = removed_items("청구 서류는 팩스 0505-170-7702로 보내거나, 보상서류 전용 팩스 02-6900-3399로 보내면 됩니다.",
                                  [terms], "ko")
    assert removed == ["02-6900-3399"]
    assert text.startswith("청구 서류는 팩스 0505-170-7702로 보내면 됩니다.")


def test_an_invented_site_after_ina_goes_and_the_real_one_keeps_the_clause():
    notice = Chunk(chunk_id="n#1", doc_id="n", title="환급금 안내", location="안내", lang="ko",
                   text="환급금은 공단 누리집 www.nhis.or.kr에서 조회할 수 있습니다.")
    text, removed = removed_items("환급금은 www.nhis.or.kr이나 환급금 전용 사이트 https://refund.nhis.or.kr에서 조회하실 수 있습니다.",
                                  [notice], "ko")
    assert removed == ["https://refund.nhis.or.kr"]
    assert text.startswith("환급금은 www.nhis.or.kr에서 조회하실 수 있습니다.")


def test_an_invented_sub_unit_of_a_real_office_goes_with_its_number_and_the_office_stays():
    guide = Chunk(chunk_id="g#1", doc_id="g", title="Graduate Catalog", location="Section 4.2", lang="en",
                  text="4.2 Leave. (b) International students must obtain clearance from the Office of International "
                       "Student Services.")
    answer = ("International students should contact the Office of International Student Services' Visa Compliance "
              "Unit at +1 614 555 0199 before going on leave.")
    text, removed = removed_items(answer, [guide], "en")
    assert removed == ["Visa Compliance Unit", "+1 614 555 0199"]
    assert text.startswith("International students should contact the Office of International Student Services before "
                           "going on leave.")


def test_an_invented_alternative_instruction_goes_and_the_main_one_stays():
    policy = Chunk(chunk_id="p#1", doc_id="p", title="IT Policy", location="Annex B", lang="en",
                   text="Lost devices: call the IT Service Desk. The Information Security Team will call you back within "
                        "30 minutes.")
    answer = ("The Information Security Team will call you back within 30 minutes, or you can reach its Cyber Defence "
              "Centre directly on +65 6555 2101. For more help, contact the Device Recovery Unit at +65 6555 2199.")
    text, removed = removed_items(answer, [policy], "en")
    assert removed[:2] == ["Cyber Defence Centre", "+65 6555 2101"]
    assert text.startswith("The Information Security Team will call you back within 30 minutes.")
    assert "For more help" not in text  # a main instruction to an invented unit is not kept as a stub
