"""Dataset format and importers, on fixtures the tests write themselves."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from geunkeo.errors import ConfigError
from geunkeo.evaluate.datasets import (
    autorag_corpus_to_beir,
    from_autorag,
    from_beir,
    load_cases,
    save_cases,
)


def _write_beir(root, split="test"):
    (root / "qrels").mkdir(parents=True)
    queries = [
        {"_id": "g1", "text": "휴학은 최대 몇 학기까지 할 수 있나요?", "style": "colloquial", "lang": "ko",
         "answer": "통산 6학기까지 휴학할 수 있다.", "parallel_id": "p1", "topic": "leave"},
        {"_id": "g1-en", "text": "How many semesters of leave are allowed?", "lang": "en",
         "answer": "Up to six semesters.", "parallel_id": "p1"},
        {"_id": "g2", "text": "등록금 반환 기준", "answer": None},
    ]
    (root / "queries.jsonl").write_text("\n".join(json.dumps(q, ensure_ascii=False) for q in queries) + "\n",
                                        encoding="utf-8")
    (root / "qrels" / f"{split}.tsv").write_text(
        "query-id\tcorpus-id\tscore\n"
        "g1\thakchik#제12조\t1\n"
        "g1-en\thakchik#제12조\t1\n"
        "g1-en\trules-en\t1\n"
        "g2\thakchik#제30조\t0\n",
        encoding="utf-8",
    )


def test_beir_import_maps_fields_and_chunk_ids(tmp_path):
    _write_beir(tmp_path)
    cases = from_beir(tmp_path)
    assert [c.id for c in cases] == ["g1", "g1-en"]  # g2 has only a score-0 qrel
    g1, g1en = cases
    assert g1.expected_chunk_ids == ["hakchik#제12조"]
    assert g1.expected_doc_ids == ["hakchik"]
    assert g1.reference_answer == "통산 6학기까지 휴학할 수 있다."
    assert (g1.style, g1.parallel_id, g1.lang) == ("colloquial", "p1", "ko")
    assert g1.metadata == {"topic": "leave"}
    assert g1en.expected_chunk_ids == ["hakchik#제12조"]
    assert g1en.expected_doc_ids == ["rules-en", "hakchik"]
    assert g1en.lang == "en"


def test_a_rewrite_takes_its_questions_judgements_and_reference(tmp_path):
    _write_beir(tmp_path)
    rewrites = tmp_path / "casual.jsonl"
    rewrites.write_text(json.dumps({"_id": "g1#c1", "qrel_id": "g1", "text": "휴학 몇 학기까지 됨?",
                                    "register": "slang"}, ensure_ascii=False) + "\n", encoding="utf-8")
    (case,) = from_beir(tmp_path, queries=rewrites)
    assert (case.id, case.query, case.style) == ("g1#c1", "휴학 몇 학기까지 됨?", "slang")
    assert case.expected_chunk_ids == ["hakchik#제12조"]
    assert case.reference_answer == "통산 6학기까지 휴학할 수 있다."
    assert "qrel_id" not in case.metadata


def test_beir_doc_level_and_missing_split(tmp_path):
    _write_beir(tmp_path, split="dev")
    cases = from_beir(tmp_path, split="dev", id_level="doc")
    assert cases[0].expected_chunk_ids == [] and cases[0].expected_doc_ids == ["hakchik#제12조"]
    with pytest.raises(ConfigError, match="splits here: dev"):
        from_beir(tmp_path, split="test")


def test_jsonl_round_trip_and_errors(tmp_path):
    _write_beir(tmp_path / "b")
    cases = from_beir(tmp_path / "b")
    out = save_cases(cases, tmp_path / "qa.jsonl")
    again = load_cases(out)
    assert again == cases
    first = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert first["query"] == "휴학은 최대 몇 학기까지 할 수 있나요?"  # unescaped Korean

    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "query": "x"}\n{"id": "a", "query": "y"}\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="duplicate case id 'a'"):
        load_cases(bad)
    bad.write_text('{"id": "a", "query": "x", "task": "chat"}\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"bad.jsonl:1: task: one of qa, summary, got 'chat'"):
        load_cases(bad)
    bad.write_text('{"query": "x"}\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="bad.jsonl:1: id: a non-empty string is required"):
        load_cases(bad)


def test_autorag_parquet_import(tmp_path):
    qa = pa.table({
        "qid": ["a1", "a2"],
        "query": ["예비인가가 필요한가요?", "What is the deductible?"],
        "retrieval_gt": [[["d1"]], [["d2", "d3"], ["d4"]]],
        "generation_gt": [["필요 없습니다.", "생략할 수 있습니다."], ["20 percent."]],
    })
    corpus = pa.table({
        "doc_id": ["d1", "d2", "d3", "d4"],
        "contents": ["본인가 …", "deductible …", "x", "y"],
        "metadata": [{"title": "가이드"}, {"title": "Policy"}, {"title": "t3"}, {"title": "t4"}],
    })
    pq.write_table(qa, tmp_path / "qa.parquet")
    pq.write_table(corpus, tmp_path / "corpus.parquet")
    cases = from_autorag(tmp_path / "qa.parquet", tmp_path / "corpus.parquet")
    assert [c.id for c in cases] == ["a1", "a2"]
    assert cases[0].expected_doc_ids == ["d1"] and cases[0].complexity == "simple"
    assert cases[0].reference_answer == "필요 없습니다."
    assert cases[0].metadata == {"alternative_answers": ["생략할 수 있습니다."]}
    assert cases[1].expected_doc_ids == ["d2", "d3", "d4"] and cases[1].complexity == "multi_hop"
    assert (cases[0].lang, cases[1].lang) == ("ko", "en")

    n = autorag_corpus_to_beir(tmp_path / "corpus.parquet", tmp_path / "corpus.jsonl")
    rows = [json.loads(x) for x in (tmp_path / "corpus.jsonl").read_text(encoding="utf-8").splitlines()]
    assert n == 4 and rows[0] == {"_id": "d1", "title": "가이드", "text": "본인가 …"}

    pq.write_table(pa.table({"doc_id": ["d1"], "contents": ["x"]}), tmp_path / "small.parquet")
    with pytest.raises(ConfigError, match=r"qid a2 names doc ids not in the corpus: \['d2', 'd3', 'd4'\]"):
        from_autorag(tmp_path / "qa.parquet", tmp_path / "small.parquet")


def test_sample_cases_keeps_pairs_and_is_deterministic():
    from geunkeo.evaluate.base import QACase
    from geunkeo.evaluate.datasets import sample_cases

    cases = [QACase(f"k{i}", "q", parallel_id=f"p{i}") for i in range(5)]
    cases += [QACase(f"e{i}", "q", lang="en", parallel_id=f"p{i}") for i in range(5)]
    cases += [QACase(f"s{i}", "q") for i in range(4)]
    a = sample_cases(cases, 6, seed=13)
    assert a == sample_cases(cases, 6, seed=13) and 1 <= len(a) <= 6
    ids = {c.id for c in a}
    for i in range(5):
        assert (f"k{i}" in ids) == (f"e{i}" in ids)  # a pair is kept or dropped whole
    assert [c.id for c in a] == [c.id for c in cases if c.id in ids]  # dataset order
    assert sample_cases(cases, 100) == cases
    with pytest.raises(ConfigError, match="positive number"):
        sample_cases(cases, 0)


def test_sample_cases_keeps_every_style_in_proportion():
    from collections import Counter

    from geunkeo.evaluate.base import QACase
    from geunkeo.evaluate.datasets import sample_cases

    cases = [QACase(f"f{i}", "q", style="formal") for i in range(40)]
    cases += [QACase(f"c{i}", "q", style="colloquial") for i in range(20)]
    cases += [QACase(f"s{i}", "q", task="summary", style="formal") for i in range(3)]
    cases += [QACase(f"g{i}", "q", style="fragment") for i in range(2)]
    got = Counter((c.task, c.style) for c in sample_cases(cases, 10, seed=5))
    # 10 of 65 in proportion (6.2 / 3.1 / 0.5 / 0.3), then the rounded-away strata take one each from the largest
    assert got == {("qa", "formal"): 5, ("qa", "colloquial"): 3, ("summary", "formal"): 1, ("qa", "fragment"): 1}
