"""The labelled query-style set (tests/query/data/query_styles.jsonl, written for these tests): formality
accuracy, colloquial rewrite accuracy and untouched formal queries, measured over the whole set."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from geunkeo.query.colloquial import ColloquialTransformer
from geunkeo.query.formality import FormalityDetector

DATA = Path(__file__).parent / "data" / "query_styles.jsonl"


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    return [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module")
def transformer() -> ColloquialTransformer:
    return ColloquialTransformer()  # no pending queue: the tests must not write into anyone's home


def test_set_is_large_and_balanced(rows):
    styles = Counter(r["style"] for r in rows)
    assert len(rows) >= 300
    assert styles["colloquial"] >= 150
    assert min(styles[s] for s in ("formal", "polite", "fragment", "english")) >= 25
    assert len({r["text"] for r in rows}) == len(rows), "duplicate queries inflate the accuracy"


def test_formality_accuracy_at_least_95_percent(rows):
    det = FormalityDetector()
    wrong = [(r["text"], r["style"], det.detect(r["text"]).label) for r in rows
             if det.detect(r["text"]).label != r["style"]]
    accuracy = 1 - len(wrong) / len(rows)
    assert accuracy >= 0.95, wrong


def test_colloquial_rewrites_match_expected_form_and_intent(rows, transformer):
    colloquial = [r for r in rows if r["style"] == "colloquial"]
    wrong = []
    for r in colloquial:
        res = transformer.transform(r["text"])
        if res.transformed != r["formal"] or not set(r["contexts"]) <= set(res.contexts):
            wrong.append((r["text"], r["formal"], res.transformed, res.contexts))
    assert 1 - len(wrong) / len(colloquial) >= 0.95, wrong


def test_no_formal_or_english_query_is_altered(rows, transformer):
    for r in rows:
        if r["style"] in ("formal", "english"):
            res = transformer.transform(r["text"])
            assert res.transformed == r["text"], r["text"]
            assert not res.patterns
