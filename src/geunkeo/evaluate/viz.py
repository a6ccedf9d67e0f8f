"""The embedding picture (seed 004 fig. 2): where queries, HyDE answers and titles, document titles and chunk
contents sit relative to each other, as a 2-D PCA of the index's own vectors, in one offline HTML page.

Content and title vectors come from the index; query vectors are the questions of an evaluation run (or given
ones) embedded as queries; HyDE answer and title vectors are drawn when the run recorded them (an LLM run) —
without an LLM there are none, and the page says so.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from geunkeo.errors import ConfigError

KINDS = ("content", "title", "query", "hyde_answer", "hyde_title")
_COLORS = {"content": "#9fb3c8", "title": "#1f6feb", "query": "#d1242f", "hyde_answer": "#bf8700", "hyde_title": "#8250df"}


def pca_2d(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(points in 2-D, explained variance ratio of the two axes) by SVD of the centred matrix."""
    centred = x - x.mean(axis=0, keepdims=True)
    _, s, vt = np.linalg.svd(centred, full_matrices=False)
    var = s**2 / max(float((s**2).sum()), 1e-12)
    return centred @ vt[:2].T, var[:2]


def _run_texts(run: Path) -> dict[str, list[tuple[str, str]]]:
    """(label, text) per kind from a run's cases.jsonl: questions, and HyDE texts when the run recorded them."""
    f = run / "cases.jsonl"
    if not f.is_file():
        raise ConfigError(f"{run} is not an evaluation run (no cases.jsonl)")
    out: dict[str, list[tuple[str, str]]] = {"query": [], "hyde_answer": [], "hyde_title": []}
    for line in f.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        out["query"].append((rec["query_id"], rec.get("query_text") or ""))
        plan = (rec.get("retrieval") or {}).get("plan") or {}
        for kind in ("hyde_answer", "hyde_title"):
            if plan.get(kind):
                out[kind].append((rec["query_id"], plan[kind]))
    return out


def embedding_points(index, run: str | Path | None = None, queries: list[str] | None = None,
                     max_content: int = 3000) -> dict[str, Any]:
    """Every kind's vectors and labels, projected together to 2-D."""
    store = index.store
    if not hasattr(store, "vectors"):
        raise ConfigError("the picture needs the embedded store's vectors (index.store = 'embedded')")
    v = store.vectors()
    chunks, content = v["chunks"], v["content"]
    if len(chunks) > max_content:  # an even sample keeps the page light
        pick = np.linspace(0, len(chunks) - 1, max_content).astype(int)
        chunks, content = [chunks[i] for i in pick], content[pick]
    groups: dict[str, tuple[list[str], np.ndarray]] = {
        "content": ([f"{c.location}" for c in chunks], content),
        "title": ([v["titles"].get(d, d) for d in v["title_ids"]], v["title_vectors"]),
    }
    texts = _run_texts(Path(run)) if run else {"query": [(q, q) for q in queries or []]}
    for kind, items in texts.items():
        if items:
            vecs = index.embedder.embed_queries([t for _, t in items]) if kind == "query" else \
                index.embedder.embed_passages([t for _, t in items])
            groups[kind] = ([label for label, _ in items], np.asarray(vecs, dtype=np.float32))
    kinds = [k for k in KINDS if k in groups and len(groups[k][0])]
    stacked = np.vstack([groups[k][1] for k in kinds])
    xy, var = pca_2d(stacked)
    out, at = {}, 0
    for k in kinds:
        n = len(groups[k][0])
        out[k] = {"labels": groups[k][0], "xy": xy[at: at + n].tolist()}
        at += n
    return {"kinds": out, "explained": var.tolist(), "missing": [k for k in KINDS if k not in out]}


def write_html(points: dict[str, Any], out: str | Path, title: str = "geunkeo — embedding picture") -> Path:
    """A self-contained page (plotly.js inlined: no network) with one trace per kind."""
    import plotly.graph_objects as go

    fig = go.Figure()
    for kind, d in points["kinds"].items():
        xs, ys = zip(*d["xy"], strict=True) if d["xy"] else ((), ())
        fig.add_trace(go.Scattergl(x=xs, y=ys, mode="markers", name=f"{kind} ({len(xs)})", text=d["labels"],
                                   hoverinfo="text+name", marker={"size": 5 if kind == "content" else 8,
                                                                  "color": _COLORS[kind],
                                                                  "opacity": 0.45 if kind == "content" else 0.9}))
    ev = points["explained"]
    note = ("no HyDE vectors: the run used no LLM (HyDE answers and titles are drawn for LLM runs)"
            if {"hyde_answer", "hyde_title"} <= set(points["missing"]) else "")
    fig.update_layout(title=f"{title}<br><sup>PCA of the index's embeddings: PC1 {ev[0]:.0%}, PC2 "
                            f"{ev[1] if len(ev) > 1 else 0:.0%} of the variance. {note}</sup>",
                      xaxis_title="PC1", yaxis_title="PC2", template="plotly_white", height=760)
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(fig.to_html(include_plotlyjs=True, full_html=True), encoding="utf-8")
    return path
