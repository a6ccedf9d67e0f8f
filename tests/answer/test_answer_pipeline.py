"""Answerers, the serving gate and the answer pipeline, with hits built here and a scripted LLM double."""

from __future__ import annotations

import pytest
from llm_double import ScriptedLLM

from geunkeo.answer import answer_hits
from geunkeo.answer.answerability import AbsentWord
from geunkeo.answer.base import Answer, AnswerSentence, Citation, FilterReport
from geunkeo.answer.extractive import ExtractiveAnswerer
from geunkeo.answer.gate import decide, retrieval_confidence
from geunkeo.answer.parts import build_parts
from geunkeo.answer.pipeline import ESCALATION, WARNING
from geunkeo.config import AnswerSettings, Settings
from geunkeo.corpus.base import Chunk
from geunkeo.errors import ConfigError, LLMUnavailable
from geunkeo.retrieve.base import Hit

CONTACT = "자세한 연락처는 해당 부서에 직접 문의해 주시기 바랍니다."


def _hits() -> list[Hit]:
    c12 = Chunk("학칙#제12조", "학칙", "학칙",
                "제12조(휴학) ① 학생은 질병, 군 입대 또는 그 밖의 부득이한 사유로 휴학할 수 있다.\n"
                "② 휴학은 학기 개시일부터 30일 이내에 신청하여야 한다.\n"
                "③ 휴학 기간은 통산 3년을 넘을 수 없다. 다만, 군 입대에 따른 휴학은 그 기간에 포함하지 아니한다.",
                "학칙 제12조(휴학)", article="제12조", paragraphs=["제1항", "제2항", "제3항"])
    c13 = Chunk("학칙#제13조", "학칙", "학칙",
                "제13조(복학) ① 휴학한 학생은 휴학 기간이 끝나면 복학하여야 한다.\n"
                "② 복학 신청은 학사지원팀(02-880-1234)에 한다.",
                "학칙 제13조(복학)", article="제13조", paragraphs=["제1항", "제2항"])
    return [Hit(c12, 0.9, ranks={"bm25": 1, "dense": 1}), Hit(c13, 0.5, ranks={"bm25": 2, "dense": 2})]



def test_extractive_puts_the_fact_first_keeps_its_proviso_and_cites():
    # "얼마나" asks for a period: the sentence stating it leads and its 다만-proviso stays right after it; the
    # 복학 article, which shares only the word 휴학, is not quoted
    ans = ExtractiveAnswerer(AnswerSettings()).answer("휴학 기간은 얼마나 되나요?", _hits())
    assert ans.text.startswith(
        "③ 휴학 기간은 통산 3년을 넘을 수 없다 [1]. "
        "다만, 군 입대에 따른 휴학은 그 기간에 포함하지 아니한다 [1]."
    )
    cited = [c.chunk_id for s in ans.sentences for c in s.citations]
    assert cited[:2] == ["학칙#제12조"] * 2 and "학칙#제13조" not in cited and len(cited) <= 4


def test_extractive_says_the_source_is_korean_for_an_english_question():
    ans = ExtractiveAnswerer(AnswerSettings(max_sentences=2)).answer("What is the maximum leave period?", _hits())
    assert ans.lang == "en"
    # no word is shared across the languages (no glossary or translation here): the ranker has slot, figure and
    # position only, and the period is quoted among the best chunk's units, verbatim and cited
    assert ans.text.startswith("The source documents are in Korean; the relevant passages are quoted as written. "
                               "They are from 학칙 제12조(휴학) and give: ")
    assert "3년" in ans.sentences[0].text  # the figures, for a reader who does not read Korean
    assert "“③ 휴학 기간은 통산 3년을 넘을 수 없다.” [1]" in ans.text
    assert ans.sentences[0].generic and not ans.sentences[0].citations


