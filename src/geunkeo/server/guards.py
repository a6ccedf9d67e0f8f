"""What the server checks before any work, and what it counts: body size, query text, admission, logs, metrics.

Pure ASGI middleware (no request body is read whole before its size is known):
- `BodyLimit`: a request whose Content-Length exceeds the limit gets 413 at once; a chunked body is counted as it
  streams and cut off with 413 when it passes the limit;
- `Utf8Query`: a URL query string that is not UTF-8 once percent-decoded (`?q=%ED%A0%80`, a lone surrogate) gets
  422 instead of being searched as replacement characters;
- `Shedding`: more than `max_inflight` admitted requests at once → 503 with Retry-After, instead of minutes of
  queueing behind the worker pool. Admission is decided by the route a request will reach (`Routes`), and every
  route is admitted except the ones declared free of work (tag "ops": health, readiness, metrics; static files),
  so a new route that answers questions cannot forget it;
- `RequestLog`: one JSON line per request on the `geunkeo.server` logger, and the `Metrics` behind `/metrics`
  (prometheus_client: requests by route template and status, latency histogram, LLM fallbacks, shed requests).
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import unquote_to_bytes

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from starlette.routing import BaseRoute, Match, Mount
from starlette.staticfiles import StaticFiles

Scope = dict
Receive = Callable[[], Awaitable[dict]]
Send = Callable[[dict], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

log = logging.getLogger("geunkeo.server")

UNMATCHED = "unmatched"  # the one route label of every path no route serves
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
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


class Routes:
    """The route a request will reach, found before the router runs, once per request (cached in the scope).

    Routes of included routers are matched as their router (FastAPI resolves them only when it routes), which is
    enough to decide admission. The metrics label is the template of the route that served the request
    (`/api/review/{run}/{query_id}`, set in the scope by the router), never the raw path, so labels stay bounded
    however many distinct paths clients send; a request no route served is `unmatched`."""

    KEY = "geunkeo.route"

    def __init__(self, routes: list[BaseRoute]) -> None:
        self.routes = routes  # the app's live list: routes added later are seen

    def of(self, scope: Scope) -> BaseRoute | None:
        if self.KEY not in scope:
            scope[self.KEY] = self._match(scope)
        return scope[self.KEY]

    def _match(self, scope: Scope) -> BaseRoute | None:
        partial = None  # the path matches but not the method (405): still that route
        for route in self.routes:
            match, _ = route.matches(scope)
            if match is Match.FULL:
                return route
            if match is Match.PARTIAL and partial is None:
                partial = route
        return partial

    def template(self, scope: Scope) -> str:
        """The route template of a request that has been answered (routed, or refused before routing)."""
        return getattr(scope.get("route") or self.of(scope), "path", None) or UNMATCHED


def admitted(route: BaseRoute | None) -> bool:
    """Whether requests to `route` count against `max_inflight`: all do except routes declared free of work —
    tag "ops" (health, readiness, metrics: they must answer while every worker is busy) and static files. An
    unmatched path is a cheap 404. Admitting by default means a forgotten declaration costs a 503 under overload,
    never an unbounded queue."""
    if route is None:
        return False
    if isinstance(route, Mount):
        return not isinstance(route.app, StaticFiles)
    return "ops" not in (getattr(route, "tags", None) or [])


class Metrics:
    """The counters behind `/metrics`, in a registry of the app's own (several apps may live in one process)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter("geunkeo_requests", "HTTP requests by method, route template and status.",
                                ["method", "route", "status"], registry=self.registry)
        self.latency = Histogram("geunkeo_request_seconds", "Request latency by route template.", ["route"],
                                 buckets=_BUCKETS, registry=self.registry)
        self.llm_fallbacks = Counter("geunkeo_llm_fallbacks", "Answers served without the LLM, by reason.",
                                     ["reason"], registry=self.registry)
        self.shed_requests = Counter("geunkeo_shed", "Requests refused with 503 because too many were in flight.",
                                     registry=self.registry)
        self.inflight = 0  # admitted requests being worked on, counted by `Shedding` under its lock
        Gauge("geunkeo_inflight", "Admitted requests being worked on.", registry=self.registry).set_function(
            lambda: self.inflight)
        # one thread renders: a scrape never runs on the event loop nor waits behind answering work
        self._renderer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="geunkeo-metrics")

    def observe(self, method: str, route: str, status: int, seconds: float) -> None:
        method = method if method in _METHODS else "other"  # a client may send any token as its method
        self.requests.labels(method, route, str(status)).inc()
        self.latency.labels(route).observe(seconds)

    def fallback(self, reason: str) -> None:
        self.llm_fallbacks.labels(reason).inc()

    def shed(self) -> None:
        self.shed_requests.inc()

    def render(self) -> bytes:
        """Prometheus text exposition format, written by prometheus_client (it escapes label values)."""
        return generate_latest(self.registry)

    async def render_off_loop(self) -> bytes:
        return await asyncio.get_running_loop().run_in_executor(self._renderer, self.render)


class Shedding:
    """503 + Retry-After when `max_inflight` admitted requests are already being worked on (see `admitted`)."""

    def __init__(self, app: ASGIApp, max_inflight: int, metrics: Metrics, routes: Routes,
                 retry_after_s: int = 2) -> None:
        self.app, self.max_inflight, self.metrics, self.retry_after = app, max_inflight, metrics, retry_after_s
        self.routes = routes
        self._lock = threading.Lock()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not admitted(self.routes.of(scope)):
            return await self.app(scope, receive, send)
        with self._lock:
            full = self.metrics.inflight >= self.max_inflight
            if not full:
                self.metrics.inflight += 1
        if full:
            self.metrics.shed()
            return await _reply(send, 503, f"busy: {self.max_inflight} requests in flight; retry shortly",
                                [(b"retry-after", str(self.retry_after).encode())])
        try:
            await self.app(scope, receive, send)
        finally:
            with self._lock:
                self.metrics.inflight -= 1


class Utf8Query:
    """422 for a query string that is not UTF-8 once percent-decoded. Starlette would decode it with replacement
    characters, and the page would search for '\ufffd\ufffd\ufffd' as if it were the question."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("query_string"):
            try:
                unquote_to_bytes(scope["query_string"].replace(b"+", b" ")).decode("utf-8")
            except UnicodeDecodeError:
                return await _reply(send, 422, "the URL's query is not valid UTF-8 text once percent-decoded: "
                                               "send the question as UTF-8, percent-encoded")
        return await self.app(scope, receive, send)


class RequestLog:
    """One JSON log line per request (method, path, status, ms) and the request metrics."""

    def __init__(self, app: ASGIApp, metrics: Metrics, routes: Routes) -> None:
        self.app, self.metrics, self.routes = app, metrics, routes

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
            self.metrics.observe(scope["method"], self.routes.template(scope), status, seconds)
            log.info(json.dumps({"method": scope["method"], "path": scope["path"], "status": status,
                                 "ms": round(seconds * 1000, 1)}))
