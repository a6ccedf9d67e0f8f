"""`geunkeo index`, `search`, `info`, `delete`, `tune-weights`."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.markup import escape
from rich.table import Table

from geunkeo.cli.common import console, err_console, print_json, settings_from, user_errors
from geunkeo.cli.remote import server_url


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
    progress_every: float = typer.Option(5.0, "--progress-every", min=0.0, help="Seconds between progress lines "
                                         "when stderr is not a terminal (a terminal gets a progress bar)"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Ingest documents and build or update an index (unchanged documents are skipped)."""
    from geunkeo.cli.progress import IndexProgress
    from geunkeo.index.builder import build_index

    with user_errors():
        settings = settings_from()
        if store:
            settings.index.store = store
        if milvus_uri:
            settings.index.milvus_uri = milvus_uri
        with IndexProgress(err_console, every=progress_every) as progress:
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
    index: Path = typer.Option(None, "--index", "-i", help="Index directory (not needed with --server)"),
    k: int = typer.Option(10, "-k", min=1, max=100, help="How many hits (1–100, as the API)"),
    mode: str = typer.Option(None, "--mode", help="bm25 | dense | hybrid (default from config)"),
    explain: bool = typer.Option(False, "--explain", help="Show rewrite, terms, weights and timings"),
    reranker: str = typer.Option(None, "--rerank", help="none | dense | llm | cross-encoder"),
    llm: str = typer.Option(None, "--llm", help="LLM provider for LLM stages (ollama, openai, gemini, …)"),
    multi_query: bool = typer.Option(None, "--multi-query/--no-multi-query"),
    hyde: str = typer.Option(None, "--hyde", help="off | content | title | combined"),
    server: str = typer.Option(None, "--server", help="URL of a running `geunkeo serve` to ask instead of loading "
                                                      "the index here (default: $GEUNKEO_SERVER)"),
    as_of: str = typer.Option(None, "--as-of", help="Rank the regulation versions in force on this date first "
                                                    "(YYYY-MM-DD; default today)"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Search an index; prints hits with their locations."""
    if mode and mode not in ("bm25", "dense", "hybrid"):
        raise typer.BadParameter("must be one of: bm25, dense, hybrid", param_hint="--mode")
    with user_errors():
        url = server_url(server)
        if url:
            _only_in_process({"--index": index, "--as-of": as_of, "--rerank": reranker, "--llm": llm, "--multi-query": multi_query,
                              "--hyde": hyde}, server)
            from geunkeo.cli.remote import post

            data = post(url, "/api/search", {"query": query, "k": k, "mode": mode}, timeout=60)
        else:
            import geunkeo

            idx = geunkeo.open_index(_need_index(index), settings=settings_from(llm=llm))
            res = idx.search(query, k=k, mode=mode, reranker=reranker, multi_query=multi_query, hyde=hyde,
                             as_of=as_of)
            data = res.to_dict()
    if as_json:
        print_json(data)
        return
    print_search(data, query, explain)


def _need_index(index: Path | None) -> Path:
    if index is None:
        raise typer.BadParameter("pass the index directory (or --server URL / GEUNKEO_SERVER to ask a running "
                                 "`geunkeo serve`)", param_hint="--index")
    return index


def _only_in_process(options: dict, server_option: str | None = None) -> None:
    """Options the server's JSON API does not take: refuse them rather than ignore them. `--index` too: the
    server searches its own index, and results from another index than the one named would be wrong."""
    from geunkeo.errors import ConfigError

    if options.get("--index") is not None:
        source = "--server" if server_option else "GEUNKEO_SERVER"
        raise ConfigError(f"--index and {source} both given: the server searches the index it was started with; "
                          f"drop --index to ask the server, or {'drop --server' if server_option else 'unset GEUNKEO_SERVER'}"
                          " to search this index here")
    given = [name for name, value in options.items() if value is not None]
    if given:
        raise ConfigError(f"{', '.join(given)} cannot be used with --server (the server searches with its own "
                          "settings); drop them, or drop --server to search in this process")


def print_search(data: dict, query: str, explain: bool = False) -> None:
    """Print a search result from its JSON form (`SearchResult.to_dict()`), in-process or from a server alike."""
    trace = data.get("trace") or {}
    if explain:
        _print_explain(data)
    for w in trace.get("warnings", []):
        err_console.print(f"[yellow]warning:[/] {escape(w)}")
    table = Table(title=f"“{escape(query)}”", show_lines=False)
    for col in ("#", "score", "location", "text"):
        table.add_column(col, overflow="fold")
    for i, h in enumerate(data.get("hits", []), 1):
        ranks = " ".join(f"{n}#{r}" for n, r in sorted(h.get("ranks", {}).items()))
        text = h["text"].replace("\n", " ")
        table.add_row(str(i), f"{h['score']:.3f}", f"{escape(h['location'])}\n[dim]{ranks}[/]", escape(text[:160]))
    console.print(table)


def _print_explain(data: dict) -> None:
    p, trace = data.get("plan", {}), data.get("trace") or {}
    console.print(f"[bold]original[/]   {escape(data.get('query', ''))}")
    score = f" ({p['formality_score']:.2f})" if p.get("formality_score") is not None else ""
    console.print(f"[bold]language[/]   {p.get('lang')}   [bold]formality[/] {p.get('formality')}{score}")
    console.print(f"[bold]rewritten[/]  {escape(p.get('rewritten', ''))}")
    terms = ", ".join(f"{t}×{w:g}" for t, w in p.get("bm25_terms", {}).items())
    console.print(f"[bold]BM25 terms[/] {escape(terms)}")
    console.print(f"[bold]dense text[/] {escape(' | '.join(p.get('dense_texts', [])))}")
    if p.get("variants"):
        console.print(f"[bold]variants[/]   {escape(' | '.join(p['variants']))}")
    if p.get("hyde_answer") or p.get("hyde_title"):
        mode = f"({p['hyde_mode']}) " if p.get("hyde_mode") else ""
        console.print(f"[bold]HyDE[/]       {mode}title={p.get('hyde_title')!r} "
                      f"answer={(p.get('hyde_answer') or '')[:80]!r}")
    dense = p.get("dense_weight", 0.0)
    console.print(f"[bold]fusion[/]     {p.get('fusion')}, dense {dense:.2f} / BM25 {1 - dense:.2f}, mode {p.get('mode')}")
    for d in trace.get("decisions", []):
        detail = {k: v for k, v in d.items() if k not in ("stage", "decision")}
        console.print(f"  [cyan]{d['stage']}[/] {d['decision']} [dim]{escape(str(detail))}[/]")
    stages = trace.get("stages", [])
    console.print("[bold]timings[/]    " + "  ".join(f"{s['name']}={s['ms']:.1f}ms" for s in stages))
    for s in stages:
        if s["name"] == "retrieve.embed_llm_texts":
            info = s.get("info", {})
            console.print(f"  [magenta]LLM-text vectors[/] {info.get('vector_cache_hits', 0)} from the vector "
                          f"cache, {info.get('vector_cache_misses', 0)} embedded")
    for c in trace.get("llm_calls", []):
        console.print(f"  [magenta]llm[/] {escape(str(c))}")


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
    from geunkeo.text.analyzer import ANALYZER_REVISION, revision_of

    revision = revision_of(m.analyzer_version)
    if revision is None:
        console.print(f"[yellow]its terms come from {m.analyzer_version}, which this geunkeo cannot analyse queries "
                      "with: rebuild it with `geunkeo index --replace` before searching[/]")
    elif revision != ANALYZER_REVISION:
        console.print(f"[yellow]built with analyzer revision {revision}: searches load that revision's slower Kiwi; "
                      f"`geunkeo index --replace` rebuilds it with revision {ANALYZER_REVISION}[/]")


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