def test_default_pipeline_is_extractive_cited_and_answered():
    ans = answer_hits("휴학 기간은 얼마나 되나요?", _hits(), build_parts(Settings()))
    assert ans.answerer == "extractive" and ans.fallback is None
    assert ans.gate.action == "answer"
    assert ans.gate.checks["citation_coverage"] == 1.0
    assert 0.0 < ans.gate.checks["unit_probability"] <= 1.0  # recorded for every answer
    assert ans.filter_report.removed == []
    assert [s.name for s in ans.trace.stages] == ["answer.generate", "answer.filter", "answer.verify", "answer.gate"]
    # extractive sentences quote their chunks: every one is verified by the verbatim fast path, none removed
    assert {c.method for c in ans.verification.sentences} == {"verbatim"}
    assert ans.verification.removed == 0 and ans.gate.checks["verify_supported_share"] == 1.0


def test_llm_answer_with_invented_contact_is_filtered_then_regenerated_once():
    llm = ScriptedLLM([
        "휴학은 학기 개시일부터 30일 이내에 신청해야 합니다 [1]. 신청은 학술연구지원팀(02-1234-5678)에 하세요 [1].",
        "휴학은 학기 개시일부터 30일 이내에 신청해야 합니다 [1]. 휴학 기간은 통산 3년을 넘을 수 없습니다 [1].",
    ])
    ans = answer_hits("휴학 신청 기한은 언제인가요?", _hits(), build_parts(Settings()), llm=llm)
    assert len(llm.calls) == 2
    retry_prompt = llm.calls[1][-1].content
    assert "학술연구지원팀, 02-1234-5678" in retry_prompt
    assert ans.answerer == "llm"
    assert ans.gate.action == "answer" and ans.gate.regenerated
    assert ans.gate.reasons[0].startswith("regenerated once after: unsupported_items: 2 removed")
    assert ans.text == "휴학은 학기 개시일부터 30일 이내에 신청해야 합니다 [1]. 휴학 기간은 통산 3년을 넘을 수 없습니다 [1]."
    drafts = [d["text"] for d in ans.trace.decisions if d["stage"] == "answer.llm"]
    assert drafts[0].endswith("신청은 학술연구지원팀(02-1234-5678)에 하세요 [1].") and len(drafts) == 2
    system = llm.calls[0][0].content
    assert "검색 결과에 없는 연락처(전화번호, 팩스, 이메일, 웹 주소)는 절대 생성하지 마세요." in system
    assert "[1] 학칙 제12조(휴학)\n제12조(휴학) ①" in llm.calls[0][1].content


def test_second_generation_still_inventing_is_shown_filtered_with_a_warning():
    bad = "휴학은 학기 개시일부터 30일 이내에 학술연구지원팀(02-1234-5678)에 신청하여야 합니다 [1]."
    ans = answer_hits("휴학 신청은 어디에 하나요?", _hits(), build_parts(Settings()), llm=ScriptedLLM([bad, bad]))
    assert ans.gate.action == "warn" and ans.gate.regenerated
    assert ans.text == f"{WARNING['ko']} 휴학은 학기 개시일부터 30일 이내에 담당 부서에 신청하여야 합니다 [1]. {CONTACT}"
    assert [(r.kind, r.value) for r in ans.filter_report.removed] == [
        ("department", "학술연구지원팀"), ("phone", "02-1234-5678")]
    assert [c.verdict for c in ans.verification.sentences] == ["supported"]  # the filtered sentence still holds


def test_llm_answer_filtered_down_to_nothing_supported_falls_back_to_extractive():
    llm = ScriptedLLM(["신청은 학술연구지원팀(02-1234-5678)에 하세요 [1]."])
    ans = answer_hits("휴학 신청은 어디에 하나요?", _hits(), build_parts(Settings()), llm=llm)
    assert len(llm.calls) == 1  # no regeneration: the extractive answer replaces it
    assert ans.answerer == "extractive" and ans.fallback.startswith("the LLM answer had no sentence that cites")
    assert "담당 부서" not in ans.text and "02-1234-5678" not in ans.text
    removed = [d for d in ans.trace.decisions if d["stage"] == "answer.verify" and d["decision"].startswith("removed")]
    assert [d["sentence"] for d in removed] == ["신청은 담당 부서에 하세요."]


