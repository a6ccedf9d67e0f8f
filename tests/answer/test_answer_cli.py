"""`geunkeo verify` and `geunkeo ask` through Typer's CliRunner; `ask` against a local server that speaks the
OpenAI chat-completions protocol, and against a closed port (fallback)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from typer.testing import CliRunner

import geunkeo
from geunkeo.answer import answer_hits
from geunkeo.answer.parts import build_parts
from geunkeo.cli.main import app
from geunkeo.config import Settings
from geunkeo.corpus.base import Chunk
from geunkeo.engine import Engine
from geunkeo.query.base import QueryPlan
from geunkeo.retrieve.base import Hit, SearchResult
from geunkeo.trace import Trace

RUNNER = CliRunner()
CONTACT = "자세한 연락처는 해당 부서에 직접 문의해 주시기 바랍니다."
CONTEXT = "제13조(복학) ① 휴학한 학생은 휴학 기간이 끝나면 복학하여야 한다.\n② 복학 신청은 학사지원팀(02-880-1234)에 한다."


def test_verify_json_is_exactly_text_removed_kept(tmp_path):
    (tmp_path / "answer.txt").write_text("복학 신청은 학사지원팀(02-880-1234, 02-880-9999)에 합니다.", encoding="utf-8")
    (tmp_path / "학칙.txt").write_text(CONTEXT, encoding="utf-8")
    res = RUNNER.invoke(app, ["verify", "--answer", str(tmp_path / "answer.txt"),
                              "--context", str(tmp_path / "학칙.txt"), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert set(out) == {"text", "removed", "kept"}
    assert out["text"] == f"복학 신청은 학사지원팀(02-880-1234)에 합니다. {CONTACT}"
    assert out["removed"] == [{"kind": "phone", "value": "02-880-9999", "replacement": CONTACT}]
    assert [(k["kind"], k["value"], k["location"]) for k in out["kept"]] == [
        ("department", "학사지원팀", "학칙"), ("phone", "02-880-1234", "학칙")]


def test_verify_citation_needs_regulation_and_article_together(tmp_path):
    (tmp_path / "a.txt").write_text("「학칙」 제13조에 따라 복학합니다. 「장학금 지급 규정」 제13조도 봅니다.", encoding="utf-8")
    (tmp_path / "ctx.json").write_text(json.dumps(
        {"title": "학칙", "location": "학칙 제13조(복학)", "article": "제13조", "text": CONTEXT}, ensure_ascii=False),
        encoding="utf-8")
    res = RUNNER.invoke(app, ["verify", "--answer", str(tmp_path / "a.txt"), "--context", str(tmp_path / "ctx.json"),
                              "--json"])
    out = json.loads(res.stdout)
    assert out["text"] == "「학칙」 제13조에 따라 복학합니다. 관련 규정도 봅니다."
    assert out["removed"] == [{"kind": "citation", "value": "「장학금 지급 규정」 제13조", "replacement": "관련 규정"}]
    assert out["kept"][0]["article_text"].startswith("제13조(복학) ①")


def test_verify_missing_file_is_a_clean_error(tmp_path):
    res = RUNNER.invoke(app, ["verify", "--answer", str(tmp_path / "none.txt"), "--context", str(tmp_path / "x.txt")])
    assert res.exit_code == 2
    assert "does not exist; pass a text file" in res.output


class _FakeEngine(Engine):
    """Stands in for an opened index: fixed hits, the real answer stage."""

    def __init__(self, path, settings=None):  # no store, no embedder: nothing is loaded
        self.settings = settings or Settings()
        self.cached_embedder = None
        self._llm, self._llm_loaded, self._answer_parts = None, False, None

    def search(self, query, k=5, mode=None, *, options=None, **kw):
        chunk = Chunk("학칙#제13조", "학칙", "학칙", CONTEXT, "학칙 제13조(복학)", article="제13조")
        hits = [Hit(chunk, 1.0, ranks={"bm25": 1, "dense": 1})]
        plan = QueryPlan(original=query, text=query, rewritten=query)
        return SearchResult(query=query, hits=hits, plan=plan, trace=Trace())


@pytest.fixture
def fake_index(monkeypatch):
    monkeypatch.setattr(geunkeo.engine, "Engine", _FakeEngine)


def test_ask_cli_extractive_json(fake_index, tmp_path):
    res = RUNNER.invoke(app, ["ask", "복학 신청은 어디에 하나요?", "--index", str(tmp_path), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["answerer"] == "extractive"
    # "어디에" asks for an office: the sentence naming it comes first
    assert out["text"].startswith("② 복학 신청은 학사지원팀(02-880-1234)에 한다 [1].")
    assert out["gate"]["action"] == "answer"
    assert out["sentences"][0]["citations"][0]["location"] == "학칙 제13조(복학)"


def test_ask_cli_rich_output_shows_answer_citations_and_gate(fake_index, tmp_path):
    res = RUNNER.invoke(app, ["ask", "복학 신청은 어디에 하나요?", "--index", str(tmp_path), "--explain"])
    assert res.exit_code == 0, res.output
    assert "학칙 제13조(복학)" in res.output and "gate answer" in res.output
    assert "answer.extractive units chosen" in res.output and "answer.filter=" in res.output


class _OpenAIProtocol(BaseHTTPRequestHandler):
    reply = ""
    seen: list = []

    def do_POST(self):  # noqa: N802 - http.server's naming
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        type(self).seen.append(body)
        data = json.dumps({"id": "x", "object": "chat.completion", "created": 0, "model": body["model"],
                           "choices": [{"index": 0, "finish_reason": "stop",
                                        "message": {"role": "assistant", "content": type(self).reply}}],
                           "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def _llm_settings(base_url: str, tmp_path) -> Settings:
    s = Settings()
    s.llm.provider, s.llm.model, s.llm.base_url = "openai-compatible", "local-test", base_url
    s.llm.max_retries, s.llm.timeout_s, s.llm.cache = 0, 5.0, False
    return s


def test_ask_with_a_local_openai_compatible_server(tmp_path):
    _OpenAIProtocol.reply = "복학 신청은 학사지원팀(02-880-1234)에 합니다 [1]. 문의는 학생지원처(02-880-5555)로 하세요 [1]."
    _OpenAIProtocol.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _OpenAIProtocol)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        settings = _llm_settings(f"http://127.0.0.1:{server.server_port}/v1", tmp_path)
        settings.answer.gate_max_unsupported = 2  # accept this answer after filtering: no regeneration
        idx = _FakeEngine(None, settings)
        res = idx.search("복학 신청은 어디에 하나요?")
        ans = answer_hits("복학 신청은 어디에 하나요?", res.hits, build_parts(settings))
    finally:
        server.shutdown()
    assert ans.answerer == "llm" and ans.fallback is None
    # the filter rewrites the invented office out ("문의는 담당 부서로 하세요"); the verification then removes that
    # sentence, which its chunk does not support
    assert ans.text == f"복학 신청은 학사지원팀(02-880-1234)에 합니다 [1]. {CONTACT}"
    assert [(c.text, c.removed) for c in ans.verification.sentences] == [
        ("복학 신청은 학사지원팀(02-880-1234)에 합니다.", False), ("문의는 담당 부서로 하세요.", True)]
    assert _OpenAIProtocol.seen[0]["model"] == "local-test"
    assert ans.trace.llm_calls[0]["provider"] == "openai-compatible"


def test_ask_falls_back_when_the_server_is_down(tmp_path):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed once the block ends: nothing listens there
    settings = _llm_settings(f"http://127.0.0.1:{port}/v1", tmp_path)
    res = _FakeEngine(None, settings).search("복학 신청은 어디에 하나요?")
    ans = answer_hits("복학 신청은 어디에 하나요?", res.hits, build_parts(settings))
    assert ans.answerer == "extractive"
    assert ans.fallback.startswith("LLM unavailable (")
    assert "[1]" in ans.text


def test_verify_with_a_departments_file(tmp_path):
    (tmp_path / "a.txt").write_text("신청은 학사지원팀과 국제교류관에서 받습니다.", encoding="utf-8")
    (tmp_path / "학칙.txt").write_text(CONTEXT, encoding="utf-8")
    (tmp_path / "depts.txt").write_text("# names without a suffix\n국제교류관\n", encoding="utf-8")
    args = ["verify", "--answer", str(tmp_path / "a.txt"), "--context", str(tmp_path / "학칙.txt"), "--json"]
    plain = json.loads(RUNNER.invoke(app, args).stdout)
    # without the file it is read as a building's name (answer/name_check.py) that no context names
    assert plain["text"] == "신청은 학사지원팀과 해당 건물에서 받습니다."
    known = json.loads(RUNNER.invoke(app, [*args, "--departments", str(tmp_path / "depts.txt")]).stdout)
    assert known["text"] == "신청은 학사지원팀과 담당 부서에서 받습니다."
    assert known["removed"] == [{"kind": "department", "value": "국제교류관", "replacement": "담당 부서"}]


def test_verify_allowlist_accepts_the_main_number_without_context(tmp_path):
    (tmp_path / "a.txt").write_text("대표전화는 02-880-5114입니다. 팩스는 02-880-5115입니다.", encoding="utf-8")
    (tmp_path / "학칙.txt").write_text(CONTEXT, encoding="utf-8")
    (tmp_path / "allow.txt").write_text("# always fine\n대표전화 02-880-5114\n", encoding="utf-8")
    res = RUNNER.invoke(app, ["verify", "--answer", str(tmp_path / "a.txt"), "--context", str(tmp_path / "학칙.txt"),
                              "--allowlist", str(tmp_path / "allow.txt"), "--json"])
    out = json.loads(res.stdout)
    assert out["text"] == f"대표전화는 02-880-5114입니다. {CONTACT}"
    assert out["removed"] == [{"kind": "phone", "value": "02-880-5115", "replacement": CONTACT}]
    assert [(k["value"], k["location"]) for k in out["kept"]] == [("02-880-5114", "allowlist")]


def test_answers_arriving_together_build_the_answer_parts_once(monkeypatch):
    import threading

    import geunkeo.answer.parts as parts_module

    built = []
    real = parts_module.build_parts

    def counting(*args, **kwargs):
        built.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(parts_module, "build_parts", counting)
    engine = _FakeEngine(None)
    got = []
    threads = [threading.Thread(target=lambda: got.append(engine.answer_parts())) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(built) == 1 and all(g is got[0] for g in got)
