"""The hallucination filter on the written test set (tests/answer/data/filter_cases.json): exact outputs, no
invented item may survive, and at most 5% of the legitimate items may be removed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from geunkeo.answer.filter import HallucinationFilter
from geunkeo.corpus.base import Chunk
from geunkeo.text.entities import extract_contacts

DATA = json.loads((Path(__file__).parent / "data" / "filter_cases.json").read_text(encoding="utf-8"))
CASES = DATA["cases"]
FILTER = HallucinationFilter()


def _chunks(case: dict) -> list[Chunk]:
    return [Chunk(**c) for name in case["contexts"] for c in DATA["contexts"][name]]


def _run(case: dict) -> str:
    return FILTER.apply(case["answer"], _chunks(case), lang=case["lang"]).text


def _leaked(value: str, output: str) -> bool:
    if value in output:
        return True
    keys = {c.norm for c in extract_contacts(value) if c.norm}
    return bool(keys & {c.norm for c in extract_contacts(output)})


def test_case_set_is_large_and_bilingual():
    assert len(CASES) >= 120
    assert sum(c["lang"] == "en" for c in CASES) >= 20
    assert len({c["id"] for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_filter_output_is_exact(case):
    assert _run(case) == case["expected"]


def test_no_invented_item_leaks_and_legitimate_items_survive():
    leaks, legit_total, legit_removed = [], 0, []
    for case in CASES:
        out = _run(case)
        leaks += [(case["id"], v) for v in case["invented"] if _leaked(v, out)]
        legit_total += len(case["legit"])
        legit_removed += [(case["id"], v) for v in case["legit"] if v not in out]
    assert leaks == []
    assert legit_total >= 60
    assert len(legit_removed) <= 0.05 * legit_total, legit_removed


def test_removals_are_reported_with_kind_value_replacement_and_sentence():
    chunks = [Chunk(**c) for c in DATA["contexts"]["research"]]
    res = FILTER.apply("연구년 신청은 학술연구지원팀(02-1234-5678)로 문의하세요.", chunks)
    got = [(r.kind, r.value, r.replacement) for r in res.report.removed]
    assert got == [
        ("department", "학술연구지원팀", "담당 부서"),
        ("phone", "02-1234-5678", "자세한 연락처는 해당 부서에 직접 문의해 주시기 바랍니다."),
    ]
    assert {r.sentence for r in res.report.removed} == {"연구년 신청은 학술연구지원팀(02-1234-5678)로 문의하세요."}


def test_supported_citation_carries_the_article_text():
    chunks = [Chunk(**c) for c in DATA["contexts"]["hakchik"]]
    res = FILTER.apply("「학칙」 제13조 제2항에 따라 학사지원팀에 복학을 신청합니다.", chunks)
    cites = [k for k in res.report.kept if k.kind == "citation"]
    assert len(cites) == 1
    assert cites[0].chunk_id == "regulations/학칙#제13조"
    assert cites[0].article_text.startswith("제13조(복학) ① 휴학한 학생은")
    depts = [k.value for k in res.report.kept if k.kind == "department"]
    assert depts == ["학사지원팀"]


def test_citation_mentioned_in_another_article_is_grounded_by_its_evidence():
    chunks = [Chunk(**c) for c in DATA["contexts"]["hakchik"]]
    res = FILTER.apply("「등록금 반환 규정」 제5조를 따릅니다.", chunks)
    assert res.report.removed == []
    assert "「등록금 반환 규정」 제5조에 따른다" in res.report.kept[0].evidence


def test_figures_missing_from_the_context_are_cut_not_reported():
    chunks = [Chunk(**c) for c in DATA["contexts"]["hakchik"]]
    # the context says 30 days: the duration's clause carries the sentence, so a phrase of what it counts stands in
    res = FILTER.apply("휴학은 학기 개시일부터 45일 이내에 신청합니다.", chunks)
    assert res.text == "휴학은 학기 개시일부터 일정 기간 이내에 신청합니다."
    assert [(r.kind, r.value, r.replacement) for r in res.report.removed] == [("count", "45일", "")]
    assert res.report.unverified == []
    res = FILTER.apply("등록금의 40%를 반환합니다.", chunks)
    assert res.text == "등록금의 일정 비율을 반환합니다."  # (the particle re-chosen for the phrase)
    assert FILTER.apply("휴학은 학기 개시일부터 30일 이내에 신청합니다.", chunks).report.removed == []


def test_plain_strings_are_accepted_as_contexts():
    res = FILTER.apply("문의는 학사지원팀(02-880-1234)으로 하세요.", ["복학 신청은 학사지원팀(02-880-1234)에 한다."])
    assert res.text == "문의는 학사지원팀(02-880-1234)으로 하세요."
    assert res.report.removed == []


def test_every_sample_corpus_chunk_survives_the_filter_against_itself():
    """Self-consistency on real regulation text: what a chunk says is supported by that chunk (no asymmetry
    between how answers and contexts are read, e.g. 「학칙」 제3조, 제25조 / 같은 학칙 제17조)."""
    from geunkeo.corpus import chunk_documents, load_paths

    root = Path(__file__).resolve().parents[2] / "sample" / "corpus"
    docs, failures = load_paths([root])
    chunks = chunk_documents(docs)
    assert failures == [] and len(chunks) > 100
    removed = []
    for c in chunks:
        res = FILTER.apply(c.text, [c], lang="en" if c.lang == "en" else "ko")
        removed += [(c.chunk_id, r.kind, r.value) for r in res.report.removed]
    assert removed == []


def _mutate(e) -> str | None:
    """An invented variant of a real item: another phone number, a longer department name, another article."""
    if e.kind == "phone" and not e.placeholder:
        return e.text[:-4] + "9797"
    if e.kind == "email":
        return "x" + e.text
    if e.kind == "department" and re.match(r"[가-힣]", e.text):
        return "미래" + e.text
    if e.kind == "citation" and e.article and re.search(r"제\s?\d+\s?조", e.text):
        return re.sub(r"제\s?(\d+)\s?조", lambda m: f"제{int(m.group(1)) + 60}조", e.text, count=1)
    return None


def test_a_mutated_item_in_real_text_never_survives():
    """Each sample-corpus chunk with its first checkable item changed, filtered against the original chunk."""
    from geunkeo.corpus import chunk_documents, load_paths
    from geunkeo.text.entities import extract_all

    docs, _ = load_paths([Path(__file__).resolve().parents[2] / "sample" / "corpus"])
    tried, survived = 0, []
    for c in chunk_documents(docs):
        for e in extract_all(c.text):
            new = _mutate(e)
            if new is None:
                continue
            tried += 1
            out = FILTER.apply(c.text[: e.start] + new + c.text[e.end :], [c]).text
            if new in out:
                survived.append((c.chunk_id, new))
            break
    assert tried > 100
    assert survived == []


def test_a_looping_answer_loses_every_repeated_invention_and_keeps_the_real_sentence():
    """An LLM that loops writes one sentence with hundreds of invented items: each goes, and the real fact and
    contact before them stay (the windowed look-behinds must not lose items far from the sentence start)."""
    ctx = [Chunk(chunk_id="d1#s1", doc_id="d1", title="장학 안내", location="장학 안내",
                 text="장학금은 매 학기 초에 지급합니다. 문의: 학생지원팀(02-880-1234).")]
    answer = "장학금은 매 학기 초에 지급합니다. 학생지원팀(02-880-1234)에 문의하세요. " + "문의: 02-555-0199, " * 400
    res = FILTER.apply(answer, ctx, lang="ko")
    assert "02-555-0199" not in res.text
    assert "장학금은 매 학기 초에 지급합니다." in res.text and "02-880-1234" in res.text
    assert sum(r.value == "02-555-0199" for r in res.report.removed) == 400
    offices = "학생지원팀 " + "장학복지센터 " * 300 + "입니다."
    res = FILTER.apply("문의처는 " + offices, ctx, lang="ko")
    assert "장학복지센터" not in res.text


def test_the_report_is_typed_and_its_json_keeps_the_shape_it_had():
    from geunkeo.answer.base import Answer
    from geunkeo.answer.report import FilterReport

    chunks = [Chunk(**c) for c in DATA["contexts"]["hakchik"]]
    res = FILTER.apply("「학칙」 제13조 제2항에 따라 학사지원팀에 복학을 신청합니다.", chunks)
    report = Answer("q", res.text, "ko", filter_report=res.report).to_dict()["filter_report"]
    # only a kept citation carries its article's text; no item gains an empty key
    assert sorted(tuple(k) for k in report["kept"]) == [
        ("kind", "value", "context", "chunk_id", "location"),
        ("kind", "value", "context", "chunk_id", "location", "article_text")]
    assert FilterReport.from_dict(report) == res.report
    # a server's public form leaves the rejected text out: it still reads
    assert FilterReport.from_dict({"removed": [{"kind": "phone"}]}).removed[0].value == ""
