"""`/runs`: the evaluation runs under `server.runs_dir` (or `geunkeo serve --runs DIR`), each run's report with the
executive, model-debug and compliance views rendered live from the run's records and its review store (the same
figures as the run's report.html; plotly.js from one cached URL, no network), and two runs compared
(evaluate/report/compare.py)."""

from __future__ import annotations

import gzip
import json
import threading
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse, Response

from geunkeo.server.auth import Principal, require_role
from geunkeo.server.strings import METRICS, RUNS, flag_text
from geunkeo.server.views import page_lang, render_page

if TYPE_CHECKING:
    from geunkeo.evaluate.queue_records import ReviewItem
    from geunkeo.evaluate.records import CaseRecord
    from geunkeo.evaluate.summary_records import SummaryRecord

router = APIRouter()


def runs_root(request: Request) -> Path:
    root = request.app.state.runs_dir
    if root is None or not Path(root).is_dir():
        raise HTTPException(404, "no runs folder: start the server with `geunkeo serve --runs DIR` "
                                 "(DIR holds `geunkeo eval --out` run folders)")
    return Path(root)


def run_dir(request: Request, name: str) -> Path:
    """A run folder by name; only direct sub-folders of the runs folder (no path tricks)."""
    root = runs_root(request)
    found = {p.name: p for p in root.iterdir() if p.is_dir()}
    if name not in found:
        raise HTTPException(404, f"no run {name!r} under the runs folder")
    return found[name]


def run_summaries(root: Path) -> list[dict[str, Any]]:
    """One row per run folder with a summary.json, newest first: what the runs page lists."""
    from geunkeo.evaluate.summary_records import SummaryRecord

    out = []
    for p in sorted(root.iterdir()):
        f = p / "summary.json"
        if not (p.is_dir() and f.is_file()):
            continue
        try:
            s = SummaryRecord.from_dict(json.loads(f.read_text(encoding="utf-8")))
        except (OSError, json.JSONDecodeError):
            continue
        out.append({"name": p.name, "eval_id": s.eval_id, "timestamp": s.timestamp, "profile": s.profile,
                    "cases": s.cases, "flags": s.executive.flags, "p0_pass_rate": s.executive.p0_pass_rate,
                    "queued": s.review_queue.queued if s.review_queue else None, "has_report": (p / "cases.jsonl").is_file(),
                    "has_queue": (p / "review.db").is_file()})
    return sorted(out, key=lambda r: r.get("timestamp") or "", reverse=True)


@router.get("/runs", response_class=HTMLResponse, include_in_schema=False)
def runs_page(request: Request, who: Principal = Depends(require_role("reader"))):
    return render_page(request, "runs.html", page="runs", runs=run_summaries(runs_root(request)))


@router.get("/runs/compare", response_class=HTMLResponse, include_in_schema=False)
def compare_page(request: Request, a: str, b: str, who: Principal = Depends(require_role("reader"))):
    lang = page_lang(request)
    return render_page(request, "compare.html", page="runs", cmp=compared(request, a, b),
                       a=a, b=b, metric_names={k: v[lang] for k, v in METRICS.items()},
                       flag_words=lambda codes: ", ".join(flag_text(c, lang) for c in codes))


@router.get("/runs/assets/plotly-{version}.js", include_in_schema=False)
def plotly_asset(request: Request, version: str) -> Response:
    """plotly.js for the live reports, from the installed plotly package: one download, then the browser's cache
    (the URL names the version, so it never changes under that name); gzipped when the browser accepts it."""
    current, plain, packed = plotly_bundle()
    if version != current:
        raise HTTPException(404, f"plotly.js here is version {current}")
    gz = "gzip" in request.headers.get("accept-encoding", "")
    headers = {"Cache-Control": "public, max-age=31536000, immutable", "Vary": "Accept-Encoding",
               **({"Content-Encoding": "gzip"} if gz else {})}
    return Response(packed if gz else plain, media_type="text/javascript", headers=headers)


@lru_cache(maxsize=1)
def plotly_bundle() -> tuple[str, bytes, bytes]:
    """(version, plotly.js, plotly.js gzipped), made once per process."""
    import plotly
    from plotly.offline import get_plotlyjs

    js = get_plotlyjs().encode("utf-8")
    return plotly.__version__, js, gzip.compress(js, 6)