def test_an_llm_answer_of_copied_headers_and_cells_falls_back_to_extractive():
    # a small model copies a header and a table cell and cites them: no sentence a reader can take as an answer
    llm = ScriptedLLM(["휴학 기간 [1]. 통산 3년 [1]."])
    ans = answer_hits("휴학 기간은 얼마나 되나요?", _hits(), build_parts(Settings()), llm=llm)
    assert ans.answerer == "extractive" and ans.text.startswith("③ 휴학 기간은 통산 3년을 넘을 수 없다 [1].")
    removed = [d["sentence"] for d in ans.trace.decisions if d["stage"] == "answer.readability"]
    assert removed == ["휴학 기간.", "통산 3년."]


def test_an_llm_sentence_that_reads_whole_stays():
    llm = ScriptedLLM(["휴학 기간은 통산 3년을 넘을 수 없습니다 [1]. 일시: 학기 개시일부터 30일 이내 [1]."])
    ans = answer_hits("휴학 기간은 얼마나 되나요?", _hits(), build_parts(Settings()), llm=llm)
    assert ans.answerer == "llm" and not any(d["stage"] == "answer.readability" for d in ans.trace.decisions)


def test_llm_down_falls_back_to_extractive_and_says_so():
    llm = ScriptedLLM([LLMUnavailable("connection refused by 127.0.0.1:9")])
    ans = answer_hits("휴학 기간은 얼마나 되나요?", _hits(), build_parts(Settings()), llm=llm)
    assert ans.answerer == "extractive"
    assert ans.fallback == "LLM unavailable (LLMUnavailable: connection refused by 127.0.0.1:9)"
    assert any("answered with the extractive answerer instead" in w for w in ans.trace.warnings)
    assert ans.text.startswith("③ 휴학 기간은 통산 3년을 넘을 수 없다 [1].")
    assert ans.trace.llm_calls[0]["error"] == "connection refused by 127.0.0.1:9"


def test_llm_answerer_without_a_configured_llm_falls_back():
    ans = answer_hits("휴학 기간은 얼마나 되나요?", _hits(), build_parts(Settings()), answerer="llm")
    assert ans.answerer == "extractive"
    assert ans.fallback == "no LLM is configured (llm.provider = 'none')"


def test_unsupported_llm_sentences_are_removed_and_too_few_left_regenerates():
    llm = ScriptedLLM(["휴학은 30일 이내에 신청합니다 [1]. 휴학 중에는 기숙사를 이용할 수 없습니다 [1]. 등록금은 전액 환불됩니다 [7].",
                       "휴학은 학기 개시일부터 30일 이내에 신청하여야 합니다 [1]."])
    ans = answer_hits("휴학 신청 기한은?", _hits(), build_parts(Settings()), llm=llm)
    assert "LLM cited context numbers that do not exist: [7]; dropped" in ans.trace.warnings
    first = next(d for d in ans.trace.decisions if d["stage"] == "answer.gate")
    assert first["decision"] == "regenerate"
    assert first["checks"]["verify_supported"] == 1 and first["checks"]["verify_removed"] == 2
    # the removed sentences are named to the model as things not to say again
    assert "휴학 중에는 기숙사를 이용할 수 없습니다., 등록금은 전액 환불됩니다." in llm.calls[1][-1].content
    assert ans.gate.regenerated and ans.gate.action == "answer"
    assert ans.text == "휴학은 학기 개시일부터 30일 이내에 신청하여야 합니다 [1]."


ATTRIBUTED = "attributed a citation after the fact"


def _attributing() -> Settings:
    """Settings with attribution after the fact switched on (off by default)."""
    settings = Settings()
    settings.answer.attribute_uncited = True
    return settings


def test_an_uncited_sentence_a_context_supports_cites_that_context_and_its_check_records_it_was_uncited():
    llm = ScriptedLLM(["휴학은 학기 개시일부터 30일 이내에 신청하여야 합니다 [1]. 휴학 기간은 통산 3년을 넘을 수 없습니다."])
    ans = answer_hits("휴학 신청 기한은?", _hits(), build_parts(_attributing()), llm=llm)
    # the LLM cited nothing for the second sentence: the check says so, and the reader gets the supporting chunk
    assert [(c.verdict, c.cited, c.attributed) for c in ans.verification.sentences] == [
        ("supported", True, False), ("supported", False, True)]
    assert ans.text == "휴학은 학기 개시일부터 30일 이내에 신청하여야 합니다 [1]. 휴학 기간은 통산 3년을 넘을 수 없습니다 [1]."
    assert ans.gate.action == "answer" and ans.gate.checks["citation_coverage"] == pytest.approx(1.0)
    cited = next(d for d in ans.trace.decisions if d["decision"] == ATTRIBUTED)
    assert cited["chunk"] == "학칙#제12조" and cited["n"] == 1


