"""`geunkeo review list|show|assign|decide|export|stats` over an evaluation run's review queue."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from geunkeo.errors import GeunkeoError
from geunkeo.evaluate.codes import FlagLevel

console = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)
_COLORS = {FlagLevel.CRITICAL: "red", FlagLevel.WARNING: "yellow", FlagLevel.PASSED: "green"}
DB_HELP = "Run directory (its review.db) or a review .db file"


def _open(db: Path):
    from geunkeo.evaluate.review import ReviewQueue

    if not db.exists():
        err.print(f"[red]error:[/red] {db} not found; run `geunkeo eval --out RUN_DIR` first")
        raise typer.Exit(2)
    return ReviewQueue(db)


def _fail(exc: GeunkeoError) -> None:
    err.print(f"[red]error:[/red] {exc}")
    raise typer.Exit(2)  # a user error, as in every command (cli/common.py)


def list_items(db: Path = typer.Option(..., "--db", help=DB_HELP),
               show_all: bool = typer.Option(False, "--all", help="Include reviewed items"),
               level: str = typer.Option(None, "--level", help="CRITICAL | WARNING | PASSED"),
               as_json: bool = typer.Option(False, "--json")) -> None:
    """Queued items by priority (pending only unless --all)."""
    with _open(db) as q:
        items = q.items(pending=None if show_all else True, level=level)
    if as_json:
        typer.echo(json.dumps([i.shown() for i in items], ensure_ascii=False, indent=2))
        return
    t = Table("query", "flag", "queue", "prio", "stratum", "due", "decision", "reasons")
    for col in t.columns[:7]:
        col.no_wrap = True
    t.columns[7].min_width, t.columns[7].overflow = 28, "fold"
    for i in items:
        c = _COLORS.get(i.flag_level, "white")
        t.add_row(i.query_id, f"[{c}]{i.flag_level}[/{c}]", i.queue_type.split("_")[0].lower(), str(i.priority),
                  i.stratum or "", (i.review_deadline or "")[:10], i.review_decision or "pending", " ".join(i.reasons))
    console.print(t)
    console.print(f"{len(items)} item(s); `geunkeo review show QUERY_ID --db {db}` for one")


def show(query_id: str = typer.Argument(...), db: Path = typer.Option(..., "--db", help=DB_HELP),
         as_json: bool = typer.Option(False, "--json")) -> None:
    """One item: the question, the answer, the reference, why it was flagged, and any review."""
    with _open(db) as q:
        try:
            item = q.get(query_id)
        except GeunkeoError as exc:
            _fail(exc)
    if as_json:
        typer.echo(json.dumps(item.to_dict(), ensure_ascii=False, indent=2))
        return
    case, p = item.payload.case, item.payload  # the case: the QA dataset's fields as given
    c = _COLORS.get(item.flag_level, "white")
    console.print(f"[bold]{query_id}[/bold] [{c}]{item.flag_level}[/{c}] {item.queue_type} "
                  f"(priority {item.priority}, due {item.review_deadline})")
    console.print(f"[bold]question[/bold]  {case.get('query', '')}")
    console.print(f"[bold]answer[/bold]    {p.answer or '(no answer)'}")
    console.print(f"[bold]reference[/bold] {case.get('reference_answer') or '—'}")
    console.print(f"[bold]reasons[/bold]   {', '.join(item.reasons) or '—'}")
    for note in p.notes:
        console.print(f"  note: {note}")
    for claim in p.unsupported_claims:
        console.print(f"  [red]unsupported[/red] {claim.claim_id}: {claim.text} ({claim.why})")
    if item.completed:
        console.print(f"[bold]review[/bold]    {item.review_decision} by {item.reviewer_id} · root cause "
                      f"{item.failure_root_cause or '—'} · gt update {item.gt_update_needed} · {item.notes or ''}")
        if item.corrected_answer:
            console.print(f"  corrected answer: {item.corrected_answer}")


def assign(query_id: str = typer.Argument(...), db: Path = typer.Option(..., "--db", help=DB_HELP),
           reviewer: str = typer.Option(..., "--reviewer", help="Reviewer id")) -> None:
    """Assign a queued item to a reviewer."""
    with _open(db) as q:
        try:
            item = q.assign(query_id, reviewer)
        except GeunkeoError as exc:
            _fail(exc)
    console.print(f"{query_id}: assigned to {item.assigned_reviewer} (due {item.review_deadline})")


def decide(query_id: str = typer.Argument(...), db: Path = typer.Option(..., "--db", help=DB_HELP),
           decision: str = typer.Option(..., "--decision", help="agree | disagree | partial (with the "
                                                                "automatic flag)"),
           reviewer: str = typer.Option(..., "--reviewer", help="Reviewer id"),
           root_cause: str = typer.Option(None, "--root-cause", help="retrieval | generation | gt | doc_version"),
           corrected_answer: str = typer.Option(None, "--corrected-answer", help="Corrected reference answer"),
           gt_update: bool = typer.Option(None, "--gt-update/--no-gt-update", help="Ground truth needs update"),
           notes: str = typer.Option(None, "--notes"),
           risk_level: str = typer.Option(None, "--risk-level", help="Re-assessed risk level"),
           based_on: int = typer.Option(None, "--based-on", min=0,
                                        help="The case version you reviewed (`review show`); refused if "
                                             "another decision landed since")) -> None:
    """Record a review decision (appended to the case's history; never overwrites one)."""
    with _open(db) as q:
        try:
            item = q.decide(query_id, decision, reviewer, root_cause, corrected_answer, gt_update, notes,
                            risk_level, based_on=based_on)
        except GeunkeoError as exc:
            _fail(exc)
        s = q.stats()
    console.print(f"{query_id}: {item.review_decision} by {item.reviewer_id} · reviewed {s.reviewed}/"
                  f"{s.queued} · agreement {s.agreement_rate:.0%}")


def export(db: Path = typer.Option(..., "--db", help=DB_HELP),
           out: Path = typer.Option(..., "--out", help="JSONL QA file to write")) -> None:
    """Export reviewed items as a golden dataset (JSONL QA format; corrected answers become references)."""
    with _open(db) as q:
        n, skipped = q.export_golden(out)
    console.print(f"wrote {n} reviewed cases to {out}")
    if skipped:
        console.print(f"skipped (no usable reference): {', '.join(skipped)}")


def stats(db: Path = typer.Option(..., "--db", help=DB_HELP), as_json: bool = typer.Option(False, "--json")):
    """Queue completion and auto-vs-human agreement."""
    with _open(db) as q:
        s = q.stats()
    if as_json:
        typer.echo(json.dumps(s.to_dict(), ensure_ascii=False, indent=2))
        return
    rate = "n/a" if s.agreement_rate is None else f"{s.agreement_rate:.1%}"
    console.print(f"queued {s.queued} · reviewed {s.reviewed} · agreement {rate} · decisions "
                  f"{s.decisions} · root causes {s.root_causes}")


COMMANDS: list[tuple[str, Callable[..., Any]]] = [
    ("list", list_items), ("show", show), ("assign", assign), ("decide", decide), ("export", export),
    ("stats", stats),
]
"""`geunkeo review NAME` → the function that runs it (one entry per command)."""


def register(app: typer.Typer) -> None:
    review = typer.Typer(help="Review flagged evaluation cases (seed 003 §3.1).", no_args_is_help=True)
    for name, command in COMMANDS:
        review.command(name)(command)
    app.add_typer(review, name="review")
