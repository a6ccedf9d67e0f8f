"""The persistent response cache: repeated calls are served from SQLite, counts persist, failures are not cached."""

from __future__ import annotations

import pytest
from llm_fakes import FakeServer, ScriptedLLM, ok_body
from typer.testing import CliRunner

from geunkeo.config import Settings
from geunkeo.errors import LLMUnavailable
from geunkeo.llm.base import Message
from geunkeo.llm.cache import CachedLLM, LLMCache, cache_key, default_cache_path
from geunkeo.llm.calls import complete_traced
from geunkeo.llm.registry import get_llm
from geunkeo.trace import Trace

MSG = [Message("user", "장학금 신청 기간은?")]


def test_repeated_call_is_served_from_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    server = FakeServer().reply(200, ok_body("openai", "3월 1일부터"))
    try:
        settings = Settings(llm={"provider": "openai", "model": "m", "base_url": server.url + "/v1",
                                 "cache_path": str(tmp_path / "c.sqlite")})
        llm = get_llm(settings)
        trace = Trace()
        first = complete_traced(llm, MSG, trace=trace, feature="hyde")
        second = complete_traced(llm, MSG, trace=trace, feature="hyde")
    finally:
        server.close()
    assert len(server.requests) == 1
    assert (first.cached, second.cached) == (False, True)
    assert second.text == first.text == "3월 1일부터"
    assert [c["cached"] for c in trace.llm_calls] == [False, True]
    assert trace.llm_calls[0]["feature"] == "hyde" and trace.llm_calls[0]["provider"] == "openai"
    assert trace.llm_calls[1]["prompt_tokens"] == 11
    # counts persist: a fresh cache object on the same file sees them
    stats = LLMCache(tmp_path / "c.sqlite").stats()
    assert (stats.entries, stats.hits, stats.misses) == (1, 1, 1)
    assert stats.hit_rate == 0.5


def test_key_covers_provider_model_messages_and_parameters():
    base = cache_key("ollama", "m", MSG, {"json": False, "temperature": 0.0, "max_tokens": None})
    assert base == cache_key("ollama", "m", MSG, {"max_tokens": None, "temperature": 0.0, "json": False})
    assert base != cache_key("openai", "m", MSG, {"json": False, "temperature": 0.0, "max_tokens": None})
    assert base != cache_key("ollama", "m2", MSG, {"json": False, "temperature": 0.0, "max_tokens": None})
    assert base != cache_key("ollama", "m", [Message("system", MSG[0].content)],
                             {"json": False, "temperature": 0.0, "max_tokens": None})
    assert base != cache_key("ollama", "m", MSG, {"json": True, "temperature": 0.0, "max_tokens": None})


def test_failures_are_not_cached_and_params_split_entries(tmp_path):
    inner = ScriptedLLM([LLMUnavailable("down"), "a", "b"])
    llm = CachedLLM(inner, LLMCache(tmp_path / "c.sqlite"))
    with pytest.raises(LLMUnavailable):
        llm.complete(MSG)
    assert llm.complete(MSG).text == "a"
    assert llm.complete(MSG).text == "a"  # cached
    assert llm.complete(MSG, temperature=0.7).text == "b"  # different parameters → a new call
    assert len(inner.prompts) == 3


def test_clear_and_cli(tmp_path, monkeypatch):
    monkeypatch.setenv("GEUNKEO_HOME", str(tmp_path))
    path = default_cache_path(None)
    assert path == tmp_path / "llm_cache.sqlite"
    llm = CachedLLM(ScriptedLLM(["x", "y"]), LLMCache(path))
    llm.complete(MSG)
    llm.complete(MSG)
    from geunkeo.cli.main import app

    runner = CliRunner()
    out = runner.invoke(app, ["cache", "stats", "--json"])
    assert out.exit_code == 0, out.output
    assert '"entries": 1' in out.output and '"hits": 1' in out.output and '"misses": 1' in out.output
    out = runner.invoke(app, ["cache", "clear"])
    assert out.exit_code == 0 and "cleared 1 cached responses" in out.output
    assert LLMCache(path).stats().entries == 0


def test_get_llm_none_and_uncached(tmp_path, monkeypatch):
    assert get_llm(Settings()) is None
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    plain = get_llm(Settings(llm={"provider": "openai", "cache": False}))
    assert not isinstance(plain, CachedLLM) and plain.provider == "openai"


def test_ping_reports_latency_and_failure(monkeypatch):
    from geunkeo.cli.main import app

    server = FakeServer().reply(200, ok_body("ollama", "pong"))
    try:
        out = CliRunner().invoke(app, ["llm", "ping", "--provider", "ollama", "--model", "m",
                                       "--base-url", server.url, "--json"])
    finally:
        server.close()
    assert out.exit_code == 0, out.output
    assert '"ok": true' in out.output and '"reply": "pong"' in out.output
    server = FakeServer().reply(503, '{"error": "loading"}')
    monkeypatch.setenv("GEUNKEO_LLM__MAX_RETRIES", "0")
    try:
        out = CliRunner().invoke(app, ["llm", "ping", "--provider", "ollama", "--model", "m",
                                       "--base-url", server.url, "--json"])
    finally:
        server.close()
    assert out.exit_code == 1
    assert '"ok": false' in out.output and "HTTP 503" in out.output