def test_an_uncited_sentence_no_context_supports_is_removed_not_cited():
    llm = ScriptedLLM(["휴학은 학기 개시일부터 30일 이내에 신청하여야 합니다 [1]. 휴학 중에는 등록금의 절반을 냅니다."])
    ans = answer_hits("휴학 신청 기한은?", _hits(), build_parts(_attributing()), llm=llm)
    assert "등록금의 절반" not in ans.text
    assert not any(d["decision"] == ATTRIBUTED for d in ans.trace.decisions)


def test_an_llm_answer_without_any_marker_is_served_with_citations_attributed_after_the_fact():
    # both sentences state 제13조 (context 2), neither with a marker: each cites [2], the LLM's answer is served
    # and the trace and the checks say the citations were added after generation
    llm = ScriptedLLM(["복학 신청은 학사지원팀에서 받습니다. 휴학한 학생은 휴학 기간이 끝나면 복학해야 합니다."])
    ans = answer_hits("복학 신청은 어디에 하나요?", _hits(), build_parts(_attributing()), llm=llm)
    assert ans.answerer == "llm" and ans.fallback is None and len(llm.calls) == 1
    assert ans.text == "복학 신청은 학사지원팀에서 받습니다 [2]. 휴학한 학생은 휴학 기간이 끝나면 복학해야 합니다 [2]."
    assert ans.gate.action == "answer"
    checks = ans.verification.sentences
    assert [(c.cited, c.attributed, c.chunks) for c in checks] == [(False, True, ["학칙#제13조"])] * 2
    assert all(c.method == "checker" and c.score >= 0.5 and "after the fact" in c.reason for c in checks)
    decisions = [d for d in ans.trace.decisions if d["decision"] == ATTRIBUTED]
    assert [(d["n"], d["chunk"]) for d in decisions] == [(2, "학칙#제13조")] * 2


def test_attribution_is_off_by_default():
    settings = Settings()
    assert settings.answer.attribute_uncited is False
    llm = ScriptedLLM(["복학 신청은 학사지원팀에서 받습니다."])
    ans = answer_hits("복학 신청은 어디에 하나요?", _hits(), build_parts(settings), llm=llm)
    assert ans.answerer == "extractive" and "1 of them cite no source" in ans.fallback
    assert not any(d["decision"] == ATTRIBUTED for d in ans.trace.decisions)


def test_a_sentence_no_single_context_supports_alone_stays_uncited_and_the_answer_falls_back():
    # each clause is supported, but by another context: no one context supports the sentence, so no citation is
    # made up for it, and an LLM answer without a cited sentence is replaced by the extractive one, as before
    llm = ScriptedLLM(["휴학 기간은 통산 3년을 넘을 수 없고, 복학 신청은 학사지원팀에 한다."])
    ans = answer_hits("휴학과 복학은 어떻게 하나요?", _hits(), build_parts(_attributing()), llm=llm)
    assert ans.answerer == "extractive" and ans.fallback.startswith("the LLM answer had no sentence that cites")
    assert not any(d["decision"] == ATTRIBUTED for d in ans.trace.decisions)


def test_attribution_is_checked_against_the_attributed_context_alone():
    # the sentence quotes 제12조 but its phone number is only in 제13조: supported against both together, by
    # neither alone, so it is not attributed (a citation of 제12조 would vouch for a number it does not hold)
    from geunkeo.answer.verify import SUPPORTED

    parts = build_parts(_attributing())
    sentence = AnswerSentence("휴학은 학기 개시일부터 30일 이내에 02-880-1234로 신청하여야 한다.")
    assert parts.verifier.check(0, sentence, _hits()).verdict == SUPPORTED
    assert parts.verifier.attribute(0, sentence, _hits()) is None
    n, check = parts.verifier.attribute(0, AnswerSentence("휴학 기간은 통산 3년을 넘을 수 없다."), _hits())
    assert n == 1 and check.method == "verbatim" and check.chunks == ["학칙#제12조"]


