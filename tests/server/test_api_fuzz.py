"""Whatever a client sends to the JSON API, the answer is a clear 4xx or a result — never a 500 (hypothesis)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from geunkeo.server.app import create_app

pytestmark = pytest.mark.slow

JSONISH = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=30),
                       lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                       max_leaves=6)
BODIES = st.fixed_dictionaries({}, optional={
    "query": st.text(max_size=300) | JSONISH, "k": st.integers(-5, 200) | JSONISH,
    "mode": st.sampled_from(["bm25", "dense", "hybrid", "other"]) | JSONISH}) | JSONISH


@pytest.fixture(scope="module")
def client(server_index):
    return TestClient(create_app(server_index), raise_server_exceptions=False)


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(body=BODIES, path=st.sampled_from(["/api/search", "/api/ask"]))
def test_no_request_body_makes_the_api_fail_with_500(client, body, path):
    r = client.post(path, json=body)
    assert r.status_code in (200, 413, 422), (body, r.status_code, r.text[:200])


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(q=st.text(max_size=200), k=st.integers(-3, 50))
def test_the_ask_page_and_stream_never_fail_with_500(client, q, k):
    assert client.get("/", params={"q": q, "k": k}).status_code in (200, 422)  # 422: a refused question, shown
    assert client.get("/api/ask/stream", params={"q": q, "k": k}).status_code in (200, 422)


@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(q=st.text(st.characters(codec=None, categories=("Cs", "Lo", "Zs", "Po")), max_size=20),
       path=st.sampled_from(["/api/search", "/api/ask"]))
def test_any_code_point_in_a_json_query_is_never_a_500(client, q, path):
    import json

    # ensure_ascii: lone surrogates travel as JSON escapes ("\\ud800"), as a client's JSON encoder sends them
    r = client.post(path, content=json.dumps({"query": q}).encode(), headers={"content-type": "application/json"})
    assert r.status_code in (200, 422), (q, r.status_code, r.text[:200])
