"""Limits checked before any work, a deadline that holds with a hung LLM, health outside the worker pool."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from geunkeo.config import Settings
from geunkeo.server.answering import Breaker
from geunkeo.server.app import create_app

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def client(server_index):
    return TestClient(create_app(server_index))


def test_a_2mb_body_is_refused_with_413_before_it_is_read(client):
    t0 = time.perf_counter()
    r = client.post("/api/ask", content=b"{" + b" " * 2_000_000 + b"}", headers={"content-type": "application/json"})
    assert r.status_code == 413 and "too large" in r.json()["detail"]
    assert time.perf_counter() - t0 < 5  # generous: the point is that nothing is parsed or answered


def test_a_chunked_body_without_length_is_cut_off_too(client):
    def chunks():
        for _ in range(40):
            yield b" " * 100_000

    r = client.post("/api/search", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413


def test_an_over_long_query_is_422_naming_the_limit(client):
    r = client.post("/api/search", json={"query": "휴학" * 1500})
    assert r.status_code == 422 and "server.max_query_chars" in r.json()["detail"]


def test_api_search_and_ask_answer_with_citations(client):
    hits = client.post("/api/search", json={"query": "성적장학금 기준", "k": 2}).json()["hits"]
    assert hits[0]["chunk_id"] == "scholarship#제3조"
    ans = client.post("/api/ask", json={"query": "성적장학금은 언제 지급돼?"}).json()
    assert "30일" in ans["text"] and ans["gate"]["action"] in ("answer", "warn")


def test_metrics_count_requests_by_route_and_status(client):
    client.post("/api/search", json={"query": " "})
    text = client.get("/metrics").text
    assert 'geunkeo_requests_total{method="POST",route="/api/search",status="422"}' in text
    assert "geunkeo_request_seconds_bucket" in text and "geunkeo_shed_total 0.0" in text


def test_stream_sends_the_answer_as_server_sent_events(client):
    with client.stream("GET", "/api/ask/stream", params={"q": "휴학은 몇 학기까지 가능해?"}) as r:
        body = "".join(r.iter_text())
    events = [line.split(": ", 1)[1] for line in body.splitlines() if line.startswith("event: ")]
    assert events == ["status", "answer", "done"] and "2개 학기" in body


def test_docs_are_served_without_a_cdn(client):
    html = client.get("/docs").text
    assert "/api/ask" in html and "cdn" not in html.lower() and "https://" not in html


def test_a_hung_llm_is_cut_at_the_deadline_and_the_breaker_opens(server_index, hung_llm):
    settings = Settings(llm={"provider": "openai-compatible", "base_url": hung_llm, "model": "m", "timeout_s": 20,
                             "max_retries": 0, "cache": False},
                        server={"ask_deadline_s": 1.0})
    app = create_app(server_index, settings)
    with TestClient(app) as c:
        t0 = time.perf_counter()
        ans = c.post("/api/ask", json={"query": "성적장학금은 언제 지급돼?"}).json()
        took = time.perf_counter() - t0
        assert took < 1.0 + 2.0, took
        assert ans["fallback"].startswith("llm_deadline") and "30일" in ans["text"]
        assert c.get("/health").json()["status"] == "ok"
        assert 'geunkeo_llm_fallbacks_total{reason="llm_deadline"} 1.0' in c.get("/metrics").text


def test_the_deadline_fallback_answers_over_the_hits_the_llm_path_found(server_index, hung_llm, monkeypatch):
    """The fallback reserve is the extractive answer's: the search the LLM path finished is not run again."""
    from geunkeo.engine import Engine

    settings = Settings(llm={"provider": "openai-compatible", "base_url": hung_llm, "model": "m", "timeout_s": 20,
                             "max_retries": 0, "cache": False},
                        server={"ask_deadline_s": 1.0})
    searches = []
    search = Engine.search
    monkeypatch.setattr(Engine, "search", lambda self, *a, **kw: searches.append(a) or search(self, *a, **kw))
    with TestClient(create_app(server_index, settings)) as c:
        ans = c.post("/api/ask", json={"query": "성적장학금은 언제 지급돼?"}).json()
    assert ans["fallback"].startswith("llm_deadline") and "30일" in ans["text"]
    assert len(searches) == 1
    assert ans["trace"]["warnings"][-1].startswith("served the extractive answer: llm_deadline"), ans["trace"]