def test_no_hits_escalates():
    ans = answer_hits("기숙사 식당 메뉴", [], build_parts(Settings()))
    assert ans.gate.action == "escalate"
    assert ans.text == ESCALATION["ko"]


def test_unknown_answerer_names_the_choices():
    with pytest.raises(ConfigError, match="choose one of auto, extractive, llm"):
        answer_hits("휴학", _hits(), build_parts(Settings()), answerer="magic")


# -- gate ---------------------------------------------------------------------------------------------------------

def _answer(sentences, hits, removed=0) -> Answer:
    report = FilterReport()
    report.removed = [object()] * removed
    return Answer(query="q", text="", lang="ko", sentences=sentences, contexts=hits, filter_report=report)


def test_retrieval_confidence_from_ranks_and_margin():
    hits = _hits() + [Hit(_hits()[1].chunk, 0.2, ranks={"bm25": 3})]
    hits[0].ranks = {"bm25": 1, "dense": 3}
    hits[0].score, hits[1].score = 1.0, 0.6
    conf, parts = retrieval_confidence("What is the leave period?", hits)  # English query: no term coverage
    assert parts == {"agreement": pytest.approx(0.6667, abs=1e-4), "margin": 0.5}
    assert conf == pytest.approx((0.25 * 2 / 3 + 0.15 * 0.5) / 0.4, abs=1e-4)  # weights 0.25 / 0.15


def test_retrieval_confidence_uses_the_plans_weighted_terms():
    terms = {"휴학": 1.0, "기간": 1.0, "학점": 0.5}  # 학점 is in no chunk: coverage 2 / 2.5
    conf, parts = retrieval_confidence("휴학 기간", _hits(), terms)
    assert parts == {"agreement": 1.0, "margin": 1.0, "term_coverage": 0.8}
    assert conf == pytest.approx(0.6 * 0.8 + 0.25 + 0.15, abs=1e-4)


def test_term_coverage_counts_an_askers_word_once_whichever_of_its_forms_a_chunk_uses():
    # 휴가 is the asker's word; the chunk says 휴학 (a slang expansion of it): 휴가 is covered, and the expansion
    # the chunk does not use (the glossary's English) is not a word of its own left uncovered
    terms = {"휴가": 1.0, "기간": 1.0, "휴학": 0.5, "leav": 0.5, "가능": 0.5}
    sources = {"휴가": "query", "기간": "query", "휴학": "slang:휴가→휴학", "leav": "glossary:휴가→leave",
               "가능": "rewrite"}
    _, parts = retrieval_confidence("휴가 기간", _hits(), terms, sources)
    assert parts["term_coverage"] == pytest.approx(2 / 2.5)  # 휴가 (by 휴학) and 기간 of 휴가, 기간, 가능 (0.5)
    _, unsourced = retrieval_confidence("휴가 기간", _hits(), terms)  # each form its own term: (0.5 + 1) / 3.5
    assert unsourced["term_coverage"] == pytest.approx(1.5 / 3.5, abs=1e-4)


