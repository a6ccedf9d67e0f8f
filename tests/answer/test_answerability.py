"""Questions the documents do not answer are withheld, with the nearest documents listed; answerable ones are not."""

from __future__ import annotations

import geunkeo
from geunkeo.answer.answerability import AbsentWord, absent_from_cited, assess, question_focus
from geunkeo.answer.parts import build_parts
from geunkeo.answer.pipeline import answer_hits
from geunkeo.config import Settings
from geunkeo.corpus.base import Chunk
from geunkeo.retrieve.base import Hit

DORM = Chunk("dorm#제9조", "dorm", "생활관 운영 규정",
             "제9조(관리비) ① 관리비는 학기 단위로 납부하며, 누리관 2인실 관리비는 1,260,000원이다.\n"
             "② 자진 퇴사하는 관생의 관리비는 퇴사일을 기준으로 환불한다.",
             "생활관 운영 규정 제9조(관리비)")
DAY = Chunk("notice#s3", "notice", "학위수여식 안내",
            "학위수여식 당일에는 교내 주차가 제한되므로 대중교통을 이용해 주시기 바랍니다.",
            "학위수여식 안내 > 교통")
LEAVE = Chunk("hakchik#제15조", "hakchik", "학칙",
              "제15조(일반휴학) ① 학생은 개인 사정으로 휴학할 수 있다.\n"
              "② 일반휴학은 1회에 2개 학기 이내로 하며, 재학 기간 중 통산 6개 학기를 넘을 수 없다.\n"
              "③ 입학 첫 학기의 신입생은 일반휴학을 할 수 없다. 다만, 군입대휴학은 그러하지 아니하다.",
              "학칙 제15조(일반휴학)")


def _hits(*chunks: Chunk) -> list[Hit]:
    return [Hit(c, 1.0 - i / 10, ranks={"bm25": i + 1, "dense": i + 1}) for i, c in enumerate(chunks)]


def test_focus_is_the_topic_noun_before_the_question_word():
    assert question_focus("기숙사 주차비는 얼마야?") == "주차비"
    assert question_focus("지방은행이 시중은행 전환 인가를 신청할 때 내야 하는 인가 신청 수수료는 얼마인가요?") == "수수료"
    assert question_focus("현행 계약형 퇴직연금제도의 주요 차이점은 무엇인가요?") == "퇴직연금제도"  # 차이점: generic
    assert question_focus("예비인가를 받을 필요가 있는지 설명하시오.") is None  # no question word


def test_a_question_about_something_the_documents_lack_is_withheld_with_the_nearest_documents():
    hits = _hits(DORM, DAY)
    able = assess("기숙사 주차비는 얼마야?", hits)
    assert able.unmatched == ["주차비"]
    ans = answer_hits("기숙사 주차비는 얼마야?", hits, build_parts(Settings()))
    assert ans.gate.action == "escalate"
    assert ans.gate.reasons[0].startswith("not_answered")
    assert ans.text.startswith("제공된 문서에서 이 질문에 대한 내용은 확인되지 않습니다.")
    assert "참고할 수 있는 문서: [1] 생활관 운영 규정 제9조(관리비)" in ans.text
    assert ans.draft  # what the answerer would have said stays inspectable


def test_an_answerable_question_is_answered_fact_first():
    ans = answer_hits("일반휴학은 최대 몇 학기까지 할 수 있나요?", _hits(LEAVE, DORM), build_parts(Settings()))
    assert ans.gate.action == "answer", ans.gate.reasons
    assert ans.sentences[0].text.startswith("② 일반휴학은 1회에 2개 학기 이내로 하며")
    assert ans.gate.checks["answerability"] >= Settings().answer.gate_min_answerability


def test_a_figure_must_stand_next_to_the_focus_when_one_is_asked():
    # the chunk names 관리비 but states no amount for the 보증금 it also names
    chunk = Chunk("dorm#제7조", "dorm", "생활관 운영 규정", "제7조(보증금) ① 관생은 입사할 때 보증금을 낸다.\n"
                  "② 보증금은 퇴사 후 돌려준다.", "생활관 운영 규정 제7조(보증금)")
    assert assess("생활관 보증금은 얼마인가요?", _hits(chunk)).unmatched == ["보증금 (amount)"]


