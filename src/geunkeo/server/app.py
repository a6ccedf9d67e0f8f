"""HTTP front end (FastAPI): the ask page, the JSON API under /api/, health, readiness and metrics.

    geunkeo serve --index DIR [--runs RUNS_DIR] [--host 127.0.0.1 --port 8000]

No answer logic lives here: requests are checked (body size, query length, load) before any work, then the index
is searched or asked through the same Python API as the CLI, and the result is returned as JSON or rendered.
- `/` the ask page (server-rendered, works without JavaScript), `/docs` the API described from the OpenAPI
  schema with local assets only (FastAPI's default Swagger page loads from a CDN);
- `POST /api/search`, `POST /api/ask` (within `server.ask_deadline_s`, then the extractive answer),
  `GET /api/ask/stream` (server-sent events); `/search` and `/ask` stay as aliases;
- `/health` and `/ready` are async and do no blocking work, so they answer while every worker is busy;
  `/metrics` is Prometheus text.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from fastapi import Depends, FastAPI, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, Field

from geunkeo.config import Settings
from geunkeo.errors import ConfigError, GeunkeoError, QueryError
from geunkeo.server.answering import Answering
from geunkeo.server.auth import require_role
from geunkeo.server.guards import BodyLimit, Metrics, RequestLog, Routes, Shedding, Utf8Query
from geunkeo.server.pages import ask_context, include_pages
from geunkeo.server.views import render_page

HERE = Path(__file__).parent
log = logging.getLogger("geunkeo.server")


def logged(ans):
    """`ans`, after writing what the answerer wrote and the checks rejected to the server log: the only place it
    is kept (answer/public.py; never in the page or the API)."""
    from geunkeo.answer.public import rejected_texts

    if rejected := rejected_texts(ans):
        log.info(json.dumps({"event": "answer_rejected_text", "query": ans.query, "answerer": ans.answerer,
                             "gate": ans.gate.action if ans.gate else None, "texts": rejected},
                            ensure_ascii=False))
    return ans


class SearchRequest(BaseModel):
    query: str = Field(description="The question, Korean or English")
    k: int = Field(10, ge=1, le=100)
    mode: Literal["bm25", "dense", "hybrid"] | None = None


class SummarizeRequest(BaseModel):
    doc: str | None = Field(None, description="A document's doc_id or title")
    articles: str | None = Field(None, description="An article range of the document, e.g. 제7조-제9조")
    query: str | None = Field(None, description="Summarise the top chunks of this query instead")
    k: int = Field(5, ge=1, le=20)


class AskRequest(BaseModel):
    query: str = Field(description="The question, Korean or English")
    k: int = Field(5, ge=1, le=20)


@functools.cache
def page_templates() -> Jinja2Templates:
    """The page templates, one set for every app of the process, the ask page's compiled now: it renders answers
    under a deadline, and 4 first renders at once each compiled it."""
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.get_template("ask.html")
    return templates


def create_app(index_dir: str | Path, settings: Settings | None = None, runs_dir: str | Path | None = None) -> FastAPI:
    """An app serving one index (opened once, shared by all requests)."""
    import geunkeo

    settings = settings or Settings()
    index = geunkeo.open_index(index_dir, settings)
    metrics = Metrics()
    answering = Answering(index, settings, on_fallback=metrics.fallback)
    app = FastAPI(title="geunkeo", version=geunkeo.__version__, docs_url=None, redoc_url=None,
                  description="Grounded answers from Korean and English regulations, notices and policy terms.")
    app.state.settings, app.state.index, app.state.metrics = settings, index, metrics
    runs = runs_dir or settings.server.runs_dir
    app.state.runs_dir = Path(runs) if runs else None
    app.state.templates = page_templates()
    from geunkeo.server.auth import KeyStore, db_path

    app.state.keys = KeyStore(db_path(settings))
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    max_chars = settings.server.max_query_chars

    def checked(query: str) -> str:
        """The query, or 422 naming the limit, before any work."""
        if len(query) > max_chars:
            raise HTTPException(422, f"query too long: {len(query)} characters > {max_chars} "
                                     "(server.max_query_chars)")
        return query

    add_ops_routes(app, answering)
    add_api_routes(app, answering, checked)
    add_page_routes(app, answering, checked)
    include_pages(app)  # review, runs, login (server/review_routes.py, …), the home page, HTML error pages
    add_middleware(app)
    return app


def user_error(exc: GeunkeoError) -> HTTPException:
    return HTTPException(422 if isinstance(exc, QueryError) else 500, str(exc))


def add_ops_routes(app: FastAPI, answering: Answering) -> None:
    """`/health`, `/ready` and `/metrics`."""
    index, settings, metrics = app.state.index, app.state.settings, app.state.metrics

    @app.get("/health", tags=["ops"])
    async def health() -> dict:
        """Liveness and what is served (async: answers while every worker is busy)."""
        m = index.manifest
        return {"status": "ok", "documents": m.documents, "chunks": m.chunks, "embedder": m.embedder_version,
                "llm": settings.llm.provider, "llm_breaker": answering.breaker.state, "inflight": metrics.inflight}

    @app.get("/ready", tags=["ops"])
    async def ready() -> dict:
        """Ready to answer: the index is open (it is opened before the app starts serving)."""
        return {"ready": True, "llm_breaker": answering.breaker.state}

    @app.get("/metrics", tags=["ops"], response_class=PlainTextResponse)
    async def prometheus() -> Response:
        """Requests, latency, LLM fallbacks and shed requests in Prometheus text format."""
        from prometheus_client import CONTENT_TYPE_LATEST

        return Response(await metrics.render_off_loop(), media_type=CONTENT_TYPE_LATEST)


def add_api_routes(app: FastAPI, answering: Answering, checked: Callable[[str], str]) -> None:
    """The JSON API under /api/, with `/search` and `/ask` as aliases."""
    index = app.state.index
    reader = [Depends(require_role("reader"))]  # open unless server.read_auth

    @app.post("/api/search", tags=["api"], dependencies=reader)
    def api_search(req: SearchRequest) -> dict:
        """Hybrid search: the query plan, the ranked chunks and the trace."""
        try:
            return index.search(checked(req.query), k=req.k, mode=req.mode).to_dict()
        except GeunkeoError as exc:
            raise user_error(exc) from exc

    @app.post("/api/ask", tags=["api"], dependencies=reader)
    def api_ask(req: AskRequest) -> dict:
        """A cited answer with the serving gate's decision, within `server.ask_deadline_s`."""
        try:
            return logged(answering.ask(checked(req.query), req.k)).public_dict()
        except GeunkeoError as exc:
            raise user_error(exc) from exc

    @app.get("/api/ask/stream", tags=["api"], dependencies=reader)
    def api_ask_stream(q: str = Query(..., description="The question"), k: int = Query(5, ge=1, le=20)):
        """Server-sent events: `status` while working, then `answer` (the JSON of /api/ask) and `done`."""
        query = checked(q)

        def events():
            yield "event: status\ndata: {\"stage\": \"searching\"}\n\n"
            try:
                payload = logged(answering.ask(query, k)).public_dict()
            except GeunkeoError as exc:
                yield f"event: error\ndata: {json.dumps({'detail': str(exc)}, ensure_ascii=False)}\n\n"
                return
            yield f"event: answer\ndata: {json.dumps(payload, ensure_ascii=False, default=str)}\n\n"
            yield "event: done\ndata: {}\n\n"

        return StreamingResponse(events(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache"})

    @app.post("/api/summarize", tags=["api"], dependencies=reader)
    def api_summarize(req: SummarizeRequest) -> dict:
        """A cited summary (extractive, or the configured LLM's) that keeps every proviso of its sources."""
        from geunkeo.answer.summarize import summarize

        try:
            llm = index.llm() if answering.uses_llm and answering.breaker.allow() else None
            return summarize(index, doc=req.doc, articles=req.articles,
                             query=checked(req.query) if req.query else None, k=req.k, llm=llm).to_dict()
        except GeunkeoError as exc:
            raise HTTPException(422 if isinstance(exc, QueryError | ConfigError) else 500, str(exc)) from exc

    app.post("/search", tags=["api"], include_in_schema=False, dependencies=reader)(api_search)
    app.post("/ask", tags=["api"], include_in_schema=False, dependencies=reader)(api_ask)


def add_page_routes(app: FastAPI, answering: Answering, checked: Callable[[str], str]) -> None:
    """The ask page `/` and the API page `/docs` (the other pages: `include_pages`)."""
    max_chars = app.state.settings.server.max_query_chars
    reader = [Depends(require_role("reader"))]  # open unless server.read_auth

    @app.get("/", response_class=HTMLResponse, include_in_schema=False, dependencies=reader)
    def ask_page(request: Request, q: str | None = None, k: int = 5):
        """The ask page; with `?q=` the answer is rendered on the server (no JavaScript needed)."""
        ctx, status = ask_context(request, answering, q, k, checked, logged)
        page = render_page(request, "ask.html", max_chars=max_chars, **ctx)
        page.status_code = status
        return page

    @app.get("/docs", response_class=HTMLResponse, include_in_schema=False)
    def api_docs(request: Request):
        """The API's endpoints and request bodies, read from the OpenAPI schema (no CDN assets)."""
        return render_page(request, "docs.html", page="docs", schema=app.openapi())


def add_middleware(app: FastAPI) -> None:
    """The request guards, added after every route (`Routes` reads them), and CORS when configured."""
    settings, metrics = app.state.settings, app.state.metrics
    # outermost first: every request is logged and counted by its route, oversized bodies and query strings that
    # are not UTF-8 are refused before being read, and admitted routes beyond the in-flight limit are shed
    routes = Routes(app.router.routes)
    app.add_middleware(Shedding, max_inflight=settings.server.max_inflight, metrics=metrics, routes=routes)
    app.add_middleware(Utf8Query)
    app.add_middleware(BodyLimit, max_bytes=settings.server.max_body_bytes)
    app.add_middleware(RequestLog, metrics=metrics, routes=routes)
    if settings.server.cors_origins:
        from fastapi.middleware.cors import CORSMiddleware

        app.add_middleware(CORSMiddleware, allow_origins=settings.server.cors_origins,
                           allow_methods=["GET", "POST"], allow_headers=["Authorization", "Content-Type"])
