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

from geunkeo.errors import ConfigError, GeunkeoError, ReviewConflict
from geunkeo.evaluate.codes import MOST_SEVERE_FIRST
from geunkeo.evaluate.queue_records import ReviewItem
from geunkeo.evaluate.review import DECISIONS, ROOT_CAUSES, ReviewQueue
from geunkeo.server.auth import COOKIE, Principal, current, require_role
from geunkeo.server.runs_routes import run_dir, run_summaries, runs_root
from geunkeo.server.strings import decision_text, flag_text
from geunkeo.server.views import page_lang, render_page

router = APIRouter()
_SEVERITY: dict[str, int] = {lvl: n for n, lvl in enumerate(MOST_SEVERE_FIRST)}


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
                due: str | None = None) -> list[ReviewItem]:
    """Queue items filtered as the page's form asks, most severe first, then the earliest deadline."""
    items = q.items(pending={"pending": True, "reviewed": False}.get(status or ""))
    keep = []
    for it in items:
        if level and it.flag_level != level or reason and reason not in it.reasons:
            continue
        if lang and it.lang != lang or task and it.task != task or stratum and it.stratum != stratum:
            continue
        if due and (it.review_deadline or "") > due:
            continue
        keep.append(it)
    return sorted(keep, key=lambda it: (_SEVERITY.get(it.flag_level, 3), it.review_deadline or "", it.query_id))


@router.get("/review", response_class=HTMLResponse, include_in_schema=False)
def review_home(request: Request, who: Principal = Depends(require_role("reader"))):
    runs = [r for r in run_summaries(runs_root(request)) if r["has_queue"]]
    if len(runs) == 1:
        return RedirectResponse(f"/review/{runs[0]['name']}?lang={page_lang(request)}", status_code=303)
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
    options = {"level": sorted({i.flag_level for i in all_items}, key=lambda x: _SEVERITY.get(x, 3)),
               "reason": sorted({r for i in all_items for r in i.reasons}),
               "qlang": sorted({i.lang for i in all_items if i.lang}),
               "task": sorted({i.task for i in all_items if i.task}),
               "stratum": sorted({i.stratum for i in all_items if i.stratum})}
    chosen = {"level": level, "reason": reason, "qlang": qlang, "task": task, "stratum": stratum,
              "status": status, "due": due}
    lang = page_lang(request)
    labelled = {f: [(v, flag_text(v, lang) if f == "reason" else v) for v in vs] for f, vs in options.items()}
    rows = [{**it.to_dict(), "question": it.payload.case.get("query") or "",
             "reason_words": [flag_text(c, lang) for c in it.reasons]} for it in items]
    return render_page(request, "review_queue.html", page="review", run=run, items=rows, stats=stats,
                       options=labelled, chosen=chosen, who=current(request))


@router.get("/review/{run}/export.jsonl", include_in_schema=False)
def review_export(request: Request, run: str, who: Principal = Depends(require_role("reviewer"))):
    """The reviewed cases as a golden QA set (corrected answers become the reference)."""
    out = Path(tempfile.mkdtemp(prefix="geunkeo-golden-")) / f"{run}-golden.jsonl"
    with _queue(request, run) as q:
        q.export_golden(out)
    return FileResponse(out, media_type="application/jsonl", filename=out.name)


@router.get("/review/{run}/{query_id}", response_class=HTMLResponse, include_in_schema=False)
def review_case(request: Request, run: str, query_id: str, saved: int = 0,
                who: Principal = Depends(require_role("reader"))):
    return _case_page(request, run, query_id, saved=bool(saved))


def _case_page(request: Request, run: str, query_id: str, *, status: int = 200, problem: str | None = None,
               form: dict[str, Any] | None = None, saved: bool = False):
    """The case page; after a refused save (`problem` = unauthorized / forbidden / conflict) the form shows what
    was typed, and after a save a confirmation and the next pending case."""
    with _queue(request, run) as q:
        try:
            item, history = q.get(query_id), q.history(query_id)
        except ConfigError as exc:
            raise HTTPException(404, str(exc)) from exc
        stats, following = q.stats(), next_case(q, query_id)
    record = _case_record(run_dir(request, run), query_id)
    lang = page_lang(request)
    flag = item.flag_level
    page = render_page(request, "review_case.html", page="review", run=run, item=item, history=history,
                       record=record, stats=stats, who=current(request), problem=problem, saved=saved,
                       next_case=following, form=form or {"decision": item.review_decision},
                       chunks=chunk_texts(request, record), reasons=[flag_text(c, lang) for c in item.reasons],
                       decisions={d: decision_text(d, flag, lang) for d in DECISIONS}, root_causes=ROOT_CAUSES)
    page.status_code = status
    return page