@router.get("/runs/{name}", response_class=HTMLResponse, include_in_schema=False)
def run_report(request: Request, name: str, who: Principal = Depends(require_role("reader"))):
    """The run's report rendered now from its records and its review store, so a decision saved a moment ago shows
    at once (a snapshot file would need someone to remember to refresh it). Each rendering is kept until the run's
    files or its review items change; plotly.js comes from a cached URL instead of 4 MB inlined in every page."""
    return HTMLResponse(live_report(request.app, run_dir(request, name), page_lang(request)))


def live_report(app: Any, d: Path, lang: str) -> str:
    """The report's HTML in the page's language `lang`, its links back keeping it."""
    from geunkeo.evaluate.report.html import render_report, with_reviews
    from geunkeo.evaluate.review import ReviewQueue

    summary, records = _load(d)
    items: list[ReviewItem] = []
    if (d / "review.db").is_file():
        with ReviewQueue(d / "review.db") as q:
            summary, items = with_reviews(summary, q)
    key = (d.name, lang, _stamp(d), json.dumps([i.to_dict() for i in items], sort_keys=True, default=str))
    with _LOCK:
        cache: dict[tuple, str] = getattr(app.state, "report_cache", None) or {}
        app.state.report_cache = cache
        if key in cache:
            return cache[key]
    words = RUNS[lang]
    note = words["report_live"].format(time=f"{datetime.now().astimezone():%Y-%m-%d %H:%M:%S %Z}")
    links = [(f"/runs?lang={lang}", words["report_runs"]), (f"/?lang={lang}", words["report_app"])]
    html = render_report(summary, records, items, plotly_src=f"/runs/assets/plotly-{plotly_bundle()[0]}.js",
                         links=links, note=note, icon="/static/favicon.svg", lang=lang)
    with _LOCK:
        while len(cache) >= 8:
            cache.pop(next(iter(cache)))
        cache[key] = html
    return html


def _stamp(d: Path) -> tuple[tuple[int, int], ...]:
    return tuple((f.stat().st_mtime_ns, f.stat().st_size) for f in (d / "summary.json", d / "cases.jsonl"))


_RUNS: dict[tuple[str, tuple], tuple[SummaryRecord, list[CaseRecord]]] = {}
_LOCK = threading.Lock()  # the two caches are shared by the worker threads


def _load(d: Path) -> tuple[SummaryRecord, list[CaseRecord]]:
    """summary.json and cases.jsonl of a run, parsed again only when either file changed."""
    from geunkeo.evaluate.runner import load_run

    try:
        key = (str(d), _stamp(d))
    except OSError as exc:
        raise HTTPException(404, f"run {d.name!r} has no summary.json / cases.jsonl "
                                 "(`geunkeo eval --out` writes them)") from exc
    with _LOCK:
        if key in _RUNS:
            return _RUNS[key]
    run = load_run(d)
    with _LOCK:
        while len(_RUNS) >= 8:
            _RUNS.pop(next(iter(_RUNS)))
        _RUNS[key] = run
    return run


@router.get("/api/runs", tags=["runs"])
def api_runs(request: Request, who: Principal = Depends(require_role("reader"))) -> list[dict]:
    """Every run: cases, flags, P0 pass rate, review queue size."""
    return run_summaries(runs_root(request))


@router.get("/api/runs/compare", tags=["runs"])
def api_compare(request: Request, a: str, b: str, who: Principal = Depends(require_role("reader"))) -> dict:
    """Run b against run a: metric and gate deltas, flag changes per case."""
    return compared(request, a, b)


def compared(request: Request, a: str, b: str) -> dict[str, Any]:
    """Run b against run a; a run that is not a finished evaluation is a 404 naming the run, not its path."""
    from geunkeo.evaluate.report.compare import compare_runs

    da, db = run_dir(request, a), run_dir(request, b)
    for name, d in ((a, da), (b, db)):
        if not ((d / "summary.json").is_file() and (d / "cases.jsonl").is_file()):
            raise HTTPException(404, f"run {name!r} has no summary.json / cases.jsonl (`geunkeo eval --out` writes them)")
    return compare_runs(da, db)
