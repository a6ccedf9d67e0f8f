"""End to end through `open_index().search`: a down provider gives the same hits as no LLM stages plus warnings;
a working one adds variants and HyDE, and a repeated query is served from the cache."""

from __future__ import annotations

import json
import socket

import pytest
from llm_fakes import FakeServer, ok_body

import geunkeo
from geunkeo.config import Settings

DOCS = {
    "leave.md": "# 휴학 안내\n\n## 제1조(휴학 신청)\n휴학을 하려는 학생은 학기 개시 전까지 휴학원을 제출하여야 한다.\n\n"
                "## 제2조(휴학 기간)\n휴학 기간은 1회에 2학기를 넘을 수 없다.\n",
    "tuition.md": "# 등록금 납부 안내\n\n## 제1조(납부 기간)\n등록금은 2월 20일부터 2월 26일까지 납부한다.\n\n"
                  "## 제2조(분할 납부)\n등록금은 4회까지 나누어 낼 수 있다.\n",
    "dorm.md": "# 기숙사 입사 안내\n\n## 제1조(신청)\n기숙사 입사 신청은 포털에서 한다.\n",
}


def _dead_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory):
    home = tmp_path_factory.mktemp("home")
    mp = pytest.MonkeyPatch()
    mp.setenv("GEUNKEO_HOME", str(home))
    corpus = tmp_path_factory.mktemp("corpus")
    for name, text in DOCS.items():
        (corpus / name).write_text(text, encoding="utf-8")
    out = tmp_path_factory.mktemp("idx") / "index"
    geunkeo.build_index([str(corpus)], out, Settings())
    yield out
    mp.undo()


def _ids(res):
    return [(h.chunk_id, round(h.score, 6)) for h in res.hits]


@pytest.mark.slow
def test_down_provider_gives_plain_hits_plus_warnings(index_dir, tmp_path):
    settings = Settings(llm={"provider": "ollama", "model": "m", "base_url": f"http://127.0.0.1:{_dead_port()}",
                             "cache_path": str(tmp_path / "c.sqlite")})
    idx = geunkeo.open_index(index_dir, settings)
    plain = idx.search("휴학하려면 어떻게 해?", k=5)
    degraded = idx.search("휴학하려면 어떻게 해?", k=5, multi_query=True, hyde="combined", reranker="llm")
    assert plain.trace.warnings == []
    # the LLM reranker falls back to dense re-scoring: same hits, order possibly changed by that fallback
    assert sorted(_ids(degraded)) == sorted(_ids(plain))
    stage_runs = idx.search("휴학하려면 어떻게 해?", k=5, multi_query=True, hyde="combined")
    assert _ids(stage_runs) == _ids(plain)
    assert len(stage_runs.trace.warnings) == 2
    assert all("cannot reach Ollama" in w for w in stage_runs.trace.warnings)
    assert any(w.startswith("llm reranker skipped") and w.endswith("using dense") for w in degraded.trace.warnings)


def _router(routes: dict[str, str]):
    """The two stages run in parallel: answer each OpenAI request by what its prompt asks for."""

    def route(body: dict) -> str:
        prompt = body["messages"][-1]["content"]
        return ok_body("openai", next(v for k, v in routes.items() if k in prompt))

    return route


@pytest.mark.slow
def test_working_provider_adds_variants_hyde_and_is_cached(index_dir, tmp_path):
    variants = json.dumps({"queries": ["휴학 신청 기한", "휴학원 제출"]}, ensure_ascii=False)
    hyde = json.dumps({"title": "휴학 안내", "answer": "휴학원은 학기 개시 전까지 제출한다."}, ensure_ascii=False)
    server = FakeServer(route=_router({'{"queries"': variants, '{"title"': hyde}))
    try:
        settings = Settings(llm={"provider": "openai-compatible", "model": "m", "base_url": server.url + "/v1",
                                 "cache_path": str(tmp_path / "c.sqlite")})
        idx = geunkeo.open_index(index_dir, settings)
        first = idx.search("휴학하려면 어떻게 해?", k=5, multi_query=True, hyde="combined")
        second = idx.search("휴학하려면 어떻게 해?", k=5, multi_query=True, hyde="combined")
    finally:
        server.close()
    assert first.plan.variants == ["휴학 신청 기한", "휴학원 제출"]
    assert (first.plan.hyde_title, first.plan.hyde_mode) == ("휴학 안내", "combined")
    assert first.hits[0].chunk.doc_id == "leave"
    assert [c["cached"] for c in first.trace.llm_calls] == [False, False]
    assert [c["cached"] for c in second.trace.llm_calls] == [True, True]
    assert len(server.requests) == 2
    assert _ids(first) == _ids(second)
    assert any(d["stage"] == "retrieve.multi_query" for d in first.trace.decisions)
    assert any(s.name == "retrieve.hyde" for s in first.trace.stages)
    # The LLM-written texts (2 variants, HyDE answer and title) are embedded in one call per kind the first
    # time and come from the vector cache on the repeat; the user's own query is embedded fresh both times.
    def llm_text_stage(res):
        return next(s for s in res.trace.stages if s.name == "retrieve.embed_llm_texts").info

    # (the hypothetical title "휴학 안내" is leave.md's real title, whose vector indexing already cached)
    assert (llm_text_stage(first)["vector_cache_hits"], llm_text_stage(first)["vector_cache_misses"]) == (1, 3)
    assert (llm_text_stage(second)["vector_cache_hits"], llm_text_stage(second)["vector_cache_misses"]) == (4, 0)
    assert [s.name for s in second.trace.stages].count("retrieve.embed_query") == 1
