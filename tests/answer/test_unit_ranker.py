"""The learned answer-unit ranker: its features read what they say, the shipped model loads and ranks a unit that
states the asked fact above the lead-in and the heading that only share the question's words."""

from __future__ import annotations

import json

import numpy as np
import pytest

from geunkeo.answer.extractive import ExtractiveAnswerer
from geunkeo.answer.unit_ranker import (
    EVIDENCE,
    FEATURES,
    Evidence,
    Logistic,
    QueryView,
    UnitRanker,
    bigrams,
    evidence_features,
    get_unit_ranker,
    intrinsic,
)
from geunkeo.config import AnswerSettings
from geunkeo.corpus.base import Chunk
from geunkeo.retrieve.base import Hit

NOTICE = """2025학년도 하계 계절학기 수강신청 안내
계절학기 수강신청에 관한 사항을 다음과 같이 안내합니다.
수강신청은 학사정보시스템에서 합니다.
수강료는 1학점당 80,000원이며, 수강신청 기간 중 납부하여야 합니다.
그 이후에는 환불되지 않습니다.
문의 사항은 학사지원팀으로 연락하시기 바랍니다."""


def _hit(text: str, doc: str = "notice", title: str = "계절학기 안내", score: float = 1.0) -> Hit:
    return Hit(Chunk(f"{doc}#s1", doc, title, text, title), score)


def test_intrinsic_features_read_a_pointing_start_a_lead_in_and_garble():
    shape = intrinsic("그 이후에는 환불되지 않습니다.")
    assert shape.dangling == 1.0 and shape.no_ending == 0.0 and shape.lead_in == 0.0 and shape.cut_start == 0.0
    assert intrinsic("수강료는 1학점당 80,000원입니다.").dangling == 0.0
    assert intrinsic("관련 사항을 다음과 같이 안내합니다.").lead_in == 1.0
    assert intrinsic("반환 금액은 다음 각 호와 같다: (1) 개시일 전: 전액; (2) 30일 이내: 6분의 5").lead_in == 0.0
    clean = intrinsic("수강료는 1학점당 80,000원이며 기간 중 납부하여야 합니다.").garble
    garbled = intrinsic("다 시 대 한 민 국 ▒▒ ¶¶ 새 로 운 국 민 의 아 래").garble
    assert garbled > 0.5 > clean
    assert intrinsic("1914년에는 『유형지에서』와 『심판』 집필에 들어갔다.").garble < 0.5  # title brackets are not garble
    # a piece a page cut starts with a dependent noun, a particle or a verb's stem
    assert intrinsic("등의 비용부담 증대로 건설업이 위축되었다.").cut_start == 1.0
    assert intrinsic("하였다.").cut_start == 1.0
    assert intrinsic("하고 나서 신청서를 낸다.").cut_start == 1.0
    # an adjective or verb turned modifier opens a sentence; so does an abbreviation Kiwi reads as an interjection
    assert intrinsic("짧은 기간에도 불구하고 적립금은 크게 늘었다.").cut_start == 0.0
    assert intrinsic("새로운 제도를 내년부터 도입한다.").cut_start == 0.0
    assert intrinsic("예타대상 기준금액을 상향하는 개정을 추진한다.").cut_start == 0.0
    # a particle the column break cut from its noun ("…받침대\n의 내부에"), though Kiwi alone reads 의 as a noun
    assert intrinsic("의 하단에 설치되는 보조 히터(12)와 덮개로 이루어진다.").cut_start == 1.0
    assert intrinsic("를 첨부하여 제출한다.").cut_start == 1.0
    assert intrinsic("이 규정은 공포한 날부터 시행한다.").cut_start == 0.0  # 이 規定: a determiner, pointing back
    assert intrinsic("그렇다면 원고의 청구는 이유 없다.").dangling == 1.0


def test_bigrams_ignore_spacing_and_punctuation():
    assert bigrams("수강 료!") == bigrams("수강료") == frozenset({"수강", "강료"})


def test_shipped_model_matches_the_features_the_code_computes():
    ranker = get_unit_ranker()
    assert len(ranker.units.weights) == len(FEATURES)
    assert 0.0 < ranker.threshold < 1.0


def test_a_model_trained_on_other_features_is_refused():
    bad = {"features": ["overlap"], "units": {"mean": [0], "scale": [1], "weights": [1], "bias": 0}, "threshold": 0.5}
    with pytest.raises(ValueError, match="retrain"):
        UnitRanker.from_dict(bad)


def test_probabilities_follow_the_weights():
    n = len(FEATURES)
    w = np.zeros(n)
    w[FEATURES.index("slot")] = 2.0
    ranker = UnitRanker(Logistic(np.zeros(n), np.ones(n), w, 0.0), None, 0.5)
    x = np.zeros((2, n))
    x[1, FEATURES.index("slot")] = 1.0
    p = ranker.probabilities(x)
    assert p[0] == pytest.approx(0.5) and p[1] > 0.85
    # without an answerability head, the answer probability is the best unit's
    assert ranker.answer_probability(x, p, np.zeros(len(EVIDENCE))) == pytest.approx(p.max())


def test_the_fact_leads_not_the_lead_in_nor_a_sentence_pointing_back():
    ans = ExtractiveAnswerer(AnswerSettings()).answer("계절학기 수강료는 얼마인가요?", [_hit(NOTICE)])
    first = next(s for s in ans.sentences if not s.generic)
    assert "80,000원" in first.text


