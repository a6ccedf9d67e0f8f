"""Claim-support checker: entities, polarity, the trained model's arithmetic, and crafted claim/context pairs."""

from __future__ import annotations

import math

import numpy as np
import pytest

from geunkeo.checks.support import (
    CheckerModel,
    Entity,
    entity_grounding,
    extract_entities,
    load_checker,
    negation_count,
    pick_threshold,
    support_figures,
)


def test_entities_numbers_amounts_dates_articles_names():
    assert extract_entities("보험금은 100만원까지, 수수료는 5%이다") == [
        Entity("number", "1000000", "원"), Entity("number", "5", "%")]
    assert extract_entities("2024년 3월 1일부터 제3조제1항을 적용한다") == [
        Entity("article", "제3조제1항"), Entity("date", "2024-03-01")]
    assert extract_entities("2024.03.01 시행") == [Entity("date", "2024-03-01")]
    assert Entity("name", "Samsung Life") in extract_entities("The fee goes to Samsung Life.")


def test_articles_and_dates_come_from_the_shared_extractor():
    # geunkeo.text.entities reads citations in both languages: Article 12(3) and 제12조제3항 are one value
    assert extract_entities("제12조의2 제3항 제1호에 따른다") == [Entity("article", "제12조의2제3항제1호")]
    assert extract_entities("Article 12(3) applies.") == [Entity("article", "제12조제3항")]
    # the digits of a date or an article are not read again as numbers; a year-month date stays a date
    assert extract_entities("2024년 3월부터 시행") == [Entity("date", "2024-03")]
    assert extract_entities("제5조에 따라 3월 5일까지 30일간") == [
        Entity("article", "제5조"), Entity("date", "03-05"), Entity("number", "30", "일")]


def test_a_date_without_its_year_is_grounded_by_the_dated_context():
    claim = extract_entities("신청은 3월 5일까지 한다")
    assert entity_grounding(claim, "신청은 2025년 3월 5일까지 한다")[1] == []
    assert entity_grounding(claim, "신청은 2025년 3월 6일까지 한다")[1] == [Entity("date", "03-05")]
    # a month or a day alone is found inside the context's date
    assert entity_grounding(extract_entities("8월에 편지를 썼다"), "8월 4일 편지를 썼다")[1] == []
    assert entity_grounding(extract_entities("4일에 썼다"), "2024년 8월 4일 썼다")[1] == []
    assert entity_grounding(extract_entities("9월에 썼다"), "8월 4일 썼다")[1] == [Entity("number", "9", "월")]


def test_entity_grounding_compares_values_not_spelling():
    claim = extract_entities("보험금은 100만원, 청구 기한은 30일")
    cov, missing = entity_grounding(claim, "한도는 1,000,000원이며 청구는 60일 이내")
    assert cov == pytest.approx(0.5)
    assert missing == [Entity("number", "30", "일")]
    assert entity_grounding([], "anything") == (1.0, [])


def test_negation_cues_korean_and_english():
    assert negation_count("임플란트는 보장되지 않는다") == 1
    assert negation_count("일반휴학 기간에 산입하지 아니한다") == 1
    assert negation_count("임플란트는 보장된다") == 0
    assert negation_count("면책 사항에 해당한다") == 1
    assert negation_count("This is not covered, except dental care.") == 2


def test_polarity_is_compared_with_the_matching_clause():
    from geunkeo.checks.support import _text_info, evidence_clause

    sent = "제16조에 따라 계약이 해지되었으나 해약환급금을 받지 않은 경우 계약자는 3년 이내에 부활을 청약할 수 있다."
    clause = evidence_clause(_text_info("제16조에 따라 계약이 해지되었다")[0], sent)
    assert clause == "제16조에 따라 계약이 해지되었다"
    assert negation_count(clause) == 0


def test_polarity_is_compared_with_the_matching_list_item():
    from geunkeo.checks.support import _text_info, evidence_clause

    items = ("3. 학기 개시일부터 30일이 지난 날부터 60일이 지나기 전까지: 수업료의 3분의 2에 해당하는 금액\n"
             "4. 학기 개시일부터 90일이 지난 후: 반환하지 아니함")
    claim = "학기 개시일부터 30일이 지난 날부터 60일이 지나기 전까지는 수업료의 3분의 2를 반환받는다"
    clause = evidence_clause(_text_info(claim)[0], items)
    assert "3분의 2" in clause and negation_count(clause) == 0


def test_checker_model_probability_is_standardised_logistic():
    m = CheckerModel(["a", "b"], mean=np.array([1.0, 0.0]), scale=np.array([2.0, 1.0]),
                     coef=np.array([1.0, -1.0]), intercept=0.5, threshold=0.5)
    # z = ((3-1)/2)*1 + ((1-0)/1)*(-1) + 0.5 = 0.5
    assert m.proba(np.array([3.0, 1.0]))[0] == pytest.approx(1 / (1 + math.exp(-0.5)))


def test_pick_threshold_and_figures_by_hand():
    prob = np.array([0.9, 0.8, 0.7, 0.6, 0.4, 0.3])
    y = np.array([1, 0, 1, 0, 1, 0])
    veto = np.zeros(6, dtype=bool)
    # at t=0.9: FP 0/3; t=0.8: FP 1/3 → cap 0.10 allows only 0.9
    assert pick_threshold(prob, y, veto, 0.10) == pytest.approx(0.9)
    # cap 0.34: t=0.7 gives FP 1/3, t=0.6 gives 2/3 → 0.7
    assert pick_threshold(prob, y, veto, 0.34) == pytest.approx(0.7)
    fig = support_figures(prob >= 0.7, y)
    assert fig["accuracy"] == pytest.approx(4 / 6)
    assert fig["false_support_rate"] == pytest.approx(1 / 3)
    assert fig["support_recall"] == pytest.approx(2 / 3)
    assert fig["confusion"] == {"supported_true": 2, "supported_false": 1, "unsupported_true": 1,
                                "unsupported_false": 2}


