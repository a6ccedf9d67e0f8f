"""A QA dataset is checked line by line before any work, and every problem is named with file:line and field."""

from __future__ import annotations

import json

import pytest

from geunkeo.errors import ConfigError
from geunkeo.evaluate.datasets import load_cases


def test_every_problem_is_listed_with_its_line_and_field(tmp_path):
    lines = [{"id": "a", "query": "휴학?", "expected_doc_ids": 5},
             {"id": "b", "query": 12345, "lang": 7},
             {"id": "c", "query": "장학금?", "reference_answer": {"text": "x"}},
             {"id": "d", "query": "정상인 질문"}]
    f = tmp_path / "qa.jsonl"
    f.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\nnot json\n", encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_cases(f)
    msg = str(err.value)
    assert "has 5 problem(s)" in msg
    for expected in (f"{f}:1: expected_doc_ids: a list of strings, got int",
                     f"{f}:2: query: a non-empty string is required, got int", f"{f}:2: lang: one of ko, en, mixed",
                     f"{f}:3: reference_answer: a string or null, got dict", f"{f}:5: not valid JSON"):
        assert expected in msg


def test_a_dataset_that_is_not_utf8_is_named(tmp_path):
    f = tmp_path / "qa.jsonl"
    f.write_bytes('{"id": "a", "query": "휴학"}'.encode("cp949"))
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_cases(f)


def test_a_valid_dataset_loads(tmp_path):
    f = tmp_path / "qa.jsonl"
    f.write_text(json.dumps({"id": 1, "query": "휴학은?", "expected_doc_ids": "hakchik", "lang": "ko"},
                            ensure_ascii=False), encoding="utf-8")
    case = load_cases(f)[0]
    assert case.id == "1" and case.expected_doc_ids == ["hakchik"]


def test_the_seeds_cross_lingual_pair_becomes_two_parallel_cases(tmp_path):
    f = tmp_path / "clir.jsonl"
    f.write_text(json.dumps({"pair_id": "clir_001", "query_ko": "침수 피해 보상 범위가 어떻게 되나요?",
                             "query_en": "What is the coverage scope for flood damage?",
                             "expected_docs": ["policy/flood"], "expected_claims": ["침수 피해는 특약 가입 시 보장"]},
                            ensure_ascii=False), encoding="utf-8")
    ko, en = load_cases(f)
    assert (ko.id, ko.lang, en.id, en.lang) == ("clir_001-ko", "ko", "clir_001-en", "en")
    assert ko.parallel_id == en.parallel_id == "clir_001"
    assert ko.expected_doc_ids == en.expected_doc_ids == ["policy/flood"]
    assert en.reference_claims == ["침수 피해는 특약 가입 시 보장"]
