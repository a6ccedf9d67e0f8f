"""When retrieval ranks a chunk in another language than the question first, the answer is drawn from that language
only (answer/base.py source_lang), and a version of a regulation that is not in force is never quoted."""

from __future__ import annotations

from geunkeo.answer.answerability import assess
from geunkeo.answer.base import source_lang
from geunkeo.answer.extractive import ExtractiveAnswerer
from geunkeo.answer.gate import retrieval_confidence
from geunkeo.config import AnswerSettings
from geunkeo.corpus.base import Chunk
from geunkeo.retrieve.base import Hit

QUESTION = "How much tuition is refunded if I withdraw 45 days after the semester starts?"
TERMS = {"tuition": 1.0, "refund": 1.0, "withdraw": 1.0, "45": 1.0, "day": 1.0, "semest": 1.0, "start": 1.0,
         "등록금": 0.5, "수업료": 0.5, "반환": 0.5, "학기": 0.5}
HAKCHIK = Chunk("hakchik#제13조", "hakchik", "한빛대학교 학칙",
                "제13조(등록금의 반환) ① 학기 개시일부터 30일이 지나기 전까지는 수업료의 6분의 5를 반환한다.\n"
                "② 학기 개시일부터 30일이 지난 날부터 60일이 지나기 전까지는 수업료의 3분의 2를 반환한다.",
                "한빛대학교 학칙 제13조(등록금의 반환)", lang="ko")
POLICY = Chunk("policy#Article 12", "policy", "Accident Insurance Terms",
               "Article 12 (Withdrawal) The policyholder may withdraw the application within 15 days, and the "
               "Company refunds the premium within 3 days after the withdrawal.",
               "Accident Insurance Terms Article 12", lang="en")


def _hits() -> list[Hit]:
    return [Hit(HAKCHIK, 0.33, ranks={"bm25": 5, "dense": 8}), Hit(POLICY, 1.0, ranks={"bm25": 1, "dense": 1})]


def test_the_source_language_is_the_top_hits_when_it_is_not_the_questions():
    assert source_lang("en", _hits()) == "ko"
    assert source_lang("en", _hits()[::-1]) is None
    assert source_lang("ko", _hits()) is None


def test_the_extractive_answer_quotes_only_the_korean_chunk_for_an_english_question():
    ans = ExtractiveAnswerer(AnswerSettings()).answer(QUESTION, _hits(), terms=TERMS)
    quoted = [s for s in ans.sentences if not s.generic]
    assert quoted and all(c.chunk_id == HAKCHIK.chunk_id for s in quoted for c in s.citations)
    assert ans.sentences[0].generic and "Korean" in ans.sentences[0].text  # "quoted as written"
    assert not any("premium" in s.text for s in ans.sentences)


def test_confidence_and_answerability_read_the_source_language():
    _, parts = retrieval_confidence(QUESTION, _hits(), TERMS)
    assert "term_coverage" not in parts  # the question's English words cannot be in the Korean chunk
    able = assess(QUESTION, _hits(), TERMS)
    assert able.score > 0.5 and not able.unmatched


def test_a_version_not_in_force_is_not_quoted():
    old = Chunk("dorm-2024#제10조", "dorm-2024", "생활관 운영 규정", "제10조(생활 수칙) 출입 통제 시간은 오전 0시 30분부터이다.",
                "생활관 운영 규정 제10조", metadata={"version_status": "superseded"})
    new = Chunk("dorm#제10조", "dorm", "생활관 운영 규정", "제10조(생활 수칙) 출입 통제 시간은 오전 1시부터 오전 5시까지이다.",
                "생활관 운영 규정 제10조", metadata={"version_status": "in_force"})
    ans = ExtractiveAnswerer(AnswerSettings()).answer("생활관 출입 통제 시간은 언제인가요?", [Hit(new, 1.0), Hit(old, 0.9)])
    assert "오전 1시" in ans.text and "0시 30분" not in ans.text