def test_gate_decisions():
    s = AnswerSettings(gate_min_citation_coverage=0.9, gate_min_retrieval_confidence=0.3)
    cited = AnswerSentence("가", [Citation(1, "a", "a")])
    plain = AnswerSentence("나")
    hits = _hits()
    ok = (0.8, {})
    assert decide(_answer([cited], hits), s, can_regenerate=True, confidence=ok).action == "answer"
    assert decide(_answer([cited, plain], hits), s, can_regenerate=True, confidence=ok).action == "warn"
    assert decide(_answer([cited], hits, 1), s, can_regenerate=True, confidence=ok).action == "regenerate"
    assert decide(_answer([cited], hits, 1), s, can_regenerate=False, confidence=ok).action == "warn"
    assert decide(_answer([plain], hits, 1), s, can_regenerate=False, confidence=ok).action == "escalate"
    low = decide(_answer([cited], hits), s, can_regenerate=True, confidence=(0.1, {}))
    assert low.action == "escalate" and low.reasons == ["retrieval_low_confidence: 0.10 < 0.30"]
    # the learned answer probability withholds only when the settings say it decides
    unlikely = (0.1, 0.4)
    rules = AnswerSettings(gate_min_citation_coverage=0.9, gate_min_retrieval_confidence=0.3, withhold_by="rules")
    by_rules = decide(_answer([cited], hits), rules, can_regenerate=True, confidence=ok, unit_confidence=unlikely)
    assert by_rules.action == "answer" and by_rules.checks["unit_probability"] == 0.1
    learned = AnswerSettings(gate_min_citation_coverage=0.9, gate_min_retrieval_confidence=0.3)  # "both"
    by_ranker = decide(_answer([cited], hits), learned, can_regenerate=True, confidence=ok, unit_confidence=unlikely)
    assert by_ranker.action == "escalate" and by_ranker.reasons[0].startswith("not_answered: no passage")
    assert decide(_answer([cited], hits), learned, can_regenerate=True, confidence=ok,
                  unit_confidence=(0.6, 0.4)).action == "answer"
    generic_only = _answer([AnswerSentence(CONTACT, generic=True)], hits)
    assert decide(generic_only, s, can_regenerate=False, confidence=ok).action == "escalate"


def test_a_rare_question_word_no_cited_passage_holds_but_another_does_withholds_the_answer():
    cited = AnswerSentence("가", [Citation(1, "a", "a")])
    hits, ok = _hits(), (0.8, {})

    def long_question() -> Answer:  # three or more topic words: only a rare one counts
        a = _answer([cited], hits)
        a.query = "호박마켓 캠페인의 티저 광고 조회 수는?"
        return a

    absent = lambda a: [AbsentWord("호박마켓", 0.95, True), AbsentWord("광고", 0.2, True)]  # noqa: E731
    off = AnswerSettings(gate_min_citation_coverage=0.9, gate_min_retrieval_confidence=0.3,
                         gate_max_cited_absent_rarity=None)
    recorded = decide(long_question(), off, can_regenerate=True, confidence=ok, absent=absent)
    assert recorded.action == "answer" and recorded.checks["cited_absent_rarity"] == 0.95
    on = AnswerSettings(gate_min_citation_coverage=0.9, gate_min_retrieval_confidence=0.3,
                        gate_max_cited_absent_rarity=0.9)
    held = decide(long_question(), on, can_regenerate=True, confidence=ok, absent=absent)
    assert held.action == "escalate"
    assert held.reasons == ["not_answered: the passages quoted do not mention 호박마켓, which other documents found do"]
    # in a question of one or two topic words a common word counts too: it is half of what was asked
    short = _answer([cited], hits)
    short.query = "호박마켓 광고?"
    assert decide(short, on, can_regenerate=True, confidence=ok,
                  absent=lambda a: [AbsentWord("광고", 0.2, True)]).action == "escalate"
    # a word no other passage holds, or no chunk of the index (a typo, slang), or a common one: served
    for words in ([AbsentWord("호박마켓", 0.95, False)], [AbsentWord("호박마켓", 1.0, True)],
                  [AbsentWord("광고", 0.2, True)]):
        assert decide(long_question(), on, can_regenerate=True, confidence=ok,
                      absent=lambda a, w=words: w).action == "answer"


