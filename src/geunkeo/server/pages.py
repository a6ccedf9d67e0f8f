"""What the page routes share: the ask page's context, and HTML error pages.

An error on a page (not under /api/, and not asked for as JSON) is a page in the interface's language with what
to do next — a login link on 401/403 — instead of FastAPI's raw JSON; the API keeps its JSON errors.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.exception_handlers import http_exception_handler
from starlette.exceptions import HTTPException as StarletteHTTPException

from geunkeo.errors import GeunkeoError, QueryError
from geunkeo.server.views import answer_view, found_view, page_lang, plan_view, render_page


def ask_context(request: Request, answering, query: str | None, k: int, checked, logged) -> tuple[dict, int]:
    """The ask page's template context and status: the home page's documents and examples without a question,
    else the answer, "how this was found" and the raw trace."""
    lang = page_lang(request)
    ctx: dict[str, Any] = {"page": "ask", "query": query, "answer": None, "plan": None, "found": None,
                           "error": None}
    if not (query and query.strip()):
        home = request.app.state.home
        return {**ctx, "documents": home.documents(), "examples": home.examples(lang)}, 200
    try:
        ans = logged(answering.ask(checked(query), max(1, min(k, 20))))
    except HTTPException as exc:
        return {**ctx, "error": exc.detail}, exc.status_code
    except GeunkeoError as exc:
        # a refused question is the page's 422, as the API's; the page still shows what to change
        return {**ctx, "error": str(exc)}, 422 if isinstance(exc, QueryError) else 200
    total = request.app.state.index.manifest.documents
    return {**ctx, "answer": answer_view(ans, lang), "plan": plan_view(ans.public_dict()["trace"]),
            "found": found_view(ans, lang, total)}, 200


def wants_html(request: Request) -> bool:
    path = request.url.path
    if path.startswith("/api/") or path in ("/search", "/ask", "/metrics", "/health", "/ready"):
        return False
    return "text/html" in request.headers.get("accept", "") or request.method == "POST"


async def _error_page(request: Request, exc: StarletteHTTPException):
    if not wants_html(request):
        return await http_exception_handler(request, exc)
    page = render_page(request, "error.html", page="error", status=exc.status_code, detail=exc.detail,
                       next=request.url.path)
    page.status_code = exc.status_code
    for name, value in (exc.headers or {}).items():
        page.headers[name] = value
    return page


def install_error_pages(app: FastAPI) -> None:
    app.add_exception_handler(StarletteHTTPException, _error_page)  # type: ignore[arg-type]


def include_pages(app: FastAPI) -> None:
    """The page routers (runs, review, login), the home page's content and the HTML error pages."""
    import importlib

    from geunkeo.server.home import Home

    app.state.home = Home(app.state.index, app.state.settings.server.example_questions)
    for module in ("geunkeo.server.runs_routes", "geunkeo.server.review_routes", "geunkeo.server.auth"):
        app.include_router(importlib.import_module(module).router)
    install_error_pages(app)
