"""Review over HTTP: reading is open, writing needs a reviewer key, a stale decision is 409, none is lost."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from geunkeo.config import Settings
from geunkeo.evaluate.base import QACase
from geunkeo.evaluate.queue_records import ReviewPayload
from geunkeo.evaluate.review import ReviewQueue, Selection
from geunkeo.server.app import create_app
from geunkeo.server.auth import KeyStore

pytestmark = pytest.mark.slow


@pytest.fixture
def served(server_index, tmp_path):
    run = tmp_path / "runs" / "r1"
    run.mkdir(parents=True)
    with ReviewQueue(run / "review.db") as q:
        q.enqueue("e1", "q1", Selection("FULL_REVIEW", 1, "ko/qa/simple"), "CRITICAL", ["HALLUCINATED_CLAIM_DETECTED"],
                  QACase("q1", "휴학은 몇 학기?", reference_answer="6개 학기"), ReviewPayload(answer="8개 학기 [1]."))
    (run / "summary.json").write_text('{"eval_id": "e1", "cases": 1, "executive": {"flags": {"CRITICAL": 1}}}',
                                      encoding="utf-8")
    store = KeyStore(tmp_path / "server.db")
    keys = {"rev": store.create("alice", "reviewer"), "reader": store.create("carol", "reader")}
    settings = Settings(server={"db_path": str(tmp_path / "server.db")})
    return TestClient(create_app(server_index, settings, runs_dir=tmp_path / "runs")), keys


def test_review_writes_need_a_reviewer_key_and_stale_ones_are_refused(served):
    client, keys = served
    assert client.get("/review/r1").status_code == 200  # reading is open (server.read_auth off)
    body = {"decision": "disagree", "based_on": 0, "root_cause": "generation"}
    assert client.post("/api/review/r1/q1", json=body).status_code == 401
    assert client.post("/api/review/r1/q1", json=body,
                       headers={"Authorization": f"Bearer {keys['reader']}"}).status_code == 403
    ok = client.post("/api/review/r1/q1", json=body, headers={"Authorization": f"Bearer {keys['rev']}"})
    assert ok.status_code == 200 and ok.json()["reviewer_id"] == "alice" and ok.json()["version"] == 1
    stale = client.post("/api/review/r1/q1", json={**body, "decision": "agree"},
                        headers={"Authorization": f"Bearer {keys['rev']}"})
    assert stale.status_code == 409
    stats = client.get("/api/review/r1").json()["stats"]
    assert stats["reviewed"] == 1 and stats["disagreement_rate"] == 1.0


def test_a_revoked_key_no_longer_works(served, tmp_path):
    client, keys = served
    store = KeyStore(tmp_path / "server.db")
    assert client.get("/api/whoami", headers={"Authorization": f"Bearer {keys['rev']}"}).json()["name"] == "alice"
    store.revoke(next(k["id"] for k in store.list() if k["name"] == "alice"))
    assert client.post("/api/review/r1/q1", json={"decision": "agree", "based_on": 0},
                       headers={"Authorization": f"Bearer {keys['rev']}"}).status_code == 401


def test_with_read_auth_on_search_and_ask_need_a_key(server_index, tmp_path):
    store = KeyStore(tmp_path / "server.db")
    key = store.create("carol", "reader")
    settings = Settings(server={"db_path": str(tmp_path / "server.db"), "read_auth": True})
    client = TestClient(create_app(server_index, settings))
    assert client.post("/api/search", json={"query": "휴학"}).status_code == 401
    assert client.get("/", params={"q": "휴학"}).status_code == 401
    ok = client.post("/api/search", json={"query": "휴학"}, headers={"Authorization": f"Bearer {key}"})
    assert ok.status_code == 200 and ok.json()["hits"]
    assert client.get("/health").status_code == 200  # never behind a key


def test_the_language_toggle_keeps_the_queue_filters(served):
    client, _ = served
    html = client.get("/review/r1", params={"level": "CRITICAL", "status": ""}).text
    assert 'href="?level=CRITICAL&amp;status=&amp;lang=en"' in html
