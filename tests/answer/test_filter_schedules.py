"""Schedules ("Schedule 2, item 7"), statute-style sections ("s. 9.4(1)"), sub-points ("Section 3.2(b)(3)"), bare
parts ("paragraph (g)", "라목"), Australian 1800 numbers, …파트 sub-units and English bodies inside Korean text:
the failure classes of the fifth held-out set (benchmarks/data/filter_heldout5.json), on fixtures written here."""

from __future__ import annotations

from geunkeo.answer.filter import HallucinationFilter
from geunkeo.corpus.base import Chunk
from geunkeo.text.entities import article_key, extract_citations, extract_contacts, extract_departments

FILTER = HallucinationFilter()
SCHEDULE = Chunk("pw#s2", "pw", "Kestrel Travel Insurance PDS", "Schedule 2 – Benefits\nItem 1 Medical: Unlimited\n"
                 "Item 2 Cancellation: $10,000\nItem 3 Luggage: $6,000", "Schedule 2", article="Schedule 2", lang="en")
EXCLUSIONS = Chunk("pw#9", "pw", "Kestrel Travel Insurance PDS", "Clause 9 – Exclusions\nWe will not pay for: (a) alcohol "
                   "or drug use; (b) professional sport; (c) war; (d) travel against government advice.", "Clause 9",
                   article="Clause 9", lang="en")
COMPLAINTS = Chunk("pw#14", "pw", "Kestrel Travel Insurance PDS", "Clause 14 – Complaints\n14.1 Call our Complaints "
                   "Team on 1800 410 662.\n14.2 We reply within 30 days.", "Clause 14", article="Clause 14", lang="en")
CATALOG = Chunk("ct#3", "ct", "Linden University Graduate Catalog", "3.2 Time Limits. (a) Masters: five years. "
                "(b) Doctoral: eight years. (1) A first extension by the Dean. (2) A second by the Standards Committee. "
                "(c) Leave does not count.", "Section 3 > 3.2", article="Section 3.2", lang="en")
CATALOG_REF = Chunk("ct#4", "ct", "Linden University Graduate Catalog", "4.2 Leave. (a) Up to two semesters. (b) Time on "
                    "leave does not count toward the limits in Section 3.2.", "Section 4 > 4.2", article="Section 4.2",
                    lang="en")
SILSON = Chunk("ss#9-2", "ss", "누리손해보험 실손의료비보장 약관", "제9조의2(보상하지 않는 사항) ① 회사는 다음 각 호의 비용은 "
               "보상하지 않는다.\n1. 비급여 의료비 중 다음 각 목의 비용\n 가. 미용 목적의 성형수술\n 나. 비급여 첩약\n"
               " 다. 건강검진\n2. 외국 의료기관 의료비", "제9조의2", article="제9조의2")
CLAIMS = Chunk("ss#11", "ss", "누리손해보험 실손의료비보장 약관", "제11조(보험금 청구) 보험금 청구는 장기보상팀(1588-1234)에 "
               "합니다.", "제11조", article="제11조")


def _removed(answer: str, ctx: list[Chunk], lang: str = "en") -> tuple[str, list[str]]:
    res = FILTER.apply(answer, ctx, lang=lang)
    return res.text, [r.value for r in res.report.removed]


def test_a_schedule_is_its_own_article_and_its_rows_are_items():
    assert article_key("Schedule 2") == "Sch2" and article_key("s. 9") == "§9"
    cites = extract_citations("See Schedule 2, item 3 and Schedule 1, paragraph 4; s. 9.4(1) applies.")
    assert [(c.article, c.paragraph, c.item) for c in cites] == [("Sch2", None, "3"), ("Sch1", None, "4"),
                                                                ("§9", 4, "1")]
    text, removed = _removed("Luggage is covered under Schedule 2, item 3, and ski hire under Schedule 2, item 7. "
                             "Instalments follow Schedule 3.", [SCHEDULE, EXCLUSIONS])
    assert removed == ["Schedule 2, item 7", "Schedule 3"] and "Schedule 2, item 3" in text


def test_a_statute_style_section_is_not_a_sentence_end():
    text, removed = _removed("Refunds follow s. 9.4(1), and extensions s. 3.2(b)(1).", [CATALOG])
    assert removed == ["s. 9.4(1)"] and "s. 3.2(b)(1)" in text


def test_a_sub_point_must_be_listed_under_its_point_even_when_another_context_refers_to_the_section():
    text, removed = _removed("A first extension is allowed (Section 3.2(b)(1)); a third needs Section 3.2(b)(3).",
                             [CATALOG, CATALOG_REF])
    assert removed == ["Section 3.2(b)(3)"] and "Section 3.2(b)(1)" in text


def test_bare_parts_refer_to_the_citation_around_them():
    text, removed = _removed("War is excluded under paragraph (c) of clause 9, and paragraph (g) excludes pandemics.",
                             [EXCLUSIONS])
    assert removed == ["paragraph (g)"] and "paragraph (c) of clause 9" in text
    text, removed = _removed("성형수술은 제9조의2 제1항 제1호 가목, 첩약은 같은 호 나목, 영양주사는 라목에 해당합니다.",
                             [SILSON], lang="ko")
    assert removed == ["라목"] and "같은 호 나목" in text
    # 항목, 과목 are words, not 목 of an item
    assert all(c.item is None or "-" not in c.item for c in extract_citations("제9조의2 제1항의 항목과 과목을 보세요."))


def test_australian_numbers_are_read_and_an_invented_one_goes_as_an_aside():
    assert [c.norm for c in extract_contacts("on 1800 410 662 or 1300 555 123")] == ["1800410662", "1300555123"]
    text, removed = _removed("Call the Complaints Team on 1800 410 662. If still unhappy, you may escalate to AFCA "
                             "on 1800 931 687.", [COMPLAINTS])
    assert removed == ["1800 931 687"]
    assert "escalate to AFCA." in text and "1800 410 662" in text


def test_sub_units_and_english_bodies_are_departments():
    assert [d.text for d in extract_departments("심사 진행은 보상심사파트(080-772-0001)에서 안내합니다.")] == ["보상심사파트"]
    assert [d.text for d in extract_departments("심사는 Graduate Admissions Committee가 맡습니다.")] == [
        "Graduate Admissions Committee"]
    names = [d.text for d in extract_departments("Appeals go to the Board of Governors, then the Graduate School's "
                                                 "Appeals Board.")]
    assert names == ["Board of Governors", "Appeals Board"]
    text, removed = _removed("보험금 청구는 장기보상팀에 하시고, 심사는 보상심사파트에서 합니다.", [CLAIMS], lang="ko")
    assert removed == ["보상심사파트"] and "장기보상팀" in text
