"""Citations are checked against the structure the context shows (paragraphs written ① or inline "(2)", numbered
items, "같은 조", "Clause N"), and public agencies (…공단, …청) and offices given with a bare number are
recognised. The failure classes of the held-out set (benchmarks/data/filter_heldout.json), on fixtures written
here."""

from __future__ import annotations

from filter_support import removed_items

from geunkeo.corpus.base import Chunk
from geunkeo.text.entities import extract_departments

LEAVE = Chunk("r#15", "r", "하람대학교 학칙", "제15조(휴학) ① 휴학은 학기 개시 전에 신청한다.\n② 휴학은 통산 4개 학기를 넘을 수 "
              "없다.\n③ 질병휴학은 진단서를 첨부한다.", "하람대학교 학칙 제15조", article="제15조")
EXCLUSIONS = Chunk("p#5", "p", "누리손해보험 약관", "제5조(보상하지 않는 손해) ① 회사는 다음 각 호의 손해를 보상하지 않습니다. "
                   "1. 고의로 생긴 손해 2. 전쟁으로 생긴 손해 3. 핵연료로 생긴 손해", "누리손해보험 약관 제5조",
                   article="제5조")
EN_RULES = Chunk("g#21", "g", "Graduate Rules", "Article 21 (Thesis) (1) A thesis is submitted each term. (2) It is "
                 "reviewed by three members. (3) A rejected thesis may be resubmitted once.", "Graduate Rules Article 21",
                 article="Article 21", lang="en")
EN_TERMS = Chunk("t#12", "t", "Travel Terms", "Clause 12 (Cancellation) The policy may be cancelled within 15 days.",
                 "Travel Terms Clause 12", lang="en")


def _removed(answer: str, ctx: list[Chunk], lang: str = "ko") -> tuple[str, list[str]]:
    return removed_items(answer, ctx, lang)


def test_same_article_paragraph_is_checked_against_the_article_cited_before():
    text, removed = _removed("휴학은 제15조 제1항에 따르고, 진단서는 같은 조 제5항에 규정되어 있습니다.", [LEAVE])
    assert removed == ["같은 조 제5항"] and "제15조 제1항" in text
    text, removed = _removed("휴학은 제15조 제1항에 따르고, 진단서는 같은 조 제3항에 규정되어 있습니다.", [LEAVE])
    assert removed == [] and "같은 조 제3항" in text


def test_an_item_the_article_does_not_list_is_invented():
    _, removed = _removed("전쟁 손해는 제5조 제1항 제2호에 따라, 음주 사고는 제5조 제1항 제4호에 따라 보상하지 않습니다.",
                          [EXCLUSIONS])
    assert removed == ["제5조 제1항 제4호"]


def test_inline_english_paragraphs_count_and_clauses_are_citations():
    text, removed = _removed("Under Article 21(2), a thesis is reviewed by three members, and Article 21(5) allows "
                             "an appeal.", [EN_RULES], "en")
    assert removed == ["Article 21(5)"] and "Article 21(2)" in text
    text, removed = _removed("You may cancel under Clause 12; refunds are governed by Clause 14.", [EN_TERMS], "en")
    assert removed == ["Clause 14"] and "Clause 12" in text


def test_agencies_and_offices_with_a_bare_number_are_departments():
    names = [e.text for e in extract_departments("국민건강보험공단에 신청하거나 새봄시 교육청에서 심사하며, 휴학 신청에서 "
                                                 "요청으로 바뀝니다. 문의는 청년정책과 02 3150 4471.")]
    assert names == ["국민건강보험공단", "교육청", "청년정책과"]
    ctx = [Chunk("n#1", "n", "공고", "문의: 시청 청년정책과 02 3150 4471.", "공고")]
    text, removed = _removed("문의는 청년정책과 02 3150 4471 또는 주택정책과 02 3150 4480으로 하시면 됩니다.", ctx)
    assert removed == ["주택정책과", "02 3150 4480"] and "청년정책과 02 3150 4471" in text
