"""`geunkeo patterns pending | add | test`: grow and try the colloquial pattern dictionary."""

from __future__ import annotations

import json

import typer
from rich.console import Console
from rich.table import Table

from geunkeo.cli.common import fail, settings_from
from geunkeo.errors import GeunkeoError

patterns_app = typer.Typer(help="Colloquial→formal pattern dictionary: pending queue, user mappings, live test.",
                           no_args_is_help=True)


def _fail(exc: Exception) -> None:
    fail(str(exc))


@patterns_app.command("pending")
def pending(
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output"),
    limit: int = typer.Option(50, "--limit", help="Show at most this many entries"),
) -> None:
    """List colloquial queries no pattern explained, most frequent first."""
    from geunkeo.query.paths import pending_queue_path
    from geunkeo.query.pending import PendingQueue

    path = pending_queue_path(settings_from().query.pending_queue)
    rows = PendingQueue(path).entries()[:limit]
    if as_json:
        typer.echo(json.dumps({"path": str(path), "entries": rows}, ensure_ascii=False, indent=1))
        return
    table = Table(title=f"pending patterns ({path})")
    for col in ("count", "query", "first seen", "last seen"):
        table.add_column(col)
    for r in rows:
        table.add_row(str(r["count"]), r["query"], r.get("first_seen", ""), r.get("last_seen", ""))
    Console().print(table if rows else f"no pending patterns in {path}")


@patterns_app.command("add")
def add(
    pattern: str = typer.Argument(..., help="Colloquial phrase, matched on whole words, e.g. '어떻게 해'"),
    formal: str = typer.Argument(..., help="Formal replacement, e.g. '방법'"),
    context: str = typer.Option("other", "--context", help="Intent: procedure, deadline, amount, …"),
) -> None:
    """Add (or replace) a mapping in the user's pattern file; it is merged over the packaged default."""
    from geunkeo.query.mappings import add_user_mapping
    from geunkeo.query.paths import user_mappings_path

    path = user_mappings_path(settings_from().query.user_mappings)
    try:
        new = add_user_mapping(path, pattern, formal, context)
    except GeunkeoError as exc:
        _fail(exc)
    typer.echo(f"{'added' if new else 'updated'} {pattern!r} → {formal!r} ({context}) in {path}")


@patterns_app.command("test")
def test(
    query: str = typer.Argument(..., help="A query to try, e.g. '휴학 어떻게 해?'"),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output"),
) -> None:
    """Show how a query is read: formality, rewrite, matched patterns, BM25 terms and fusion weights."""
    from geunkeo.query.pipeline import QueryPipeline

    try:
        plan = QueryPipeline(settings_from()).plan(query)
    except GeunkeoError as exc:
        _fail(exc)
    tr = plan.info["transform"]
    if as_json:
        out = {"original": plan.original, "text": plan.text, "rewritten": plan.rewritten, "lang": plan.lang,
               "formality": plan.formality, "formality_score": plan.formality_score,
               "evidence": plan.info["formality_evidence"], "patterns": tr["patterns"], "contexts": tr["contexts"],
               "confidence": tr["confidence"], "reason": tr["reason"], "bm25_terms": plan.bm25_terms,
               "term_sources": plan.info["term_sources"], "dense_texts": plan.dense_texts, "fusion": plan.fusion,
               "dense_weight": plan.dense_weight, "mode": plan.mode, "warnings": plan.trace.warnings,
               "stages_ms": {s.name: round(s.ms, 3) for s in plan.trace.stages}}
        typer.echo(json.dumps(out, ensure_ascii=False, indent=1))
        return
    con = Console()
    con.print(f"[bold]query[/bold]      {plan.text}")
    con.print(f"[bold]formality[/bold]  {plan.formality} (score {plan.formality_score}; "
              f"{'; '.join(plan.info['formality_evidence'])})")
    con.print(f"[bold]rewrite[/bold]    {plan.rewritten}  [dim]({tr['reason']})[/dim]")
    for p in tr["patterns"]:
        con.print(f"  [cyan]{p['text']}[/cyan] → {p['formal']!r}  [dim]{p['kind']} · {p['context']}[/dim]")
    terms = Table(title="BM25 terms")
    for col in ("term", "weight", "from"):
        terms.add_column(col)
    for t, w in plan.bm25_terms.items():
        terms.add_row(t, f"{w:.2f}", plan.info["term_sources"].get(t, ""))
    con.print(terms)
    con.print(f"[bold]dense[/bold]      {plan.dense_texts}")
    con.print(f"[bold]fusion[/bold]     {plan.fusion}, dense {plan.dense_weight:.2f} / BM25 {plan.bm25_weight:.2f}, "
              f"mode {plan.mode}")
    for warning in plan.trace.warnings:
        con.print(f"[yellow]warning:[/yellow] {warning}")
    con.print(f"[dim]{plan.trace.total_ms():.2f} ms: "
              + ", ".join(f"{s.name.split('.')[-1]} {s.ms:.2f}" for s in plan.trace.stages) + "[/dim]")


def register(app: typer.Typer) -> None:
    app.add_typer(patterns_app, name="patterns")
