"""The runner end to end with a small in-test pipeline (the real one is exercised in test_eval_cli.py)."""

from __future__ import annotations

import json

import pytest

from geunkeo.answer.base import Answer, AnswerSentence, Citation, FilterReport, GateDecision, Removal
from geunkeo.config import Settings
from geunkeo.corpus.base import Chunk
from geunkeo.evaluate.base import Claim, MetricResult, QACase
from geunkeo.evaluate.review import ReviewQueue
from geunkeo.evaluate.runner import EvalPipeline, evaluate_cases, load_run
from geunkeo.retrieve.base import Hit
from geunkeo.trace import Trace

CHUNKS = {
    "학칙#제12조": Chunk("학칙#제12조", "학칙", "학칙", "휴학은 통산 6학기를 넘을 수 없다.", "학칙 제12조(휴학)",
                      metadata={"version": "2024-03"}),
    "학칙#제30조": Chunk("학칙#제30조", "학칙", "학칙", "등록금은 개강 전 전액 반환한다.", "학칙 제30조(반환)",
                      metadata={"version": "2024-03"}),
    "rules#Article 5": Chunk("rules#Article 5", "rules", "Rules", "Leave may not exceed six semesters.",
                             "Rules Article 5", lang="en"),
}
# per case: retrieved chunk ids, answer text, metric values, claim support
PLAN = {
    "ok": (["학칙#제12조", "학칙#제30조"], "휴학은 통산 6학기를 넘을 수 없다.", 1.0, 1.0, 0.9, 1.0, [True]),
    "halluc": (["학칙#제30조"], "등록금은 50% 반환한다.", 1.0, 0.5, 0.2, 1.0, [True, False]),
    "norecall": (["학칙#제30조"], "휴학은 6학기까지.", 0.0, 1.0, 0.9, 1.0, [True]),
    "en": (["rules#Article 5", "학칙#제12조"], "Leave may not exceed six semesters.", 1.0, 1.0, 0.95, 1.0, [True]),
}


def _pipeline():
    def search(query):
        return [Hit(CHUNKS[c], 1.0 / (i + 1)) for i, c in enumerate(PLAN[query][0])], Trace(), {}

    def answer(case, hits, info):
        text = PLAN[case.query][1]
        removed = [Removal("phone", "02-123-4567", "해당 부서에 문의", text)] if case.id == "q-halluc" else []
        gate = GateDecision("warn" if removed else "escalate" if case.id == "q-norecall" else "answer")
        return Answer(case.query, text, case.lang, [AnswerSentence(text, [Citation(1, hits[0].chunk_id, "")])],
                      contexts=hits, filter_report=FilterReport(removed=removed), answerer="test", gate=gate)

    def metrics(case, ans, hits):
        _, _, recall, faith, fact, cite, support = PLAN[case.query]
        claims = [Claim(f"c{i + 1}", f"claim {i + 1}", supported=s, support_score=0.9 if s else 0.1,
                        supporting_chunks=[{"chunk_id": hits[0].chunk_id, "score": 0.9}] if s else [],
                        checks={"citations": [1]}) for i, s in enumerate(support)]
        out = {"context_recall": MetricResult("context_recall", recall, "expected-chunk recall"),
               "faithfulness": MetricResult("faithfulness", faith, "claim support", details={"claims": claims}),
               "citation_coverage": MetricResult("citation_coverage", cite, "cited sentences")}
        out["factual_correctness"] = (MetricResult("factual_correctness", fact, "claim F1") if case.reference_answer
                                      else MetricResult.not_computable("factual_correctness", "claim F1",
                                                                       "no reference answer"))
        return out

    def check(text, contexts):
        return [Claim("c1", text, supported=True)]

    return EvalPipeline(search, answer, metrics, check, {"answerer": "test"})


def _cases():
    return [
        QACase("q-ok", "ok", reference_answer="6학기", parallel_id="p1", risk_tags=["limit"]),
        QACase("q-en", "en", lang="en", reference_answer="six semesters", parallel_id="p1"),
        QACase("q-halluc", "halluc", reference_answer="전액"),
        QACase("q-norecall", "norecall", reference_answer=None),
    ]


