"""The manager's pages: two runs compared (case sets, profiles, deltas in colour and words, A/B order), and a run's
report rendered live from its records and the review store (decisions show at once, no server paths, a way back)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from geunkeo.answer.base import Answer
from geunkeo.config import Settings
from geunkeo.corpus.base import Chunk
from geunkeo.evaluate.base import Claim, MetricResult, QACase
from geunkeo.evaluate.runner import EvalPipeline, evaluate_cases
from geunkeo.server.app import create_app
from geunkeo.server.auth import KeyStore

pytestmark = pytest.mark.slow
CHUNK = Chunk("leave#제12조", "leave", "학칙", "일반휴학은 통산 6개 학기를 넘을 수 없다.", "학칙 제12조")
CASES = [QACase("q1", "휴학은 몇 학기?", reference_answer="6개 학기"),
         QACase("q2", "휴학 기간은?", reference_answer="6개 학기"),
         QACase("q3", "휴학 횟수는?", reference_answer="6개 학기")]


def _pipeline(faith: float) -> EvalPipeline:
    from geunkeo.retrieve.base import Hit
    from geunkeo.trace import Trace

    def metrics(case, ans, hits):
        claim = Claim("c1", "휴학은 8개 학기까지", supported=faith >= 0.9, support_score=faith)
        return {"context_recall": MetricResult("context_recall", 1.0, "m"),
                "faithfulness": MetricResult("faithfulness", faith, "m", details={"claims": [claim]}),
                "factual_correctness": MetricResult("factual_correctness", 0.9, "m"),
                "citation_coverage": MetricResult("citation_coverage", 1.0, "m")}

    return EvalPipeline(lambda q: ([Hit(CHUNK, 1.0)], Trace(), {}),
                        lambda case, hits, info: Answer(case.query, "휴학은 8개 학기까지.", "ko", contexts=hits), metrics)


@pytest.fixture(scope="module")
def runs(server_index, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("runs-pages")
    evaluate_cases(CASES, _pipeline(0.1), Settings(), tmp / "runs" / "base", eval_id="eval_base")
    evaluate_cases(CASES[1:], _pipeline(0.1), Settings(evaluate={"profile": "advanced"}), tmp / "runs" / "small",
                   eval_id="eval_small")
    evaluate_cases(CASES, _pipeline(0.95), Settings(), tmp / "runs" / "fixed", eval_id="eval_fixed")
    store = KeyStore(tmp / "server.db")
    keys = {"rev": store.create("alice", "reviewer")}
    settings = Settings(server={"db_path": str(tmp / "server.db")})
    return TestClient(create_app(server_index, settings, runs_dir=tmp / "runs")), keys, tmp


def test_compare_warns_when_runs_differ_and_lists_cases_in_one_run(runs):
    client = runs[0]
    html = client.get("/runs/compare", params={"a": "base", "b": "small"}).text
    assert '<h1 id="compare-title">A base · B small 비교</h1>' in html  # the form's A/B order
    assert 'id="not-like-for-like"' in html
    assert "판정 기준이 다릅니다: A dev, B advanced" in html and "사례 수가 다릅니다: A 3개, B 2개" in html
    assert '<h2 id="only-in-a">A에만 있는 사례 (1개)</h2>' in html and "<code>q1</code> (심각)" in html
    assert 'id="only-in-b"' not in html


def test_compare_explains_a_flag_change_no_case_made(runs):
    html = runs[0].get("/runs/compare", params={"a": "base", "b": "small"}).text
    assert "두 실행에 모두 있는 사례 2개 중 0개 악화 · 0개 개선" in html
    row = re.search(r"<tr><td>심각</td>.*?</tr>", html).group(0)
    # −1 in all: 0 among the shared cases, −1 from the case only in A; and the note says so
    assert row.endswith("<td>+0</td><td>-1</td></tr>") and 'id="unshared-note"' in html


def test_compare_colours_deltas_with_words(runs):
    html = runs[0].get("/runs/compare", params={"a": "base", "b": "fixed", "lang": "en"}).text
    assert "A base compared with B fixed" in html and 'id="not-like-for-like"' not in html
    assert '<span class="delta better">-3 ▲ better</span>' in html  # CRITICAL down is better, said in words
    assert '<span class="delta better">+0.850 ▲ better</span>' in html  # faithfulness up
    assert "Of the 3 cases in both runs: 0 worse · 3 better" in html and 'id="unshared-note"' not in html
    back = runs[0].get("/runs/compare", params={"a": "fixed", "b": "base", "lang": "en"}).text
    assert '<span class="delta worse">+3 ▼ worse</span>' in back
    for korean in ("판정", "사례", "비교"):
        assert korean not in back, korean


def test_the_report_shows_a_decision_saved_a_moment_ago(runs):
    client, keys, _ = runs
    before = client.get("/runs/base").text  # the app's default language: Korean
    assert 'id="live"' in before and "대기 3개 중 0개 검토" in before
    queue = client.get("/api/review/base").json()
    qid = queue["items"][0]["query_id"]
    r = client.post(f"/api/review/base/{qid}", json={"decision": "agree", "based_on": 0},
                    headers={"Authorization": f"Bearer {keys['rev']}"})
    assert r.status_code == 200, r.text
    after = client.get("/runs/base").text
    assert "대기 3개 중 1개 검토" in after and re.search(r"검토 완료율</div><div class=\"value\">33\.3%", after)
    assert "<td>동의</td>" in after
    english = client.get("/runs/base", params={"lang": "en"}).text
    assert "1 of 3 queued" in english and "<td>agree</td>" in english


def test_the_report_has_no_paths_no_section_numbers_and_a_way_back(runs):
    client, _, tmp = runs
    html = client.get("/runs/fixed", params={"lang": "en"}).text
    assert str(tmp) not in html and "/tmp" not in html
    assert "§" not in html and "seed" not in html.lower()
    assert '<a class="back" href="/runs?lang=en">' in html and '<a class="back" href="/?lang=en">' in html
    assert '<html lang="en">' in html


def test_the_report_speaks_the_page_language(runs):
    client = runs[0]
    ko = client.get("/runs/fixed").text
    assert '<html lang="ko">' in ko and '<h1>근거 · 평가 보고서</h1>' in ko
    assert '<a href="#executive">요약</a><a href="#debug">모델 진단</a>' in ko
    assert '<a class="back" href="/runs?lang=ko">← 평가 결과</a>' in ko and "에 새로 그렸습니다" in ko
    # a metric by its name, its key in a tooltip for the reviewer
    assert '<span title="faithfulness">문서 충실도</span>' in ko
    for english in ("Executive view", "Evaluation runs", "Rendered live", "How every number was made", "queued"):
        assert english not in ko, english
    en = client.get("/runs/fixed", params={"lang": "en"}).text
    assert "Executive view" in en and "Rendered live at" in en and "← Evaluation runs" in en
    assert "요약" not in en and "평가 결과" not in en


def test_plotly_comes_once_from_a_cached_url(runs):
    client = runs[0]
    html = client.get("/runs/fixed").text
    src = re.search(r'<script src="(/runs/assets/plotly-[^"]+\.js)" defer></script>', html).group(1)
    assert len(html) < 1_000_000  # plotly.js (4 MB) is not inlined
    js = client.get(src, headers={"accept-encoding": "gzip"})
    assert js.status_code == 200 and "immutable" in js.headers["cache-control"]
    assert js.headers["content-encoding"] == "gzip" and "plotly" in js.text[:2000].lower()
    assert client.get("/runs/assets/plotly-0.0.0.js").status_code == 404


def test_the_runs_list_speaks_one_language(runs):
    client = runs[0]
    ko = client.get("/runs").text
    assert "<th>실행</th><th>평가 ID</th><th>사례 수</th>" in ko and '<a href="/runs/base?lang=ko">base</a>' in ko
    assert '<input type="hidden" name="lang" value="ko">' in ko
    assert "<th>심각 / 주의 / 통과</th>" in ko and "CRITICAL" not in ko  # flag levels in words too
    en = client.get("/runs", params={"lang": "en"}).text
    assert "<th>run</th><th>eval id</th><th>cases</th>" in en and "평가 ID" not in en
    assert "<th>CRITICAL / WARNING / PASSED</th>" in en
    english_compare = client.get("/runs/compare", params={"a": "base", "b": "small", "lang": "en"}).text
    assert "<code>q1</code> (CRITICAL)" in english_compare


def test_a_run_that_did_not_finish_is_a_404_naming_the_run(runs):
    client, _, tmp = runs
    (tmp / "runs" / "broken").mkdir()
    (tmp / "runs" / "broken" / "summary.json").write_text('{"eval_id": "e", "cases": 0}', encoding="utf-8")
    for path in ("/runs/broken", "/api/runs/compare?a=base&b=broken", "/runs/compare?a=broken&b=base"):
        r = client.get(path)
        assert r.status_code == 404 and "broken" in r.text and str(tmp) not in r.text, path
