"""docs/design.md § "Add an answerer", followed step by step, so the recipe cannot rot unnoticed.

The recipe: (1) a class implementing `geunkeo.answer.base.Answerer`, (2) one line in `ANSWERERS`
(`geunkeo/answer/registry.py`), (3) its name in `answer.answerer`; the engine then answers with it, and its answer
goes through the same filter, verification and gate as the built-in answerers'.
"""

from __future__ import annotations

import pytest

import geunkeo
from geunkeo.answer import registry
from geunkeo.answer.base import Answer, Answerer, AnswerSentence, Citation
from geunkeo.answer.cited import render
from geunkeo.config import Settings
from geunkeo.index.builder import build_index
from geunkeo.retrieve.base import Hit
from geunkeo.trace import Trace

LEAVE = """---
title: 시험대학교 학칙
kind: regulation
---
제12조(휴학) ① 학생은 질병 또는 그 밖의 부득이한 사유로 휴학할 수 있다.
② 일반휴학은 1회에 2개 학기 이내로 하며, 통산 6개 학기를 넘을 수 없다.
"""


# step 1: the answerer (in the project it would be src/geunkeo/answer/first_line.py)
class FirstLineAnswerer(Answerer):
    """Quotes the top hit's line that shares most characters with the question, cited to that hit."""

    name = "first-line"

    def answer(self, query: str, hits: list[Hit], trace: Trace | None = None) -> Answer:
        top = hits[0].chunk
        lines = [ln.strip() for ln in top.text.splitlines() if ln.strip()]
        best = max(lines, key=lambda ln: len(set(ln) & set(query)))
        sentences = [AnswerSentence(best, [Citation(1, top.chunk_id, top.location)])]  # n: 1-based, in `hits`
        return Answer(query=query, text=render(sentences), lang="ko", sentences=sentences, contexts=hits,
                      answerer=self.name)


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    docs = tmp_path_factory.mktemp("recipe-docs")
    (docs / "leave.md").write_text(LEAVE, encoding="utf-8")
    build_index([docs], docs / "idx", replace=True)
    return docs / "idx"


@pytest.mark.slow
def test_an_answerer_added_by_the_recipe_answers_through_the_engine(index, monkeypatch):
    # step 2: the registry line, `"first-line": lambda settings, llm: FirstLineAnswerer(),` in ANSWERERS
    monkeypatch.setitem(registry.ANSWERERS, "first-line", lambda settings, llm: FirstLineAnswerer())
    # step 3: chosen by name from the settings (geunkeo.toml `[answer] answerer = "first-line"`)
    settings = Settings(answer={"answerer": "first-line"})

    ans = geunkeo.open_index(index, settings).answer("일반휴학은 통산 몇 학기를 넘을 수 없나요?")

    assert ans.answerer == "first-line" and ans.fallback is None
    assert ans.text == "② 일반휴학은 1회에 2개 학기 이내로 하며, 통산 6개 학기를 넘을 수 없다 [1]."
    assert ans.sentences[0].citations[0].location == ans.contexts[0].chunk.location
    # the same checks as every answerer's: the sentence is verified against the chunk it cites, then gated
    assert ans.verification is not None and ans.verification.supported == 1
    assert ans.gate is not None and ans.gate.action == "answer"
    assert any(s.name == "answer.generate" and s.info.get("answerer") == "first-line" for s in ans.trace.stages)


def test_an_unregistered_answerer_is_an_error_naming_the_registered_ones():
    from geunkeo.errors import ConfigError

    with pytest.raises(ConfigError, match="unknown answerer 'first-line': choose one of auto, extractive, llm"):
        registry.resolve_name("first-line", Settings())
