"""Multi-query and HyDE stages: what they add to the plan, and that any LLM failure leaves the plan unchanged
except for recorded warnings."""

from __future__ import annotations

import copy
import socket
import time

import pytest
from llm_fakes import ScriptedLLM

from geunkeo.config import LLMSettings, Settings
from geunkeo.errors import LLMBadOutput
from geunkeo.llm.base import LLM, Completion
from geunkeo.llm.registry import create_provider
from geunkeo.query.base import QueryPlan
from geunkeo.query.llm_stages import apply_llm_stages, dedupe_variants


def plan() -> QueryPlan:
    return QueryPlan(original="휴학 어떻게 해?", text="휴학 어떻게 해?", rewritten="휴학 신청 방법", lang="ko",
                     bm25_terms={"휴학": 1.0, "신청": 0.6}, dense_texts=["휴학 신청 방법"])


def settings(multi_query=True, hyde="combined", deadline=20.0) -> Settings:
    return Settings(query={"multi_query": multi_query, "hyde": hyde, "llm_deadline_s": deadline})


class RoutedLLM(LLM):
    """Replies by prompt content, since the two stages run in parallel and may ask in either order."""

    provider, model = "routed", "r1"

    def __init__(self, multi: str | Exception, hyde: str | Exception):
        self.answers = {"queries": multi, "title": hyde}
        self.calls = 0

    def complete(self, messages, *, json=False, temperature=None, max_tokens=None):
        self.calls += 1
        prompt = messages[-1].content
        reply = self.answers["queries"] if '{"queries"' in prompt else self.answers["title"]
        if isinstance(reply, Exception):
            raise reply
        return Completion(text=reply, model=self.model, provider=self.provider)


def test_variants_and_hyde_fill_the_plan():
    llm = RoutedLLM(
        '{"queries": ["휴학 신청 절차", "휴학 신청 방법", "휴학원 제출 기한", "휴학 신청 절차!"]}',
        '```json\n{"title": "휴학 및 복학 안내", "answer": "휴학은 학기 개시 전까지 휴학원을 제출하여야 한다."}\n```',
    )
    p = apply_llm_stages(plan(), llm, settings())
    # "휴학 신청 방법" repeats the rewritten query and "휴학 신청 절차!" repeats a variant: both dropped
    assert p.variants == ["휴학 신청 절차", "휴학원 제출 기한"]
    assert p.hyde_title == "휴학 및 복학 안내"
    assert p.hyde_answer == "휴학은 학기 개시 전까지 휴학원을 제출하여야 한다."
    assert p.hyde_mode == "combined"
    assert p.trace.warnings == []
    assert llm.calls == 2
    assert [s.name for s in p.trace.stages] == ["query.llm_stages"]
    assert p.trace.stages[0].info["applied"] == ["multi_query", "hyde"]


def test_hyde_mode_degrades_to_the_text_that_exists():
    llm = RoutedLLM('{"queries": []}', '{"title": "", "answer": "휴학원은 학과장을 거쳐 제출한다."}')
    p = apply_llm_stages(plan(), llm, settings(multi_query=False, hyde="combined"))
    assert (p.hyde_mode, p.hyde_title) == ("content", None)
    assert p.trace.warnings == ["hyde: asked for combined, generated texts support only content"]


@pytest.mark.parametrize(
    "multi, hyde, warned",
    [
        (LLMBadOutput("garbage"), '{"title": "t", "answer": "a"}', ["multi_query"]),
        # a reply that is not the JSON asked for is LLMBadOutput (no more "any line is a variant")
        ('```json\n{"queries": ["휴학원 제출 기한",],}\n```', "I don't know.", ["hyde"]),
        ("asdf qwer\nlorem ipsum zzz", '{"title": "t", "answer": "a"}', ["multi_query"]),
        ('{"queries": ["휴학 어떻게 해?"]}', '{"title": "t", "answer": "a"}', ["multi_query"]),
    ],
)
def test_one_failing_stage_does_not_affect_the_other(multi, hyde, warned):
    p = apply_llm_stages(plan(), RoutedLLM(multi, hyde), settings())
    assert [w.split(" skipped")[0] for w in p.trace.warnings] == warned
    assert any(d["decision"] == "skipped" for d in p.trace.decisions)
    if "multi_query" in warned:
        assert p.variants == []
    else:
        assert p.variants
    if "hyde" in warned:
        assert (p.hyde_answer, p.hyde_title, p.hyde_mode) == (None, None, "off")


def _comparable(p: QueryPlan) -> dict:
    d = copy.copy(p.__dict__)
    d.pop("trace")
    return d


