"""Extractive answers stay on the member of a series the question names, and stay short."""

from __future__ import annotations

from geunkeo.answer.extractive import ExtractiveAnswerer, names_other_member, ordinals, source_sentences
from geunkeo.config import AnswerSettings
from geunkeo.corpus.base import Chunk
from geunkeo.retrieve.base import Hit

FUND = """혁신펀드 2호는 올해부터 4년간 5,000억원 규모로 조성되며, 혁신펀드는 8년간 총 1조원 규모로 확대된다.
혁신펀드 1호는 4년간 총 5,133억원을 조성하고, 85개 기업에 2,824억원을 투자하였다.
혁신펀드의 운용사는 매년 공모로 선정한다."""


def _hit(text: str, n: int = 1) -> Hit:
    return Hit(chunk=Chunk(f"doc{n}#1", f"doc{n}", f"문서 {n}", text, f"문서 {n}"), score=1.0)


def test_ordinals_by_counter():
    assert ordinals("혁신펀드 1호와 3차 공고, 2단계") == {"호": {"1"}, "차": {"3"}, "단계": {"2"}}
    assert ordinals("2,824억원 4.5호") == {}  # a figure, not a member of a series
    asked = ordinals("혁신펀드 1호의 조성 금액은 얼마인가요?")
    assert names_other_member(asked, "혁신펀드 2호는 5,000억원 규모로 조성된다.")
    assert not names_other_member(asked, "1호와 2호를 합치면 1조원이다.")  # names the one asked too
    assert not names_other_member(asked, "총 5,133억원을 조성하였다.")


def test_a_sentence_about_another_member_does_not_lead():
    ans = ExtractiveAnswerer(AnswerSettings()).answer("혁신펀드 1호의 조성 금액은 얼마인가요?", [_hit(FUND)])
    assert ans.sentences[0].text.startswith("혁신펀드 1호는 4년간 총 5,133억원")


def test_supporting_sentences_stop_at_the_length_budget_but_the_fact_is_always_quoted():
    long_fact = "등록금은 학기마다 " + "정해진 절차에 따라 " * 30 + "납부한다."
    text = f"{long_fact}\n등록금 납부 기간은 3월 2일부터 3월 6일까지이다.\n등록금 분할 납부는 4회까지 가능하다."
    question = "등록금 납부 절차는 어떻게 되나요?"
    wide = ExtractiveAnswerer(AnswerSettings()).answer(question, [_hit(text)])
    assert len(wide.sentences) == 3
    budget = len(long_fact) + 30
    short = ExtractiveAnswerer(AnswerSettings(extractive_max_chars=budget)).answer(question, [_hit(text)])
    texts = [s.text for s in short.sentences]
    assert 2 <= len(texts) < 3 and sum(len(t) for t in texts) <= budget  # support stops where the budget does
    tiny = ExtractiveAnswerer(AnswerSettings(extractive_max_chars=10)).answer(question, [_hit(text)])
    assert len(tiny.sentences) == 1  # the lead is quoted although it alone is over the budget


PLAN = """정부 서비스 통합 목표는 2025년까지 누적 900종이다.
통합 서비스 목표 달성을 위해 정부 서비스 화면을 표준화한다.
정부 서비스 통합 목표는 2026년까지 누적 1,500종으로 늘어난다.
교육부와 국세청 등 4개 기관의 서비스에 우선 적용한다."""


def test_asks_several():
    from geunkeo.answer.slots import asks_several

    assert asks_several("통합 서비스는 언제 몇 종이 되며, 어떤 기관에 우선 적용되나요?")
    assert asks_several("휴학 기간과 그리고 복학 절차를 알려주세요")
    assert asks_several("What is covered and what is not?")
    assert not asks_several("등록금 납부 기간은 언제입니까?")


def test_a_question_asking_two_things_gets_a_sentence_for_each_part():
    settings = AnswerSettings(max_sentences=2)
    both = ExtractiveAnswerer(settings).answer("정부 서비스 통합 목표는 몇 종이며, 어떤 기관에 우선 적용되나요?",
                                               [_hit(PLAN)])
    assert any("4개 기관" in s.text for s in both.sentences)
    one = ExtractiveAnswerer(settings).answer("정부 서비스 통합 목표는 몇 종인가요?", [_hit(PLAN)])
    assert not any("4개 기관" in s.text for s in one.sentences)


def _page_hit(cid: str, doc: str, page: int | None, text: str) -> Hit:
    meta = {} if page is None else {"page": page}
    return Hit(chunk=Chunk(cid, doc, doc, text, doc, metadata=meta), score=1.0)


