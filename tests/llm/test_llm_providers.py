"""Each provider's wire format against a local server speaking its protocol: success, timeout, HTTP 500,
malformed JSON, 429 with Retry-After, connection refused (with the cool-down that stops repeated waits)."""

from __future__ import annotations

import socket
import sys

import pytest
from llm_fakes import FakeServer, ok_body

from geunkeo.config import LLMSettings
from geunkeo.errors import ConfigError, LLMBadOutput, LLMUnavailable
from geunkeo.llm.base import Message
from geunkeo.llm.registry import create_provider

PROVIDERS = ["ollama", "openai", "gemini"]
MESSAGES = [Message("system", "Be brief."), Message("user", "휴학 신청은 언제 하나요?")]


@pytest.fixture
def server():
    s = FakeServer()
    yield s
    s.close()


@pytest.fixture(autouse=True)
def keys(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("GEMINI_API_KEY", "g-test")


def make(provider: str, url: str, **kw):
    base = url + "/v1" if provider == "openai" else url
    llm = create_provider(LLMSettings(provider=provider, model="test-model", base_url=base, **kw))
    llm.sleeps = []
    llm._sleep = llm.sleeps.append  # record the backoff instead of sleeping
    return llm


@pytest.mark.parametrize("provider", PROVIDERS)
def test_success_wire_format(server, provider):
    server.reply(200, ok_body(provider, '{"ok": true}'))
    llm = make(provider, server.url)
    out = llm.complete(MESSAGES, json=True, temperature=0.2, max_tokens=50)
    assert out.text == '{"ok": true}'
    assert (out.prompt_tokens, out.completion_tokens) == (11, 3)
    assert out.provider == provider and out.cached is False
    path, headers, body = server.requests[0]
    if provider == "ollama":
        assert path == "/api/chat"
        assert body["model"] == "test-model" and body["format"] == "json" and body["stream"] is False
        assert body["messages"][1] == {"role": "user", "content": "휴학 신청은 언제 하나요?"}
        assert body["options"] == {"temperature": 0.2, "num_predict": 50}
    elif provider == "openai":
        assert path == "/v1/chat/completions"
        assert headers["authorization"] == "Bearer sk-test"
        assert body["response_format"] == {"type": "json_object"}
        assert body["messages"][0] == {"role": "system", "content": "Be brief."}
        assert (body["temperature"], body["max_tokens"]) == (0.2, 50)
    else:
        assert path.endswith("/models/test-model:generateContent")
        assert headers["x-goog-api-key"] == "g-test"
        assert body["systemInstruction"]["parts"][0]["text"] == "Be brief."
        assert body["contents"] == [{"role": "user", "parts": [{"text": "휴학 신청은 언제 하나요?"}]}]
        assert body["generationConfig"]["responseMimeType"] == "application/json"
        assert body["generationConfig"]["maxOutputTokens"] == 50


@pytest.mark.parametrize("provider", PROVIDERS)
def test_timeout_is_unavailable(server, provider):
    server.reply(200, ok_body(provider, "late"), delay=1.5)
    llm = make(provider, server.url, timeout_s=0.3, max_retries=0)
    with pytest.raises(LLMUnavailable, match="did not answer within"):
        llm.complete(MESSAGES)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_http_500_retried_with_backoff_then_succeeds(server, provider):
    server.reply(500, '{"error": "boom"}').reply(500, '{"error": "boom"}').reply(200, ok_body(provider, "pong"))
    llm = make(provider, server.url, max_retries=2)
    out = llm.complete(MESSAGES)
    assert out.text == "pong"
    assert len(server.requests) == 3
    assert llm.sleeps == [0.5, 1.0]  # exponential backoff, no Retry-After given


@pytest.mark.parametrize("provider", PROVIDERS)
def test_http_500_gives_up_after_bounded_retries(server, provider):
    server.reply(500, '{"error": "boom"}')
    llm = make(provider, server.url, max_retries=1)
    with pytest.raises(LLMUnavailable, match="HTTP 500.*gave up after 2 attempts"):
        llm.complete(MESSAGES)
    assert len(server.requests) == 2
    # cool-down: the next call fails at once without another request
    with pytest.raises(LLMUnavailable, match="not retried for another"):
        llm.complete(MESSAGES)
    assert len(server.requests) == 2


@pytest.mark.parametrize("provider", PROVIDERS)
def test_malformed_json_is_bad_output(server, provider):
    server.reply(200, '{"choices": [ this is not json')
    llm = make(provider, server.url)
    with pytest.raises(LLMBadOutput):
        llm.complete(MESSAGES)
    assert len(server.requests) == 1  # a malformed answer is not retried


@pytest.mark.parametrize("provider", PROVIDERS)
def test_429_honours_retry_after(server, provider):
    server.reply(429, '{"error": "slow down"}', headers={"Retry-After": "7"}).reply(200, ok_body(provider, "pong"))
    llm = make(provider, server.url, max_retries=2)
    assert llm.complete(MESSAGES).text == "pong"
    assert llm.sleeps == [7.0]


@pytest.mark.parametrize("provider", ["ollama", "openai", "openai-compatible"])
def test_connection_refused_fails_fast_without_retry(provider):
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens on this port now
    llm = create_provider(LLMSettings(provider=provider, model="m", base_url=f"http://127.0.0.1:{port}/v1"))
    llm._sleep = lambda s: pytest.fail("connection refused must not be retried")
    with pytest.raises(LLMUnavailable, match="cannot reach"):
        llm.complete(MESSAGES)


def test_404_names_what_to_check(server):
    server.reply(404, '{"error": "model \\"nope\\" not found"}')
    llm = make("ollama", server.url)
    with pytest.raises(LLMUnavailable, match="HTTP 404.*check the model name"):
        llm.complete(MESSAGES)
    assert len(server.requests) == 1


def test_registry_errors_name_the_fix(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY")
    with pytest.raises(ConfigError, match="set the environment variable OPENAI_API_KEY"):
        create_provider(LLMSettings(provider="openai"))
    with pytest.raises(ConfigError, match="choose one of none, ollama, openai, openai-compatible, gemini, llamacpp"):
        create_provider(LLMSettings(provider="litellm"))
    with pytest.raises(ConfigError, match="set llm.model"):
        create_provider(LLMSettings(provider="ollama"))
    with pytest.raises(ConfigError, match="llm.gguf_path"):
        create_provider(LLMSettings(provider="llamacpp"))
    monkeypatch.setenv("MY_KEY", "k2")
    llm = create_provider(LLMSettings(provider="openai", api_key_env="MY_KEY"))
    assert llm.model == "gpt-4o-mini"


def test_concurrency_limit_is_respected(server):
    import threading

    server.reply(200, ok_body("openai", "pong"), delay=0.2)
    llm = make("openai", server.url, concurrency=2)
    active, peak, lock = [0], [0], threading.Lock()
    inner = llm._complete_once

    def counted(*a, **kw):
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
        try:
            return inner(*a, **kw)
        finally:
            with lock:
                active[0] -= 1

    llm._complete_once = counted
    threads = [threading.Thread(target=llm.complete, args=(MESSAGES,)) for _ in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(server.requests) == 5
    assert peak[0] == 2


def test_async_calls_run_concurrently(server):
    import asyncio
    import time

    server.reply(200, ok_body("openai", "pong"), delay=1.0)
    llm = make("openai", server.url, concurrency=4)

    async def three():
        return await asyncio.gather(*(llm.acomplete(MESSAGES) for _ in range(3)))

    start = time.perf_counter()
    outs = asyncio.run(three())
    elapsed = time.perf_counter() - start
    assert [o.text for o in outs] == ["pong"] * 3
    assert elapsed < 2.0  # three 1 s calls overlapped instead of queueing (≥ 3 s)


def test_llamacpp_missing_package_says_how_to_install(tmp_path, monkeypatch):
    gguf = tmp_path / "tiny.gguf"
    gguf.write_bytes(b"GGUF")
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # import fails as if not installed
    llm = create_provider(LLMSettings(provider="llamacpp", gguf_path=str(gguf)))
    with pytest.raises(LLMUnavailable, match=r"pip install 'geunkeo\[llamacpp\]'"):
        llm.complete(MESSAGES)


def test_llamacpp_request_mapping(tmp_path, monkeypatch):
    import types

    seen = {}

    class FakeLlama:
        def __init__(self, model_path, n_ctx, n_threads, verbose):
            seen["init"] = (model_path, n_ctx)

        def create_chat_completion(self, **kw):
            seen["call"] = kw
            return {"choices": [{"message": {"content": '{"ok": 1}'}}],
                    "usage": {"prompt_tokens": 9, "completion_tokens": 4}}

    monkeypatch.setitem(sys.modules, "llama_cpp", types.SimpleNamespace(Llama=FakeLlama))
    gguf = tmp_path / "qwen-tiny.gguf"
    gguf.write_bytes(b"GGUF")
    llm = create_provider(LLMSettings(provider="llamacpp", gguf_path=str(gguf)))
    out = llm.complete(MESSAGES, json=True, max_tokens=20)
    assert (out.text, out.model, out.prompt_tokens, out.completion_tokens) == ('{"ok": 1}', "qwen-tiny", 9, 4)
    assert seen["init"] == (str(gguf), 8192)
    assert seen["call"]["response_format"] == {"type": "json_object"}
    assert seen["call"]["max_tokens"] == 20
    assert seen["call"]["messages"][0] == {"role": "system", "content": "Be brief."}
