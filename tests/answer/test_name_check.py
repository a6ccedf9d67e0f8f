"""The name check behind the hallucination filter (answer/name_candidates.py, answer/name_check.py): layer-1
candidates and the filter's removal of invented names. Fixtures are written here, not taken from the sets."""

from __future__ import annotations

from geunkeo.answer.filter import HallucinationFilter
from geunkeo.answer.name_candidates import (
    english_runs,
    korean_compounds,
    latin_runs,
    name_candidates,
    person_names,
)
from geunkeo.answer.name_check import FEATURES, ContextNames, features, loose_roman, name_model, romanise
from geunkeo.corpus.base import Chunk


def _ctx(text: str) -> list[Chunk]:
    return [Chunk("c1", "d1", "안내", text, "안내 1")]


def test_korean_compound_ending_in_a_name_kind_word_is_a_candidate_and_a_generic_word_is_not():
    found = korean_compounds("솔바위치료특약을 더하면 중앙도서관과 해당 지점에서 안내합니다.")
    assert [(c.text, c.kind) for c in found] == [("솔바위치료특약", "rider")]


def test_particle_after_the_name_is_not_part_of_it():
    found = korean_compounds("은하수장학금은 매 학기 지급한다.")
    assert [c.text for c in found] == ["은하수장학금"]


def test_person_with_title_korean_and_english():
    ko = person_names("결재는 윤서하 상무가 맡습니다.")
    en = person_names("It was signed by Director of Finance Park Min-seo yesterday.")
    assert [(c.text, c.given) for c in ko] == [("윤서하 상무", "윤서하")]
    assert [c.given for c in en] == ["Park Min-seo"]


def test_particle_ending_word_before_a_title_is_no_person():
    assert person_names("관련 사항은 위원회 위원장이 정한다.") == []


def test_english_run_drops_a_leading_article():
    found = english_runs("Visit the Gaeul Bridge Branch before noon.")
    assert [(c.text, c.kind) for c in found] == [("Gaeul Bridge Branch", "branch")]


def test_romanisation_and_spelling_variants():
    assert romanise("도윤") == "doyun"
    assert loose_roman("Yoon") == loose_roman("yun")


def test_exact_context_name_scores_below_an_unseen_one():
    view = ContextNames.of(("바람숲지점에서 서류를 접수한다.",))
    seen, unseen = name_candidates("바람숲지점에서"), name_candidates("구름못지점에서")
    x_seen, x_unseen = features(seen[0], view), features(unseen[0], view)
    assert x_seen[FEATURES.index("exact")] == 1 and x_unseen[FEATURES.index("exact")] == 0
    assert name_model().invented(x_seen) < name_model().threshold <= name_model().invented(x_unseen)


def test_filter_removes_an_invented_branch_and_keeps_the_real_one():
    ctx = _ctx("서류는 바람숲지점(02-555-0142)에서 접수한다.")
    filt = HallucinationFilter()
    kept = filt.apply("서류는 바람숲지점에서 접수합니다.", ctx, lang="ko")
    gone = filt.apply("서류는 구름못지점에서 접수합니다.", ctx, lang="ko")
    assert kept.text == "서류는 바람숲지점에서 접수합니다."
    assert "구름못지점" not in gone.text and "해당 지점" in gone.text
    assert [(r.kind, r.value) for r in gone.report.removed] == [("name", "구름못지점")]


def test_filter_removes_an_invented_person_and_keeps_the_named_one():
    ctx = _ctx("최종 승인은 윤서하 상무가 한다.")
    filt = HallucinationFilter()
    assert "윤서하 상무" in filt.apply("최종 승인은 윤서하 상무가 합니다.", ctx, lang="ko").text
    out = filt.apply("최종 승인은 한도겸 상무가 합니다.", ctx, lang="ko")
    assert "한도겸" not in out.text and out.text.startswith("최종 승인은 담당자가")


def test_a_person_the_contexts_name_in_another_order_or_romanised_is_kept():
    ctx = _ctx("심의 결과는 기획처장 남궁별이 아니라 부처장 한가온이 통보한다.")
    filt = HallucinationFilter()
    assert "한가온 부처장" in filt.apply("결과는 한가온 부처장이 통보합니다.", ctx, lang="ko").text
    kept = filt.apply("Results are sent by Vice Dean Han Ga-on.", ctx, lang="en")
    other = filt.apply("Results are sent by Vice Dean Seo Ga-on.", ctx, lang="en")  # another surname
    assert kept.report.removed == []
    assert [r.kind for r in other.report.removed] == ["person"] and "Seo Ga-on" not in other.text


def test_an_english_rendering_of_a_korean_office_is_kept_and_an_unrelated_one_removed():
    ctx = _ctx("교환학생 신청은 국제교류팀(02-555-0177)에서 받는다.")
    filt = HallucinationFilter()
    assert filt.apply("Apply to the International Exchange Team.", ctx, lang="en").report.removed == []
    out = filt.apply("Apply to the Student Exchange Team.", ctx, lang="en")
    assert out.text == "Apply to the responsible office."


def test_latin_runs_split_at_and_possessives_and_citation_words():
    found = latin_runs("Under Sch. 2 Pt C, Harbour Vale's Silver Fern Cover and Coastal Guard apply.")
    assert [c.text for c in found] == ["Harbour Vale", "Silver Fern Cover", "Coastal Guard"]


def test_filter_removes_an_invented_product_over_english_contexts():
    ctx = [Chunk("c1", "d1", "Cover guide", "The Silver Fern Cover pays up to 500 dollars a night.", "Cover guide 1")]
    filt = HallucinationFilter()
    assert filt.apply("The Silver Fern Cover pays for hotels.", ctx, lang="en").report.removed == []
    out = filt.apply("The Golden Kauri Cover pays for hotels.", ctx, lang="en")
    assert "Golden Kauri" not in out.text
    assert [(r.kind, r.value) for r in out.report.removed] == [("name", "Golden Kauri Cover")]
