"""`geunkeo eval` (run an evaluation), `eval compare`, `eval convert`, `eval report`."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args

import typer
from rich.console import Console
from rich.table import Table

from geunkeo.errors import ConfigError, GeunkeoError
from geunkeo.evaluate.codes import FlagLevel

if TYPE_CHECKING:
    from geunkeo.config import GateProfileName
    from geunkeo.evaluate.summary_records import SummaryRecord

console = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)


def _fmt(v: float | None, signed: bool = False) -> str:
    if v is None:
        return "n/a"
    return f"{v:+.3f}" if signed else f"{v:.3f}"


def _fail(exc: GeunkeoError) -> None:
    err.print(f"[red]error:[/red] {exc}")
    raise typer.Exit(2)  # a user error, as in every command (cli/common.py)


def _gate_profile(name: str) -> GateProfileName:
    """--profile as the setting's type; another name gets load_profile's error, which names the profiles."""
    from geunkeo.config import GateProfileName
    from geunkeo.evaluate.gates import load_profile

    for known in get_args(GateProfileName):
        if name == known:
            return known
    load_profile(name)  # raises ConfigError: unknown gate profile …; choose one of …
    raise ConfigError(f"gate profile {name!r} is in gate_profiles.json but not a choice of evaluate.profile")


def _print_run(summary: SummaryRecord, run_dir: Path) -> None:
    ex = summary.executive
    flags = ex.flags  # keyed by level
    console.print(f"[bold]{summary.eval_id}[/bold] · {summary.cases} cases · profile {summary.profile} · "
                  f"{summary.seconds} s")
    console.print(f"flags: [red]CRITICAL {flags[FlagLevel.CRITICAL]}[/red] · "
                  f"[yellow]WARNING {flags[FlagLevel.WARNING]}[/yellow] · [green]PASSED {flags[FlagLevel.PASSED]}"
                  f"[/green] · P0 pass rate {_fmt(ex.p0_pass_rate)}")
    t = Table("metric", "mean", "computed", "not computable", "method")
    for name, m in summary.metrics.items():
        t.add_row(name, _fmt(m.mean), str(m.computable), str(m.not_computable), ", ".join(m.methods))
    console.print(t)
    q, clir = summary.queue, summary.crosslingual
    console.print(f"review queue: {q.queued} queued ({q.full_review} full, {q.sample_review} sampled)")
    if clir.pairs:
        console.print(f"cross-lingual: {clir.pairs} pairs · same documents {_fmt(clir.same_documents_rate)} · "
                      f"claim sets equivalent {_fmt(clir.claim_set_equivalence_rate)}")
    console.print(f"report: {run_dir / 'report.html'}")


def run(
    ctx: typer.Context,
    dataset: Path = typer.Option(None, "--dataset", help="JSONL QA dataset, or a BEIR folder (see `geunkeo eval convert`)"),
    index: Path = typer.Option(None, "--index", help="Index directory"),
    out: Path = typer.Option(None, "--out", help="Run directory to write"),
    llm: str = typer.Option(None, "--llm", help="LLM provider for answers and the judge (default: none, "
                                                 "extractive answers)"),
    profile: str = typer.Option(None, "--profile", help="Gate profile: dev | stabilization | advanced"),
    as_json: bool = typer.Option(False, "--json", help="Print summary.json instead of tables"),
    limit: int = typer.Option(None, "--limit", min=1, help="Evaluate a seeded sample of about N cases (ko/en "
                                                            "pairs kept together) for a quick run"),
    force: bool = typer.Option(False, "--force", help="Write into a --out folder that already holds files"),
) -> None:
    """Run search → answer → metrics → flags over a dataset; writes cases.jsonl, summary.json, review.db and
    report.html to --out."""
    if ctx.invoked_subcommand:
        return
    missing = [n for n, v in (("--dataset", dataset), ("--index", index), ("--out", out)) if v is None]
    if missing:
        err.print(f"[red]error:[/red] missing {', '.join(missing)}; "
                  "usage: geunkeo eval --dataset FILE --index DIR --out RUN_DIR")
        raise typer.Exit(2)
    if out.exists() and (not out.is_dir() or any(out.iterdir())) and not force:
        # a run's files (and its review decisions) would be replaced without a word
        err.print(f"[red]error:[/red] {out} already exists and is not an empty folder; choose a new --out or "
                  "pass --force to replace its run")
        raise typer.Exit(2)
    from geunkeo.config import Settings
    from geunkeo.evaluate.runner import run_evaluation

    try:
        settings = Settings()
        if profile:
            settings.evaluate.profile = _gate_profile(profile)
        with console.status("evaluating…") as status:
            res = run_evaluation(dataset, index, out, settings=settings, llm=llm, limit=limit,
                                 progress=lambda i, n, qid: status.update(f"case {i}/{n} {qid}"))
    except GeunkeoError as exc:
        _fail(exc)
    if as_json:
        shown = res.summary.to_dict()
        del shown["record_version"]  # the file's storage version; the printed summary stays as it always was
        typer.echo(json.dumps(shown, ensure_ascii=False, indent=2, default=str))
    else:
        _print_run(res.summary, res.run_dir)


def compare(run_a: Path = typer.Argument(..., help="Baseline run directory"),
            run_b: Path = typer.Argument(..., help="New run directory"),
            as_json: bool = typer.Option(False, "--json")) -> None:
    """Metric deltas, gate pass-rate deltas and flag changes of RUN_B against RUN_A."""
    from geunkeo.evaluate.report.compare import compare_runs

    try:
        diff = compare_runs(run_a, run_b)
    except GeunkeoError as exc:
        _fail(exc)
    if as_json:
        typer.echo(json.dumps(diff, ensure_ascii=False, indent=2))
        return
    t = Table("metric", "A", "B", "Δ", title=f"{diff['a']['eval_id']} → {diff['b']['eval_id']}")
    for name, m in diff["metrics"].items():
        t.add_row(name, _fmt(m["a"]), _fmt(m["b"]), _fmt(m["delta"], signed=True))
    console.print(t)
    f = diff["flags"]
    console.print("flags: " + " · ".join(f"{k} {v['a']}→{v['b']} ({v['delta']:+d})" for k, v in f.items()))
    for d in diff["differences"]:
        console.print(f"[yellow]not like for like:[/yellow] {d['code']} (A {d['a']}, B {d['b']})")
    console.print(f"cases worse: {diff['worse']} · better: {diff['better']} (of {diff['shared_cases']} in both; "
                  f"only in A: {len(diff['only_in_a'])}, only in B: {len(diff['only_in_b'])})")
    for c in diff["flag_changes"]:
        console.print(f"  {c['query_id']}: {c['from']} → {c['to']}  +{c['reasons_added']} -{c['reasons_removed']}")


def convert(out: Path = typer.Option(..., "--out", help="JSONL QA file to write"),
            beir: Path = typer.Option(None, "--beir", help="BEIR folder (queries.jsonl + qrels/)"),
            split: str = typer.Option(None, "--split", help="qrels split (default: test, else dev)"),
            id_level: str = typer.Option("auto", "--id-level", help="qrels ids are: auto | chunk | doc"),
            autorag: Path = typer.Option(None, "--autorag", help="AutoRAG qa.parquet"),
            corpus: Path = typer.Option(None, "--corpus", help="AutoRAG corpus.parquet (checks gold ids)"),
            corpus_out: Path = typer.Option(None, "--corpus-out",
                                            help="Also write the AutoRAG corpus as BEIR corpus.jsonl")) -> None:
    """Convert a BEIR folder or AutoRAG parquet files to the JSONL QA format."""
    from geunkeo.evaluate import datasets

    if (beir is None) == (autorag is None):
        err.print("[red]error:[/red] give exactly one of --beir DIR or --autorag qa.parquet")
        raise typer.Exit(2)
    try:
        if beir is not None:
            cases = datasets.from_beir(beir, split=split, id_level=id_level)
        else:
            cases = datasets.from_autorag(autorag, corpus)
            if corpus_out is not None:
                if corpus is None:
                    err.print("[red]error:[/red] --corpus-out needs --corpus corpus.parquet")
                    raise typer.Exit(2)
                n = datasets.autorag_corpus_to_beir(corpus, corpus_out)
                console.print(f"wrote {n} documents to {corpus_out}")
        datasets.save_cases(cases, out)
    except GeunkeoError as exc:
        _fail(exc)
    langs = sorted({c.lang for c in cases})
    pairs = len({c.parallel_id for c in cases if c.parallel_id})
    console.print(f"wrote {len(cases)} cases ({', '.join(langs)}; {pairs} parallel ids) to {out}")


def report(run_dir: Path = typer.Argument(..., help="Run directory"),
           lang: str = typer.Option("en", "--lang", help="The report's language: en or ko")) -> None:
    """Re-render RUN_DIR/report.html, e.g. after reviews were recorded, in English or Korean (--lang ko)."""
    if lang not in ("en", "ko"):
        console.print(f"[red]--lang is en or ko, not {lang!r}[/]")
        raise typer.Exit(2)
    from geunkeo.evaluate.report.html import with_reviews, write_report
    from geunkeo.evaluate.review import ReviewQueue
    from geunkeo.evaluate.runner import load_run

    try:
        summary, records = load_run(run_dir)
        with ReviewQueue(run_dir) as q:
            summary, items = with_reviews(summary, q)
        path = write_report(run_dir, summary, records, items, lang=lang)
    except GeunkeoError as exc:
        _fail(exc)
    console.print(f"report: {path}")


COMMANDS: list[tuple[str, Callable[..., Any]]] = [("compare", compare), ("convert", convert), ("report", report)]
"""`geunkeo eval NAME` → the function that runs it (one entry per command)."""


def register(app: typer.Typer) -> None:
    eval_app = typer.Typer(help="Evaluate against a QA dataset; compare runs; convert datasets.",
                           invoke_without_command=True)
    eval_app.callback()(run)
    for name, command in COMMANDS:
        eval_app.command(name)(command)
    app.add_typer(eval_app, name="eval")