def next_case(q: ReviewQueue, query_id: str) -> str | None:
    """The pending case to review after `query_id`, in the queue's order (wrapping round), or None."""
    ids = [it.query_id for it in queue_items(q, status="pending")]
    if query_id in ids:
        at = ids.index(query_id)
        ids = ids[at + 1:] + ids[:at]
    return ids[0] if ids else None


def chunk_texts(request: Request, record: dict[str, Any] | None) -> dict[str, str]:
    """The text of every chunk the case's claims cite as support, read from the served index (a chunk the index
    does not hold is shown by its id only)."""
    ids = {s["chunk_id"] if isinstance(s, dict) else s for c in (record or {}).get("response", {}).get("claims", [])
           for s in (c.get("evaluation", {}).get("faithfulness", {}).get("supporting_chunks") or [])}
    texts = {}
    for cid in sorted(ids):
        try:
            texts[cid] = request.app.state.index.store.get(cid).text
        except (GeunkeoError, KeyError):
            continue
    return texts


def _decide(request: Request, run: str, query_id: str, who: Principal, decision: str, based_on: int | None,
            root_cause: str | None, corrected_answer: str | None, gt_update_needed: bool | None,
            notes: str | None) -> ReviewItem:
    with _queue(request, run) as q:
        try:
            return q.decide(query_id, decision, who.name, root_cause or None, corrected_answer or None,
                            gt_update_needed, notes or None, based_on=based_on)
        except ReviewConflict as exc:
            raise HTTPException(409, str(exc)) from exc
        except ConfigError as exc:
            raise HTTPException(422, str(exc)) from exc


def _form_reviewer(request: Request, key: str) -> tuple[Principal | None, str | None]:
    """(the reviewer saving, None) from the login or a key typed into the form; else (None, the problem)."""
    typed = request.app.state.keys.verify(key) if key else None
    who = typed or current(request)
    if who is None:
        return None, "unauthorized"
    return (who, None) if who.can("reviewer") else (None, "forbidden")


@router.post("/review/{run}/{query_id}", include_in_schema=False)
def review_decide_form(request: Request, run: str, query_id: str, decision: str = Form(""),
                       based_on: int = Form(...), root_cause: str = Form(""), corrected_answer: str = Form(""),
                       gt_update_needed: str = Form(""), notes: str = Form(""), key: str = Form("")):
    """Save a decision from the page. Refused (no reviewer key, or the case changed) the page comes back with
    what was typed and a field for the key; saved, it shows a confirmation and the next case."""
    form = {"decision": decision, "root_cause": root_cause, "corrected_answer": corrected_answer,
            "gt_update_needed": gt_update_needed == "on", "notes": notes}
    who, problem = _form_reviewer(request, key)
    if who is None:
        return _case_page(request, run, query_id, status=401 if problem == "unauthorized" else 403,
                          problem=problem, form=form)
    try:
        _decide(request, run, query_id, who, decision, based_on, root_cause, corrected_answer,
                gt_update_needed == "on", notes)
    except HTTPException as exc:
        if exc.status_code not in (409, 422):
            raise
        return _case_page(request, run, query_id, status=exc.status_code,
                          problem="conflict" if exc.status_code == 409 else str(exc.detail), form=form)
    resp = RedirectResponse(f"/review/{run}/{query_id}?saved=1&lang={page_lang(request)}", status_code=303)
    if key and request.app.state.keys.verify(key):
        resp.set_cookie(COOKIE, key.strip(), httponly=True, samesite="strict", max_age=12 * 3600)
    return resp


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
        return {"items": [i.shown() for i in items], "stats": q.stats().to_dict()}


@router.post("/api/review/{run}/{query_id}", tags=["review"])
def api_decide(request: Request, run: str, query_id: str, body: Decision,
               who: Principal = Depends(require_role("reviewer"))) -> dict:
    """Record a decision (reviewer key); 409 when the case changed since version `based_on`."""
    item = _decide(request, run, query_id, who, body.decision, body.based_on, body.root_cause,
                   body.corrected_answer, body.gt_update_needed, body.notes)
    return item.shown()
