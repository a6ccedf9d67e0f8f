"""`geunkeo corpus inspect` and `geunkeo corpus chunks`: what the loaders and chunkers make of your files.

`inspect` also lists the chunks with instruction-like passages ("ignore previous instructions", "…라고 답하세요";
recorded at chunking as `chunk.metadata["injection"]`): documents are data, and such a passage grounds nothing.
"""

from __future__ import annotations

import json
from collections import Counter

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from geunkeo.cli.common import settings_from, user_errors

corpus_app = typer.Typer(help="Load and chunk documents without indexing them.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(corpus_app, name="corpus")


@corpus_app.command("inspect")
def inspect(
    paths: list[str] = typer.Argument(..., help="Files or folders (recursive)"),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output"),
) -> None:
    """Per document: format, language, version/date, chosen chunker, chunk count; chunks with instruction-like
    passages; failures with reasons; timing."""
    from geunkeo.corpus import chunk_documents, load_paths
    from geunkeo.trace import Trace

    with user_errors():
        settings = settings_from().corpus
        trace = Trace()
        docs, failures = load_paths(paths, trace)
        chunks = chunk_documents(docs, settings, trace)
    per_doc = Counter(c.doc_id for c in chunks)
    chosen = {d["doc_id"]: d["chunker"] for d in trace.decisions if d.get("decision") == "chunker"}
    injections = [{"doc_id": c.doc_id, "chunk_id": c.chunk_id, "location": c.location, **found}
                  for c in chunks for found in c.metadata.get("injection", ())]
    flagged = Counter(c.doc_id for c in chunks if c.metadata.get("injection"))
    rows = [{"doc_id": doc.doc_id, "title": doc.title, "kind": doc.kind, "lang": doc.lang,
             "format": doc.metadata.get("format"), "version": doc.version, "date": doc.date,
             "chars": len(doc.text), "chunker": chosen.get(doc.doc_id), "chunks": per_doc[doc.doc_id],
             "injection_chunks": flagged[doc.doc_id]}
            for doc in docs]
    timing = {"load_ms": round(trace.timing("corpus.load"), 1), "chunk_ms": round(trace.timing("corpus.chunk"), 1)}
    if as_json:
        typer.echo(json.dumps({"documents": rows, "chunks": len(chunks), "injections": injections,
                               "failures": [f.__dict__ for f in failures], "timing": timing},
                              ensure_ascii=False, indent=2))
        return
    console = Console()
    cols = ("doc_id", "title", "kind", "lang", "format", "version", "chunker", "chunks")
    table = Table(title=f"{len(docs)} documents, {len(chunks)} chunks")
    for col in cols:
        table.add_column(col)
    for r in rows:
        table.add_row(*(escape(str(r[c])) if r[c] is not None else "" for c in cols))
    console.print(table)
    for i in injections:
        console.print(f"[yellow]instruction-like text[/yellow] {escape(i['chunk_id'])} ({escape(i['location'])}): "
                      f"{escape(i['kind'])} {escape(repr(i['text']))} [dim]— treated as data, grounds nothing[/dim]",
                      highlight=False)
    for f in failures:
        console.print(f"[red]failed[/red] {escape(f.path)}: {escape(f.reason)}", highlight=False)
    console.print(f"load {timing['load_ms']} ms, chunk {timing['chunk_ms']} ms")


@corpus_app.command("chunks")
def chunks(
    paths: list[str] = typer.Argument(..., help="Files or folders (recursive)"),
    doc: str | None = typer.Option(None, "--doc", help="Only this doc_id"),
    show_text: bool = typer.Option(False, "--text", help="Print each chunk's text too"),
    # the names are not listed here: importing the chunkers would load every file parser for `--help`
    chunker: str | None = typer.Option(None, "--chunker", help="Force a chunker by name (an unknown name lists "
                                                               "them)"),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per chunk (JSON Lines)"),
) -> None:
    """List chunks: chunk_id, location, path, size (and text with --text)."""
    from geunkeo.corpus import CHUNKERS, chunk_document, load_paths
    from geunkeo.errors import ConfigError, IngestError

    with user_errors():
        if chunker is not None and chunker not in CHUNKERS:
            raise ConfigError(f"--chunker: unknown chunker {chunker!r}; choose one of: {', '.join(CHUNKERS)}")
        settings = settings_from().corpus
        docs, failures = load_paths(paths)
        selected = [d for d in docs if not doc or d.doc_id == doc]
        if doc and not selected:
            raise IngestError(f"no document with doc_id {doc!r}; run `geunkeo corpus inspect` to list them")
        per_doc = [(d, chunk_document(d, settings, chunker=chunker)) for d in selected]
    console = Console()
    for _, doc_chunks in per_doc:
        for c in doc_chunks:
            if as_json:
                typer.echo(json.dumps(c.to_dict(), ensure_ascii=False))
                continue
            console.print(f"[bold]{escape(c.chunk_id)}[/bold]  {escape(c.location)}  "
                          f"[dim]{escape(' / '.join(c.path))}  {len(c.text)} chars[/dim]", highlight=False)
            if show_text:
                console.print(c.text, markup=False, highlight=False)
                console.print()
    for f in failures:
        typer.echo(f"failed {f.path}: {f.reason}", err=True)
