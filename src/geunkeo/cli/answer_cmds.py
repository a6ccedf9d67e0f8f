"""`geunkeo ask` (search + cited answer + filter + gate) and `geunkeo verify` (the filter on a given answer)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from geunkeo.answer.codes import GateAction
from geunkeo.cli.common import console, err_console, print_json, settings_from, user_errors
from geunkeo.errors import ConfigError

if TYPE_CHECKING:
    from geunkeo.corpus.base import Chunk


def register(app: typer.Typer) -> None:
    app.command("ask")(ask_cmd)
    app.command("verify")(verify_cmd)


_GATE_STYLE = {GateAction.ANSWER: "green", GateAction.WARN: "yellow", GateAction.REGENERATE: "yellow",
               GateAction.ESCALATE: "red"}


def ask_cmd(
    query: str = typer.Argument(..., help="The question"),
    index: Path = typer.Option(None, "--index", "-i", help="Index directory (not needed with --server)"),
    llm: str = typer.Option(None, "--llm", help="LLM provider for the answer (ollama, openai, gemini, …)"),
    model: str = typer.Option(None, "--model", help="LLM model name"),
    base_url: str = typer.Option(None, "--base-url", help="LLM server URL"),
    answerer: str = typer.Option(None, "--answerer", help="auto | extractive | llm | a name registered in answer/registry.py (default from config)"),
    k: int = typer.Option(5, "-k", min=1, max=20, help="How many retrieved chunks the answer may use (1–20, as the API)"),
    explain: bool = typer.Option(False, "--explain", help="Show the trace: decisions, timings, LLM calls"),
    server: str = typer.Option(None, "--server", help="URL of a running `geunkeo serve` to ask instead of loading "
                                                      "the index here (default: $GEUNKEO_SERVER)"),
    as_of: str = typer.Option(None, "--as-of", help="Answer from the regulations in force on this date (YYYY-MM-DD; "
                                                    "default today)"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Answer a question from an index, with a citation on every sentence."""
    from geunkeo.cli.index_cmds import _need_index, _only_in_process
    from geunkeo.cli.remote import server_url

    with user_errors():
        url = server_url(server)
        if url:
            _only_in_process({"--index": index, "--llm": llm, "--model": model, "--base-url": base_url,
                              "--answerer": answerer, "--as-of": as_of}, server)
            from geunkeo.cli.remote import post

            data = post(url, "/api/ask", {"query": query, "k": k}, timeout=120)
        else:
            import geunkeo

            settings = settings_from(llm=llm, model=model, base_url=base_url)
            data = geunkeo.ask(query, _need_index(index), k=k, settings=settings, answerer=answerer,
                               as_of=as_of).to_dict()
    if as_json:
        print_json(data)
        return
    print_answer(data, query, explain)


def print_answer(ans: dict, query: str, explain: bool = False) -> None:
    """Print an answer from its JSON form (`Answer.to_dict()`), in-process or from a server alike."""
    trace = ans.get("trace") or {}
    for w in trace.get("warnings", []):
        err_console.print(f"[yellow]warning:[/] {escape(w)}")
    gate = ans.get("gate")
    style = _GATE_STYLE.get(gate["action"], "white") if gate else "white"
    title = f"{ans.get('answerer')}" + (f" (fallback: {ans['fallback']})" if ans.get("fallback") else "")
    console.print(Panel(escape(ans["text"]), title=f"“{escape(query)}”", subtitle=escape(title), border_style=style))
    cited = sorted({(c["n"], c["location"], c["chunk_id"]) for s in ans.get("sentences", [])
                    for c in s.get("citations", [])})
    if cited:
        table = Table(title="citations")
        for col in ("#", "location", "chunk"):
            table.add_column(col, overflow="fold")
        for n, loc, cid in cited:
            table.add_row(f"[{n}]", escape(loc), escape(cid))
        console.print(table)
    _print_report(ans.get("filter_report") or {})
    if gate:
        checks = ", ".join(f"{k}={v:g}" for k, v in gate.get("checks", {}).items())
        console.print(f"[bold]gate[/] [{style}]{gate['action']}[/]{' (regenerated once)' if gate.get('regenerated') else ''}"
                      f"  [dim]{escape(checks)}[/]")
        for r in gate.get("reasons", []):
            console.print(f"  [dim]- {escape(r)}[/]")
    if explain:
        _print_trace(trace)


