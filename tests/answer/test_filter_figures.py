"""The hallucination filter checks every figure of an answer: one no context (nor the question) gives goes with its
clause, or gives way to a phrase of what it counts when its clause carries the sentence; figures the contexts give in
another notation stay."""

from __future__ import annotations

from geunkeo.answer.filter import HallucinationFilter
from geunkeo.corpus.base import Chunk

FILTER = HallucinationFilter()

FEES = Chunk("dm#7", "dm", "한솔대학교 생활관 운영규정", "제7조(관리비) ① 관리비는 2인실 1,250,000원, 4인실 980,000원으로 한다.\n"
             "② 관리비는 입사일부터 14일 이내에 납부하며 2회까지 나누어 낼 수 있다.\n③ 퇴사하는 경우 남은 관리비의 80%를 "
             "반환한다.\n부칙 이 규정은 2027년 3월 2일부터 시행한다.", "제7조", article="제7조")
NOTICE = Chunk("nt#1", "nt", "2027학년도 1학기 생활관 입사 안내", "1. 신청: 2027. 1. 18.(월) 10:00 ~ 1. 22.(금) 17:00\n"
               "2. 발표: 2027. 2. 3.(수) 14:00\n3. 입사: 2027. 2. 27.(토) ~ 2. 28.(일)\n문의: 생활관 행정실 02-555-0142",
               "입사 안내")
EN_FEES = Chunk("rf#2", "rf", "Larchmont Residence Fees", "2.1 The weekly rent is $245 for a single room and $190 for a "
                "shared room. 2.2 A bond of four (4) weeks' rent is payable. 2.3 Notice of at least 28 days is required "
                "to end a licence. 2.4 The office is on Level 2 of Hale House and opens 9am to 4.30pm.", "Section 2",
                lang="en")


def _filtered(answer: str, contexts: list[Chunk], lang: str, question: str = "") -> tuple[str, list[str]]:
    res = FILTER.apply(answer, contexts, lang=lang, question=question)
    return res.text, [r.value for r in res.report.removed]


def test_figures_the_contexts_give_in_any_notation_stay():
    answer = ("2인실 관리비는 125만 원이고 두 번에 나누어 낼 수 있으며, 입사일부터 2주 안에 내야 합니다. 신청은 1월 18일(월) "
              "오전 10시부터 1월 22일(금) 오후 5시까지이고, 결과는 2월 3일 14시에 나옵니다.")
    assert _filtered(answer, [FEES, NOTICE], "ko") == (answer, [])
    en = "Rent for a single room is $245 a week, the bond is four weeks' rent, and you must give 28 days' notice."
    assert _filtered(en, [EN_FEES], "en") == (en, [])


def test_an_invented_amount_goes_with_its_list_item():
    text, removed = _filtered("관리비는 2인실 1,250,000원, 1인실 1,600,000원, 4인실 980,000원입니다.", [FEES], "ko")
    assert removed == ["1,600,000원"]
    assert text == "관리비는 2인실 1,250,000원, 4인실 980,000원입니다."


def test_an_invented_last_item_hands_its_copula_to_the_item_before():
    text, removed = _filtered("관리비는 2인실 1,250,000원, 4인실 900,000원입니다.", [FEES], "ko")
    assert (text, removed) == ("관리비는 2인실 1,250,000원입니다.", ["900,000원"])


def test_an_invented_clause_goes_and_the_clause_before_is_closed():
    text, removed = _filtered("관리비는 입사일부터 14일 이내에 내야 하고, 퇴사하면 남은 관리비의 90%를 돌려받습니다.", [FEES], "ko")
    assert (text, removed) == ("관리비는 입사일부터 14일 이내에 내야 합니다.", ["90%"])


def test_an_invented_figure_in_an_aside_goes_with_the_aside():
    text, removed = _filtered("관리비는 2인실 1,250,000원(식비 450,000원 별도)이며 입사일부터 14일 이내에 냅니다.", [FEES], "ko")
    assert (text, removed) == ("관리비는 2인실 1,250,000원이며 입사일부터 14일 이내에 냅니다.", ["450,000원"])