def test_run_writes_logs_summary_queue_and_report(tmp_path):
    s = Settings()
    run = evaluate_cases(_cases(), _pipeline(), s, tmp_path / "run", dataset="unit", eval_id="eval_test")
    assert run.flags == {"CRITICAL": 2, "WARNING": 0, "PASSED": 2}
    summary, records = load_run(tmp_path / "run")
    # the lines on disk (the JSON shape readers of earlier runs know) and the typed records read from them
    lines = (tmp_path / "run" / "cases.jsonl").read_text(encoding="utf-8").splitlines()
    by_id = {d["query_id"]: d for d in map(json.loads, lines)}
    assert [r.to_dict() for r in records] == [json.loads(x) for x in lines]
    typed = {r.query_id: r for r in records}
    assert typed["q-halluc"].response.claims[1].unsupported and typed["q-halluc"].removed[0].kind == "phone"
    assert typed["q-norecall"].serving_gate is not None and typed["q-norecall"].serving_gate.action == "escalate"
    # halluc: faithfulness 0.5 < 0.90, factual 0.2 < 0.80, one unsupported claim
    assert by_id["q-halluc"]["flag"]["reasons"] == [
        "P0-2_FAITHFULNESS_BELOW_THRESHOLD", "P0-3_FACTUAL_CORRECTNESS_BELOW_THRESHOLD",
        "HALLUCINATED_CLAIM_DETECTED"]
    # norecall: recall 0 and no reference → factual correctness not computable
    assert by_id["q-norecall"]["flag"]["reasons"] == ["P0-1_CONTEXT_RECALL_BELOW_THRESHOLD",
                                                      "P0-3_FACTUAL_CORRECTNESS_NOT_COMPUTABLE"]
    rec = by_id["q-halluc"]
    assert set(rec) >= {"eval_id", "query_id", "query_language", "query_text", "eval_timestamp", "retrieval",
                        "response", "aggregate_scores", "flag"}
    assert list(rec)[-1] == "record_version" and rec["record_version"] == 1
    bad = rec["response"]["claims"][1]
    assert bad["evaluation"]["faithfulness"] == {"supported": False, "supporting_chunks": [], "confidence": 0.1,
                                                 "method": "kiwi-clause-split",
                                                 "failure_reason": "NO_SUPPORTING_CONTEXT"}
    assert "hallucination" in bad["risk_tags"] and rec["removed"][0]["kind"] == "phone"
    good = by_id["q-ok"]["response"]["claims"][0]
    assert good["citation"] == {"provided": True, "doc_id": "학칙", "chunk_id": "학칙#제12조",
                                "location": "학칙 제12조(휴학)", "accurate": True, "cited_blocks": [1]}
    assert by_id["q-ok"]["retrieval"]["retrieved_docs"][0] == {
        "doc_id": "학칙", "chunks": ["학칙#제12조", "학칙#제30조"], "ranks": [1, 2], "version": "2024-03",
        "title": "학칙"}

    # summary.json as written, and the typed summary read from it
    on_disk = json.loads((tmp_path / "run" / "summary.json").read_text(encoding="utf-8"))
    assert summary.to_dict() == on_disk and list(on_disk)[-1] == "record_version" and summary.record_version == 1
    assert on_disk["gates"]["context_recall"]["pass"] == 3 and summary.gates["context_recall"].passed == 3
    fc = summary.metrics["factual_correctness"]
    assert fc.computable == 3 and fc.not_computable == 1
    assert fc.not_computable_reasons == {"no reference answer": 1}
    assert fc.mean == pytest.approx((0.9 + 0.95 + 0.2) / 3)
    assert summary.gates["context_recall"].pass_rate == 0.75
    assert summary.gates["factual_correctness"].pass_rate == 0.5  # not computable counts as not passed
    ex = summary.executive
    assert ex.p0_pass_rate == 0.5 and ex.hallucination_rate == 0.25
    assert summary.pass_rates_by["query_language"]["en"].p0_gates_passed == 1.0
    assert summary.model_debug.failure_stage == {"generation": 1, "retrieval": 1}
    assert summary.compliance.removed_by_filter == {"phone": 1}

    clir = summary.crosslingual
    assert clir.pairs == 1
    assert clir.same_documents_rate == 0.0  # top-1 학칙 vs rules
    assert clir.mean_doc_overlap == 0.5  # {학칙} vs {rules, 학칙}
    assert clir.claim_set_equivalence_rate == 1.0

    # both CRITICAL cases are in full review; PASSED: 2 × 0.15 → 1 sampled
    q = ReviewQueue(tmp_path / "run")
    items = q.items()
    assert sorted(i.query_id for i in items if i.queue_type == "FULL_REVIEW") == ["q-halluc", "q-norecall"]
    assert sum(i.queue_type == "SAMPLE_REVIEW" for i in items) == 1
    assert summary.queue.queued == 3
    halluc = next(i for i in items if i.query_id == "q-halluc")
    assert [c.claim_id for c in halluc.payload.unsupported_claims] == ["c2"] and halluc.record_version == 1
    flags = [json.loads(x) for x in (tmp_path / "run" / "flags.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {f["query_id"]: f["review_status"]["queue_type"] for f in flags}["q-halluc"] == "FULL_REVIEW"
    html = run.report_path.read_text(encoding="utf-8")
    assert "Executive view" in html and "q-halluc" in html


def test_same_seed_same_queue(tmp_path):
    s = Settings()
    a = evaluate_cases(_cases(), _pipeline(), s, tmp_path / "a", eval_id="e")
    b = evaluate_cases(_cases(), _pipeline(), s, tmp_path / "b", eval_id="e")
    qa = [i.query_id for i in ReviewQueue(a.run_dir).items()]
    assert qa == [i.query_id for i in ReviewQueue(b.run_dir).items()]


def test_serving_simulation_in_summary(tmp_path):
    run = evaluate_cases(_cases(), _pipeline(), Settings(), tmp_path / "run", eval_id="e")
    ex = run.summary.executive
    # the live gate's actions as the answers carry them (halluc → warn, norecall → escalate, ok, en → answer)
    assert ex.serving_actions == {"answer": 2, "warn": 1, "escalate": 1}
    assert ex.deflection_rate == 0.25


def test_evaluation_view_drops_generic_sentences_and_judges_withheld_drafts():
    from geunkeo.answer.base import GateDecision
    from geunkeo.evaluate.runner import evaluation_view

    hit = Hit(CHUNKS["학칙#제12조"], 1.0)
    warn = Answer("q", "⚠ 근거 불충분. 휴학은 6학기까지 [1].", "ko",
                  [AnswerSentence("⚠ 근거 불충분.", generic=True),
                   AnswerSentence("휴학은 6학기까지.", [Citation(1, hit.chunk_id, "")])], contexts=[hit],
                  gate=GateDecision("warn"))
    view, what = evaluation_view(warn)
    assert view.text == "휴학은 6학기까지 [1]." and len(view.sentences) == 1
    assert what == "served answer without generic sentences" and len(warn.sentences) == 2  # original untouched
    esc = Answer("q", "담당 부서에 문의해 주시기 바랍니다.", "ko", [AnswerSentence("담당 부서에 문의해 주시기 바랍니다.",
                                                                   generic=True)],
                 contexts=[hit], gate=GateDecision("escalate"), draft="휴학은 8학기까지 [1].")
    view, what = evaluation_view(esc)
    assert (view.text, view.sentences, what) == ("휴학은 8학기까지 [1].", [], "draft withheld by the serving gate")
    # a withheld draft that had a generic note (the extractive "sources are in Korean" line) is judged without it
    note = AnswerSentence("The source documents are in Korean; the relevant passages are quoted as written.",
                          generic=True)
    quote = AnswerSentence("“휴학은 8학기까지.”", [Citation(1, hit.chunk_id, "")])
    esc.draft_sentences = [note, quote]
    view, _ = evaluation_view(esc)
    assert view.sentences == [quote] and "Korean" not in view.text and "휴학은 8학기까지" in view.text
    assert evaluation_view(None) == (None, "no answer")
