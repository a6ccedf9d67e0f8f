"""ColloquialTransformer: word boundaries, entities, user dictionary merge, pending queue."""

from __future__ import annotations

import json
import logging

import pytest

from geunkeo.errors import ConfigError
from geunkeo.query.colloquial import ColloquialTransformer
from geunkeo.query.mappings import add_user_mapping, load_dictionary
from geunkeo.query.pending import PendingQueue


@pytest.fixture(scope="module")
def tr() -> ColloquialTransformer:
    return ColloquialTransformer()


def test_dictionary_meets_the_seed_schema_and_size():
    d = load_dictionary()
    assert len(d.mappings) >= 80 and len(d.regex_patterns) >= 15
    needed = {"procedure", "definition", "information", "deadline", "location", "eligibility", "amount", "contact",
              "possibility", "documents", "period", "consequence"}
    assert needed <= d.contexts()


def test_seed_example_is_rewritten_with_its_span(tr):
    res = tr.transform("휴학 어떻게 해?")
    assert res.transformed == "휴학 방법"
    assert res.contexts == ["procedure"]
    [p] = res.patterns
    assert (p.pattern, p.start, p.end, p.kind) == ("어떻게 해", 3, 8, "mapping")
    assert res.confidence == 1.0


def test_pattern_inside_a_word_is_not_touched(tr):
    # 언제 is a pattern; 언제나 is a different word. 얼마 is a pattern; 얼마나 alone is not.
    assert [p.text for p in tr.detect_patterns("언제나 열려 있는 상담실")] == []
    assert [p.text for p in tr.detect_patterns("얼마나 좋을까")] == []
    # 알려줘 must not fire inside 알려줘서 (a thank-you, not a request)
    assert "알려줘" not in [p.pattern for p in tr.detect_patterns("알려줘서 고마워")]


def test_verb_lemma_mapping_reads_morphemes_not_letters(tr):
    assert tr.transform("성적표 어디서 떼?").transformed == "성적표 발급 장소"
    # 내 is a pronoun here, not the verb 내다 (→ 납부)
    assert all(p.pattern != "내다" for p in tr.detect_patterns("내 성적 언제 나와?"))


def test_entities_survive_the_rewrite(tr):
    res = tr.transform("제12조 휴학 기간 뭐야?")
    assert res.transformed == "제12조 휴학 기간 정의"
    res = tr.transform("GPA 3.5 넘으면 장학금 받을 수 있어?")
    assert res.transformed.startswith("GPA 3.5 ")
    assert tr.transform("2학기 휴학 언제까지 신청해?").transformed == "2학기 휴학 신청 기한"
    assert tr.transform("김민수 교수님 연구실 어디야?").transformed == "김민수 교수님 연구실 위치"


def test_a_match_that_would_delete_an_entity_is_dropped(tmp_path):
    user = tmp_path / "user.json"
    user.write_text(json.dumps({"mappings": [{"pattern": "3.5 넘으면", "formal": "기준 이상", "context": "x"}]}))
    t = ColloquialTransformer(load_dictionary(user))
    assert all(p.pattern != "3.5 넘으면" for p in t.detect_patterns("GPA 3.5 넘으면 장학금 돼?"))


def test_formal_and_english_queries_are_left_exactly(tr):
    q = "장학금은 언제까지 신청해야 합니까?"  # contains the pattern 언제까지, but it is formal
    res = tr.transform(q)
    assert res.transformed == q and res.patterns == [] and res.formality == "formal"
    assert tr.transform("How do I apply for a scholarship?").formality == "english"


def test_obligation_is_not_read_as_possibility(tr):
    res = tr.transform("등록금 언제까지 내야 돼?")
    assert res.transformed == "등록금 납부 기한"
    assert "가능" not in res.transformed


def test_user_file_is_merged_over_the_default(tmp_path):
    user = tmp_path / "mine.json"
    assert add_user_mapping(user, "뭐야", "의미", "definition") is True  # replaces the default 뭐야 → 정의
    assert add_user_mapping(user, "신청은?", "신청 방법", "procedure") is True  # a new pattern
    assert add_user_mapping(user, "신청은?", "신청 절차", "procedure") is False  # updated, not duplicated
    d = load_dictionary(user)
    assert d.sources == ["default", str(user)]
    t = ColloquialTransformer(d)
    assert t.transform("학사경고가 뭐야?").transformed == "학사경고 의미"
    assert t.transform("복학 신청은?").transformed == "복학 신청 절차"
    assert len([m for m in d.mappings if m.pattern == "뭐야"]) == 1


