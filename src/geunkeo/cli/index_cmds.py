"""`geunkeo index`, `search`, `info`, `delete`, `tune-weights`."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from geunkeo.cli.common import console, err_console, print_json, settings_from, user_errors


def register(app: typer.Typer) -> None:
    app.command("index")(index_cmd)
    app.command("search")(search_cmd)
    app.command("info")(info_cmd)
    app.command("delete")(delete_cmd)
    app.command("tune-weights")(tune_cmd)


def index_cmd(
    paths: list[Path] = typer.Argument(..., help="Files or folders to ingest"),
    index: Path = typer.Option(..., "--index", "-i", help="Index directory"),
    replace: bool = typer.Option(False, "--replace", help="Rebuild from these paths only"),
    store: str = typer.Option(None, "--store", help="embedded | milvus (default from config; a new index only)"),
    milvus_uri: str = typer.Option(None, "--milvus-uri", help="Milvus Lite file or cluster URI (store milvus)"),
    wait: bool = typer.Option(False, "--wait", help="When another process is writing this index, queue behind it "
                                                    "instead of failing"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Ingest documents and build or update an index (unchanged documents are skipped)."""
    from geunkeo.index.builder import build_index

    with user_errors():
        settings = settings_from()
        if store:
            settings.index.store = store
        if milvus_uri:
            settings.index.milvus_uri = milvus_uri
        with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                      TimeRemainingColumn(), console=err_console, transient=True, disable=as_json) as prog:
            task = prog.add_task("embedding chunks", total=None)

            def progress(stage: str, done: int, total: int) -> None:
                prog.update(task, completed=done, total=total)

            report = build_index([str(p) for p in paths], index, settings, replace=replace, progress=progress,
                                 wait=wait, on_wait=lambda msg: err_console.print(f"[yellow]{msg}[/]"))
    if as_json:
        from dataclasses import asdict

        print_json(asdict(report))
        return
    console.print(
        f"[green]indexed[/] {len(report.added_or_updated)} new/changed documents "
        f"({report.unchanged} unchanged) → {report.documents} documents, {report.chunks} chunks "
        f"in {report.seconds:.1f}s  [dim](embedding cache: {report.embed_cache_hits} hits, "
        f"{report.embed_cache_misses} misses)[/]"
    )
    for f in report.failures:
        err_console.print(f"[yellow]skipped[/] {f.path}: {f.reason}")


