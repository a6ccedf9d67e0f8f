"""Issue 30 item 4: a claim in another language than its chunk shares content with it or is unsupported, and its
polarity is compared with the Korean sentence it restates; what a user may read of an answer leaves out the text
the checks rejected."""

from __future__ import annotations

import pytest
from claim_scripts import LEAVE, Script, hits

from geunkeo.answer.base import Answer, AnswerSentence, Citation, GateDecision
from geunkeo.answer.crosslingual import reads_as_language
from geunkeo.answer.parts import build_parts
from geunkeo.answer.verify import CONTRADICTED, SUPPORTED, UNSUPPORTED
from geunkeo.config import Settings
from geunkeo.server.views import answer_view
from geunkeo.trace import Trace

_HITS = hits(Script("leave", "control", "q", (("학칙#제15조", "한빛대학교 학칙 제15조(일반휴학)", LEAVE),)))


def test_latin_filler_does_not_read_as_a_sentence():
    assert not reads_as_language("Lorem ipsum dolor sit amet consectetur.")
    assert reads_as_language("Leave is limited to six semesters.") and reads_as_language("No exceptions.")


@pytest.mark.slow
@pytest.mark.parametrize("text,verdict", [
    ("Lorem ipsum dolor sit amet consectetur.", UNSUPPORTED),
    ("Freshmen may take a general leave of absence in their first semester.", CONTRADICTED),
    ("New and transfer students are allowed to take general leave in their first semester.", CONTRADICTED),
    ("Dormitory residents must attend roll call every night.", UNSUPPORTED),
    ("Freshmen and transfer students cannot take a general leave in their first semester.", SUPPORTED),
    ("A general leave is limited to two semesters at a time and six semesters in total.", SUPPORTED),
])
def test_an_english_claim_against_a_korean_article(text, verdict):
    got = build_parts(Settings()).verifier.check(0, AnswerSentence(text, [Citation(1, "학칙#제15조", "")]), _HITS)
    assert got.verdict == verdict, got.reason


def _rejected_llm_answer() -> Answer:
    trace = Trace()
    trace.decide("answer.llm", "generated", text="Call 010-4821-7730 [1].")
    trace.decide("answer.verify", "removed unsupported", sentence="Call 010-4821-7730.", reason="r")
    return Answer("q", "withheld", "en", [AnswerSentence("withheld", generic=True)], _HITS, answerer="llm",
                  gate=GateDecision("escalate", ["x"]), trace=trace, draft="Call 010-4821-7730 [1].")


def test_what_the_checks_rejected_is_not_in_the_public_answer_nor_the_page():
    ans = _rejected_llm_answer()
    public = str(ans.public_dict())
    assert "010-4821-7730" not in public and "removed unsupported" in public
    assert answer_view(ans)["draft"] is None
    assert "010-4821-7730" in str(ans.to_dict())  # kept whole for evaluation runs and the operator
