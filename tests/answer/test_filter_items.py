"""An invented office with its number, given as another item of a list, goes whole; the real ones before it stay."""

from __future__ import annotations

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