def test_a_year_the_question_names_must_be_in_the_documents():
    assert assess("2031년 일반휴학은 최대 몇 학기인가요?", _hits(LEAVE)).unmatched == ["2031"]
    assert assess("2031년 일반휴학은 최대 몇 학기인가요?", _hits(Chunk(
        "n#s1", "n", "안내", "'31년 일반휴학은 통산 6개 학기를 넘을 수 없다.", "안내"))).unmatched == []


def test_an_expansion_stands_in_for_the_colloquial_word_it_came_from():
    chunk = Chunk("dorm#제20조", "dorm", "생활관 운영 규정", "제20조(출입) 생활관 출입 제한 시간은 오전 1시부터 5시까지이다.",
                  "생활관 운영 규정 제20조(출입)")
    terms = {"기숙사": 1.0, "통금": 1.0, "출입": 0.5, "제한": 0.5, "생활관": 0.2}
    sources = {"기숙사": "query", "통금": "query", "출입": "slang:통금→출입 제한", "제한": "slang:통금→출입 제한",
               "생활관": "기숙사→생활관"}
    assert assess("기숙사 통금 몇 시야?", _hits(chunk), terms).unmatched == ["통금"]
    able = assess("기숙사 통금 몇 시야?", _hits(chunk), terms, sources)
    assert able.unmatched == [] and able.missing == [] and able.score == 1.0


def test_top_level_ask_is_exported():
    assert "ask" in geunkeo.__all__ and callable(geunkeo.ask)


def test_a_number_in_the_chunks_answers_a_question_asking_whom_to_call():
    contacts = Chunk(chunk_id="r#15", doc_id="r", title="장학금 지급 규정", location="제15조(문의처)", lang="ko",
                     text="제15조(문의처) 장학금에 관한 문의는 학생처 장학복지팀(02-2100-1330)에서 받는다.")
    asked = "장학금 관련해서 문의하려면 어느 부서 전화번호로 연락해야 돼?"
    res = assess(asked, _hits(contacts))
    assert res.missing == [] and res.score == 1.0
    no_number = Chunk(chunk_id="r#3", doc_id="r", title="장학금 지급 규정", location="제3조", lang="ko",
                      text="제3조(장학금의 종류) 장학금은 성적장학금과 가계곤란장학금으로 나누며 학생처에서 관리한다.")
    assert {"전화번호", "연락"} <= set(assess(asked, _hits(no_number)).missing)


def test_an_english_question_counts_its_focus_and_is_withheld_when_the_top_chunks_lack_it():
    assert question_focus("How many semesters of leave of absence can I take?") == "semesters"
    assert question_focus("How much does it cost?") is None
    terms = Chunk(chunk_id="p#18", doc_id="p", title="Accident Insurance Terms", location="Article 18", lang="en",
                  text="Article 18 (Termination) Termination may be requested at a branch and takes effect on the day "
                       "the Company receives the request. The policyholder may apply for termination at any time.")
    res = assess("How many semesters of leave of absence can I take, and where do I apply?", _hits(terms))
    assert res.unmatched == ["semesters"]
    # the asker is told the answer could not be confirmed, not that the documents are silent on it
    ans = answer_hits("How many semesters of leave of absence can I take, and where do I apply?", _hits(terms),
                      build_parts(Settings()))
    assert ans.gate.action == "escalate"
    assert ans.text.startswith("An answer to this could not be confirmed in the documents")
    assert "do not say" not in ans.text


LICENCE = Chunk("bank#3", "bank", "은행업 인가 심사 기준",
                "은행업 인가 신청서의 심사 기간은 접수일부터 3개월 이내로 하며, 인가 갱신은 5년마다 한다.",
                "은행업 인가 심사 기준")
COURSE = Chunk("grade#3", "grade", "학업성적 처리 규정",
               "상대평가 교과목의 A등급은 수강생의 30퍼센트 이내로 부여하고, 근로 가능 시간은 주 15시간 이내로 한다.",
               "학업성적 처리 규정")


def test_a_noun_of_the_asked_phrase_no_top_chunk_holds_withholds_the_answer():
    assert question_focus("운전면허 적성검사 갱신 기간은 언제까지인가요?") == "갱신"
    assert question_focus("운전면허 적성검사 갱신 기간은 언제까지인가요?", phrase=True) == "운전면허 적성검사 갱신"
    able = assess("운전면허 적성검사 갱신 기간은 언제까지인가요?", _hits(LICENCE))
    assert able.unmatched and able.unmatched[0].startswith("운전면허 적성검사 갱신")
    # the asked phrase is in the documents: 교과목 holds 과목, and 가능 only qualifies the asked noun
    assert assess("상대평가 과목 A등급 비율은 얼마야?", _hits(COURSE)).unmatched == []
    assert assess("근로 가능 시간은 얼마나 돼?", _hits(COURSE)).unmatched == []


