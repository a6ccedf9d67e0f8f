"""An unsupported floor or level of a place is a figure of its sentence, not a contact: it goes and its building,
its clause and the rest of the sentence stay, with no contact sentence; a test's level takes a stand-in or its
clause (issue 30)."""

from geunkeo.answer.filter import HallucinationFilter
from geunkeo.corpus.base import Chunk

FILTER = HallucinationFilter()
EN_HUB = Chunk("sh#1", "sh", "Student Hub Guide", "1.1 The Student Hub is on Level 4 of Marlow House and opens 8.30am "
               "to 5pm. 1.2 Call 03 9555 0177 for bookings.", "Section 1", lang="en")
KO_HUB = Chunk("hs#1", "hs", "학생지원 안내", "학생지원센터는 솔빛관 5층에 있으며 평일 9시부터 17시까지 운영한다.", "안내")
CONTACT_EN = "Please contact the responsible office directly for contact details."


def _run(answer: str, ctx: Chunk, lang: str) -> tuple[str, list[tuple[str, str]]]:
    res = FILTER.apply(answer, [ctx], lang=lang)
    return res.text, [(r.kind, r.value) for r in res.report.removed]


def test_an_invented_english_floor_goes_and_its_building_and_clauses_stay():
    assert _run("The Student Hub is on Level 6 of Marlow House and opens at 8.30am [1].", EN_HUB, "en") == (
        "The Student Hub is in Marlow House and opens at 8.30am [1].", [("count", "Level 6")])
    assert _run("The Student Hub is on the 2nd floor of Marlow House [1].", EN_HUB, "en") == (
        "The Student Hub is in Marlow House [1].", [("count", "2nd floor")])
    # the floor the context gives stays as it is
    kept = "The Student Hub is on Level 4 of Marlow House and opens at 8.30am [1]."
    assert _run(kept, EN_HUB, "en") == (kept, [])


def test_a_floor_said_alone_takes_its_sentence_and_no_contact_sentence_follows():
    text, removed = _run("The Student Hub is on Level 7 [1]. It opens at 8.30am [1].", EN_HUB, "en")
    assert (text, removed) == ("It opens at 8.30am [1].", [("count", "Level 7")])
    text, _ = _run("The Student Hub is on Level 7 and opens at 8.30am [1].", EN_HUB, "en")
    assert text == "The Student Hub is on a set floor and opens at 8.30am [1]." and CONTACT_EN not in text


def test_a_tests_level_no_context_gives_takes_a_stand_in_or_its_clause():
    assert _run("You need OET Level 3 to enrol [1].", EN_HUB, "en") == (
        "You need a set OET level to enrol [1].", [("count", "Level 3")])
    text, removed = _run("You need OET Level 3 to enrol, and the Student Hub is on Level 4 of Marlow House [1].",
                         EN_HUB, "en")
    assert (text, removed) == ("The Student Hub is on Level 4 of Marlow House [1].", [("count", "Level 3")])


def test_an_invented_korean_floor_goes_and_its_building_stays():
    assert _run("학생지원센터는 솔빛관 2층에 있으며 9시에 문을 엽니다.", KO_HUB, "ko") == (
        "학생지원센터는 솔빛관에 있으며 9시에 문을 엽니다.", [("count", "2층")])
    assert _run("학생지원센터는 솔빛관 2층, 평일 9시부터 17시까지 운영합니다.", KO_HUB, "ko") == (
        "학생지원센터는 솔빛관, 평일 9시부터 17시까지 운영합니다.", [("count", "2층")])
    # a floor with no building before it: a phrase stands in, the particle after it stays whole
    assert _run("학생지원센터는 2층에 있으며 9시에 문을 엽니다.", KO_HUB, "ko") == (
        "학생지원센터는 해당 층에 있으며 9시에 문을 엽니다.", [("count", "2층")])


def test_a_floor_with_a_building_no_context_names_stays_a_contact():
    text, removed = _run("학생지원센터는 누리관 2층에 있습니다.", KO_HUB, "ko")
    assert removed == [("address", "누리관 2층")] and "누리관" not in text
    text, removed = _run("Visit the desk on Level 6 of Dunmore House.", EN_HUB, "en")
    assert "Level 6" not in text and "Dunmore House" not in text


def test_an_english_floor_is_supported_by_the_korean_floor_of_the_same_number():
    answer = "The Student Support Centre is on the 5th floor of Solbit Hall [1]."
    assert _run(answer, KO_HUB, "en") == (answer, [])