def test_across_languages_the_quoted_passages_must_state_the_kind_of_figure_asked():
    from geunkeo.answer.answerability import Answerability

    s = AnswerSettings(gate_min_citation_coverage=0.9, gate_min_retrieval_confidence=0.3)
    hits, across = _hits(), (0.8, {"agreement": 1.0, "margin": 0.5})  # no term coverage: another language
    dates = AnswerSentence("“신청: 2026. 3. 2.(월) ~ 2026. 3. 27.(금)”", [Citation(1, "a", "a")])
    length = AnswerSentence("“휴학은 1회 2개 학기 이내로 한다.”", [Citation(1, "a", "a")])
    share = AnswerSentence("“수업료의 3분의 2를 반환한다.”", [Citation(1, "a", "a")])
    how_long = Answerability(1.0, {}, asked="duration")
    held = decide(_answer([dates], hits), s, can_regenerate=False, confidence=across, answerability=how_long)
    assert held.action == "escalate" and "no length of time" in held.reasons[0]
    assert decide(_answer([length], hits), s, can_regenerate=False, confidence=across,
                  answerability=how_long).action == "answer"
    how_much = Answerability(1.0, {}, asked="amount")  # a share of the fee answers "how much is refunded"
    assert decide(_answer([share], hits), s, can_regenerate=False, confidence=across,
                  answerability=how_much).action == "answer"
    # in the question's own language the words are checked instead: not this check's call
    same = (0.8, {"agreement": 1.0, "margin": 0.5, "term_coverage": 1.0})
    assert decide(_answer([dates], hits), s, can_regenerate=False, confidence=same,
                  answerability=how_long).action == "answer"


def test_parse_cited_reads_markdown_and_citation_styles():
    from geunkeo.answer.cited import parse_cited, render

    text = ("**답변:** 휴학은 30일 이내에 신청합니다 [1].\n- 복학은 학사지원팀에 신청합니다. [2]\n"
            "1) 휴학 기간은 3년을 넘지 못합니다(출처: [1], [2]). 기간 계산은 [1, 2] 기준입니다.")
    sents, invalid = parse_cited(text, _hits())
    assert invalid == []
    assert [(s.text, [c.n for c in s.citations]) for s in sents] == [
        ("휴학은 30일 이내에 신청합니다.", [1]),
        ("복학은 학사지원팀에 신청합니다.", [2]),
        ("휴학 기간은 3년을 넘지 못합니다.", [1, 2]),
        ("기간 계산은 기준입니다.", [1, 2]),
    ]
    assert render(sents[:2]) == "휴학은 30일 이내에 신청합니다 [1]. 복학은 학사지원팀에 신청합니다 [2]."


def test_llm_saying_the_rules_do_not_specify_escalates_with_sources():
    ans = answer_hits("휴학 중 해외여행 가능?", _hits(), build_parts(Settings()), llm=ScriptedLLM(["해당 규정에 명시되어 있지 않습니다."]))
    assert ans.gate.action == "escalate"
    assert ans.gate.reasons == ["no_answer: the answer has no content sentence"]
    assert ans.text == f"{ESCALATION['ko']} 참고할 수 있는 문서: [1] 학칙 제12조(휴학); [2] 학칙 제13조(복학)"
    assert ans.draft == "해당 규정에 명시되어 있지 않습니다."


def test_extractive_shows_a_repeated_contact_line_once():
    line = "문의: 학생처 장학복지팀(02-2100-1330, scholarship@hanbit-u.ac.kr)에서 장학금 신청을 받는다."
    hits = [Hit(Chunk(f"n#s{i}", "n", "장학 공지", f"장학금 신청 안내 {i}차입니다.\n{line}", f"장학 공지 > {i}"), 1.0 - i / 10,
                ranks={"bm25": i + 1, "dense": i + 1}) for i in range(3)]
    ans = ExtractiveAnswerer(AnswerSettings()).answer("장학금 신청 문의처", hits)
    assert ans.text.count("02-2100-1330") == 1
    # the contact line leads; the notices' own sentences that repeat it are not quoted again
    assert ans.text.startswith(line[:-1] + " [1].")


def test_an_echoed_source_label_is_not_an_answer_sentence():
    # a small model repeats the context header as a "sentence"; it says nothing and must not be served
    from geunkeo.answer.cited import parse_cited

    sentences, _ = parse_cited("학칙 제12조(휴학) [1]. 휴학은 학기 개시일부터 30일 이내에 신청하여야 한다 [1].", _hits())
    assert [s.text for s in sentences] == ["휴학은 학기 개시일부터 30일 이내에 신청하여야 한다."]


