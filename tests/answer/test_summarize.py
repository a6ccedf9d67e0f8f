"""Summaries keep every proviso of their sources; an LLM summary that drops one gets it back, cited."""

from __future__ import annotations

import pytest
from llm_double import ScriptedLLM

from geunkeo.answer.summarize import proviso_check, summarize
from geunkeo.errors import ConfigError, QueryError
from geunkeo.index.builder import build_index

pytestmark = pytest.mark.slow

TERMS = """---
title: 시험손해보험 상해보험 약관
kind: policy
---
제5조(보험금을 지급하지 않는 사유) ① 회사는 피보험자가 고의로 자신을 해친 경우에는 보험금을 지급하지 않습니다. 다만, 피보험자가 심신상실 등으로 자유로운 의사결정을 할 수 없는 상태에서 자신을 해친 경우에는 보험금을 지급합니다.
② 회사는 전쟁, 외국의 무력행사로 생긴 손해는 보상하지 않습니다.

제6조(보험금의 청구) ① 보험수익자는 청구서와 사고증명서를 제출하고 보험금을 청구합니다.
② 회사는 서류를 받은 날부터 3영업일 이내에 보험금을 지급합니다.

제7조(계약의 해지) 계약자는 언제든지 계약을 해지할 수 있습니다.
"""



@pytest.fixture(scope="module")
def index(tmp_path_factory):
    import geunkeo

    root = tmp_path_factory.mktemp("sum")
    (root / "terms.md").write_text(TERMS, encoding="utf-8")
    build_index([root], root / "idx", replace=True)
    return geunkeo.open_index(root / "idx")


def test_an_article_range_is_summarised_with_its_provisos_kept(index):
    s = summarize(index, doc="terms", articles="제5조-제6조")
    assert {h.chunk.article for h in s.contexts} == {"제5조", "제6조"}
    assert "다만, 피보험자가 심신상실 등으로" in s.text and "외국의 무력행사로 생긴 손해는 보상하지 않습니다" in s.text
    assert s.provisos and s.provisos_kept
    assert all(sent.citations for sent in s.sentences)


def test_an_llm_summary_that_drops_a_proviso_gets_it_back(index):
    llm = ScriptedLLM(["회사는 고의로 자신을 해친 경우 보험금을 지급하지 않습니다 [1]. 청구 후 3영업일 안에 지급합니다 [2]."])
    s = summarize(index, doc="terms", articles="제5조-제6조", llm=llm)
    assert s.summarizer == "llm" and s.restored >= 1
    assert "다만, 피보험자가 심신상실 등으로" in s.text  # appended, cited
    assert any("심신상실" in sent.text and sent.citations for sent in s.sentences)
    assert "<document" in llm.calls[0][1].content  # the sources are fenced as data


def test_the_check_says_which_proviso_a_summary_lost(index):
    hits = summarize(index, doc="terms", articles="제5조").contexts
    lost = [p for p in proviso_check(hits, "회사는 고의로 자신을 해친 경우 보험금을 지급하지 않습니다.") if not p.kept]
    assert any(p.text.startswith("다만, 피보험자가") for p in lost)


def test_bad_requests_are_clear_errors(index):
    with pytest.raises(QueryError, match="say what to summarise"):
        summarize(index)
    with pytest.raises(ConfigError, match="no document"):
        summarize(index, doc="nope")
    with pytest.raises(ConfigError, match="제3조-제7조"):
        summarize(index, doc="terms", articles="three to seven")
