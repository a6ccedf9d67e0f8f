"""Admission control by route: every route that works (the ask page, the API, review and runs pages) counts
against `server.max_inflight`; only the routes declared free of work (tag "ops", static files) never wait."""

from __future__ import annotations

import concurrent.futures
import socket
import threading
import time

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient

from geunkeo.config import Settings
from geunkeo.server.app import create_app
from geunkeo.server.guards import admitted

pytestmark = pytest.mark.slow


def test_with_no_room_every_working_route_is_shed_and_ops_routes_answer(server_index):
    c = TestClient(create_app(server_index, Settings(server={"max_inflight": 0})))
    working = [("GET", "/?q=휴학"), ("GET", "/"), ("POST", "/api/search"), ("POST", "/api/ask"),
               ("GET", "/api/ask/stream?q=휴학"), ("POST", "/api/summarize"), ("POST", "/ask"), ("GET", "/docs"),
               ("GET", "/review"), ("GET", "/runs"), ("GET", "/api/runs"), ("GET", "/login")]
    for method, path in working:
        r = c.request(method, path, json={"query": "휴학"} if method == "POST" else None)
        assert r.status_code == 503 and r.headers["retry-after"] == "2", (path, r.status_code)
    for path in ("/health", "/ready", "/metrics", "/static/style.css"):
        assert c.get(path).status_code == 200, path
    assert "geunkeo_shed_total 12.0" in c.get("/metrics").text


def test_only_ops_routes_and_static_files_are_free(server_index):
    app = create_app(server_index)
    free = set()
    for route in app.router.routes:
        if not admitted(route):
            free.add(getattr(route, "path", None))
    assert free == {"/health", "/ready", "/metrics", "/static"}


def test_an_unmatched_path_is_a_404_even_when_full(server_index):
    c = TestClient(create_app(server_index, Settings(server={"max_inflight": 0})))
    assert c.get("/no/such/page").status_code == 404


@pytest.mark.parametrize("route", ["/?q={q}", "/api/ask/stream?q={q}"])
def test_pages_under_a_hung_llm_answer_within_the_deadline_or_are_shed(server_index, hung_llm, route):
    """12 page requests at once, 4 admitted: each answers within its 3 s deadline or gets 503 at once, and
    /api/search beside them answers or is shed, never waits for the pages."""
    settings = Settings(llm={"provider": "openai-compatible", "base_url": hung_llm, "model": "m", "timeout_s": 20,
                             "max_retries": 0, "cache": False},
                        server={"ask_deadline_s": 3.0, "max_inflight": 4})
    # One client, built before any clock starts: httpx.request builds a client (an SSL context, ~0.1 s of CPU) per
    # call, and 12 built at once took 0.7-0.9 s each, all of it counted against the server's deadline.
    with _serving(create_app(server_index, settings)) as base, httpx.Client(timeout=30) as client:
        def timed(method, url, **kw):
            t0 = time.perf_counter()
            r = client.request(method, url, **kw)
            return r.status_code, time.perf_counter() - t0, r.headers.get("retry-after")

        with concurrent.futures.ThreadPoolExecutor(13) as pool:
            pages = [pool.submit(timed, "GET", base + route.format(q="성적장학금은 언제 지급돼?")) for _ in range(12)]
            time.sleep(0.5)
            search = timed("POST", base + "/api/search", json={"query": "휴학"})
            results = [p.result() for p in pages]
    assert {s for s, _, _ in results} <= {200, 503} and any(s == 200 for s, _, _ in results), results
    assert all(took < 3.0 + 0.2 for s, took, _ in results if s == 200), results  # 0.2: HTTP and scheduling
    assert all(took < 1.0 and after == "2" for s, took, after in results if s == 503), results
    assert search[0] in (200, 503) and search[1] < 1.5, search


class _serving:
    """A real uvicorn server on a free port for the `with` block (the TestClient runs requests one at a time)."""

    def __init__(self, app) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        while not self.server.started:
            time.sleep(0.05)
        return f"http://127.0.0.1:{self.port}"

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(10)


def test_the_llm_is_waited_for_until_the_deadline_less_the_fallback_reserve():
    from geunkeo.server.answering import fallback_reserve

    assert fallback_reserve(15.0) == 2.0 and fallback_reserve(3.0) == pytest.approx(0.6)


def test_the_answer_stage_and_the_llm_client_are_built_at_start_not_by_the_first_request(server_index, hung_llm):
    settings = Settings(llm={"provider": "openai-compatible", "base_url": hung_llm, "model": "m", "cache": False})
    index = create_app(server_index, settings).state.index
    assert index._answer_parts is not None and index._llm_loaded and index._llm is not None


def test_an_llm_that_cannot_be_built_at_start_is_reported_by_the_answers_that_need_it(server_index):
    settings = Settings(llm={"provider": "openai-compatible", "model": "m"})  # no base_url
    c = TestClient(create_app(server_index, settings))
    r = c.post("/api/ask", json={"query": "휴학"})
    assert r.status_code == 500 and "base_url" in r.json()["detail"], r.text