def test_the_fallback_reason_says_when_supported_sentences_cite_no_source():
    # supported by 제12조 and 제13조 together, by neither alone: it keeps citing nothing
    llm = ScriptedLLM(["휴학 기간은 통산 3년을 넘을 수 없고, 복학 신청은 학사지원팀에 한다."])
    ans = answer_hits("휴학은 몇 년까지 할 수 있나요?", _hits(), build_parts(Settings()), llm=llm)
    assert ans.answerer == "extractive"
    assert ans.fallback.startswith("the LLM answer had no sentence that cites the context and is supported by it (1 "
                                   "supported but 1 of them cite no source")


def test_a_quoted_sentence_without_a_marker_is_served_from_the_llm_when_attribution_is_on():
    llm = ScriptedLLM(["휴학 기간은 통산 3년을 넘을 수 없다."])  # quoted from 제12조, but without a [n] marker
    ans = answer_hits("휴학은 몇 년까지 할 수 있나요?", _hits(), build_parts(_attributing()), llm=llm)
    assert ans.answerer == "llm" and ans.fallback is None
    assert ans.text == "휴학 기간은 통산 3년을 넘을 수 없다 [1]." and ans.gate.action == "answer"


@pytest.mark.parametrize("written, cites", [
    ("휴학 기간은 3년을 넘을 수 없습니다 (출처 1).", [1]),
    ("휴학 기간은 3년을 넘을 수 없습니다. [문서 2]", [2]),
    ("휴학 기간은 3년을 넘을 수 없습니다 [1, 2].", [1, 2]),
    ("휴학 기간은 3년을 넘을 수 없습니다[1][2].", [1, 2]),
    ("휴학 기간은 3년을 넘을 수 없습니다¹².", [1, 2]),
    ("휴학 기간은 3년을 넘을 수 없습니다². ", [2]),
    ("Leave may not exceed three years (source 2).", [2]),
    ("Leave may not exceed three years [Source 1].", [1]),
    ("휴학 기간은 3년을 넘을 수 없습니다【1】.", [1]),
    ("휴학 기간은 3년을 넘을 수 없습니다 (근거: 1, 2).", [1, 2]),
    ("휴학 기간은 3년을 넘을 수 없습니다 [Context 1], [Context 2].", [1, 2]),
])
def test_parse_cited_reads_markers_in_other_shapes(written, cites):
    from geunkeo.answer.cited import parse_cited

    sents, invalid = parse_cited(written + " 복학은 학사지원팀에 신청합니다.", _hits())
    assert invalid == []
    assert [c.n for c in sents[0].citations] == cites and sents[1].citations == []
    # the marker is gone from the sentence, whatever its shape, and nothing of it is left behind
    assert sents[0].text in ("휴학 기간은 3년을 넘을 수 없습니다.", "Leave may not exceed three years.")


@pytest.mark.parametrize("written", ["기숙사 면적은 12m²입니다.", "규모는 10²입니다.", "(1) 학기 중에 신청합니다.",
                                     "학생은 질병 등의 사유로 휴학할 수 있습니다⁹."])
def test_parse_cited_leaves_what_is_no_marker(written):
    from geunkeo.answer.cited import parse_cited

    sents, invalid = parse_cited(written, _hits())
    # an exponent, a numbered item, and a superscript naming no context (there are two) are text, not citations
    assert sents[0].citations == [] and invalid == []
    assert sents[0].text == written


def test_an_echo_of_the_question_or_of_a_context_fence_is_not_an_answer_sentence():
    from geunkeo.answer.cited import parse_cited

    question = "휴학 기간은 얼마나 되나요? 그리고 복학 신청은 어디에 하나요?"
    reply = ('휴학 기간은 얼마나 되나요?\n<document n="1">\n[1] 학칙 제12조(휴학)\n휴학 기간은 통산 3년을 넘을 수 없다.\n'
             '</document>\n복학 신청은 학사지원팀에 한다 [2].')
    sents, _ = parse_cited(reply, _hits(), question=question)
    assert [(s.text, [c.n for c in s.citations]) for s in sents] == [
        ("휴학 기간은 통산 3년을 넘을 수 없다.", []), ("복학 신청은 학사지원팀에 한다.", [2])]
    # without the question, a sentence that happens to repeat it is kept
    assert parse_cited("휴학 기간은 얼마나 되나요?", _hits())[0][0].text == "휴학 기간은 얼마나 되나요?"
