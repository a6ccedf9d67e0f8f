"""Claim extraction: exact clause splits, citation stripping, LLM decomposition and its fallback."""

from __future__ import annotations

import pytest

from geunkeo.checks.claims import extract_claims, rule_claims, strip_citations
from geunkeo.errors import LLMUnavailable
from geunkeo.llm.base import LLM, Completion
from geunkeo.trace import Trace


def texts(answer: str) -> list[str]:
    return [c.text for c in rule_claims(answer)]


def test_strip_citations_keeps_numbers_in_order():
    assert strip_citations("휴학은 2회까지 가능하다 [2][1, 3].") == ("휴학은 2회까지 가능하다.", [2, 1, 3])
    assert strip_citations("See rules [1-3].") == ("See rules.", [1, 2, 3])


def test_korean_connective_go_becomes_two_full_statements_with_shared_topic():
    assert texts("임플란트는 보철 치료로 분류되고 보장되지 않습니다 [2].") == [
        "임플란트는 보철 치료로 분류된다", "임플란트는 보장되지 않습니다"]


def test_korean_myeo_and_jiman_splits():
    assert texts("휴학은 2학기까지 가능하며, 1회 연장할 수 있다.") == ["휴학은 2학기까지 가능하다", "휴학은 1회 연장할 수 있다"]
    assert texts("등록금은 환불되지만 입학금은 환불되지 않는다.") == ["등록금은 환불된다", "입학금은 환불되지 않는다"]


def test_auxiliary_go_itda_is_not_split_and_leading_conjunction_dropped():
    assert texts("학생은 신청서를 제출하고 있다.") == ["학생은 신청서를 제출하고 있다"]
    assert texts("그리고 장학금은 지급된다.") == ["장학금은 지급된다"]


def test_past_tense_and_l_final_stems_get_correct_endings():
    assert texts("학생은 책을 만들고 판다.") == ["학생은 책을 만든다", "학생은 판다"]
    assert texts("보험금을 받았으나 반환하였다.") == ["보험금을 받았다", "반환하였다"]


def test_english_clauses_and_citations_per_sentence():
    claims = rule_claims("Leave is allowed for two semesters, and it can be extended once [1]. "
                         "The fee is 100 won, which is paid monthly.")
    assert [c.text for c in claims] == ["Leave is allowed for two semesters", "It can be extended once",
                                        "The fee is 100 won", "This is paid monthly"]
    assert [c.checks["citations"] for c in claims] == [[1], [1], [], []]
    assert [c.claim_id for c in claims] == ["a1", "a2", "a3", "a4"]
    assert texts("Students must apply and pay the fee.") == ["Students must apply and pay the fee"]


class FakeLLM(LLM):
    provider, model = "fake", "m1"

    def __init__(self, text=None, error=None):
        self.text, self.error, self.calls = text, error, 0

    def complete(self, messages, *, json=False, temperature=None, max_tokens=None):
        self.calls += 1
        if self.error:
            raise self.error
        return Completion(text=self.text, model=self.model, provider=self.provider)


def test_llm_decomposition_reads_repaired_json():
    llm = FakeLLM('```json\n{"claims": ["휴학은 2학기까지 가능하다.", "휴학은 연장할 수 있다",]}\n```')
    claims = extract_claims("휴학은 2학기까지 가능하며 연장할 수 있다 [1].", llm=llm)
    assert [c.text for c in claims] == ["휴학은 2학기까지 가능하다", "휴학은 연장할 수 있다"]
    assert claims[0].method == "llm:fake/m1"


def test_llm_failure_falls_back_to_rule_split_and_is_recorded():
    trace = Trace()
    claims = extract_claims("등록금은 환불되지만 입학금은 환불되지 않는다.", llm=FakeLLM(error=LLMUnavailable("down")),
                            trace=trace)
    assert [c.text for c in claims] == ["등록금은 환불된다", "입학금은 환불되지 않는다"]
    assert claims[0].method == "kiwi-clause-split"
    assert trace.decisions[0]["decision"] == "fallback to kiwi-clause-split"
    assert "down" in trace.warnings[0]


def test_list_markers_dropped_and_a_citation_closes_a_statement():
    claims = rule_claims("② 휴학원을 제출하여야 한다 [1] 창업휴학은 통산 4개 학기 이내이다 [2]. (1) The Company pays [3].")
    assert [(c.text, c.checks["citations"]) for c in claims] == [
        ("휴학원을 제출하여야 한다", [1]), ("창업휴학은 통산 4개 학기 이내이다", [2]), ("The Company pays", [3])]


def test_llm_output_without_a_claims_list_falls_back():
    trace = Trace()
    claims = extract_claims("휴학은 2회 가능하다.", llm=FakeLLM('{"supported": true}'), trace=trace)
    assert [c.text for c in claims] == ["휴학은 2회 가능하다"]
    assert "expected" in trace.decisions[0]["error"]


@pytest.mark.parametrize("empty", ["", "   "])
def test_empty_answer_has_no_claims(empty):
    assert extract_claims(empty) == []


def test_a_quoted_list_gives_one_claim_per_item():
    from geunkeo.checks.claims import clauses_of

    sent = ("관리비는 다음 각 호의 기준에 따라 환불한다: (1) 입사일 전에 취소한 경우: 관리비 전액; "
            "(2) 입사일부터 60일이 지난 후 퇴사한 경우: 환불하지 아니함")
    assert clauses_of(sent) == ["관리비는 다음 각 호의 기준에 따라 환불한다", "입사일 전에 취소한 경우: 관리비 전액",
                                "입사일부터 60일이 지난 후 퇴사한 경우: 환불하지 아니함"]
