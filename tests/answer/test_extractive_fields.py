"""A notice's field lines ("일시: …", "장소: …") answer what their label says, about what the notice's title names;
a count question quotes no other document's count of something else; a source line ends at its markers."""

from __future__ import annotations

from geunkeo.answer.extractive import ExtractiveAnswerer
from geunkeo.answer.slots import field_label, label_slots, states_other_count
from geunkeo.config import AnswerSettings
from geunkeo.corpus.base import Chunk
from geunkeo.retrieve.base import Hit

CEREMONY = Chunk("cer#1", "cer", "2026학년도 전기 학위수여식 안내",
                 "2026학년도 전기(2월) 학위수여식을 다음과 같이 거행합니다.\n"
                 "- 신청 기간: 2026. 1. 5.(월) ~ 1. 9.(금)\n- 일시: 2026. 2. 20.(금) 10:30\n"
                 "- 장소: 별빛캠퍼스 대강당\n- 근로 시간: 주 15시간",
                 "2026학년도 전기 학위수여식 안내 > 1. 일시 및 장소")
RULE = Chunk("rule#31", "rule", "별빛대학교 학칙", "제31조(학위 수여) ② 학위수여식은 매년 2월과 8월에 한다.",
             "별빛대학교 학칙 제31조", article="제31조")
LEAVE = Chunk("leave#1", "leave", "별빛대학교 학칙", "일반휴학: 1회 2개 학기 이내, 재학 중 통산 6개 학기 이내",
              "별빛대학교 학칙 제15조", article="제15조")
SUMMER = Chunk("summer#1", "summer", "2026학년도 계절학기 안내", "계절학기는 최대 6학점까지 신청할 수 있습니다.",
               "2026학년도 계절학기 안내")
APPLY = Chunk("apply#1", "apply", "2026학년도 1학기 휴학 신청 안내",
              "휴학하려는 학생은 기간 안에 별빛포털에서 신청하시기 바랍니다.", "2026학년도 1학기 휴학 신청 안내")


def _hits(*chunks: Chunk) -> list[Hit]:
    return [Hit(c, 1.0 - i / 10, ranks={"bm25": i + 1}) for i, c in enumerate(chunks)]


def test_field_labels_and_the_slots_they_answer():
    assert field_label("- 대여 기간: 2026. 2. 16.(월)") == "대여 기간"
    assert field_label("학위수여식을 다음과 같이 거행합니다.") is None
    assert label_slots("일시") == {"date": ""} and label_slots("신청 기간") == {"date": "신청"}
    assert label_slots("장소") == {"office": ""} and label_slots("근로 시간") == {}  # how long, not when


def test_the_date_and_place_lines_answer_when_and_where():
    ans = ExtractiveAnswerer(AnswerSettings()).answer("2026년 2월 학위수여식은 언제, 어디에서 열립니까?",
                                                      _hits(CEREMONY, RULE))
    said = [s.text for s in ans.sentences]
    assert "일시: 2026. 2. 20.(금) 10:30" in said and "장소: 별빛캠퍼스 대강당" in said
    # another date of the notice answers another question (신청 is not asked about); 근로 시간 is how long
    assert not any(t.startswith(("신청 기간", "근로 시간")) for t in said)


def test_a_count_question_quotes_no_other_documents_count_of_something_else():
    assert states_other_count("최대 6학점까지 신청할 수 있습니다.", "학기")
    assert not states_other_count("1회 2개 학기 이내", "학기")
    ans = ExtractiveAnswerer(AnswerSettings()).answer("휴학은 최대 몇 학기까지 할 수 있고 어디에 신청해?",
                                                      _hits(APPLY, LEAVE, SUMMER))
    assert ans.sentences[0].text.startswith("일반휴학: 1회 2개 학기 이내")
    assert not any("6학점" in s.text for s in ans.sentences)
    # the source line has no full stop: it ends at its marker, the next sentence does not read on from it
    assert "6개 학기 이내 [2]." in ans.text and "이내, 재학 중" in ans.text
