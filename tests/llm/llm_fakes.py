"""Test doubles for the LLM layer: a scripted HTTP server on 127.0.0.1 speaking each provider's wire format,
and an in-process scripted LLM. Nothing here touches the internet."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from geunkeo.errors import LLMUnavailable
from geunkeo.llm.base import LLM, Completion, Message


def ok_body(provider: str, text: str, model: str = "test-model") -> str:
    """A successful chat response in `provider`'s wire format."""
    if provider == "ollama":
        return json.dumps({
            "model": model, "created_at": "2026-01-01T00:00:00Z",
            "message": {"role": "assistant", "content": text}, "done": True, "done_reason": "stop",
            "prompt_eval_count": 11, "eval_count": 3,
        })
    if provider == "gemini":
        return json.dumps({
            "candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP"}],
            "usageMetadata": {"promptTokenCount": 11, "candidatesTokenCount": 3, "totalTokenCount": 14},
            "modelVersion": model,
        })
    return json.dumps({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 3, "total_tokens": 14},
    })


class FakeServer:
    """Answers every POST with the next scripted response (the last one repeats), or by `route`."""

    def __init__(self, route=None):
        self.script: list[tuple[int, dict, str, float]] = []
        # route(json body) -> response body: answers by request content instead of by script order
        self.route = route
        self.requests: list[tuple[str, dict, dict]] = []  # (path, headers, json body)
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server's naming)
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw or b"{}")
                except json.JSONDecodeError:
                    body = {"_raw": raw.decode("utf-8", "replace")}
                with server._lock:
                    server.requests.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                    if server.route is not None:
                        status, headers, text, delay = 200, {}, server.route(body), 0.0
                    else:
                        status, headers, text, delay = (server.script.pop(0) if len(server.script) > 1
                                                        else server.script[0])
                if delay:
                    time.sleep(delay)
                data = text.encode("utf-8")
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client timed out and went away

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}"

    def reply(self, status: int = 200, body: str = "{}", headers: dict | None = None, delay: float = 0.0):
        self.script.append((status, headers or {}, body, delay))
        return self

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class ScriptedLLM(LLM):
    """An in-process LLM answering from a list (an Exception item is raised); records the prompts."""

    provider = "scripted"
    model = "scripted-1"

    def __init__(self, replies):
        self.replies = list(replies)
        self.prompts: list[list[Message]] = []
        self._lock = threading.Lock()

    def complete(self, messages, *, json=False, temperature=None, max_tokens=None) -> Completion:
        with self._lock:
            self.prompts.append(messages)
            if not self.replies:
                raise LLMUnavailable("scripted LLM has no more replies")
            reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return Completion(text=reply, model=self.model, provider=self.provider, prompt_tokens=7, completion_tokens=5)