def test_the_rest_of_a_top_chunks_page_is_read_even_when_it_ranks_low():
    question = "온라인 소비에서 중국이 차지하는 비율은 얼마인가요?"
    filler = [_page_hit(f"other{i}#1", f"other{i}", 1, f"이커머스 시장은 해마다 {i}조원씩 커지고 있다.")
              for i in range(3)]
    head = _page_hit("report-p5#s1", "report-p5", 5, "2020년 글로벌 이커머스 시장규모는 4.2조 USD를 넘어섰다.")
    tail_text = "시장 규모가 가장 큰 나라는 중국으로, 전 세계 온라인 소비의 40.5%가 중국에서 창출되고 있다."
    tail = _page_hit("report-p5#s2", "report-p5", 5, tail_text)
    answer = ExtractiveAnswerer(AnswerSettings()).answer(question, [head, *filler, tail])
    assert any("40.5%" in s.text for s in answer.sentences)
    # a chunk without pages (a regulation's later article) is not pulled in that way
    unpaged = [_page_hit("reg#1", "reg", None, "이 규정은 이커머스 거래에 적용한다."), *filler,
               _page_hit("reg#9", "reg", None, tail_text)]
    answer = ExtractiveAnswerer(AnswerSettings()).answer(question, unpaged)
    assert not any("40.5%" in s.text for s in answer.sentences)


def test_fragments_that_look_like_sentences_are_not_quoted():
    text = ("의료진이 진료를 권유함에 있어 상식적인 내용까지 설명할 필요는 없다. 다만 의학 지식이 미비한 상태에서는 환자가 "
            "자기결정을 하기 어려우므로. 사업자는 물품등으로 인하여(제19조 제1항, 아울러 소비자에게 생명. "
            "휴학 기간은 2년 이내로 한다. 관련 법령 개정.")
    assert source_sentences(text) == ["의료진이 진료를 권유함에 있어 상식적인 내용까지 설명할 필요는 없다.",
                                      "휴학 기간은 2년 이내로 한다.", "관련 법령 개정."]


def test_a_koreancompound_holds_the_questions_noun():
    from geunkeo.answer.extractive import compound_holds

    assert compound_holds("수강", frozenset({"재수강", "성적"}))
    assert not compound_holds("수강", frozenset({"수강", "성적"}))  # equal terms match directly, not here
    assert not compound_holds("하다", frozenset({"신청하다"}))  # verbs are not compounds
    assert compound_holds("과목", frozenset({"교과목", "성적", "a0"}))  # "재수강한 과목은 …" ← "재수강한 교과목의 성적은 A0 …"


def test_an_upper_bound_word_says_what_is_asked_not_what_it_is_about():
    # both passages count 학점; the question asks the most, so the larger count leads and the other is still shown
    summer = Hit(chunk=Chunk("summer#s3", "summer", "계절학기 수강신청 안내", "- 최대 6학점까지 신청할 수 있습니다.\n"
                             "- 수강료는 1학점당 85,000원입니다.", "계절학기 수강신청 안내"), score=1.0)
    rules = Hit(chunk=Chunk("hakchik#제9조", "hakchik", "학칙", "제9조(수강신청) ① 학생은 매 학기 12학점 이상 19학점 이하로 "
                            "수강신청을 하여야 한다.\n② 직전 학기 평점평균이 4.00 이상인 학생은 22학점까지 신청할 수 있다.",
                            "학칙 제9조"), score=0.9)
    ans = ExtractiveAnswerer(AnswerSettings()).answer("한 학기에 최대 몇 학점까지 들을 수 있어?", [summer, rules])
    assert "19학점 이하" in ans.sentences[0].text
    assert any("6학점" in s.text for s in ans.sentences[1:])


def test_passages_that_count_the_asked_unit_differently_are_both_shown():
    sick = Hit(chunk=Chunk("rules#a17", "rules", "학칙", "제17조(질병휴학) ② 질병휴학은 통산 4개 학기 이내로 한다.",
                           "학칙 제17조"), score=1.0)
    notice = Hit(chunk=Chunk("notice#s3", "notice", "휴학 안내", "- 일반휴학: 재학 중 통산 6개 학기 이내", "휴학 안내"),
                 score=0.98)
    ans = ExtractiveAnswerer(AnswerSettings()).answer("휴학은 몇 학기까지 할 수 있어?", [sick, notice])
    said = " ".join(s.text for s in ans.sentences)
    assert "4개 학기" in said and "6개 학기" in said
    most = ExtractiveAnswerer(AnswerSettings()).answer("휴학은 최대 몇 학기까지 할 수 있어?", [sick, notice])
    assert "6개 학기" in most.sentences[0].text


