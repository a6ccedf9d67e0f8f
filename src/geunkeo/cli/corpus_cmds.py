"""`geunkeo corpus inspect` and `geunkeo corpus chunks`: what the loaders and chunkers make of your files."""

from __future__ import annotations

import json
import time

import typer
from rich.console import Console
from rich.table import Table

from geunkeo.config import load_settings
from geunkeo.corpus import chunk_document, load_paths
from geunkeo.trace import Trace

corpus_app = typer.Typer(help="Load and chunk documents without indexing them.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(corpus_app, name="corpus")


@corpus_app.command("inspect")
def inspect(
    paths: list[str] = typer.Argument(..., help="Files or folders (recursive)"),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output"),
) -> None:
    """Per document: format, language, version/date, chosen chunker, chunk count; failures with reasons; timing."""
    settings = load_settings().corpus
    trace = Trace()
    t0 = time.perf_counter()
    docs, failures = load_paths(paths, trace)
    t1 = time.perf_counter()
    rows = []
    total = 0
    for doc in docs:
        chunks = chunk_document(doc, settings, trace)
        total += len(chunks)
        chosen = trace.decisions[-1]
        rows.append({"doc_id": doc.doc_id, "title": doc.title, "kind": doc.kind, "lang": doc.lang,
                     "format": doc.metadata.get("format"), "version": doc.version, "date": doc.date,
                     "chars": len(doc.text), "chunker": chosen["chunker"], "chunks": len(chunks)})
    t2 = time.perf_counter()
    timing = {"load_s": round(t1 - t0, 3), "chunk_s": round(t2 - t1, 3)}
    if as_json:
        typer.echo(json.dumps({"documents": rows, "chunks": total,
                               "failures": [f.__dict__ for f in failures], "timing": timing},
                              ensure_ascii=False, indent=2))
        return
    console = Console()
    table = Table(title=f"{len(docs)} documents, {total} chunks")
    for col in ("doc_id", "title", "kind", "lang", "format", "version", "chunker", "chunks"):
        table.add_column(col)
    for r in rows:
        table.add_row(*(str(r[c] if r[c] is not None else "") for c in
                        ("doc_id", "title", "kind", "lang", "format", "version", "chunker", "chunks")))
    console.print(table)
    for f in failures:
        console.print(f"[red]failed[/red] {f.path}: {f.reason}")
    console.print(f"load {timing['load_s']} s, chunk {timing['chunk_s']} s")


@corpus_app.command("chunks")
def chunks(
    paths: list[str] = typer.Argument(..., help="Files or folders (recursive)"),
    doc: str | None = typer.Option(None, "--doc", help="Only this doc_id"),
    show_text: bool = typer.Option(False, "--text", help="Print each chunk's text too"),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per chunk (JSON Lines)"),
) -> None:
    """List chunks: chunk_id, location, path, size (and text with --text)."""
    settings = load_settings().corpus
    docs, failures = load_paths(paths)
    console = Console()
    for d in docs:
        if doc and d.doc_id != doc:
            continue
        for c in chunk_document(d, settings):
            if as_json:
                typer.echo(json.dumps(c.to_dict(), ensure_ascii=False))
                continue
            console.print(f"[bold]{c.chunk_id}[/bold]  {c.location}  [dim]{' / '.join(c.path)}  "
                          f"{len(c.text)} chars[/dim]", highlight=False)
            if show_text:
                console.print(c.text, markup=False, highlight=False)
                console.print()
    for f in failures:
        typer.echo(f"failed {f.path}: {f.reason}", err=True)