SUMMER = Chunk("summer#3", "summer", "학사운영 규정",
               "③ 계절학기 수강료는 1학점당 85,000원으로 하며, 수강신청 인원이 15명 미만인 교과목은 폐강할 수 있다.",
               "학사운영 규정 제9조")


def test_a_colloquial_questions_own_generic_nouns_are_not_its_topic():
    # 돈 asks for the amount, 처음 and 사람 say nothing of the topic; a summary request's 규정 and 핵심 neither
    assert assess("계절학기 학점당 돈 얼마임?", _hits(SUMMER)).unmatched == []
    assert assess("일반휴학 규정 핵심만 알려줘", _hits(LEAVE)).score >= 0.4
    assert assess("기숙사 주차비는 얼마야?", _hits(DORM, DAY)).unmatched == ["주차비"]  # still withheld


def test_a_noun_made_a_modifier_by_jeok_is_not_a_topic_word():
    able = assess("계절학기 수강료는 경제적으로 얼마나 부담돼?", _hits(SUMMER))
    assert "경제" not in able.missing and "수강료" not in able.missing


def test_a_plan_the_question_numbers_that_the_documents_do_not_name_is_unmatched():
    plan = Chunk("plan#p3", "plan", "제2차 청년 주거 지원 기본계획", "제2차 계획은 공공임대 공급 비율을 15% 이상으로 정한다.",
                 "제2차 청년 주거 지원 기본계획 p.3")
    other = assess("제3차 청년 주거 지원 기본계획의 공공임대 공급 비율은 몇 %인가요?", _hits(plan))
    assert other.unmatched and "3차" in other.unmatched[-1] and "2차" in other.unmatched[-1]
    same = assess("제2차 청년 주거 지원 기본계획의 공공임대 공급 비율은 몇 %인가요?", _hits(plan))
    assert not any("차" in u for u in same.unmatched)
    unnumbered = Chunk("plan#p4", "plan", "청년 주거 지원 계획", "공공임대 공급 비율은 15% 이상이다.", "p.4")
    assert not any("차" in u for u in assess("제3차 계획의 공공임대 공급 비율은?", _hits(unnumbered)).unmatched)


def test_a_year_written_short_must_be_in_the_documents_too():
    # "'32학년도", "32학년도", "32년 하반기" name 2032; a bare "10년" is a duration, not a year
    assert "2032" in assess("'32학년도 일반휴학은 최대 몇 학기인가요?", _hits(LEAVE)).unmatched
    assert "2032" in assess("32학년도 일반휴학은 최대 몇 학기인가요?", _hits(LEAVE)).unmatched
    assert "2032" in assess("32년 하반기 일반휴학은 최대 몇 학기야?", _hits(LEAVE)).unmatched
    assert assess("10년 재학하면 일반휴학은 최대 몇 학기인가요?", _hits(LEAVE)).unmatched == []
    stated = Chunk("n#s2", "n", "안내", "'32학년도 일반휴학은 통산 6개 학기를 넘을 수 없다.", "안내")
    assert assess("32학년도 일반휴학은 최대 몇 학기인가요?", _hits(stated)).unmatched == []
    assert assess("2032년 일반휴학은 최대 몇 학기인가요?", _hits(stated)).unmatched == []


def test_an_ordinal_the_documents_give_another_of_is_unmatched():
    from geunkeo.answer.answerability import other_members

    park = Chunk("env#p2", "env", "환경 업무계획", "17번째 생태공원 지정 등 여가 기반 확충을 추진한다.", "p.2")
    assert other_members("16번째 생태공원은 언제 지정됐어?", _hits(park)) != []
    assert other_members("17번째 생태공원은 언제 지정됐어?", _hits(park)) == []


def test_an_article_item_is_no_series_member_and_counts_compare_as_numbers():
    from geunkeo.answer.answerability import other_members

    rules = Chunk("rules#a10", "rules", "장학 규정", "제10조(지급 제한) 다음 제1호 및 제3호의 학생에게는 지급하지 않는다.",
                  "장학 규정 제10조")
    assert other_members("제10조 제2호에 해당하면 장학금을 못 받나요?", _hits(rules)) == []
    assert other_members("시행령 19조3항1호 다목, 2호에 해당하는 경우는?", _hits(rules)) == []
    cohort = Chunk("cohort#p1", "cohort", "청년 인턴", "02기 인턴은 2024년에 선발되었다.", "p.1")
    assert other_members("2기 인턴은 언제 뽑았어?", _hits(cohort)) == []
    assert other_members("3기 인턴은 언제 뽑았어?", _hits(cohort)) != []