def _print_trace(trace: dict) -> None:
    for d in trace.get("decisions", []):
        detail = {k: v for k, v in d.items() if k not in ("stage", "decision")}
        console.print(f"  [cyan]{d['stage']}[/] {d['decision']} [dim]{escape(str(detail))}[/]", overflow="fold")
    console.print("[bold]timings[/] " + "  ".join(f"{s['name']}={s['ms']:.1f}ms" for s in trace.get("stages", [])))
    for c in trace.get("llm_calls", []):
        console.print(f"  [magenta]llm[/] {escape(str(c))}")


def verify_cmd(
    answer: Path = typer.Option(..., "--answer", help="Text file holding the answer to check"),
    context: list[Path] = typer.Option(..., "--context", help="Context file (repeat): .txt, or .json/.jsonl chunks"),
    lang: str = typer.Option(None, "--lang", help="ko | en (default: detected from the answer)"),
    departments: Path = typer.Option(None, "--departments", help="Organisation names, one per line"),
    allowlist: Path = typer.Option(None, "--allowlist", help="Contacts/names always accepted, one per line"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Run the hallucination filter on an answer against the given contexts."""
    from geunkeo.answer.filter import HallucinationFilter
    from geunkeo.answer.parts import load_lines

    with user_errors():
        if lang not in (None, "ko", "en"):
            raise ConfigError(f"--lang must be ko or en, not {lang!r}")
        text = _read(answer)
        chunks = [c for path in context for c in _contexts(path)]
        known = load_lines(str(departments), "--departments") if departments else ()
        allowed = load_lines(str(allowlist), "--allowlist") if allowlist else ()
        res = HallucinationFilter(known, allowed).apply(text, chunks, lang=lang)
    from dataclasses import asdict

    if as_json:
        print_json({
            "text": res.text,
            "removed": [{"kind": r.kind, "value": r.value, "replacement": r.replacement}
                        for r in res.report.removed],
            "kept": [k.to_dict() for k in res.report.kept],
        })
        return
    console.print(Panel(escape(res.text), title="filtered answer"))
    _print_report(asdict(res.report))


def _print_report(report: dict) -> None:
    """The hallucination filter's report in its JSON form (`FilterReport` as `Answer.to_dict` writes it, so an
    answer from a server prints the same; typing it would load the answer stage for a remote answer): removed,
    kept and unverified items."""
    if report.get("removed"):
        table = Table(title="removed (not in the retrieved contexts)")
        for col in ("kind", "value", "replacement"):
            table.add_column(col, overflow="fold")
        for r in report["removed"]:
            table.add_row(r["kind"], escape(r["value"]), escape(r["replacement"] or "(dropped)"))
        console.print(table)
    if report.get("kept"):
        kept = ", ".join(f"{k['kind']}:{k['value']}→[{k['context']}]" for k in report["kept"])
        console.print(f"[bold]kept[/] [dim]{escape(kept)}[/]")
    for u in report.get("unverified", []):
        console.print(f"[yellow]unverified {u['kind']}[/] {escape(u['value'])}")


def _read(path: Path) -> str:
    if not path.is_file():
        raise ConfigError(f"{path} does not exist; pass a text file")
    return path.read_text(encoding="utf-8")


def _chunk_of(d: dict[str, Any], chunk_id: str, stem: str) -> Chunk:
    """A chunk from one JSON object of a contexts file; what it leaves out comes from the file's name."""
    from geunkeo.corpus.base import Chunk

    title = d.get("title", stem)
    return Chunk(chunk_id=d.get("chunk_id", chunk_id), doc_id=d.get("doc_id", stem), title=title, text=d["text"],
                 location=d.get("location", title), lang=d.get("lang", "ko"), article=d.get("article"),
                 paragraphs=d.get("paragraphs", []))


def _contexts(path: Path):
    """A .txt file is one context titled by its file name; .json holds a chunk or a list, .jsonl one per line."""
    import json

    from geunkeo.corpus.base import Chunk

    raw = _read(path)
    if path.suffix in (".json", ".jsonl"):
        try:
            items = ([json.loads(ln) for ln in raw.splitlines() if ln.strip()] if path.suffix == ".jsonl"
                     else json.loads(raw))
        except json.JSONDecodeError as e:
            raise ConfigError(f"{path}: not valid JSON ({e}); pass chunk objects or a .txt file") from e
        items = items if isinstance(items, list) else [items]
        out = []
        for i, d in enumerate(items, 1):
            if not isinstance(d, dict) or "text" not in d:
                raise ConfigError(f"{path}: item {i} has no 'text' field")
            out.append(_chunk_of(d, f"{path.stem}#{i}", path.stem))
        return out
    return [Chunk(chunk_id=path.stem, doc_id=path.stem, title=path.stem, text=raw, location=path.stem)]
