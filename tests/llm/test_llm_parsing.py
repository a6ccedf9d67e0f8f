"""Output parsing: JSON repair, lists, partial rankings — the shapes small models really produce."""

from __future__ import annotations

import pytest

from geunkeo.errors import LLMBadOutput
from geunkeo.llm.parsing import extract_json, parse_fields, parse_ranking, parse_string_list


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


@pytest.mark.parametrize(
    "text, expected",
    [
        ('{"queries": ["a", "b", "a"]}', ["a", "b"]),
        ('["휴학 신청 절차", "휴학원  제출 기한", "휴학 신청 절차", ""]', ["휴학 신청 절차", "휴학원 제출 기한"]),
        # fenced, with trailing commas
        ('```json\n{"queries": ["휴학 신청 절차", "휴학원 제출 기한",],}\n```', ["휴학 신청 절차", "휴학원 제출 기한"]),
        ("{'queries': ['휴학 신청 절차', 'leave of absence']}", ["휴학 신청 절차", "leave of absence"]),
        # truncated: the model stopped mid-list
        ('{"queries": ["휴학 신청 절차", "휴학원 제출', ["휴학 신청 절차", "휴학원 제출"]),
        ('["휴학 신청 절차", "복학', ["휴학 신청 절차", "복학"]),
        ('Here are the queries:\n["휴학 신청 절차"]', ["휴학 신청 절차"]),
    ],
)
def test_parse_string_list_reads_the_json_shape_with_repairs(text, expected):
    assert parse_string_list(text, key="queries") == expected


@pytest.mark.parametrize(
    "text",
    [
        "asdf qwer\nlorem ipsum zzz",  # nonsense lines are not variants
        "Here are the variants:\n1. 휴학 신청 방법\n2) 휴학 절차는?\n- leave of absence procedure",
        "휴학 신청 기간\n복학 절차 안내",
        '{"note": "x", "items": ["c", "d"]}',  # an object without the key asked for
        '{"queries": "휴학 신청 절차"}',
        '["x", 3, {"skip": 1}]',  # not a list of strings
        '{"queries": []}',
        '{"queries": ["", "  "]}',
        "\n \n",
    ],
)
def test_parse_string_list_rejects_anything_else(text):
    with pytest.raises(LLMBadOutput):
        parse_string_list(text, key="queries")


@pytest.mark.parametrize(
    "text, expected",
    [
        ('{"title": " 휴학 안내 ", "answer": "학기 개시 전에 낸다."}', {"title": "휴학 안내", "answer": "학기 개시 전에 낸다."}),
        ('```json\n{"title": "휴학 안내", "answer": "학기 개시 전",}\n```', {"title": "휴학 안내", "answer": "학기 개시 전"}),
        ('{"title": "장학금 지급", "answer": "성적이 3.0 이상인', {"title": "장학금 지급", "answer": "성적이 3.0 이상인"}),
        ('{"title": "", "answer": "a", "extra": 1}', {"title": "", "answer": "a"}),
        ('{"title": "t", "answer": null}', {"title": "t", "answer": ""}),
    ],
)
def test_parse_fields(text, expected):
    assert parse_fields(text, ("title", "answer")) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I don't know.",
        "휴학 안내\n휴학은 학기 개시 전에 신청한다.",
        '["휴학 안내", "휴학은 학기 개시 전에 신청한다."]',
        '{"passage": "휴학은 학기 개시 전에 신청한다."}',  # not a field the prompt asks for
        '{"title": "", "answer": ""}',
        '{"title": "t", "answer": ["a", "b"]}',
    ],
)
def test_parse_fields_rejects_other_shapes(text):
    with pytest.raises(LLMBadOutput):
        parse_fields(text, ("title", "answer"))


@pytest.mark.parametrize(
    "text, n, expected",
    [
        ('{"ranking": [3, 1, 2]}', 3, [2, 0, 1]),
        ("[3, 1, 2]", 5, [2, 0, 1]),
        ('{"ranking": [2, 9, 2, 0, 1]}', 3, [1, 0]),  # out of range and repeats dropped
        ('{"ranking": [{"id": 2, "score": 0.9}, {"id": 1}]}', 2, [1, 0]),
        ('```json\n{"ranking": ["[5]", "[2]"]}\n```', 5, [4, 1]),
        ('```json\n{"ranking": [4, 2,],}\n```', 4, [3, 1]),  # fenced, trailing commas
        ('{"ranking": [4, 2, 3', 4, [3, 1, 2]),  # truncated
        ("{'ranking': [2, 1]}", 2, [1, 0]),
    ],
)
def test_parse_ranking(text, n, expected):
    assert parse_ranking(text, n) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I cannot rank these passages.",
        "I think the first one is best",
        "The best are 4, 2",  # ids in prose: not the JSON asked for
        "[3] > [1] > [2]",  # a text ranking, whose first "[3]" alone is valid JSON
        '{"ranking": [7, 8]}',
        '{"best": [1, 2]}',
        '{"ranking": ["the first", 2]}',
        '{"ranking": [true, 1]}',
    ],
)
def test_parse_ranking_rejects_anything_but_a_json_ranking(text):
    with pytest.raises(LLMBadOutput):
        parse_ranking(text, 5)
