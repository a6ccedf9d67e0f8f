"""Input that is not text: a lone surrogate or bytes that are not UTF-8 are a 422 that says so, never a 500."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from geunkeo.server.app import create_app

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def client(server_index):
    return TestClient(create_app(server_index), raise_server_exceptions=False)


@pytest.mark.parametrize("path", ["/api/search", "/api/ask", "/api/summarize"])
@pytest.mark.parametrize("query", ["\\ud800", "\\ud800 휴학", "휴학 \\udfff"])
def test_a_lone_surrogate_in_a_json_query_is_422_naming_it(client, path, query):
    body = ('{"query": "' + query + '"}').encode()  # the JSON escape itself, as a client would send it
    r = client.post(path, content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422, r.text
    assert "not valid Unicode text: a lone surrogate" in r.json()["detail"]


@pytest.mark.parametrize("raw", ["%ED%A0%80", "%ED%A0%80%ED%9C%B4", "%FF", "%C3"])
@pytest.mark.parametrize("path", ["/", "/api/ask/stream"])
def test_a_query_string_that_is_not_utf8_is_422(client, path, raw):
    r = client.get(f"{path}?q={raw}")
    assert r.status_code == 422 and "not valid UTF-8" in r.json()["detail"]


def test_the_page_shows_a_refused_question_with_422(client):
    r = client.get("/", params={"q": "!!!"})
    assert r.status_code == 422 and "only punctuation or symbols" in r.text and "<form" in r.text
    assert client.get("/", params={"q": "성적장학금은 언제 지급돼?"}).status_code == 200
