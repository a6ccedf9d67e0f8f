"""Output parsing: JSON repair, lists, partial rankings — the shapes small models really produce."""

from __future__ import annotations

import pytest

from geunkeo.errors import LLMBadOutput
from geunkeo.llm.parsing import extract_json, parse_list, parse_ranking


@pytest.mark.parametrize(
    "text, expected",
    [
        ('{"queries": ["a", "b"]}', {"queries": ["a", "b"]}),
        ('```json\n{"title": "휴학 안내", "answer": "학기 개시 전"}\n```', {"title": "휴학 안내", "answer": "학기 개시 전"}),
        ('Sure! Here you go: {"a": 1} Hope this helps.', {"a": 1}),
        ('{"a": [1, 2,], "b": "x",}', {"a": [1, 2], "b": "x"}),
        ("{'variants': ['휴학 신청 절차', \"it's ok\"], 'ok': true, 'n': null}",
         {"variants": ["휴학 신청 절차", "it's ok"], "ok": True, "n": None}),
        ('{"title": "장학금 지급", "answer": "성적이 3.0 이상인', {"title": "장학금 지급", "answer": "성적이 3.0 이상인"}),
        ('Ranking:\n[2, 1, 3]', [2, 1, 3]),
        ('prose with {braces in text} then ```\n{"k": "v"}\n```', {"k": "v"}),
    ],
)
def test_extract_json_repairs(text, expected):
    assert extract_json(text) == expected


@pytest.mark.parametrize("text", ["", "   ", "no json here at all", "{{{"])
def test_extract_json_raises_bad_output(text):
    with pytest.raises(LLMBadOutput):
        extract_json(text)


def test_parse_list_numbered_and_bulleted_with_dedupe():
    text = 'Here are the variants:\n1. 휴학 신청 방법\n2) 휴학 절차는?\n- "leave of absence procedure"\n3. 휴학  신청 방법\n'
    assert parse_list(text) == ["휴학 신청 방법", "휴학 절차는?", "leave of absence procedure"]


def test_parse_list_json_key_and_first_list():
    assert parse_list('{"queries": ["a", "b", "a"]}', key="queries") == ["a", "b"]
    assert parse_list('{"note": "x", "items": ["c", "d"]}') == ["c", "d"]
    assert parse_list('["x", 3, {"skip": 1}]') == ["x", "3"]


def test_parse_list_plain_lines_without_markers():
    assert parse_list("휴학 신청 기간\n복학 절차 안내") == ["휴학 신청 기간", "복학 절차 안내"]
    with pytest.raises(LLMBadOutput):
        parse_list("\n \n")


@pytest.mark.parametrize(
    "text, n, expected",
    [
        ('{"ranking": [3, 1, 2]}', 3, [2, 0, 1]),
        ("[3] > [1] > [2]", 5, [2, 0, 1]),
        ("The best are 4, 2", 4, [3, 1]),
        ('{"ranking": [2, 9, 2, 0, 1]}', 3, [1, 0]),  # out of range and repeats dropped
        ('{"ranking": [{"id": 2, "score": 0.9}, {"id": 1}]}', 2, [1, 0]),
        ('```json\n{"ranking": ["[5]", "[2]"]}\n```', 5, [4, 1]),
    ],
)
def test_parse_ranking(text, n, expected):
    assert parse_ranking(text, n) == expected


def test_parse_ranking_without_valid_ids_raises():
    with pytest.raises(LLMBadOutput):
        parse_ranking("I cannot rank these passages.", 5)
    with pytest.raises(LLMBadOutput):
        parse_ranking('{"ranking": [7, 8]}', 5)