def test_provider_down_leaves_plan_unchanged_except_warnings():
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    llm = create_provider(LLMSettings(provider="ollama", model="m", base_url=f"http://127.0.0.1:{port}"))
    before = plan()
    start = time.perf_counter()
    after = apply_llm_stages(plan(), llm, settings())
    assert time.perf_counter() - start < 5.0
    assert _comparable(after) == _comparable(before)
    assert len(after.trace.warnings) == 2
    assert all("cannot reach Ollama" in w for w in after.trace.warnings)
    assert {c["feature"] for c in after.trace.llm_calls} == {"multi_query", "hyde"}
    assert all("error" in c for c in after.trace.llm_calls)


def test_no_llm_and_deadline():
    p = apply_llm_stages(plan(), None, settings())
    assert p.trace.warnings == ["multi_query skipped: no LLM configured (llm.provider = none)",
                                "hyde skipped: no LLM configured (llm.provider = none)"]

    class Slow(ScriptedLLM):
        def complete(self, messages, **kw):
            time.sleep(0.5)
            return super().complete(messages, **kw)

    p = apply_llm_stages(plan(), Slow(['{"queries": ["a"]}']), settings(hyde="off", deadline=0.1))
    assert p.variants == []
    assert p.trace.warnings == ["multi_query skipped: no answer within 0.1 s (query.llm_deadline_s)"]
    # the late call is recorded as abandoned, and finishing in the background does not touch the returned trace
    assert [(c["feature"], c["cached"]) for c in p.trace.llm_calls] == [("multi_query", False)]
    assert p.trace.llm_calls[0]["error"].startswith("deadline passed")
    time.sleep(0.6)
    assert len(p.trace.llm_calls) == 1


def test_stages_off_make_no_call():
    llm = ScriptedLLM([])
    p = apply_llm_stages(plan(), llm, settings(multi_query=False, hyde="off"))
    assert llm.prompts == [] and p.trace.warnings == [] and p.trace.stages == []


def test_dedupe_variants_limits_and_normalises():
    out = dedupe_variants(["A  b", "a b?", "c", "d", "e", "x" * 400], ["query"], limit=3)
    assert out == ["A b", "c", "d"]


def test_drop_repeated_sentences_cuts_model_loops():
    from geunkeo.query.llm_stages import drop_repeated_sentences

    looped = "휴학원은 학기 개시 전에 낸다. 기간은 2학기 이내이다. 휴학원은 학기 개시 전에 낸다. 휴학원은 학기"
    assert drop_repeated_sentences(looped) == "휴학원은 학기 개시 전에 낸다. 기간은 2학기 이내이다."
    assert drop_repeated_sentences("Apply early! Apply early!  Pay later.") == "Apply early! Pay later."


def english_plan() -> QueryPlan:
    return QueryPlan(original="How long can I take a leave of absence?", text="How long can I take a leave of absence?",
                     rewritten="How long can I take a leave of absence?", lang="en",
                     bm25_terms={"long": 1.0, "leav": 1.0, "absenc": 1.0}, dense_texts=["How long … absence?"])


def test_a_question_in_another_language_is_searched_in_its_translation_too():
    llm = ScriptedLLM(['{"query": "휴학은 최대 얼마 동안 할 수 있나요?"}'])
    p = apply_llm_stages(english_plan(), llm, settings(multi_query=False, hyde="off"), translate_to="ko")
    assert p.variants == ["휴학은 최대 얼마 동안 할 수 있나요?"]
    assert p.bm25_terms["휴학"] == 1.0 and p.info["term_sources"]["휴학"] == "translation"
    assert p.bm25_terms["absenc"] == 1.0  # the asker's own words stay
    assert p.info["translation"] == "휴학은 최대 얼마 동안 할 수 있나요?" and p.trace.warnings == []


@pytest.mark.parametrize("reply", ['{"query": "How long is a leave of absence?"}', "휴학 기간", '{"query": ""}'])
def test_a_translation_not_in_the_documents_language_or_not_json_is_skipped(reply):
    p = apply_llm_stages(english_plan(), ScriptedLLM([reply]), settings(multi_query=False, hyde="off"),
                         translate_to="ko")
    assert p.variants == [] and "휴학" not in p.bm25_terms
    assert any(w.startswith("translate skipped") for w in p.trace.warnings)


def test_the_engine_translates_into_the_index_main_language_only_with_an_llm():
    from types import SimpleNamespace

    from geunkeo.engine import Engine

    def target(langs, provider="openai", translate="auto", question=None):  # off by default
        s = Settings(llm={"provider": provider}, query={"translate": translate})
        engine = SimpleNamespace(manifest=SimpleNamespace(langs=langs), settings=s)
        return Engine._translation_target(engine, question or english_plan())

    assert target({"ko": 700, "en": 20}) == "ko"
    assert target({"ko": 700}, question=plan()) is None  # same language
    assert target({"en": 30, "ko": 5}) is None  # English is the index's main language
    assert target({"ko": 700}, provider="none") is None and target({"ko": 700}, translate="off") is None
