"""`/review`: a run's review queue (filters, most severe and most urgent first), a case page with its claims, their
supporting chunks and every metric with its method, and the decision form of seed 003 §3.1.1.

Decisions go through `ReviewQueue.decide` (the same store as `geunkeo review`): appended, with the reviewer taken
from the login, and refused with 409 when the case changed since the page was opened (`based_on` = the case
version the page showed). Writing needs a reviewer key; reading follows `server.read_auth`.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse
from pydantic import BaseModel

from geunkeo.errors import ConfigError, ReviewConflict
from geunkeo.evaluate.review import DECISIONS, ROOT_CAUSES, ReviewQueue
from geunkeo.server.auth import Principal, current, require_role
from geunkeo.server.runs_routes import run_dir, run_summaries, runs_root
from geunkeo.server.views import render_page

router = APIRouter()
_SEVERITY = {"CRITICAL": 0, "WARNING": 1, "PASSED": 2}


def _queue(request: Request, run: str) -> ReviewQueue:
    d = run_dir(request, run)
    if not (d / "review.db").is_file():
        raise HTTPException(404, f"run {run!r} has no review queue")
    return ReviewQueue(d / "review.db")


def _case_record(run: Path, query_id: str) -> dict[str, Any] | None:
    """The run's claim-log record of one case (cases.jsonl), or None."""
    f = run / "cases.jsonl"
    if not f.is_file():
        return None
    with f.open(encoding="utf-8") as fh:
        for line in fh:
            if f'"{query_id}"' in line:
                rec = json.loads(line)
                if rec.get("query_id") == query_id:
                    return rec
    return None


def queue_items(q: ReviewQueue, level: str | None = None, reason: str | None = None, lang: str | None = None,
                task: str | None = None, stratum: str | None = None, status: str | None = None,
                due: str | None = None) -> list[dict[str, Any]]:
    """Queue items filtered as the page's form asks, most severe first, then the earliest deadline."""
    items = q.items(pending={"pending": True, "reviewed": False}.get(status or ""))
    keep = []
    for it in items:
        if level and it["flag_level"] != level or reason and reason not in it["reasons"]:
            continue
        if lang and it["lang"] != lang or task and it["task"] != task or stratum and it["stratum"] != stratum:
            continue
        if due and (it["review_deadline"] or "") > due:
            continue
        keep.append(it)
    return sorted(keep, key=lambda it: (_SEVERITY.get(it["flag_level"], 3), it["review_deadline"] or "",
                                        it["query_id"]))


@router.get("/review", response_class=HTMLResponse, include_in_schema=False)
def review_home(request: Request, who: Principal = Depends(require_role("reader"))):
    runs = [r for r in run_summaries(runs_root(request)) if r["has_queue"]]
    if len(runs) == 1:
        return RedirectResponse(f"/review/{runs[0]['name']}", status_code=303)
    return render_page(request, "runs.html", page="review", runs=runs)


@router.get("/review/{run}", response_class=HTMLResponse, include_in_schema=False)
def review_queue(request: Request, run: str, level: str | None = None, reason: str | None = None,
                 qlang: str | None = None, task: str | None = None, stratum: str | None = None,
                 status: str | None = "pending", due: str | None = None,
                 who: Principal = Depends(require_role("reader"))):
    with _queue(request, run) as q:
        all_items = q.items()
        items = queue_items(q, level, reason, qlang, task, stratum, status, due)
        stats = q.stats()
    options = {"level": sorted({i["flag_level"] for i in all_items}, key=lambda x: _SEVERITY.get(x, 3)),
               "reason": sorted({r for i in all_items for r in i["reasons"]}),
               "qlang": sorted({i["lang"] for i in all_items if i["lang"]}),
               "task": sorted({i["task"] for i in all_items if i["task"]}),
               "stratum": sorted({i["stratum"] for i in all_items if i["stratum"]})}
    chosen = {"level": level, "reason": reason, "qlang": qlang, "task": task, "stratum": stratum,
              "status": status, "due": due}
    return render_page(request, "review_queue.html", page="review", run=run, items=items, stats=stats, options=options,
                 chosen=chosen, who=current(request))