def test_a_figure_carrying_its_sentence_gives_way_to_what_it_counts():
    text, removed = _filtered("관리비는 입사일부터 10일 이내에 납부해야 합니다.", [FEES], "ko")
    assert (text, removed) == ("관리비는 입사일부터 일정 기간 이내에 납부해야 합니다.", ["10일"])
    text, removed = _filtered("You must give at least 30 days' notice to end your licence.", [EN_FEES], "en")
    assert (text, removed) == ("You must give at least a set period's notice to end your licence.", ["30 days"])
    # the figure is all the sentence says: nothing is left to say
    assert _filtered("4인실 관리비는 950,000원입니다.", [FEES], "ko") == ("", ["950,000원"])


def test_a_date_with_the_wrong_weekday_or_day_goes():
    text, removed = _filtered("합격자 발표는 2월 3일(목) 14시입니다.", [NOTICE], "ko")
    assert removed == ["2월 3일(목)"] and "2월 3일" not in text
    text, removed = _filtered("입사는 2월 27일(토)부터 가능하고, 신청은 1월 25일까지 받습니다.", [NOTICE], "ko")
    assert (text, removed) == ("입사는 2월 27일(토)부터 가능합니다.", ["1월 25일"])


def test_an_english_invented_clause_goes_and_the_main_clause_stays():
    text, removed = _filtered("The office is on Level 2 of Hale House, and it opens at 6pm.", [EN_FEES], "en")
    assert (text, removed) == ("The office is on Level 2 of Hale House.", ["6pm"])
    # a clause that also holds a supported figure stays, a phrase standing in for the invented one
    text, removed = _filtered("The office is on Level 2 of Hale House, and it opens from 9am to 6pm.", [EN_FEES], "en")
    assert (text, removed) == ("The office is on Level 2 of Hale House, and it opens from 9am to the set time.", ["6pm"])
    # "Under section 2.1" is no clause to keep alone: the amount gives way to a phrase instead
    text, removed = _filtered("Under section 2.1, a single room costs $260 a week.", [EN_FEES], "en")
    assert (text, removed) == ("Under section 2.1, a single room costs a set amount a week.", ["$260"])


def test_figures_of_the_question_years_articles_and_worked_examples_are_not_removed():
    answer = "3인실은 이 규정에 없고, 관리비 규정은 2027년부터 시행되며 제7조 제2항에 따라 2회까지 나누어 낼 수 있습니다."
    assert _filtered(answer, [FEES], "ko", question="3인실 관리비는 얼마예요?") == (answer, [])
    example = "예를 들어 4인실에 10주 동안 살면 관리비는 980,000원입니다."
    assert _filtered(example, [FEES], "ko") == (example, [])


def test_a_floor_the_contexts_do_not_give_goes_and_the_building_stays():
    text, removed = _filtered("Hale House 3층에 있는 사무실에서 신청하세요.", [EN_FEES], "ko")
    assert (text, removed) == ("Hale House에 있는 사무실에서 신청하세요.", ["3층"])
    assert _filtered("사무실은 Hale House 2층에 있습니다.", [EN_FEES], "ko")[1] == []  # "Level 2"


def test_a_looping_answer_loses_every_repeated_figure_and_keeps_the_real_sentence():
    answer = "Rent for a single room is $245 a week. You can pay it " + "within 17 days, " * 1500 + "online."
    res = FILTER.apply(answer, [EN_FEES], lang="en")
    assert "17 days" not in res.text and res.text.startswith("Rent for a single room is $245 a week.")
    assert [r.value for r in res.report.removed] == ["17 days"] * 1500


def test_a_figure_of_the_cited_documents_title_is_supported():
    chunk = Chunk("notice#s2", "notice", "2031학년도 2학기 복학 신청 안내", "신청 기간: 7월 1일 ~ 7월 20일",
                  "2031학년도 2학기 복학 신청 안내 > 1. 신청 기간")
    text = "They are from 2031학년도 2학기 복학 신청 안내 > 1. 신청 기간 and give: 7월 1일, 7월 20일."
    out, removed = _filtered(text, [chunk], "en")
    assert out == text and not removed