def test_shipped_weights_say_how_they_were_trained():
    m = load_checker()
    from geunkeo.checks.support import BASE_FEATURES

    assert m.features == BASE_FEATURES and m.features[:3] == ["cos_max", "cos_mean", "lex_overlap"]
    assert len(m.coef) == len(m.mean) == len(m.scale)
    assert "KorNLI" in m.meta["training_data"]
    assert m.meta["cv"]["false_support_rate"] <= 0.10
    assert 0.0 < m.threshold < 1.0


@pytest.mark.slow
def test_crafted_pairs_number_mismatch_and_negation_flip_are_unsupported():
    from geunkeo.evaluate.metrics import extract_and_check_claims

    ctx = [("c1", "보험금은 200만원까지 지급된다. 임플란트는 보장되지 않는다."),
           ("c2", "학생은 휴학을 2회까지 할 수 있다.")]
    claims = extract_and_check_claims("보험금은 100만원까지 지급된다. 임플란트는 보장된다. 휴학은 2회까지 할 수 있다.", ctx)
    assert [c.text for c in claims] == ["보험금은 100만원까지 지급된다", "임플란트는 보장된다", "휴학은 2회까지 할 수 있다"]
    assert claims[0].supported is False
    assert claims[0].checks["support"]["failure_reason"] == "ENTITY_NOT_IN_CONTEXT"
    assert claims[1].supported is False
    assert claims[1].checks["support"]["failure_reason"] == "POLARITY_MISMATCH"
    assert claims[2].supported is True
    assert claims[2].supporting_chunks[0]["chunk_id"] == "c2"
    assert claims[2].supporting_chunks[0]["evidence"] == "학생은 휴학을 2회까지 할 수 있다."


def test_verbatim_statement_needs_a_whole_statement():
    from geunkeo.checks.support import verbatim_statement

    ctx = ("## 3. 분할납부\n- 신청 기간: 2025. 2. 10.(월) ~ 2. 21.(금) 17:00, 한빛포털 → 등록 → 분할납부 신청\n"
           "분할납부 학생은 신용카드로 납부할 수 없으며, 기한까지 내지 않으면 제적된다.\n"
           "① 부득이한 경우를 제외하고 휴학할 수 없다.")
    assert verbatim_statement("신청 기간: 2025. 2. 10.(월) ~ 2. 21.(금) 17:00, 한빛포털 → 등록 → 분할납부 신청", ctx)
    assert verbatim_statement("분할납부 학생은 신용카드로 납부할 수 없으며, 기한까지 내지 않으면 제적된다.", ctx)
    # a fragment cut before the negation, or a tail cut after a condition, is not a whole statement
    assert verbatim_statement("분할납부 학생은 신용카드로 납부할 수", ctx) is None
    assert verbatim_statement("휴학할 수 없다.", ctx) is None
    assert verbatim_statement("신청", ctx) is None  # too short to mean anything


def test_verbatim_list_units_headings_and_quotes():
    from geunkeo.checks.support import verbatim_statement

    ctx = ("제11조(입사 서류) 입사가 확정된 학생은 다음 각 호의 서류를 제출하여야 한다.\n1. 입사 서약서\n2. 결핵 검사 결과서\n"
           "제12조(준용) 이 관에서 정하지 않은 사항은 보통약관을 따릅니다.")
    unit = "입사가 확정된 학생은 다음 각 호의 서류를 제출하여야 한다: (1) 입사 서약서; (2) 결핵 검사 결과서"
    assert verbatim_statement(unit, ctx)
    assert verbatim_statement(unit.replace("결핵 검사", "건강 검진"), ctx) is None  # one item not in the source
    assert verbatim_statement("“이 관에서 정하지 않은 사항은 보통약관을 따릅니다.”", ctx)


def test_a_claim_quoting_a_whole_list_is_compared_with_the_whole_list():
    from geunkeo.checks.support import _text_info, evidence_clause

    items = ("② 관리비는 다음 각 호의 기준에 따라 환불한다.\n1. 입사일 전에 취소한 경우: 관리비 전액\n"
             "2. 입사일부터 30일 이내에 퇴사한 경우: 남은 일수의 관리비\n3. 입사일부터 60일이 지난 후 퇴사한 경우: 환불하지 아니함")
    claim = ("관리비는 다음 각 호의 기준에 따라 환불한다: (1) 입사일 전에 취소한 경우: 관리비 전액; (2) 입사일부터 30일 이내에 "
             "퇴사한 경우: 남은 일수의 관리비; (3) 입사일부터 60일이 지난 후 퇴사한 경우: 환불하지 아니함")
    assert evidence_clause(_text_info(claim)[0], items) == items
    assert negation_count(claim) % 2 == negation_count(items) % 2


def test_the_last_clause_of_a_sentence_is_a_whole_statement():
    from geunkeo.checks.support import verbatim_statement

    ctx = "이 관의 조문은 특별약관의 조문이며, 이 관에서 정하지 않은 사항은 보통약관을 따릅니다. 다음 문장입니다."
    assert verbatim_statement("이 관에서 정하지 않은 사항은 보통약관을 따릅니다", ctx) is not None
    # a clause cut before its end is still not whole
    assert verbatim_statement("이 관에서 정하지 않은 사항은", ctx) is None
