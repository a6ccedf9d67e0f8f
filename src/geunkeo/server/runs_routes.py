"""`/runs`: the evaluation runs under `server.runs_dir` (or `geunkeo serve --runs DIR`), each run's report with the
executive, model-debug and compliance views (the run's own report.html: the same figures, plotly inlined, no
network), and two runs compared (evaluate/report/compare.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import FileResponse, HTMLResponse

from geunkeo.server.auth import Principal, require_role
from geunkeo.server.strings import METRICS, RUNS, flag_text
from geunkeo.server.views import page_lang, render_page

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
    out = []
    for p in sorted(root.iterdir()):
        f = p / "summary.json"
        if not (p.is_dir() and f.is_file()):
            continue
        try:
            s = json.loads(f.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            continue
        ex = s.get("executive", {})
        out.append({"name": p.name, "eval_id": s.get("eval_id"), "timestamp": s.get("timestamp"),
                    "profile": s.get("profile"), "cases": s.get("cases"), "flags": ex.get("flags", {}),
                    "p0_pass_rate": ex.get("p0_pass_rate"), "queued": (s.get("review_queue") or {}).get("queued"),
                    "has_report": (p / "report.html").is_file(), "has_queue": (p / "review.db").is_file()})
    return sorted(out, key=lambda r: r.get("timestamp") or "", reverse=True)


@router.get("/runs", response_class=HTMLResponse, include_in_schema=False)
def runs_page(request: Request, who: Principal = Depends(require_role("reader"))):
    return render_page(request, "runs.html", page="runs", runs=run_summaries(runs_root(request)))


@router.get("/runs/compare", response_class=HTMLResponse, include_in_schema=False)
def compare_page(request: Request, a: str, b: str, who: Principal = Depends(require_role("reader"))):
    from geunkeo.evaluate.report.compare import compare_runs

    lang = page_lang(request)
    return render_page(request, "compare.html", page="runs", cmp=compare_runs(run_dir(request, a), run_dir(request, b)),
                       a=a, b=b, s=RUNS[lang], metric_names={k: v[lang] for k, v in METRICS.items()},
                       flag_words=lambda codes: ", ".join(flag_text(c, lang) for c in codes))


@router.get("/runs/{name}", include_in_schema=False)
def run_report(request: Request, name: str, who: Principal = Depends(require_role("reader"))):
    report = run_dir(request, name) / "report.html"
    if not report.is_file():
        raise HTTPException(404, f"run {name!r} has no report.html (`geunkeo eval report RUN_DIR` writes one)")
    return FileResponse(report, media_type="text/html")


@router.get("/api/runs", tags=["runs"])
def api_runs(request: Request, who: Principal = Depends(require_role("reader"))) -> list[dict]:
    """Every run: cases, flags, P0 pass rate, review queue size."""
    return run_summaries(runs_root(request))


@router.get("/api/runs/compare", tags=["runs"])
def api_compare(request: Request, a: str, b: str, who: Principal = Depends(require_role("reader"))) -> dict:
    """Run b against run a: metric and gate deltas, flag changes per case."""
    from geunkeo.evaluate.report.compare import compare_runs

    return compare_runs(run_dir(request, a), run_dir(request, b))