def test_a_count_question_leads_with_a_number_of_the_asked_unit():
    title = "2025학년도 1학기 휴학 신청 안내"
    s1 = Hit(chunk=Chunk("leave#s1", "leave", title, "2025학년도 1학기에 휴학하려는 학생은 아래 내용을 확인하고 기간 안에 "
                         "한빛포털에서 신청하시기 바랍니다.", title), score=1.0)
    s3 = Hit(chunk=Chunk("leave#s3", "leave", title, "2. 신청 대상 및 휴학 종류\n- 일반휴학: 1회 2개 학기 이내, 재학 중 통산 "
                         "6개 학기(3년) 이내\n- 군입대휴학: 복무 기간 전체", title), score=0.99)
    summer = Hit(chunk=Chunk("summer#s3", "summer", "계절학기 수강신청 안내", "- 최대 6학점까지 신청할 수 있습니다.",
                             "계절학기 수강신청 안내"), score=0.98)
    ans = ExtractiveAnswerer(AnswerSettings()).answer("휴학은 최대 몇 학기까지 할 수 있고 어디에 신청해?", [s1, s3, summer])
    assert ans.sentences[0].text.startswith("일반휴학: 1회 2개 학기 이내")
    from geunkeo.answer.slots import count_unit, states_count_of

    assert count_unit("몇 번 받으면 제적됩니까?") == "(?:번|회|차례)" and states_count_of("연속하여 3회 받은 경우", "(?:번|회|차례)")
    assert not states_count_of("2025학년도 1학기에 휴학하려는", "학기") and not states_count_of("최대 6학점", "학기")


def test_a_section_heading_never_leads_an_answer():
    from geunkeo.answer.extractive import is_heading

    assert is_heading("Ⅲ. 사업 개요") and is_heading("가. 지원 대상")
    assert not is_heading("지원 금액: 월 30만 원") and not is_heading("최대 3회") and not is_heading("접수는 끝났습니다.")
    page = Hit(chunk=Chunk("plan#p2", "plan", "청년 창업 지원 계획", "Ⅲ. 창업 지원 개요\n창업 지원금은 1인당 최대 500만 원을 "
                           "지급한다.", "p.2"), score=1.0)
    ans = ExtractiveAnswerer(AnswerSettings()).answer("창업 지원 개요 알려줘", [page])
    assert ans.sentences and "500만 원" in ans.sentences[0].text


def test_counts_ignore_calendar_years_and_listed_semesters():
    from geunkeo.answer.slots import counts_of

    assert counts_of("2026년 3월부터 시행한다", "년") == set() and counts_of("최대 4년까지 가능", "년") == {"4"}
    assert "12" not in counts_of("1,2학기 중에 신청한다", "학기") and counts_of("1,000회 이상", "회") == {"1000"}


def test_a_unit_sharing_nothing_with_the_question_is_not_quoted_when_others_do():
    from geunkeo.answer.extractive import Unit, _Candidate

    bare = _Candidate(0, Unit("접수는 온라인으로 이루어집니다.", 0), frozenset({"접수", "온라인"}), 0.0, False, 0.0, prob=0.6)
    topic = _Candidate(0, Unit("전자책 대출 서비스는 지역 도서관의 전자책을 빌려 줍니다.", 1),
                       frozenset({"전자책", "대출", "서비스"}), 0.8, False, 0.0, prob=0.4)
    chosen = ExtractiveAnswerer(AnswerSettings())._choose([bare, topic], ["svc"])
    assert [c.unit.position for c in chosen] == [1]
    # with no unit sharing a word (a question in another language), the most probable still leads
    other = _Candidate(0, Unit("전자책 대출 서비스는 지역 도서관의 전자책을 빌려 줍니다.", 1), frozenset(), 0.0, False, 0.0, prob=0.4)
    assert ExtractiveAnswerer(AnswerSettings())._choose([bare, other], ["svc"])[0] is bare


def test_a_chapter_title_is_a_heading_whatever_its_ending():
    from geunkeo.answer.extractive import is_heading

    assert is_heading("Ⅲ 이렇게 바뀝니다")
    assert is_heading("IV. 향후 추진 계획")
    assert not is_heading("I am a new student.")
    assert not is_heading("Ⅱ 지원 한도는 연 300만 원입니다")  # a figure: it states something
