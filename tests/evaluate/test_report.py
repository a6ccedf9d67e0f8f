"""The HTML report: three views, inline plotly, no external URLs, escaped text; and run comparison."""

from __future__ import annotations

import json
import re
from html import unescape

from plotly.offline import get_plotlyjs

from geunkeo.answer.base import Answer, AnswerSentence, Citation
from geunkeo.config import Settings
from geunkeo.corpus.base import Chunk
from geunkeo.evaluate.base import Claim, MetricResult, QACase
from geunkeo.evaluate.report.compare import compare_runs
from geunkeo.evaluate.report.html import render_report
from geunkeo.evaluate.report.strings import LEVELS, REPORT
from geunkeo.evaluate.runner import EvalPipeline, evaluate_cases, load_run

CHUNK = Chunk("policy#제5조", "policy", "약관", "임플란트는 보장하지 않는다.", "약관 제5조(면책)")


def _pipeline(faith: float):
    from geunkeo.retrieve.base import Hit
    from geunkeo.trace import Trace

    def search(q):
        return [Hit(CHUNK, 1.0)], Trace(), {}

    def answer(case, hits, info):
        return Answer(case.query, "임플란트는 50% 보장된다. [1]", "ko",
                      [AnswerSentence("임플란트는 50% 보장된다.", [Citation(1, CHUNK.chunk_id, CHUNK.location)])],
                      contexts=hits)

    def metrics(case, ans, hits):
        claim = Claim("c1", "임플란트는 50% 보장된다", supported=faith >= 0.9, support_score=faith,
                      checks={"citations": [1], "support": {"failure_reason": "POLARITY_MISMATCH"}})
        return {"context_recall": MetricResult("context_recall", 1.0, "m"),
                "faithfulness": MetricResult("faithfulness", faith, "m", details={"claims": [claim]}),
                "factual_correctness": MetricResult("factual_correctness", 0.9, "m"),
                "citation_coverage": MetricResult("citation_coverage", 1.0, "m")}

    return EvalPipeline(search, answer, metrics)


CASES = [QACase("q<1>", "임플란트 <script>alert(1)</script> 보장?", reference_answer="보장하지 않는다"),
         QACase("q2", "치과 치료 보장?", reference_answer="보장하지 않는다")]


def test_report_has_three_views_and_is_offline(tmp_path):
    run = evaluate_cases(CASES, _pipeline(0.1), Settings(), tmp_path / "r", eval_id="eval_a")
    html = run.report_path.read_text(encoding="utf-8")
    for view in ('id="executive"', 'id="debug"', 'id="compliance"', "Executive view", "Model debug view",
                 "Compliance view"):
        assert view in html
    assert get_plotlyjs()[:500] in html  # plotly.js inlined, not fetched
    # outside the plotly bundle (whose own strings mention its website), nothing points off the page
    ours = html.replace(get_plotlyjs(), "")
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", ours, re.I)
    assert not re.search(r"https?://", ours)
    assert "<link" not in html and "<script src" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>alert(1)" not in html
    assert "POLARITY_MISMATCH" in html and "임플란트는 50% 보장된다" in html  # the worst case's claim and why
    assert "HALLUCINATED_CLAIM_DETECTED" in html
    # no review yet: disagreement rate is "n/a", never 0
    assert re.search(r"Review disagreement</div><div class=\"value\">n/a", html)


def _visible(html: str) -> str:
    """What a reader sees: the text between the tags, and the figures' titles, legends and axis labels."""
    html = re.sub(r"<style>.*?</style>", " ", html.replace(get_plotlyjs(), ""), flags=re.S)
    figure_words = [json.loads(f'"{m}"') for m in re.findall(r'"(?:text|name)":"((?:[^"\\]|\\.)*)"', html)]
    for labels in re.findall(r'"(?:x|y|labels)":(\[[^\]]*\])', html):
        figure_words += [x for x in json.loads(labels) if isinstance(x, str)]
    text = unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<script.*?</script>", " ", html, flags=re.S)))
    return text + " " + " ".join(figure_words)


def _english_captions() -> set[str]:
    """Every piece of the English report's own words (placeholders and markup cut out), 3 characters or more."""
    pieces = set(LEVELS[level]["en"] for level in LEVELS)
    for words in REPORT["en"].values():
        pieces.update(p.strip(" ·:()") for p in re.split(r"\{\w+\}|<b>|</b>|\|", words))
    return {p for p in pieces if len(p) >= 3 and re.search("[A-Za-z]", p)} - {"ranx", "ko/en"}


def test_the_korean_report_has_korean_words_and_no_english_captions(tmp_path):
    evaluate_cases(CASES, _pipeline(0.1), Settings(), tmp_path / "r", eval_id="eval_a")
    summary, records = load_run(tmp_path / "r")
    ko = render_report(summary, records, lang="ko")
    assert '<html lang="ko">' in ko
    seen = _visible(ko)
    for korean in ("근거 · 평가 보고서", "요약", "모델 진단", "감사 대비", "P0 통과율", "환각 비율", "검토 불일치",
                   "심각", "문서 충실도", "기준별 결과 (사례 수)", "지표 분포 (빨간 눈금 = 기준)", "문서에 없는 내용"):
        assert korean in seen, korean
    assert re.search(r"검토 불일치</div><div class=\"value\">값 없음", ko)  # no review yet: no value, never 0
    left = sorted(p for p in _english_captions() if re.search(rf"(?<![A-Za-z]){re.escape(p)}(?![A-Za-z])", seen))
    assert left == [], left
    # the codes a reviewer looks for stay, in tooltips
    assert 'title="HALLUCINATED_CLAIM_DETECTED"' in ko and 'title="CRITICAL"' in ko
    assert '<span title="faithfulness">문서 충실도</span>' in ko


