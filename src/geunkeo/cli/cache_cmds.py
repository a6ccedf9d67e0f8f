"""`geunkeo cache stats|clear` (the LLM response cache) and `geunkeo llm ping` (one tiny call to the LLM)."""

from __future__ import annotations

from typing import Any

import typer
from rich.markup import escape
from rich.table import Table

from geunkeo.cli.common import console, err_console, print_json, settings_from, user_errors

cache_app = typer.Typer(help="The persistent LLM response cache.", no_args_is_help=True)
llm_app = typer.Typer(help="Check the configured LLM provider.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(cache_app, name="cache")
    app.add_typer(llm_app, name="llm")


def _cache(path: str | None):
    from geunkeo.llm.cache import LLMCache, default_cache_path

    settings = settings_from()
    return LLMCache(default_cache_path(path or settings.llm.cache_path))


@cache_app.command("stats")
def stats_cmd(
    path: str = typer.Option(None, "--path", help="Cache file (default: llm.cache_path or $GEUNKEO_HOME)"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Entries, size and the persisted hit/miss counts of the LLM response cache."""
    with user_errors():
        st = _cache(path).stats()
    if as_json:
        print_json({"path": st.path, "entries": st.entries, "hits": st.hits, "misses": st.misses,
                    "hit_rate": st.hit_rate, "bytes": st.bytes})
        return
    table = Table(title="LLM response cache", show_header=False)
    table.add_row("path", st.path)
    table.add_row("entries", str(st.entries))
    table.add_row("hits / misses", f"{st.hits} / {st.misses}")
    table.add_row("hit rate", "–" if st.hit_rate is None else f"{st.hit_rate:.1%}")
    table.add_row("size", f"{st.bytes / 1024:.1f} KiB")
    console.print(table)


@cache_app.command("clear")
def clear_cmd(
    path: str = typer.Option(None, "--path", help="Cache file (default: llm.cache_path or $GEUNKEO_HOME)"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Delete every cached LLM response and reset the hit/miss counts."""
    with user_errors():
        cache = _cache(path)
        removed = cache.clear()
    if as_json:
        print_json({"path": str(cache.path), "removed": removed})
        return
    console.print(f"[green]cleared[/] {removed} cached responses from {cache.path}")


@llm_app.command("ping")
def ping_cmd(
    provider: str = typer.Option(None, "--provider", help="ollama | openai | openai-compatible | gemini | llamacpp"),
    model: str = typer.Option(None, "--model"),
    base_url: str = typer.Option(None, "--base-url"),
    gguf: str = typer.Option(None, "--gguf", help="llamacpp: path of a local .gguf file"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """One tiny uncached call: prints the latency and reply, or the reason it failed."""
    from geunkeo.errors import LLMError
    from geunkeo.llm.base import Message
    from geunkeo.llm.registry import create_provider

    with user_errors():
        settings = settings_from(llm=provider, model=model, base_url=base_url)
        if gguf:
            settings.llm.gguf_path = gguf
        if settings.llm.provider == "none":
            err_console.print("[yellow]no LLM configured:[/] pass --provider or set GEUNKEO_LLM__PROVIDER")
            raise typer.Exit(2)
        # Bypass the cache: a ping must reach the provider.
        llm = create_provider(settings.llm)
    result: dict[str, Any] = {"provider": llm.provider, "model": llm.model}
    try:
        out = llm.complete([Message("user", "Reply with the single word: pong")], max_tokens=8)
    except LLMError as e:
        result.update(ok=False, error=str(e))
        if as_json:
            print_json(result)
        else:
            err_console.print(f"[bold red]{llm.provider} unreachable:[/] {escape(str(e))}")
        raise typer.Exit(1) from None
    result.update(ok=True, ms=round(out.ms, 1), reply=out.text.strip()[:80], model=out.model,
                  prompt_tokens=out.prompt_tokens, completion_tokens=out.completion_tokens)
    if as_json:
        print_json(result)
        return
    console.print(f"[green]ok[/] {llm.provider} {escape(out.model)}: {out.ms:.0f} ms, reply {escape(repr(result['reply']))}")
