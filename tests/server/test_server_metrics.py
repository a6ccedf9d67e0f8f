"""`/metrics` from prometheus_client: labels are route templates, so the series stay bounded and a path cannot
write a line of its own."""

from __future__ import annotations

import asyncio
import threading

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from geunkeo.server.app import create_app

pytestmark = pytest.mark.slow


def _run(coro):
    """Run `coro` in a thread of its own (the browser tests' Playwright keeps an event loop in this one)."""
    out: dict = {}
    t = threading.Thread(target=lambda: out.update(value=asyncio.run(coro)))
    t.start()
    t.join()
    return out["value"]


async def _get_all(app, paths: list[str]) -> httpx.Response:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://test") as c:
        for p in paths:
            await c.get(p)
        return await c.get("/metrics")


def _distinct_paths(n: int) -> list[str]:
    """`n` paths no earlier request used: a third unmatched, a third under /runs/{name}, a third static files."""
    return [f"/nope/{i}" if i % 3 == 0 else f"/runs/r{i}" if i % 3 == 1 else f"/static/{i}.css" for i in range(n)]


def _series(text: str) -> list[str]:
    """The exposition's lines without their values: what grows when a label value is new."""
    return [line.rsplit(" ", 1)[0] for line in text.splitlines()]


def test_ten_times_more_distinct_paths_add_no_series_only_larger_counts(server_index):
    """The bound is structural: labels are route templates, so 600 distinct paths give the same lines as 60,
    with larger numbers; so do 20,000 (which this test once sent, 45 s of its run)."""
    few = _run(_get_all(create_app(server_index), _distinct_paths(60)))
    r = _run(_get_all(create_app(server_index), _distinct_paths(600)))
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    assert _series(r.text) == _series(few.text)
    routes = {s.labels["route"] for f in text_string_to_metric_families(r.text) for s in f.samples
              if "route" in s.labels}
    assert routes == {"unmatched", "/runs/{name}", "/static"}
    total = {s.labels["route"]: s.value for f in text_string_to_metric_families(r.text) for s in f.samples
             if s.name == "geunkeo_requests_total"}
    assert sum(total.values()) == 600 and len(r.content) < 10_000, len(r.content)


def test_a_path_cannot_inject_a_metric_line(server_index):
    app = create_app(server_index)
    forged = ["/x%0Ageunkeo_forged_total%201", '/runs/a"}%20999%0Ageunkeo_forged_total%201',
              "/api/review/%22%5C%0A/x", "/%0D%0A%23%20TYPE%20geunkeo_forged_total%20counter"]
    r = _run(_get_all(app, forged))
    assert "forged" not in r.text
    names = {f.name for f in text_string_to_metric_families(r.text)}
    assert names <= {"geunkeo_requests", "geunkeo_requests_created", "geunkeo_request_seconds",
                     "geunkeo_request_seconds_created", "geunkeo_llm_fallbacks", "geunkeo_shed",
                     "geunkeo_shed_created", "geunkeo_inflight"}, names


def test_an_unknown_method_is_one_label():
    from geunkeo.server.guards import Metrics

    m = Metrics()
    for method in ("BREW", "PROPFIND", "GET"):
        m.observe(method, "/", 405, 0.01)
    text = m.render().decode()
    assert 'method="other"' in text and "BREW" not in text and 'method="GET"' in text
