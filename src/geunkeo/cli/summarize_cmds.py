"""`geunkeo summarize`: a cited summary of a document, an article range or a query's top chunks that keeps every
proviso of its sources (answer/summarize.py)."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from geunkeo.cli.common import console, settings_from, user_errors


def register(app: typer.Typer) -> None:
    app.command("summarize")(summarize_cmd)


def summarize_cmd(index: Path = typer.Option(..., "--index", "-i"),
                  doc: str = typer.Option(None, "--doc", help="Document to summarise: its doc_id or title"),
                  articles: str = typer.Option(None, "--articles", help="Article range of --doc, e.g. 제7조-제9조"),
                  query: str = typer.Option(None, "--query", "-q", help="Summarise the top chunks of this query"),
                  k: int = typer.Option(5, "-k", min=1, max=20, help="Chunks for --query"),
                  llm: str = typer.Option(None, "--llm", help="LLM provider (default: extractive)"),
                  as_json: bool = typer.Option(False, "--json")) -> None:
    """Summarise with citations; every proviso, exception and exclusion of the sources is kept (and listed)."""
    import geunkeo
    from geunkeo.answer.summarize import summarize

    with user_errors():
        settings = settings_from(llm=llm)
        idx = geunkeo.open_index(index, settings)
        model = idx.llm() if llm else None
        s = summarize(idx, doc=doc, articles=articles, query=query, k=k, llm=model)
    if as_json:
        typer.echo(json.dumps(s.to_dict(), ensure_ascii=False, indent=2))
        return
    console.print(s.text)
    console.print()
    for n, h in enumerate(s.contexts, 1):
        console.print(f"[dim][{n}] {h.chunk.location}[/dim]")
    kept = sum(p.kept for p in s.provisos)
    console.print(f"provisos kept: {kept}/{len(s.provisos)}" + (f" ({s.restored} restored after the LLM dropped them)"
                                                               if s.restored else ""))