def test_the_breaker_opens_after_consecutive_failures_and_half_opens_after_cooldown():
    b = Breaker(failures_to_open=2, cooldown_s=0.2)
    b.failure()
    assert b.allow()
    b.failure()
    assert b.state == "open" and not b.allow()
    time.sleep(0.25)
    assert b.state == "half_open" and b.allow()
    b.success()
    assert b.state == "closed"


def test_too_many_requests_in_flight_are_shed_with_retry_after(server_index):
    from starlette.routing import Route

    from geunkeo.server.guards import Metrics, Routes, Shedding

    async def app(scope, receive, send):  # never reached when shed
        raise AssertionError

    metrics = Metrics()
    metrics.inflight = 2
    routes = Routes([Route("/api/ask", app, methods=["POST"])])
    sent = []

    async def send(msg):
        sent.append(msg)

    import asyncio
    import threading

    # in a thread of its own: the browser tests' Playwright keeps an event loop running in this one
    scope = {"type": "http", "path": "/api/ask", "method": "POST"}
    t = threading.Thread(target=asyncio.run, args=(Shedding(app, 2, metrics, routes)(scope, None, send),))
    t.start()
    t.join()
    assert sent[0]["status"] == 503 and (b"retry-after", b"2") in sent[0]["headers"]
    assert metrics.registry.get_sample_value("geunkeo_shed_total") == 1


def test_summarize_endpoint_keeps_provisos_and_refuses_a_bad_request(client):
    r = client.post("/api/summarize", json={"doc": "leave"})
    assert r.status_code == 200 and "6개 학기" in r.json()["text"]
    assert client.post("/api/summarize", json={}).status_code == 422
    assert client.post("/api/summarize", json={"doc": "nope"}).status_code == 422


def test_cors_is_off_unless_origins_are_configured(server_index, client):
    preflight = {"Origin": "http://elsewhere.example", "Access-Control-Request-Method": "POST"}
    assert "access-control-allow-origin" not in client.options("/api/search", headers=preflight).headers
    settings = Settings()
    settings.server.cors_origins = ["http://elsewhere.example"]
    allowed = TestClient(create_app(server_index, settings)).options("/api/search", headers=preflight)
    assert allowed.headers["access-control-allow-origin"] == "http://elsewhere.example"


def test_each_request_is_logged_as_one_json_line(client, caplog):
    import json
    import logging

    with caplog.at_level(logging.INFO, logger="geunkeo.server"):
        client.get("/health")
        client.post("/api/search", json={"query": "x" * 5000})
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "geunkeo.server"]
    assert {"method": "GET", "path": "/health", "status": 200}.items() <= lines[0].items()
    assert lines[1]["path"] == "/api/search" and lines[1]["status"] == 422 and lines[1]["ms"] >= 0


def test_health_answers_while_every_worker_waits_on_a_hung_llm(server_index, hung_llm):
    import concurrent.futures
    import socket
    import threading

    import httpx
    import uvicorn

    # more asks in flight than the sync worker pool has threads (40), each held up to its 3 s deadline
    settings = Settings(llm={"provider": "openai-compatible", "base_url": hung_llm, "model": "m", "timeout_s": 20,
                             "max_retries": 0, "cache": False},
                        server={"ask_deadline_s": 3.0, "max_inflight": 60})
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(server_index, settings), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    try:
        while not server.started:
            time.sleep(0.05)
        # clients built before any clock starts: httpx.post built one (an SSL context, ~0.1 s of CPU) per ask; the
        # shared client still opens a connection per ask in flight
        with concurrent.futures.ThreadPoolExecutor(45) as pool, httpx.Client(timeout=30) as client, \
                httpx.Client(timeout=5) as prober:
            asks = [pool.submit(client.post, f"{base}/api/ask", json={"query": "성적장학금은 언제 지급돼?"})
                    for _ in range(45)]
            time.sleep(1.0)  # the asks now hold the workers
            t0 = time.perf_counter()
            health = prober.get(f"{base}/health")
            took = time.perf_counter() - t0
            answers = [a.result() for a in asks]
        assert health.status_code == 200 and took < 1.0, took
        assert all(r.status_code == 200 for r in answers)
    finally:
        server.should_exit = True
        thread.join(10)
