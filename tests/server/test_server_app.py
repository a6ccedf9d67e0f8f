"""The HTTP API answers /health, /search and /ask over a real tiny index."""

import pytest
from fastapi.testclient import TestClient

from geunkeo.index.builder import build_index
from geunkeo.server.app import create_app

pytestmark = pytest.mark.slow

DOC = """---
title: 시험대학교 장학금 규정
kind: regulation
---
제3조(성적장학금) ① 직전 학기 평점평균 3.5 이상인 학생에게 성적장학금을 지급한다.
② 성적장학금은 매 학기 개시 후 30일 이내에 지급한다.
"""


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    root = tmp_path_factory.mktemp("srv")
    (root / "scholarship.md").write_text(DOC, encoding="utf-8")
    build_index([root], root / "idx", replace=True)
    return TestClient(create_app(root / "idx"))


def test_health_and_search(client):
    h = client.get("/health").json()
    assert h["status"] == "ok" and h["documents"] == 1
    r = client.post("/search", json={"query": "성적장학금 기준이 뭐야?", "k": 1}).json()
    assert r["hits"][0]["chunk_id"] == "scholarship#제3조"
    assert r["plan"]["formality"] in {"colloquial", "polite", "formal", "fragment"}


def test_bad_query_is_422(client):
    r = client.post("/search", json={"query": "  "})
    assert r.status_code == 422
    assert "empty" in r.json()["detail"].lower()


def test_ask_is_cited(client):
    r = client.post("/ask", json={"query": "성적장학금은 언제 지급돼?"})
    assert r.status_code == 200
    data = r.json()
    assert "30일" in data["text"]
    assert data["sentences"][0]["citations"][0]["chunk_id"] == "scholarship#제3조"
