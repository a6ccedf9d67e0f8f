"""`geunkeo search|ask --server URL` (or `GEUNKEO_SERVER`): ask a running `geunkeo serve` instead of loading the
index, Kiwi and the embedder in this process — a few hundred milliseconds instead of seconds.

The server's JSON API: `POST /api/search {"query", "k", "mode"}` returns `SearchResult.to_dict()`,
`POST /api/ask {"query", "k"}` returns `Answer.to_dict()`; `GEUNKEO_API_KEY` is sent as a bearer token when set.
An unreachable server is an error, never a silent fall-back to in-process search (that would hide a down server
and cost seconds the user did not expect).
"""

from __future__ import annotations

import os
from typing import Any

from geunkeo.cli.common import ServiceFailure
from geunkeo.errors import GeunkeoError

SERVER_ENV = "GEUNKEO_SERVER"
API_KEY_ENV = "GEUNKEO_API_KEY"


class ServerError(GeunkeoError):
    """The configured server could not be reached or refused the request."""


class ServerFailure(ServiceFailure):
    """The server failed on a valid request (HTTP 5xx): not the user's fault."""


def server_url(option: str | None) -> str | None:
    """The server to use: `--server`, else `$GEUNKEO_SERVER`, else None (search in this process)."""
    url = (option or os.environ.get(SERVER_ENV) or "").strip()
    if not url:
        return None
    if not url.startswith(("http://", "https://")):
        source = "--server" if option else SERVER_ENV
        raise ServerError(f"{source} must be an http(s) URL such as http://127.0.0.1:8000, not {url!r}")
    return url.rstrip("/")


def post(server: str, path: str, payload: dict[str, Any], timeout: float) -> dict[str, Any]:
    """POST JSON to the server and return its JSON reply; every failure is one clear message."""
    import httpx

    headers = {"Accept": "application/json"}
    if key := os.environ.get(API_KEY_ENV):
        headers["Authorization"] = f"Bearer {key}"
    hint = (f"start it with `geunkeo serve --index DIR`, or drop --server (and unset {SERVER_ENV}) to search in "
            "this process")
    try:
        resp = httpx.post(server + path, json=payload, headers=headers, timeout=timeout)
    except httpx.TimeoutException:
        raise ServerError(f"the geunkeo server at {server} did not answer within {timeout:g}s; {hint}") from None
    except httpx.HTTPError as exc:
        reason = type(exc).__name__ if not str(exc) else str(exc)
        raise ServerError(f"cannot reach the geunkeo server at {server} ({reason}); {hint}") from None
    if resp.status_code == 404:
        raise ServerError(f"{server}{path} does not exist (HTTP 404): is {server} a `geunkeo serve` with the JSON "
                          f"API?")
    if resp.status_code in (401, 403):
        raise ServerError(f"the server at {server} refused the request (HTTP {resp.status_code}: "
                          f"{_detail(resp)}); set {API_KEY_ENV} to a key it accepts")
    if 400 <= resp.status_code < 500:
        raise ServerError(f"the server rejected the request (HTTP {resp.status_code}): {_detail(resp)}")
    if resp.status_code >= 500:
        raise ServerFailure(f"the server at {server} failed (HTTP {resp.status_code}): {_detail(resp)}")
    try:
        data = resp.json()
    except ValueError:
        raise ServerFailure(f"the server at {server} sent a reply that is not JSON") from None
    if not isinstance(data, dict):
        raise ServerFailure(f"the server at {server} sent {type(data).__name__} instead of a JSON object")
    return data


def _detail(resp) -> str:
    """The server's error message: FastAPI's `detail` (a string or validation errors), else the body's start."""
    try:
        body = resp.json()
    except ValueError:
        return resp.text.strip()[:200] or resp.reason_phrase
    detail = body.get("detail", body.get("error", body)) if isinstance(body, dict) else body
    if isinstance(detail, list):  # FastAPI validation errors
        return "; ".join(f"{'.'.join(map(str, e.get('loc', [])))}: {e.get('msg')}" if isinstance(e, dict) else str(e)
                         for e in detail)
    if isinstance(detail, dict):
        return str(detail.get("message", detail))
    return str(detail)
