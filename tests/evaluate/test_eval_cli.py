"""`geunkeo eval …` and `geunkeo review …` through Typer's CliRunner."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from geunkeo.cli.main import app
from geunkeo.config import Settings
from geunkeo.corpus.base import Chunk
from geunkeo.evaluate.base import Claim, MetricResult, QACase
from geunkeo.evaluate.runner import EvalPipeline, evaluate_cases

runner = CliRunner()
CHUNK = Chunk("hakchik#제12조", "hakchik", "학칙", "휴학은 통산 6학기를 넘을 수 없다.", "학칙 제12조(휴학)")


def _fake_run(path, faith):
    from geunkeo.answer.base import Answer
    from geunkeo.retrieve.base import Hit
    from geunkeo.trace import Trace

    def metrics(case, ans, hits):
        return {"context_recall": MetricResult("context_recall", 1.0, "m"),
                "faithfulness": MetricResult("faithfulness", faith, "m",
                                             details={"claims": [Claim("c1", "x", supported=faith > 0.5)]}),
                "factual_correctness": MetricResult("factual_correctness", 0.9, "m"),
                "citation_coverage": MetricResult("citation_coverage", 1.0, "m")}

    pipe = EvalPipeline(lambda q: ([Hit(CHUNK, 1.0)], Trace(), {}),
                        lambda case, hits, info: Answer(case.query, "휴학은 6학기까지.", case.lang, contexts=hits), metrics)
    cases = [QACase("q1", "휴학 몇 학기?", reference_answer="6학기"), QACase("q2", "휴학 기간?", reference_answer="6학기")]
    return evaluate_cases(cases, pipe, Settings(), path, eval_id=f"eval_{path.name}")


def test_convert_beir(tmp_path):
    (tmp_path / "gold" / "qrels").mkdir(parents=True)
    (tmp_path / "gold" / "queries.jsonl").write_text(
        json.dumps({"_id": "g1", "text": "휴학 몇 학기?", "lang": "ko", "answer": "6학기", "parallel_id": "p1"},
                   ensure_ascii=False) + "\n" +
        json.dumps({"_id": "g1e", "text": "How many semesters?", "lang": "en", "parallel_id": "p1"}) + "\n",
        encoding="utf-8")
    (tmp_path / "gold" / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\ng1\thakchik#제12조\t1\n"
                                                          "g1e\thakchik#제12조\t1\n", encoding="utf-8")
    res = runner.invoke(app, ["eval", "convert", "--beir", str(tmp_path / "gold"), "--out", str(tmp_path / "qa.jsonl")])
    assert res.exit_code == 0, res.output
    assert "wrote 2 cases (en, ko; 1 parallel ids)" in res.output
    first = json.loads((tmp_path / "qa.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert first["expected_chunk_ids"] == ["hakchik#제12조"] and first["expected_doc_ids"] == ["hakchik"]
    bad = runner.invoke(app, ["eval", "convert", "--out", str(tmp_path / "x.jsonl")])
    assert bad.exit_code == 2 and "exactly one of --beir DIR or --autorag" in bad.output


def test_eval_needs_its_options():
    res = runner.invoke(app, ["eval", "--dataset", "x.jsonl"])
    assert res.exit_code == 2 and "missing --index, --out" in res.output


def test_review_commands_round_trip(tmp_path):
    run = _fake_run(tmp_path / "run", faith=0.2)  # both cases CRITICAL → full review
    db = str(run.run_dir)
    res = runner.invoke(app, ["review", "list", "--db", db, "--json"])
    assert res.exit_code == 0, res.output
    assert [i["query_id"] for i in json.loads(res.output)] == ["q1", "q2"]

    res = runner.invoke(app, ["review", "assign", "q1", "--db", db, "--reviewer", "kim"])
    assert res.exit_code == 0 and "q1: assigned to kim" in res.output
    res = runner.invoke(app, ["review", "decide", "q1", "--db", db, "--decision", "disagree", "--reviewer", "kim",
                              "--root-cause", "gt", "--corrected-answer", "통산 6학기", "--gt-update"])
    assert res.exit_code == 0, res.output
    assert "q1: disagree by kim · reviewed 1/2 · agreement 0%" in res.output
    res = runner.invoke(app, ["review", "decide", "q2", "--db", db, "--decision", "maybe", "--reviewer", "kim"])
    assert res.exit_code == 2 and "decision must be one of agree, disagree, partial" in res.output
    runner.invoke(app, ["review", "decide", "q2", "--db", db, "--decision", "agree", "--reviewer", "lee"])

    shown = json.loads(runner.invoke(app, ["review", "show", "q1", "--db", db, "--json"]).output)
    assert shown["corrected_answer"] == "통산 6학기" and shown["gt_update_needed"] is True
    assert shown["assigned_reviewer"] == "kim" and shown["reviewer_id"] == "kim"
    stats = json.loads(runner.invoke(app, ["review", "stats", "--db", db, "--json"]).output)
    assert stats["agreement_rate"] == 0.5 and stats["completion_rate"] == 1.0

    res = runner.invoke(app, ["review", "export", "--db", db, "--out", str(tmp_path / "golden.jsonl")])
    assert "wrote 2 reviewed cases" in res.output
    golden = [json.loads(x) for x in (tmp_path / "golden.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [g["reference_answer"] for g in golden] == ["통산 6학기", "6학기"]

    res = runner.invoke(app, ["eval", "report", db])
    assert res.exit_code == 0, res.output
    html = (run.run_dir / "report.html").read_text(encoding="utf-8")
    assert 'Review completion</div><div class="value">100.0%' in html
    res = runner.invoke(app, ["eval", "report", db, "--lang", "ko"])
    assert res.exit_code == 0, res.output
    html = (run.run_dir / "report.html").read_text(encoding="utf-8")
    assert '<html lang="ko">' in html and '검토 완료율</div><div class="value">100.0%' in html
    assert runner.invoke(app, ["eval", "report", db, "--lang", "fr"]).exit_code == 2


def test_eval_compare_cli(tmp_path):
    _fake_run(tmp_path / "a", faith=0.2)
    _fake_run(tmp_path / "b", faith=0.95)
    res = runner.invoke(app, ["eval", "compare", str(tmp_path / "a"), str(tmp_path / "b"), "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert d["better"] == 2 and d["flags"]["PASSED"]["delta"] == 2
    res = runner.invoke(app, ["eval", "compare", str(tmp_path / "a"), str(tmp_path / "b")])
    assert "cases worse: 0 · better: 2 (of 2 in both; only in A: 0, only in B: 0)" in res.output
    assert "q1: CRITICAL → PASSED" in res.output and "not like for like" not in res.output
    res = runner.invoke(app, ["eval", "compare", str(tmp_path / "a"), str(tmp_path / "nope")])
    assert res.exit_code == 2 and "not an evaluation run directory" in res.output


@pytest.mark.slow
def test_eval_end_to_end_on_a_tiny_index(tmp_path, monkeypatch):
    """`geunkeo eval` with the real searcher, extractive answerer and metric layer on a two-document index."""
    import geunkeo

    monkeypatch.setenv("GEUNKEO_HOME", str(tmp_path / "home"))  # vector caches stay out of the user's home

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "rules.md").write_text(
        "# 학칙\n\n## 제12조(휴학)\n휴학은 통산 6학기를 넘을 수 없다.\n\n"
        "## 제30조(등록금 반환)\n등록금은 개강 전에 자퇴하면 전액 반환한다.\n", encoding="utf-8")
    (docs / "rules-en.md").write_text(
        "# Academic Rules\n\n## Article 12 (Leave of absence)\nLeave of absence may not exceed six semesters in total.\n",
        encoding="utf-8")
    geunkeo.build_index([docs], tmp_path / "idx")
    cases = [
        {"id": "k1", "query": "휴학은 몇 학기까지 할 수 있나요?", "lang": "ko", "reference_answer": "휴학은 통산 6학기를 넘을 수 없다.",
         "parallel_id": "p1"},
        {"id": "e1", "query": "How many semesters of leave are allowed?", "lang": "en",
         "reference_answer": "Leave may not exceed six semesters.", "parallel_id": "p1"},
    ]
    (tmp_path / "qa.jsonl").write_text("\n".join(json.dumps(c, ensure_ascii=False) for c in cases) + "\n",
                                       encoding="utf-8")
    res = runner.invoke(app, ["eval", "--dataset", str(tmp_path / "qa.jsonl"), "--index", str(tmp_path / "idx"),
                              "--out", str(tmp_path / "run"), "--json"])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.output)
    on_disk = json.loads((tmp_path / "run" / "summary.json").read_text(encoding="utf-8"))
    assert on_disk.pop("record_version") == 1 and summary == on_disk  # printed as it was: without the version
    assert summary["cases"] == 2 and sum(summary["executive"]["flags"].values()) == 2
    assert summary["pipeline"]["answerer"] == "extractive"
    assert summary["crosslingual"]["pairs"] == 1
    for name in ("context_recall", "faithfulness", "citation_coverage"):
        m = summary["metrics"][name]
        assert m["computable"] + m["not_computable"] == 2 and m["methods"]
    records = [json.loads(x) for x in (tmp_path / "run" / "cases.jsonl").read_text(encoding="utf-8").splitlines()]
    k1 = next(r for r in records if r["query_id"] == "k1")
    assert k1["retrieval"]["retrieved_docs"][0]["doc_id"] == "rules"
    assert k1["response"]["response_text"] and k1["response"]["claims"]
    assert (tmp_path / "run" / "report.html").stat().st_size > 100_000


def test_eval_refuses_to_replace_a_run_without_force(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "review.db").write_bytes(b"decisions a reviewer made")
    res = runner.invoke(app, ["eval", "--dataset", str(tmp_path / "qa.jsonl"), "--index", str(tmp_path / "idx"),
                              "--out", str(run)])
    assert res.exit_code == 2 and "--force" in res.output
    assert (run / "review.db").read_bytes() == b"decisions a reviewer made"


def test_a_new_kind_of_question_goes_to_full_review(tmp_path):
    from geunkeo.answer.base import Answer
    from geunkeo.evaluate.review import ReviewQueue
    from geunkeo.retrieve.base import Hit
    from geunkeo.trace import Trace

    def metrics(case, ans, hits):  # every case passes every gate: only its kind can queue it
        return {m: MetricResult(m, 1.0, "m") for m in ("context_recall", "faithfulness", "factual_correctness",
                                                       "citation_coverage")}

    pipe = EvalPipeline(lambda q: ([Hit(CHUNK, 1.0)], Trace(), {}),
                        lambda case, hits, info: Answer(case.query, "휴학은 6학기까지.", case.lang, contexts=hits), metrics)
    gold = [QACase(f"g{i}", q, reference_answer="6학기") for i, q in enumerate(
        ["휴학은 몇 학기까지 가능합니까?", "휴학 신청 기간은 언제입니까?", "복학 신청은 어디서 합니까?", "등록금 반환 기준은?"])]
    logged = [QACase("t1", "주차 정기권 요금은 얼마야?"), QACase("t2", "휴학 신청 기간 언제야?")]
    evaluate_cases(gold + logged, pipe, Settings(), tmp_path / "run", eval_id="e_new")
    with ReviewQueue(tmp_path / "run") as q:
        queued = {i.query_id: i.queue_type for i in q.items()}
    assert queued.get("t1") == "FULL_REVIEW"  # nothing like it in the gold set
    assert queued.get("t2") != "FULL_REVIEW"  # a kind the gold set covers
