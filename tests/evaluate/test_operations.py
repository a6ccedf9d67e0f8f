"""P2 operations in the run summary: answers in the asker's language, and outliers by modified z-score."""

from __future__ import annotations

from geunkeo.evaluate.records import CaseRecord
from geunkeo.evaluate.report.dashboard import model_debug, operations


def _record(qid: str, lang: str, answer: str | None, ms: float, faith: float | None = 1.0) -> CaseRecord:
    return CaseRecord.from_dict(_raw(qid, lang, answer, ms, faith))


def _raw(qid: str, lang: str, answer: str | None, ms: float, faith: float | None = 1.0) -> dict:
    return {"query_id": qid, "query_language": lang, "response": {"response_text": answer, "claims": []},
            "timings_ms": {"search": ms / 2, "answer": ms / 2, "metrics": 999.0},
            "metrics": {"faithfulness": {"value": faith, "computable": faith is not None}},
            "flag": {"level": "PASSED", "reasons": []}, "gates": [], "retrieval": {"retrieved_docs": []}}


def test_language_match_counts_answers_in_the_askers_language():
    recs = [_record("k1", "ko", "휴학은 2개 학기 이내로 한다.", 40), _record("e1", "en", "Leave is limited to two terms.", 40),
            _record("e2", "en", "휴학은 2개 학기 이내로 한다.", 40), _record("x", "ko", None, 40)]
    ops = operations(recs)
    assert ops.language_match_rate == 2 / 3  # the unanswered case is not counted


def test_a_slow_case_is_an_outlier_and_steady_ones_are_not():
    recs = [_record(f"q{i}", "ko", "답변입니다.", 40 + i) for i in range(9)] + [_record("slow", "ko", "답변입니다.", 900)]
    out = operations(recs).outliers["latency_ms"]
    assert [q for q, _ in out.cases] == ["slow"]
    assert out.median == 44.5 and out.n == 10
    # metrics' time is not latency a user waits for
    assert operations([_record(f"q{i}", "ko", "답", 40) for i in range(6)]).outliers["latency_ms"].cases == []


def test_operations_are_part_of_the_model_debug_view():
    recs = [_record(f"q{i}", "ko", "답변입니다.", 40) for i in range(6)]
    assert model_debug(recs).operations is not None


def _question(qid: str, text: str, gold: bool) -> CaseRecord:
    rec = _raw(qid, "ko", "답변입니다.", 40)
    rec["query_text"] = text
    rec["response"]["reference_answer"] = "참조 답변" if gold else None
    rec["retrieval"]["expected_doc_ids"] = ["d"] if gold else []
    return CaseRecord.from_dict(rec)


def test_questions_far_from_the_gold_set_form_new_question_types():
    recs = [_question("g1", "휴학 신청 기간은 언제입니까?", True), _question("g2", "등록금 반환 기준은 무엇입니까?", True),
            _question("t1", "휴학 신청은 언제까지 해?", False),  # a kind the gold set has
            _question("t2", "주차 정기권 요금은 얼마야?", False), _question("t3", "주차 정기권 구매처는 어디야?", False),
            _question("t4", "반려견 동반 출입 가능해?", False)]
    ops = operations(recs)
    assert ops.new_question_types == 2
    assert sorted(ops.new_question_clusters) == [["t2", "t3"], ["t4"]]