def test_broken_user_file_is_a_clear_config_error(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"mappings": [{"formal": "x"}]}')
    with pytest.raises(ConfigError, match="needs 'pattern' and 'formal'"):
        load_dictionary(bad)
    bad.write_text('{"regex_patterns": [{"pattern": "(", "replacement": "x"}]}')
    with pytest.raises(ConfigError, match="does not compile"):
        load_dictionary(bad)


def test_unrecognised_colloquial_query_is_kept_logged_and_queued(tmp_path, caplog):
    queue = PendingQueue(tmp_path / "pending.jsonl")
    t = ColloquialTransformer(pending=queue)
    with caplog.at_level(logging.WARNING, logger="geunkeo.query.colloquial"):
        res = t.transform("복학 신청은?")
        t.transform("복학  신청은?")  # same query, different spacing
        t.transform("해외 봉사 해?")
    assert res.transformed == "복학 신청은?" and res.queued
    warn = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert warn and warn[0].geunkeo["query"] == "복학 신청은?"  # structured record, not just a string
    entries = queue.entries()
    assert [(e["query"], e["count"]) for e in entries] == [("복학 신청은?", 2), ("해외 봉사 해?", 1)]
    assert len(queue.path.read_text().splitlines()) == 3  # appends; dedup happens when reading
    assert queue.compact() == 2
    assert [(e["query"], e["count"]) for e in queue.entries()] == [("복학 신청은?", 2), ("해외 봉사 해?", 1)]


def test_formal_or_matched_queries_are_never_queued(tmp_path):
    queue = PendingQueue(tmp_path / "pending.jsonl")
    t = ColloquialTransformer(pending=queue)
    t.transform("휴학 신청 절차는 어떻게 됩니까?")
    t.transform("휴학 어떻게 해?")
    t.transform("휴학 신청 기간")
    assert queue.entries() == []


def test_only_korean_colloquial_text_is_queued(tmp_path):
    queue = PendingQueue(tmp_path / "pending.jsonl")
    t = ColloquialTransformer(pending=queue)
    for q in ("ㅇㅇ", "ok 해?"):  # jamo only; mostly not Korean
        res = t.transform(q)
        assert res.unexplained and not res.queued and "not queued" in res.reason
    t.transform("해외 봉사 해?")
    assert [e["query"] for e in queue.entries()] == ["해외 봉사 해?"]


def test_the_queue_can_be_turned_off(tmp_path, monkeypatch):
    from geunkeo.config import QuerySettings

    monkeypatch.setenv("GEUNKEO_HOME", str(tmp_path))
    t = ColloquialTransformer.from_settings(QuerySettings(pending_queue=False))
    res = t.transform("해외 봉사 해?")
    assert not res.queued and not (tmp_path / "pending_patterns.jsonl").exists()


@pytest.mark.parametrize("q", ["면책기간 머임?", "해지환급금 머야", "면책기간 뭐임?"])
def test_internet_spellings_of_what_is_are_normalised(tr, q):
    assert tr.transform(q).transformed.endswith("정의")


@pytest.mark.parametrize("q, rewritten, kept", [
    ("보험 끊어줘야 해?", "해지", None), ("담배 끊어야 돼?", None, "끊어"),
    ("장학금 받으려면 어떻게 해", "수령", None), ("택배 받으려면 어떻게 해", None, "받으려면"),
])
def test_a_rewrite_applies_only_where_its_sense_is_supported(tr, q, rewritten, kept):
    out = tr.transform(q).transformed
    if rewritten:
        assert rewritten in out
    else:
        assert kept in out and "해지" not in out and "수령" not in out


def test_requires_must_be_a_list_of_words(tmp_path):
    from geunkeo.query.mappings import _parse

    with pytest.raises(ConfigError, match="'requires' must be a list of words"):
        _parse({"mappings": [{"pattern": "끊다", "formal": "해지", "requires": "보험"}]}, "user file")
