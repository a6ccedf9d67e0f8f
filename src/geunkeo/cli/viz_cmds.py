"""`geunkeo viz`: the embedding picture (PCA of contents, titles, queries and HyDE texts) as an offline HTML page."""

from __future__ import annotations

from pathlib import Path

import typer

from geunkeo.cli.common import console, settings_from, user_errors


def register(app: typer.Typer) -> None:
    app.command("viz")(viz_cmd)


def viz_cmd(index: Path = typer.Option(..., "--index", "-i"),
            run: Path = typer.Option(None, "--run", help="An evaluation run: its questions (and HyDE texts) are drawn"),
            query: list[str] = typer.Option(None, "--query", "-q", help="A question to draw (repeat)"),
            out: Path = typer.Option(Path("embeddings.html"), "--out", help="HTML file to write")) -> None:
    """Write a PCA picture of the index's embeddings (seed 004 fig. 2) to --out."""
    import geunkeo
    from geunkeo.evaluate.viz import embedding_points, write_html

    with user_errors():
        idx = geunkeo.open_index(index, settings_from())
        points = embedding_points(idx, run=run, queries=query)
        path = write_html(points, out)
    counts = ", ".join(f"{k} {len(v['labels'])}" for k, v in points["kinds"].items())
    console.print(f"wrote {path} ({counts}; PC1+PC2 explain {sum(points['explained']):.0%})")
    if points["missing"]:
        console.print(f"[dim]not drawn (none recorded): {', '.join(points['missing'])}[/dim]")