@router.get("/review/{run}/export.jsonl", include_in_schema=False)
def review_export(request: Request, run: str, who: Principal = Depends(require_role("reviewer"))):
    """The reviewed cases as a golden QA set (corrected answers become the reference)."""
    out = Path(tempfile.mkdtemp(prefix="geunkeo-golden-")) / f"{run}-golden.jsonl"
    with _queue(request, run) as q:
        q.export_golden(out)
    return FileResponse(out, media_type="application/jsonl", filename=out.name)


@router.get("/review/{run}/{query_id}", response_class=HTMLResponse, include_in_schema=False)
def review_case(request: Request, run: str, query_id: str, conflict: str | None = None,
                who: Principal = Depends(require_role("reader"))):
    with _queue(request, run) as q:
        try:
            item, history = q.get(query_id), q.history(query_id)
        except ConfigError as exc:
            raise HTTPException(404, str(exc)) from exc
        stats = q.stats()
    record = _case_record(run_dir(request, run), query_id)
    return render_page(request, "review_case.html", page="review", run=run, item=item, history=history, record=record,
                 stats=stats, decisions=DECISIONS, root_causes=ROOT_CAUSES, who=current(request), conflict=conflict)


def _decide(request: Request, run: str, query_id: str, who: Principal, decision: str, based_on: int | None,
            root_cause: str | None, corrected_answer: str | None, gt_update_needed: bool | None,
            notes: str | None) -> dict[str, Any]:
    with _queue(request, run) as q:
        try:
            return q.decide(query_id, decision, who.name, root_cause or None, corrected_answer or None,
                            gt_update_needed, notes or None, based_on=based_on)
        except ReviewConflict as exc:
            raise HTTPException(409, str(exc)) from exc
        except ConfigError as exc:
            raise HTTPException(422, str(exc)) from exc


@router.post("/review/{run}/{query_id}", include_in_schema=False)
def review_decide_form(request: Request, run: str, query_id: str, decision: str = Form(...),
                       based_on: int = Form(...), root_cause: str = Form(""), corrected_answer: str = Form(""),
                       gt_update_needed: str = Form(""), notes: str = Form(""),
                       who: Principal = Depends(require_role("reviewer"))):
    try:
        _decide(request, run, query_id, who, decision, based_on, root_cause, corrected_answer,
                gt_update_needed == "on", notes)
    except HTTPException as exc:
        if exc.status_code != 409:
            raise
        page = review_case(request, run, query_id, conflict=exc.detail, who=who)
        page.status_code = 409
        return page
    return RedirectResponse(f"/review/{run}/{query_id}?lang={request.query_params.get('lang', 'ko')}",
                            status_code=303)


class Decision(BaseModel):
    decision: str
    based_on: int
    root_cause: str | None = None
    corrected_answer: str | None = None
    gt_update_needed: bool | None = None
    notes: str | None = None


@router.get("/api/review/{run}", tags=["review"])
def api_queue(request: Request, run: str, level: str | None = None, reason: str | None = None,
              status: str | None = None, who: Principal = Depends(require_role("reader"))) -> dict:
    """The queue of a run (filtered) and its agreement statistics."""
    with _queue(request, run) as q:
        items = queue_items(q, level, reason, status=status)
        return {"items": [{k: v for k, v in i.items() if k != "payload"} for i in items], "stats": q.stats()}


@router.post("/api/review/{run}/{query_id}", tags=["review"])
def api_decide(request: Request, run: str, query_id: str, body: Decision,
               who: Principal = Depends(require_role("reviewer"))) -> dict:
    """Record a decision (reviewer key); 409 when the case changed since version `based_on`."""
    item = _decide(request, run, query_id, who, body.decision, body.based_on, body.root_cause,
                   body.corrected_answer, body.gt_update_needed, body.notes)
    return {k: v for k, v in item.items() if k != "payload"}