def test_a_unit_pointing_back_is_shown_after_its_antecedent():
    ans = ExtractiveAnswerer(AnswerSettings()).answer("계절학기 수강료 환불 돼?", [_hit(NOTICE)])
    texts = [s.text for s in ans.sentences if not s.generic]
    if any(t.startswith("그 이후에는") for t in texts):
        i = next(i for i, t in enumerate(texts) if t.startswith("그 이후에는"))
        assert i > 0 and "납부하여야" in texts[i - 1]


def test_support_comes_from_the_lead_document_unless_the_question_compares():
    other = _hit("기숙사비는 1학기 기준 1,200,000원이며, 입사 전에 납부하여야 합니다.", "dorm", "생활관 안내", 0.9)
    ans = ExtractiveAnswerer(AnswerSettings()).answer("계절학기 수강료는 얼마인가요?", [_hit(NOTICE), other])
    cited = {c.chunk_id for s in ans.sentences for c in s.citations}
    assert cited == {"notice#s1"}


def test_shipped_model_card_states_cross_validated_figures():
    from importlib import resources

    data = json.loads(resources.files("geunkeo.data").joinpath("unit_ranker.json").read_text("utf-8"))
    cv = data["cross_validated"]
    assert cv["folds"] >= 5 and cv["grouped_by"] == "question"
    assert {"tydi", "autorag-ko"} <= set(cv["per_source"])


def test_evidence_reads_the_chunk_that_holds_most_of_the_question_and_the_rarest_word_it_lacks():
    view = QueryView({"부산은행": 1.0, "시중은행": 1.0, "전환": 1.0, "신청하다": 1.0}, bigrams("q"), False, "ko")
    rarity = {"부산은행": 1.0, "시중은행": 0.6, "전환": 0.4, "신청하다": 0.9}
    texts = ["대구은행의 시중은행 전환 인가 신청을 심사하였다.", "부산 지역 경제 동향"]
    ev = dict(zip(EVIDENCE, evidence_features(view, [], Evidence(texts, rarity, "ko", 0.9)),
                  strict=True))
    assert ev["chunk_coverage"] == pytest.approx(0.5)  # 시중은행, 전환 (a verb's lemma is not looked for in text)
    assert ev["rarest_noun_missing"] == 1.0 and ev["noun_missing_max_rarity"] == 1.0
    assert ev["rarest_held_part"] == pytest.approx(1 / 3)  # of 부산/산은/은행 the best chunk holds 은행
    assert ev["cross_lingual"] == 0.0 and ev["dense_top"] == pytest.approx(0.9)
    assert not {"rules_score", "rules_unmatched"} & set(EVIDENCE)  # the gate asks the rules beside the head


def test_a_head_trained_on_other_question_features_is_refused():
    n = len(FEATURES)
    units = {"mean": [0] * n, "scale": [1] * n, "weights": [0] * n, "bias": 0}
    bad = {"features": list(FEATURES), "units": units, "question_features": ["p_best"],
           "answerable": {"mean": [0], "scale": [1], "weights": [1], "bias": 0}, "threshold": 0.5}
    with pytest.raises(ValueError, match="retrain"):
        UnitRanker.from_dict(bad)


def test_an_unknown_feature_counts_as_its_training_mean():
    n = len(EVIDENCE)
    head = Logistic(np.full(n, 0.9), np.full(n, 0.02), np.ones(n), 0.0)
    x = np.full((1, n), 0.9)
    x[0, EVIDENCE.index("dense_top")] = float("nan")  # a BM25-only search has no dense score
    assert head(x)[0] == pytest.approx(0.5)
    far = np.full((1, n), 0.9)
    far[0, 0] = -100.0  # 5,000 sd below: clipped to 5
    assert head(far)[0] == pytest.approx(1 / (1 + np.exp(5.0)))


def test_an_english_note_names_the_document_and_the_figures_and_no_article_number():
    from geunkeo.answer.extractive import _FIGURE

    assert [m.group(0) for m in _FIGURE.finditer("제14조에 따라 통산 6개 학기(3년), 1,260,000원, 3.5%")] == [
        "6개 학기", "3년", "1,260,000원", "3.5%"]


def test_an_expansion_a_chunk_holds_counts_as_the_askers_word_it_stands_in_for():
    # the asker says 기숙사 and 나가다; the plan expanded "기숙사 나가다" to 퇴사, which the chunk writes
    view = QueryView({"기숙사": 1.0, "나가다": 1.0, "요금": 1.0, "퇴사": 0.5}, bigrams("q"), False, "ko")
    rarity = {"기숙사": 0.7, "나가다": 0.6, "요금": 0.5, "퇴사": 0.3}
    texts = ["생활관 퇴사 시 관리비는 남은 일수에 따라 환불한다."]
    plain = dict(zip(EVIDENCE, evidence_features(view, [], Evidence(texts, rarity, "ko", 0.9)), strict=True))
    with_stand_ins = dict(zip(EVIDENCE, evidence_features(
        view, [], Evidence(texts, rarity, "ko", 0.9, {"퇴사": "기숙사 나가다"})), strict=True))
    assert with_stand_ins["chunk_coverage"] > plain["chunk_coverage"]
    assert with_stand_ins["noun_missing_share"] < plain["noun_missing_share"]
    # 기숙사 is the rarest noun: missing in the chunk's words, held through 퇴사
    assert plain["rarest_noun_missing"] == 1.0 and with_stand_ins["rarest_noun_missing"] == 0.0


def test_stand_ins_are_the_plans_expansions_with_the_askers_words():
    from geunkeo.answer.answerability import stand_ins

    sources = {"기숙사": "query", "퇴사": "slang:기숙사 나가다→퇴사", "생활관": "기숙사→생활관"}
    assert stand_ins(sources) == {"퇴사": "기숙사 나가다", "생활관": "기숙사"}
    assert stand_ins(None) == {}