def search_cmd(
    query: str = typer.Argument(..., help="The question"),
    index: Path = typer.Option(..., "--index", "-i"),
    k: int = typer.Option(10, "-k", min=1, max=100, help="How many hits (1–100, as the API)"),
    mode: str = typer.Option(None, "--mode", help="bm25 | dense | hybrid (default from config)"),
    explain: bool = typer.Option(False, "--explain", help="Show rewrite, terms, weights and timings"),
    reranker: str = typer.Option(None, "--rerank", help="none | dense | llm | cross-encoder"),
    llm: str = typer.Option(None, "--llm", help="LLM provider for LLM stages (ollama, openai, gemini, …)"),
    multi_query: bool = typer.Option(None, "--multi-query/--no-multi-query"),
    hyde: str = typer.Option(None, "--hyde", help="off | content | title | combined"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Search an index; prints hits with their locations."""
    import geunkeo

    if mode and mode not in ("bm25", "dense", "hybrid"):
        err_console.print("[red]error:[/] --mode must be one of: bm25, dense, hybrid")
        raise typer.Exit(2)
    with user_errors():
        idx = geunkeo.open_index(index, settings=settings_from(llm=llm))
        res = idx.search(query, k=k, mode=mode, reranker=reranker, multi_query=multi_query, hyde=hyde)
    if as_json:
        print_json(res.to_dict())
        return
    if explain:
        _print_explain(res)
    for w in res.trace.warnings:
        err_console.print(f"[yellow]warning:[/] {w}")
    table = Table(title=f"“{query}”", show_lines=False)
    for col in ("#", "score", "location", "text"):
        table.add_column(col, overflow="fold")
    for i, h in enumerate(res.hits, 1):
        ranks = " ".join(f"{n}#{r}" for n, r in sorted(h.ranks.items()))
        text = h.chunk.text.replace("\n", " ")
        table.add_row(str(i), f"{h.score:.3f}", f"{h.chunk.location}\n[dim]{ranks}[/]", text[:160])
    console.print(table)


def _print_explain(res) -> None:
    p = res.plan
    console.print(f"[bold]original[/]   {p.original}")
    console.print(f"[bold]language[/]   {p.lang}   [bold]formality[/] {p.formality} ({p.formality_score:.2f})")
    console.print(f"[bold]rewritten[/]  {p.rewritten}")
    terms = ", ".join(f"{t}×{w:g}" for t, w in p.bm25_terms.items())
    console.print(f"[bold]BM25 terms[/] {terms}")
    console.print(f"[bold]dense text[/] {' | '.join(p.dense_texts)}")
    if p.variants:
        console.print(f"[bold]variants[/]   {' | '.join(p.variants)}")
    if p.hyde_answer or p.hyde_title:
        console.print(f"[bold]HyDE[/]       ({p.hyde_mode}) title={p.hyde_title!r} answer={(p.hyde_answer or '')[:80]!r}")
    console.print(f"[bold]fusion[/]     {p.fusion}, dense {p.dense_weight:.2f} / BM25 {1 - p.dense_weight:.2f}, mode {p.mode}")
    for d in res.trace.decisions:
        detail = {k: v for k, v in d.items() if k not in ("stage", "decision")}
        console.print(f"  [cyan]{d['stage']}[/] {d['decision']} [dim]{detail}[/]")
    stages = "  ".join(f"{s.name}={s.ms:.1f}ms" for s in res.trace.stages)
    console.print(f"[bold]timings[/]    {stages}")
    for s in res.trace.stages:
        if s.name == "retrieve.embed_llm_texts":
            console.print(f"  [magenta]LLM-text vectors[/] {s.info.get('vector_cache_hits', 0)} from the vector "
                          f"cache, {s.info.get('vector_cache_misses', 0)} embedded")
    for c in res.trace.llm_calls:
        console.print(f"  [magenta]llm[/] {c}")


def info_cmd(index: Path = typer.Option(..., "--index", "-i"), as_json: bool = typer.Option(False, "--json")) -> None:
    """Show an index's manifest."""
    from geunkeo.index.manifest import read_manifest

    with user_errors():
        m = read_manifest(index)
    d = m.to_dict()
    d.pop("doc_hashes")
    titles = d.pop("doc_titles")
    if as_json:
        print_json(d)
        return
    table = Table(show_header=False, title=str(index))
    for key, val in d.items():
        table.add_row(key, str(val))
    table.add_row("titles", str(len(titles)))
    console.print(table)


def delete_cmd(doc_ids: list[str] = typer.Argument(..., help="doc_ids to remove"),
               index: Path = typer.Option(..., "--index", "-i")) -> None:
    """Remove documents from an index by doc_id."""
    from geunkeo.index.builder import delete_documents

    with user_errors():
        n = delete_documents(index, doc_ids, settings_from())
    console.print(f"removed {n} chunks")


def tune_cmd(
    dataset: Path = typer.Option(..., "--dataset", help="BEIR-layout folder (queries.jsonl, qrels/<split>.tsv)"),
    index: Path = typer.Option(..., "--index", "-i"),
    split: str = typer.Option("dev", "--split"),
    metric: str = typer.Option("ndcg@10", "--metric"),
) -> None:
    """Grid-search fusion method and dense weight on a dev split; store the best in the index manifest."""
    import geunkeo
    from geunkeo.retrieve.tuning import load_beir_queries, tune_fusion

    with user_errors():
        idx = geunkeo.open_index(index, settings=settings_from())
        queries, qrels = load_beir_queries(dataset, split)
        best, table = tune_fusion(idx, queries, qrels, metric=metric, dataset=str(dataset), split=split)
    t = Table(title=f"fusion grid on {dataset.name}/{split} ({len(qrels)} queries)")
    t.add_column("fusion")
    t.add_column("dense weight")
    t.add_column(metric)
    for row in table[:12]:
        t.add_row(row["fusion"], f"{row['dense_weight']:.2f}", f"{row['score']:.4f}")
    console.print(t)
    console.print(f"[green]stored[/] {best} in {index}/manifest.json")
