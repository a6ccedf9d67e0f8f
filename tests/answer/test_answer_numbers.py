"""The hallucination filter and the support checker read numbers with the same parser (issue: they disagreed)."""

from __future__ import annotations

from geunkeo.answer.filter import HallucinationFilter
from geunkeo.checks.support import Entity, entity_grounding, extract_entities


def test_filter_removes_an_amount_the_context_does_not_give():
    res = HallucinationFilter().apply("보상한도는 5백만원입니다.", ["보상한도는 2천5백만원"])
    assert [(r.kind, r.value) for r in res.report.removed] == [("amount", "5백만원")]
    assert res.text == ""  # the amount was all the sentence said


def test_filter_accepts_the_same_amount_in_any_spelling():
    for answer in ("보상한도는 2천5백만원입니다.", "보상한도는 25,000,000원입니다.", "보상한도는 2,500만 원입니다."):
        res = HallucinationFilter().apply(answer, ["보상한도는 2천5백만원"])
        assert (res.text, res.report.removed) == (answer, [])
    assert HallucinationFilter().apply("수수료는 5백원입니다.", ["수수료는 500원"]).report.removed == []


def test_filter_and_support_checker_read_the_same_values():
    ctx = "보상한도는 2천5백만원이며 자기부담금은 5백원이다."
    assert Entity("number", "25000000", "원") in extract_entities(ctx)
    assert Entity("number", "500", "원") in extract_entities(ctx)
    assert entity_grounding(extract_entities("보상한도는 5백만원이다"), ctx)[1] == [Entity("number", "5000000", "원")]
    assert entity_grounding(extract_entities("보상한도는 2,500만 원이다"), ctx)[1] == []
