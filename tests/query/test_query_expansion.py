"""MorphologicalExpander and SynonymExpander."""

from __future__ import annotations

import json

from geunkeo.query.morph import MorphologicalExpander
from geunkeo.query.synonyms import SynonymExpander
from geunkeo.text.analyzer import get_analyzer


def test_full_mode_gives_lemma_and_surface_variants():
    exp = MorphologicalExpander("full").expand("휴학하려면 뭐 해야 돼?")
    assert "휴학" in exp.nouns and "휴학하다" in exp.lemmas
    for s in ("휴학하", "휴학한", "휴학할", "휴학해"):
        assert s in exp.surfaces


def test_noun_mode_keeps_nouns_only():
    exp = MorphologicalExpander("noun").expand("장학금 받으려면 신청해야 돼?")
    assert exp.nouns == ("장학금", "신청") and exp.lemmas == () and exp.surfaces == ()


def test_lemmas_are_in_the_analyzers_term_format():
    # the pipeline adds lemmas without a second Kiwi pass, so each must be a term the analyzer itself emits
    exp = MorphologicalExpander("full").expand("등록금 납부하고 성적표 발급되면 돌려받아?")
    assert exp.lemmas
    for lemma in exp.lemmas:
        assert lemma in get_analyzer().terms(lemma), lemma
    # and the surface forms fold back into noun + lemma under the analyzer
    assert get_analyzer().terms("휴학한") == ["휴학", "휴학하다"]


def test_expansions_are_cached():
    m = MorphologicalExpander("full")
    m.expand("복학 신청하는 방법")
    m.expand("복학 신청하는 방법")
    info = m.cache_info()
    assert (info.hits, info.misses) == (1, 1)


def test_synonyms_both_directions_and_abbreviations():
    syn = SynonymExpander()
    assert {h.term for h in syn.expand(["등록금", "반환"])} >= {"수업료"}
    assert {h.term for h in syn.expand(["수업료"])} == {"등록금"}
    hits = {h.term: h.source for h in syn.expand(get_analyzer().terms("AML obligations"))}
    assert {"anti", "money", "launder"} <= set(hits) and hits["anti"] == "AML→Anti-Money Laundering"
    assert "aml" in {h.term for h in syn.expand(get_analyzer().terms("anti-money laundering rules"))}


def test_no_noisy_or_chained_expansions():
    syn = SynonymExpander()
    assert syn.expand(["휴학"]) == []  # the seed system expanded 휴학 with "공부싫어"
    # 이의신청 is analysed to [이의, 신청] only when spaced; a bare 신청 must not pull in 이의/제기
    assert not {"이의", "제기"} & {h.term for h in syn.expand(["신청", "기간"])}
    # 해약~해지 and 해지~계약 해지 are separate groups: 해약 must not chain on to 계약
    assert {h.term for h in syn.expand(["해약"])} == {"해지"}


def test_user_synonyms_extend_the_default(tmp_path):
    user = tmp_path / "syn.json"
    user.write_text(json.dumps({"groups": [{"terms": ["학식", "학생식당"]}]}, ensure_ascii=False))
    syn = SynonymExpander(user)
    assert {h.term for h in syn.expand(["학식"])} == {"학생", "식당"}  # 학생식당 analysed as 학생 + 식당
    assert {h.term for h in syn.expand(["등록금"])} >= {"수업료"}  # the default is still there
