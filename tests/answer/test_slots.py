"""What a question asks for, and whether a sentence carries it: a length of time is not a point in time."""

from geunkeo.answer.slots import question_slots, sentence_slots


def test_a_length_of_time_is_asked_apart_from_a_date():
    assert question_slots("How long may a student stay on medical leave?")[0] == "duration"
    assert question_slots("등록 유예는 얼마나 오래 가능해?") == ["duration"]
    assert question_slots("심사 처리에 얼마나 걸려?") == ["duration"]
    assert question_slots("교환학생 파견 기간은 최대 얼마인가요?")[0] == "duration"
    # a point in time, and money spent, are not lengths
    assert question_slots("성적 정정 신청 기간은 언제야?") == ["date"]
    assert question_slots("When does the second term start?") == ["date"]
    assert question_slots("설치 비용이 얼마나 소요되나요?") == ["amount"]


def test_a_time_within_which_something_happens_is_a_length_even_beside_a_word_holding_won():
    # 원 inside a word (위원회, 지원) is no currency; "얼마 이내", "기간은 몇 주" ask a length of time
    assert question_slots("심의위원회는 신청을 받은 후 얼마 이내에 결정하나요?") == ["duration"]
    assert question_slots("시범 운영 기간은 몇 주야?")[0] == "duration"
    assert question_slots("지원금은 얼마 이내로 받을 수 있나요?")[0] == "amount"  # 지원금: money
    assert question_slots("10만 원 넘으면 며칠 안에 환불돼?")[0] == "duration"


def test_a_sentence_gives_a_length_or_a_calendar_date():
    assert "duration" in sentence_slots("유예는 1회에 2개 학기 이내로 한다.")
    assert "duration" in sentence_slots("심사는 접수 후 약 3주일 정도 걸립니다.")
    assert "duration" in sentence_slots("Leave may last for up to two semesters.")
    assert "duration" in sentence_slots("Claims must be filed within 30 days.")
    assert "duration" not in sentence_slots("수업일수 2분의 1이 지나기 전까지")  # a fraction, not two minutes
    for date in ("신청: 2026. 2. 2.(월) 10:00 ~ 2026. 2. 27.(금) 17:00", "2026년 4월 17일까지 제출한다."):
        assert "duration" not in sentence_slots(date) and "date" in sentence_slots(date)
