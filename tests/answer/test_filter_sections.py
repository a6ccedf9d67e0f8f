"""Handbook sections ("Section 6.5"), 목 under a 호 ("제2호 나목", "같은 호 다목") and English documents named by a
lower-case kind ("of the Harbour policy", "of the notice") are checked against the contexts' structure: the
failure classes of the third held-out set (benchmarks/data/filter_heldout3.json), on fixtures written here."""

from __future__ import annotations

from filter_support import removed_items

from geunkeo.corpus.base import Chunk
from geunkeo.text.entities import article_key, extract_citations

HANDBOOK = Chunk("hb#6", "hb", "Orchard College Student Handbook", "Section 6. Housing\n6.1 Rooms are allocated by "
                 "lottery.\n6.2 A deposit of KRW 200,000 is due on entry.\n6.3 Pets are not allowed.",
                 "Chapter 2 > Section 6", article="Section 6", lang="en")
POLICY = Chunk("po#11", "po", "Orchard College Conduct Policy", "Article 11 (Appeals) (1) Appeals are made in writing. "
               "(2) The panel decides within 14 days.", "Conduct Policy > Article 11", article="Article 11", lang="en")
RULES = Chunk("wr#31", "wr", "주식회사 다올 취업규칙", "제31조(징계의 사유) ① 다음 각 호의 경우 징계할 수 있다.\n"
              "1. 무단결근한 경우\n2. 영업비밀을 누설한 경우로서 다음 각 목의 경우\n 가. 기술자료를 제공한 경우\n"
              " 나. 고객 정보를 반출한 경우\n3. 괴롭힘이 확인된 경우", "취업규칙 > 제31조", article="제31조")
TRAVEL = Chunk("tr#3", "tr", "Harbour Overseas Travel Insurance Policy Wording", "Article 3 (Insured Events) (1) Medical "
               "expenses abroad are paid. (2) Baggage is covered up to USD 500.", "Article 3", article="Article 3",
               lang="en")
NOTICE = Chunk("ex#7", "ex", "Exchange Programme Notice", "Article 7 (Credit Transfer) (1) Credits are transferred "
               "after approval. (2) At most 18 credits a semester.", "Article 7", article="Article 7", lang="en")


def _removed(answer: str, ctx: list[Chunk], lang: str = "en") -> tuple[str, list[str]]:
    return removed_items(answer, ctx, lang)


def test_a_section_is_its_own_article_and_its_dotted_numbers_are_its_paragraphs():
    assert article_key("Section 6") == "§6" and article_key("Article 6") == "6"
    cites = extract_citations("Under Section 6.2(b) and section 4, see Article 3.")
    assert [(c.article, c.paragraph, c.item) for c in cites] == [("§6", 2, "b"), ("§4", None, None), ("3", None, None)]
    text, removed = _removed("Section 6.2 sets the deposit, and Section 6.5 allows cats.", [HANDBOOK, POLICY])
    assert removed == ["Section 6.5"] and "Section 6.2" in text
    # the policy's Article 11 does not make the handbook's Section 11 real
    _, removed = _removed("Section 11 lets you appeal; Article 11(2) sets a 14-day decision.", [HANDBOOK, POLICY])
    assert removed == ["Section 11"]


def test_a_mok_must_be_listed_under_its_item():
    text, removed = _removed("고객 정보를 반출하면 제31조 제1항 제2호 나목에 해당하며, 기술자료 제공은 같은 호 가목에 해당합니다.",
                             [RULES], lang="ko")
    assert removed == [] and "같은 호 가목" in text
    text, removed = _removed("고객 정보를 반출하면 제31조 제1항 제2호 나목에 해당합니다. SNS 게시는 같은 호 다목에 해당합니다.",
                             [RULES], lang="ko")
    assert removed == ["같은 호 다목"] and "제2호 나목" in text
    _, removed = _removed("괴롭힘은 제31조 제1항 제3호 가목에 해당합니다.", [RULES], lang="ko")  # 제3호 lists no 목
    assert removed == []
    assert [c.text for c in extract_citations("제31조 제2호 나목, 동호회 활동")] == ["제31조 제2호 나목"]


def test_an_english_document_named_by_its_kind_is_found():
    answer = ("Medical costs are covered by Article 3(1) of the Harbour policy, while credits follow Article 7(1) of the "
              "notice. Article 3(4) of the Harbour policy covers delays.")
    text, removed = _removed(answer, [TRAVEL, NOTICE])
    assert removed == ["Article 3(4) of the Harbour policy"]
    assert "Article 3(1) of the Harbour policy" in text and "Article 7(1) of the notice" in text


def test_an_item_is_checked_in_the_paragraph_it_is_cited_under():
    leave = Chunk("g#27", "g", "가온대학교 학칙", "제27조(휴학) ① 학생은 총장의 허가를 받아 휴학할 수 있다.\n② 휴학은 통산 6개 "
                  "학기를 넘을 수 없다.\n③ 다음 각 호의 휴학은 제2항의 기간에 넣지 아니한다.\n1. 군휴학\n2. 육아휴학",
                  "학칙 > 제27조", article="제27조")
    _, removed = _removed("육아휴학은 제27조 제3항 제2호에 따라 산입되지 않고, 질병휴학은 제27조 제1항 제2호에 따릅니다.", [leave],
                          lang="ko")
    assert removed == ["제27조 제1항 제2호"]  # ③ lists the items, ① none
    exclusions = Chunk("d#5", "d", "다온생명 약관", "제5조(지급하지 않는 사유) ① 고의로 해친 경우\n② 다음 각 목의 입원은 "
                       "제외합니다.\n가. 치과 입원\n나. 미용 성형 입원", "약관 > 제5조", article="제5조")
    _, removed = _removed("치과 입원은 제5조 제2항 가목, 한방 입원은 제5조 제2항 라목에서 제외됩니다.", [exclusions], lang="ko")
    assert removed == ["제5조 제2항 라목"]
    _, removed = _removed("Military service counts under Section 6.2(b) and hobbies under Section 6.2(e).",
                          [Chunk("h#6", "h", "Handbook", "Section 6. Leave\n6.1 Apply early.\n6.2 Grounds: (a) illness; "
                                 "(b) military service.", "Section 6", article="Section 6", lang="en")])
    assert removed == ["Section 6.2(e)"]


def test_uk_numbers_and_ministry_divisions_are_read():
    from geunkeo.text.entities import extract_contacts, extract_departments, phone_key

    assert phone_key("+44 (0)161 555 0140") == phone_key("+44 161 555 0140") == phone_key("0161 555 0140")
    assert [c.text for c in extract_contacts("Call 0800 731 4455 or 07700 900123.")] == ["0800 731 4455", "07700 900123"]
    assert [d.text for d in extract_departments("신고는 국토교통부 주거복지정책과(044-201-3360)로")] == ["국토교통부", "주거복지정책과"]
    assert [d.text for d in extract_departments("before the Office of the Independent Adjudicator.")] == [
        "Office of the Independent Adjudicator"]


def test_clauses_are_numbered_like_sections():
    pds = Chunk("pd#8", "pd", "Tallow Travel Insurance PDS", "Clause 8. Cancellation\n8.1 We pay non-refundable costs.\n"
                "8.2 We do not pay if you change your mind.", "Part C > Clause 8", article="Clause 8", lang="en")
    text, removed = _removed("Costs are covered under clause 8.1, and clause 8.4 covers strikes.", [pds])
    assert removed == ["clause 8.4"] and "clause 8.1" in text
    assert article_key("Clause 8") == article_key("Section 8") == "§8"