MARKET = Chunk("ads#p3", "ads", "중고거래 앱 광고 사례",
               "번개마켓 캠페인: 티저 광고 조회 수 120만, 본편 조회 수 480만을 기록했다.", "광고 사례 > 성과")


def test_a_rare_question_word_the_quoted_passage_lacks_is_reported_rarest_first():
    rarity = {"호박마켓": 0.9, "캠페인": 0.3, "티저": 0.7, "광고": 0.2, "조회": 0.3}
    other = Chunk("ads#p9", "ads", "중고거래 앱 광고 사례", "호박마켓은 이용률이 높다.", "광고 사례 > 이용")
    absent = absent_from_cited("호박마켓 캠페인의 티저 광고 조회 수는 얼마야?", _hits(MARKET), rarity, others=_hits(other))
    assert absent == [AbsentWord("호박마켓", 0.9, True)]  # 캠페인, 티저, 광고, 조회 are quoted; 얼마 asks, 수 is generic
    assert absent_from_cited("호박마켓 캠페인은?", _hits(MARKET), rarity) == [AbsentWord("호박마켓", 0.9, False)]


def test_words_of_the_question_held_by_the_quoted_title_or_location_are_not_absent():
    hits = _hits(LEAVE)
    assert absent_from_cited("신입생 휴학은 몇 학기까지야?", hits, {"휴학": 0.6}) == []
    assert absent_from_cited("학칙의 일반휴학은?", hits, {}) == []  # 학칙: the title
    assert absent_from_cited("학칙의 일반휴학 조항은?", hits, {}) == [AbsentWord("조항", 0.5, False)]  # unknown: middling


def test_an_expansion_quoted_stands_for_the_askers_word():
    sources = {"관리비": "slang:기숙사비→관리비"}
    assert absent_from_cited("기숙사비 얼마?", _hits(DORM), {"기숙사비": 1.0}, sources) == []
    assert absent_from_cited("기숙사비 얼마?", _hits(DORM), {"기숙사비": 1.0}) == [AbsentWord("기숙사비", 1.0, False)]


def test_a_question_in_another_language_than_the_quoted_passages_is_not_judged():
    assert absent_from_cited("How much is the dormitory fee at Pumpkin Hall?", _hits(DORM), {}) == []


NOTICE = Chunk("clinic#s2", "clinic", "보건센터 예방접종 안내",
               "독감 예방접종은 재학생 1인당 1회 무료이며, 접종 인원은 하루 120명으로 제한합니다.\n"
               "접종 후 이상 반응이 있으면 보건센터로 연락하십시오.", "보건센터 예방접종 안내 > 접종")


def test_a_noun_placing_the_question_in_time_is_not_its_focus():
    assert question_focus("신청서를 받은 후 얼마 이내에 결정하나요?") == "신청서"  # 후 after a modifier ending
    assert question_focus("접수 처리까지 며칠 걸려?") == "처리"  # a noun before 까지 is still the topic


def test_a_count_in_a_unit_needs_a_number_of_that_unit_in_the_top_chunks():
    counted = assess("예방접종 하루 몇 명까지 받아?", _hits(NOTICE))
    assert not counted.unmatched
    about = Chunk("clinic#s3", "clinic", "보건센터 예방접종 안내", "접종 신청 기관은 2025년 기준 200여개입니다.", "보건센터 > 기관")
    assert not assess("접종 신청 기관 몇 개야?", _hits(about)).unmatched  # "200여개" gives a number of 개
    other = assess("접종 이상 반응은 몇 건 있었어?", _hits(NOTICE))  # 120명 and 1회 count other things
    assert other.unmatched and "건" in other.unmatched[-1]


def test_a_question_word_the_chunks_write_with_other_spacing_is_not_missing():
    spaced = Chunk("zone#s1", "zone", "지원 안내", "기회발전 특구로 이전하는 기업은 취득세를 감면받는다.", "지원 안내")
    able = assess("기회발전특구로 이전하면 취득세 감면돼?", _hits(spaced))
    assert "기회발전특구" not in able.missing
