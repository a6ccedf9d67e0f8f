"""What the server checks before any work, and what it counts: body size, concurrency, request logs, metrics.

Pure ASGI middleware (no request body is read whole before its size is known):
- `BodyLimit`: a request whose Content-Length exceeds the limit gets 413 at once; a chunked body is counted as it
  streams and cut off with 413 when it passes the limit;
- `Shedding`: more than `max_inflight` search/ask requests at once → 503 with Retry-After, instead of minutes of
  queueing behind the worker pool (health, readiness, metrics and pages are never shed);
- `RequestLog`: one JSON line per request on the `geunkeo.server` logger, and the `Metrics` counters behind
  `/metrics` (Prometheus text format, written by hand: requests by path and status, latency histogram, LLM
  fallbacks).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable

Scope = dict
Receive = Callable[[], Awaitable[dict]]
Send = Callable[[dict], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

log = logging.getLogger("geunkeo.server")

SHED_PATHS = ("/api/search", "/api/ask", "/search", "/ask")
_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 15.0, 30.0)


async def _reply(send: Send, status: int, detail: str, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    body = json.dumps({"detail": detail}, ensure_ascii=False).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *(headers or [])]})
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """413 for a request body larger than `max_bytes`, decided from Content-Length before reading, or while a
    chunked body streams in."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.max_bytes:
            return await _reply(send, 413, f"request body too large: {int(length)} bytes > {self.max_bytes}")
        seen = 0
        refused = False

        async def counted() -> dict:
            nonlocal seen, refused
            if refused:
                return {"type": "http.disconnect"}
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > self.max_bytes:
                    # answer now and tell the app the client is gone: it stops reading and its reply is dropped
                    refused = True
                    await _reply(send, 413, f"request body too large: more than {self.max_bytes} bytes")
                    return {"type": "http.disconnect"}
            return msg

        async def guarded_send(msg: dict) -> None:
            if not refused:
                await send(msg)

        try:
            await self.app(scope, counted, guarded_send)
        except Exception:
            if not refused:
                raise


class Metrics:
    """Counters for `/metrics`, thread-safe (sync endpoints run in a thread pool)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.requests: Counter[tuple[str, str, int]] = Counter()
        self.latency: dict[str, list[int]] = {}
        self.latency_sum: dict[str, float] = {}
        self.llm_fallbacks: Counter[str] = Counter()
        self.shed = 0
        self.inflight = 0

    def observe(self, method: str, path: str, status: int, seconds: float) -> None:
        with self._lock:
            self.requests[(method, path, status)] += 1
            buckets = self.latency.setdefault(path, [0] * (len(_BUCKETS) + 1))
            buckets[next((i for i, b in enumerate(_BUCKETS) if seconds <= b), len(_BUCKETS))] += 1
            self.latency_sum[path] = self.latency_sum.get(path, 0.0) + seconds

    def fallback(self, reason: str) -> None:
        with self._lock:
            self.llm_fallbacks[reason] += 1

    def render(self) -> str:
        """Prometheus text exposition format 0.0.4."""
        with self._lock:
            out = ["# HELP geunkeo_requests_total HTTP requests by method, path and status.",
                   "# TYPE geunkeo_requests_total counter"]
            out += [f'geunkeo_requests_total{{method="{m}",path="{p}",status="{s}"}} {n}'
                    for (m, p, s), n in sorted(self.requests.items())]
            out += ["# HELP geunkeo_request_seconds Request latency.", "# TYPE geunkeo_request_seconds histogram"]
            for path, counts in sorted(self.latency.items()):
                running = 0
                for bound, n in zip((*_BUCKETS, float("inf")), counts, strict=True):
                    running += n
                    le = "+Inf" if bound == float("inf") else f"{bound:g}"
                    out.append(f'geunkeo_request_seconds_bucket{{path="{path}",le="{le}"}} {running}')
                out.append(f'geunkeo_request_seconds_sum{{path="{path}"}} {self.latency_sum[path]:.6f}')
                out.append(f'geunkeo_request_seconds_count{{path="{path}"}} {running}')
            out += ["# HELP geunkeo_llm_fallbacks_total Answers served without the LLM, by reason.",
                    "# TYPE geunkeo_llm_fallbacks_total counter"]
            out += [f'geunkeo_llm_fallbacks_total{{reason="{r}"}} {n}' for r, n in sorted(self.llm_fallbacks.items())]
            out += ["# HELP geunkeo_shed_total Requests refused with 503 because too many were in flight.",
                    "# TYPE geunkeo_shed_total counter", f"geunkeo_shed_total {self.shed}",
                    "# HELP geunkeo_inflight Search/ask requests being worked on.", "# TYPE geunkeo_inflight gauge",
                    f"geunkeo_inflight {self.inflight}"]
        return "\n".join(out) + "\n"


class Shedding:
    """503 + Retry-After when `max_inflight` search/ask requests are already being worked on."""

    def __init__(self, app: ASGIApp, max_inflight: int, metrics: Metrics, retry_after_s: int = 2) -> None:
        self.app, self.max_inflight, self.metrics, self.retry_after = app, max_inflight, metrics, retry_after_s
        self._lock = threading.Lock()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(SHED_PATHS):
            return await self.app(scope, receive, send)
        with self._lock:
            if self.metrics.inflight >= self.max_inflight:
                self.metrics.shed += 1
                full = True
            else:
                self.metrics.inflight += 1
                full = False
        if full:
            return await _reply(send, 503, f"busy: {self.max_inflight} requests in flight; retry shortly",
                                [(b"retry-after", str(self.retry_after).encode())])
        try:
            await self.app(scope, receive, send)
        finally:
            with self._lock:
                self.metrics.inflight -= 1


class RequestLog:
    """One JSON log line per request (method, path, status, ms) and the request metrics."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app, self.metrics = app, metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        t0 = time.perf_counter()
        status = 500

        async def send_status(msg: dict) -> None:
            nonlocal status
            if msg["type"] == "http.response.start":
                status = msg["status"]
            await send(msg)

        try:
            await self.app(scope, receive, send_status)
        finally:
            seconds = time.perf_counter() - t0
            path = scope["path"] if not scope["path"].startswith("/static/") else "/static"
            self.metrics.observe(scope["method"], path, status, seconds)
            log.info(json.dumps({"method": scope["method"], "path": scope["path"], "status": status,
                                 "ms": round(seconds * 1000, 1)}))
