"""FormalityDetector: labels from sentence-final morphemes, chat markers, English."""

from __future__ import annotations

import pytest

from geunkeo.query.formality import FormalityDetector

det = FormalityDetector()


@pytest.mark.parametrize(
    ("query", "label", "ending"),
    [
        ("휴학 신청 절차는 어떻게 됩니까?", "formal", "ᆸ니까/EF"),
        ("휴학 신청 방법을 설명하시오.", "formal", "오/EF"),
        ("제12조에 따른 휴학 기간은 무엇인가?", "formal", "ᆫ가/EF"),
        ("휴학하려면 어떻게 해야 하나요?", "polite", "나요/EF"),
        ("휴학 어떻게 해?", "colloquial", "어/EF"),
        ("졸업 요건을 알려줘", "colloquial", "어/EC"),
        ("실손보험 보장 범위 알려주라", "colloquial", "주+라/EF"),
        ("휴학 신청 기간", "fragment", "기간/NNG"),
        ("휴학에 관한 규정", "fragment", "규정/NNG"),
        ("복학 신청은?", "colloquial", "은/JX?"),
    ],
)
def test_labels_follow_the_final_morpheme(query, label, ending):
    f = det.detect(query)
    assert (f.label, f.ending) == (label, ending)


def test_english_is_never_colloquial_korean():
    f = det.detect("how do i apply for a scholarship lol")
    assert f.label == "english" and f.lang == "en"


def test_chat_markers_lower_the_score_and_turn_fragments_colloquial():
    plain, chatty = det.detect("휴학 어떻게 해"), det.detect("휴학 어떻게 해 ㅠㅠ")
    assert plain.score == 0.1  # one piece of evidence: the 반말 ending (level 0.1)
    assert chatty.score == pytest.approx((2 * 0.1 + 0.0) / 3, abs=1e-3)
    assert det.detect("수강신청 ㅋㅋ").label == "colloquial"
    assert det.detect("수강신청").label == "fragment"


def test_score_orders_registers():
    scores = [det.detect(q).score for q in ("등록금은 얼마입니까?", "등록금이 얼마예요?", "등록금 금액", "등록금 얼마야?")]
    assert scores == sorted(scores, reverse=True) and scores[0] == 1.0


@pytest.mark.parametrize("query", ["😀😀😀", "???", "ㅋㅋㅋ", "123", "휴학 leave of absence 신청"])
def test_odd_inputs_never_crash(query):
    assert det.detect(query).label in ("formal", "polite", "colloquial", "fragment", "english")
