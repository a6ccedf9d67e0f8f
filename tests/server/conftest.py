"""A small real index for the server tests, and a hanging HTTP peer standing in for an LLM that does not answer."""

from __future__ import annotations

import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from geunkeo.index.builder import build_index

DOCS = {
    "scholarship.md": """---
title: 시험대학교 장학금 규정
kind: regulation
---
제3조(성적장학금) ① 직전 학기 평점평균 3.5 이상인 학생에게 성적장학금을 지급한다.
② 성적장학금은 매 학기 개시 후 30일 이내에 지급한다.
""",
    "leave.md": """---
title: 시험대학교 학칙
kind: regulation
---
제12조(휴학) ① 학생은 질병 또는 그 밖의 부득이한 사유로 휴학할 수 있다.
② 일반휴학은 1회에 2개 학기 이내로 하며, 통산 6개 학기를 넘을 수 없다.
""",
}


@pytest.fixture(scope="session")
def server_index(tmp_path_factory):
    root = tmp_path_factory.mktemp("srv-docs")
    for name, text in DOCS.items():
        (root / name).write_text(text, encoding="utf-8")
    build_index([root], root / "idx", replace=True)
    return root / "idx"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def hung_llm():
    """An OpenAI-compatible address that accepts connections and never answers (until the test ends)."""
    stop = threading.Event()

    class Hang(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (http.server's naming)
            stop.wait(30)

        def log_message(self, *args):
            pass

    srv = ThreadingHTTPServer(("127.0.0.1", free_port()), Hang)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_address[1]}/v1"
    stop.set()
    srv.shutdown()
    time.sleep(0.05)