def test_the_english_report_keeps_its_words(tmp_path):
    evaluate_cases(CASES, _pipeline(0.1), Settings(), tmp_path / "r", eval_id="eval_a")
    summary, records = load_run(tmp_path / "r")
    en = render_report(summary, records)
    assert '<html lang="en">' in en
    seen = _visible(en)
    for english in ("Executive view", "Model debug view", "Compliance view", "P0 pass rate", "Gate outcomes (cases)",
                    "Metric distributions (red tick = gate)", "How every number was made", "CRITICAL"):
        assert english in seen, english
    korean_words = {w for words in REPORT["ko"].values() for w in re.findall("[가-힣]{2,}", words)} - {"근거"}
    # the cases' own text is Korean here: the report's words are looked for outside the worst cases
    outside_cases = _visible(re.sub(r"Worst cases, with their claims</h3>.*?</section>", "", en, flags=re.S))
    assert "임플란트" not in outside_cases and [w for w in korean_words if w in outside_cases] == []


def test_compare_runs(tmp_path):
    evaluate_cases(CASES, _pipeline(0.1), Settings(), tmp_path / "a", eval_id="eval_a")
    evaluate_cases(CASES, _pipeline(0.95), Settings(), tmp_path / "b", eval_id="eval_b")
    d = compare_runs(tmp_path / "a", tmp_path / "b")
    assert abs(d["metrics"]["faithfulness"]["delta"] - 0.85) < 1e-9
    assert d["flags"]["CRITICAL"] == {"a": 2, "b": 0, "delta": -2, "shared_delta": -2, "unshared_delta": 0,
                                      "direction": "better"}
    assert d["flags"]["PASSED"] == {"a": 0, "b": 2, "delta": 2, "shared_delta": 2, "unshared_delta": 0,
                                    "direction": "better"}
    assert d["better"] == 2 and d["worse"] == 0
    change = d["flag_changes"][0]
    assert change["query_id"] == "q2" and change["from"] == "CRITICAL" and change["to"] == "PASSED"
    assert change["reasons_removed"] == ["P0-2_FAITHFULNESS_BELOW_THRESHOLD", "HALLUCINATED_CLAIM_DETECTED",
                                         "DISAGREEMENT_OWN_KNOWLEDGE_SUSPECTED"]
    assert d["gates"]["faithfulness"] == {"a": 0.0, "b": 1.0, "delta": 1.0, "direction": "better"}


def test_compare_states_different_case_sets_and_profiles(tmp_path):
    evaluate_cases(CASES, _pipeline(0.1), Settings(), tmp_path / "a", eval_id="eval_a")
    evaluate_cases(CASES[1:], _pipeline(0.1), Settings(evaluate={"profile": "advanced"}), tmp_path / "b",
                   eval_id="eval_b")
    d = compare_runs(tmp_path / "a", tmp_path / "b")
    assert d["a"]["run"] == "a" and d["b"]["run"] == "b"  # folder names, not paths on the machine
    assert d["shared_cases"] == 1
    assert {x["code"] for x in d["differences"]} == {"profile_differs", "cases_differ", "case_sets_differ"}
    assert {"code": "profile_differs", "a": "dev", "b": "advanced"} in d["differences"]
    assert d["only_in_a"] == [{"query_id": "q<1>", "level": "CRITICAL"}] and d["only_in_b"] == []
    # CRITICAL fell by one with no case getting better: the whole change comes from the case only in A
    assert d["worse"] == 0 and d["better"] == 0
    assert d["flags"]["CRITICAL"] == {"a": 2, "b": 1, "delta": -1, "shared_delta": 0, "unshared_delta": -1,
                                      "direction": "better"}


def test_compare_delta_directions_follow_the_gate_operator():
    from geunkeo.evaluate.report.compare import direction

    assert direction(0.2, True) == "better" and direction(-0.2, True) == "worse"
    assert direction(0.2, False) == "worse" and direction(0.0, True) == "same" and direction(None, True) is None


def test_compare_flag_deltas_add_up_to_the_worse_and_better_counts(tmp_path):
    evaluate_cases(CASES, _pipeline(0.1), Settings(), tmp_path / "a", eval_id="eval_a")
    evaluate_cases(CASES, _pipeline(0.95), Settings(), tmp_path / "b", eval_id="eval_b")
    d = compare_runs(tmp_path / "a", tmp_path / "b")
    assert d["differences"] == [] and d["shared_cases"] == 2
    assert d["flags"]["CRITICAL"]["shared_delta"] == -d["better"] and d["flags"]["CRITICAL"]["unshared_delta"] == 0
    assert d["metrics"]["faithfulness"]["direction"] == "better" and d["gates"]["faithfulness"]["direction"] == "better"
