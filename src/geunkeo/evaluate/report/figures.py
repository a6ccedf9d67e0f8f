"""Plotly figures for the report, each returned as an HTML fragment drawn lazily (the page loads plotly.js once);
their titles, legends and axis words in the report's language (report/strings.py)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

import plotly.graph_objects as go

from geunkeo.evaluate.codes import MOST_SEVERE_FIRST, FlagLevel
from geunkeo.evaluate.records import CaseRecord
from geunkeo.evaluate.report.strings import REPORT, level_word, metric_name
from geunkeo.evaluate.summary_records import GateStat, GroupRates

COLORS = {"CRITICAL": "#d64541", "WARNING": "#f39c12", "PASSED": "#27ae60", "ink": "#1f2a37", "muted": "#8a94a6",
          "blue": "#3867d6", "grid": "#e8ecf2"}
_CONFIG = {"displayModeBar": False, "responsive": True}


def _layout(fig: go.Figure, height: int = 300, **kw: Any) -> go.Figure:
    fig.update_layout(height=height, margin=dict(l=10, r=10, t=36, b=10), paper_bgcolor="white",
                      plot_bgcolor="white", font=dict(family="Inter, 'Noto Sans KR', sans-serif", size=12,
                                                      color=COLORS["ink"]), **kw)
    fig.update_xaxes(gridcolor=COLORS["grid"], zeroline=False)
    fig.update_yaxes(gridcolor=COLORS["grid"], zeroline=False)
    return fig


# Drawing every figure at load cost the report ~1 s in the browser: each figure is drawn when it comes near the
# screen instead (IntersectionObserver), and once plotly.js has loaded (the live page loads it with `defer`).
LAZY_PLOT = ("function geunkeoPlot(id,d,l,c){function draw(){var el=document.getElementById(id);"
             "if(!window.IntersectionObserver){Plotly.newPlot(id,d,l,c);return}"
             "new IntersectionObserver(function(es,o){if(es.some(function(e){return e.isIntersecting}))"
             "{o.disconnect();Plotly.newPlot(id,d,l,c)}},{rootMargin:'300px'}).observe(el)}"
             "if(window.Plotly){draw()}else{document.addEventListener('DOMContentLoaded',draw)}}")


def fragment(fig: go.Figure) -> str:
    """The figure as a div and a script that draws it through `LAZY_PLOT`'s geunkeoPlot."""
    return fig.to_html(full_html=False, include_plotlyjs=False, config=_CONFIG).replace(
        "Plotly.newPlot(", "geunkeoPlot(", 1)


def flag_donut(flags: dict[str, int], lang: str = "en") -> str:
    t = REPORT[lang]
    levels = [lvl.value for lvl in MOST_SEVERE_FIRST if flags.get(lvl)]
    fig = go.Figure(go.Pie(labels=[level_word(lvl, lang) for lvl in levels], values=[flags[lvl] for lvl in levels],
                           hole=0.62, sort=False, marker=dict(colors=[COLORS[lvl] for lvl in levels]),
                           textinfo="value+percent"))
    fig.add_annotation(text=f"<b>{sum(flags.values())}</b><br>{t['fig_cases']}", showarrow=False, font=dict(size=16))
    return fragment(_layout(fig, 280, title=t["fig_flags"], showlegend=True, legend=dict(orientation="h", y=-0.05)))


def gate_pass_bars(gates: dict[str, GateStat], lang: str = "en") -> str:
    """Per gated metric: stacked pass / fail / not computable counts, P0 first."""
    t = REPORT[lang]
    names = sorted(gates, key=lambda m: (gates[m].priority, m))
    labels = [f"{gates[m].priority} {metric_name(m, lang)} {gates[m].op} {gates[m].threshold:g}" for m in names]
    fig = go.Figure()
    for status, color in (("pass", COLORS["PASSED"]), ("fail", COLORS["CRITICAL"]),
                          ("not_computable", COLORS["muted"])):
        fig.add_bar(y=labels, x=[gates[m].count(status) for m in names], name=t[f"fig_{status}"],
                    orientation="h", marker_color=color)
    fig.update_yaxes(autorange="reversed")
    return fragment(_layout(fig, 60 + 34 * len(names), title=t["fig_gates"], barmode="stack",
                            legend=dict(orientation="h", y=-0.12)))


def pass_rate_groups(by: dict[str, dict[str, GroupRates]], records: list[CaseRecord], lang: str = "en") -> str:
    """Flag levels per language, task and complexity (stacked shares), labelled with the P0 gate pass rate."""
    from geunkeo.evaluate.report.dashboard import group_of

    t = REPORT[lang]
    x: list[str] = []
    shares: dict[FlagLevel, list[float]] = {lvl: [] for lvl in MOST_SEVERE_FIRST}
    for key, groups in by.items():
        if key == "style" and set(groups) == {"?"}:
            continue  # the dataset has no query styles
        for g, st in groups.items():
            rows = [r for r in records if group_of(r, key) == g]
            p0 = st.p0_gates_passed
            rate = t["fig_group_p0"].format(rate=f"{0 if p0 is None else p0:.0%}")
            x.append(f"{t.get('group_' + key, key)}: {g}<br>{rate} · n={st.cases}")
            for lvl in shares:
                shares[lvl].append(sum(r.flag.level == lvl for r in rows) / max(1, len(rows)))
    fig = go.Figure()
    for lvl, vals in shares.items():
        fig.add_bar(x=x, y=vals, name=level_word(lvl.value, lang), marker_color=COLORS[lvl], texttemplate="%{y:.0%}",
                    textposition="inside")
    fig.add_hline(y=0.7, line_dash="dot", line_color=COLORS["ink"], annotation_text=t["fig_target"])
    fig.update_yaxes(range=[0, 1], tickformat=".0%")
    return fragment(_layout(fig, 320, title=t["fig_groups"], barmode="stack",
                            legend=dict(orientation="h", y=-0.25)))


RETRIEVAL_PREFIXES = ("recall@", "ndcg@", "mrr@", "map", "hit@", "precision@")


def metric_distributions(records: list[CaseRecord], thresholds: dict[str, float], retrieval: bool = False,
                         lang: str = "en", title: str = "") -> str:
    """One strip of per-case values per metric, with its threshold marked (ranking metrics or the others); each
    strip named as the report names the metric (its key in English, its name in Korean)."""
    t = REPORT[lang]
    title = title or t["distributions"]
    names = sorted({n for r in records for n, m in r.metrics.items() if m.computable
                    and n.startswith(RETRIEVAL_PREFIXES) == retrieval}, key=lambda n: (n not in thresholds, n))
    if not names:
        return empty(title, t["fig_no_metric"])
    fig = go.Figure()
    for n in names:
        vals = [(r.query_id, v) for r in records if (v := r.metric_value(n)) is not None]
        fig.add_box(x=[v for _, v in vals], name=metric_name(n, lang), boxpoints="all", jitter=0.4, pointpos=0, orientation="h",
                    text=[q for q, _ in vals], hovertemplate="%{text}: %{x:.3f}<extra></extra>",
                    marker=dict(size=5, color=COLORS["blue"], opacity=0.6), line=dict(color=COLORS["ink"]),
                    fillcolor="rgba(56,103,214,0.08)", showlegend=False)
        if n in thresholds:
            fig.add_scatter(x=[thresholds[n]], y=[metric_name(n, lang)], mode="markers", showlegend=False,
                            marker=dict(symbol="line-ns-open", size=22, color=COLORS["CRITICAL"], line_width=3),
                            hovertemplate=f"{metric_name(n, lang)} {t['fig_threshold']} {thresholds[n]:g}<extra></extra>")
    fig.update_xaxes(range=[-0.02, 1.02])
    fig.update_yaxes(autorange="reversed")
    return fragment(_layout(fig, 80 + 30 * len(names), title=title))


def empty(title: str, message: str) -> str:
    return f'<div class="empty"><div class="etitle">{escape(title)}</div><div>{escape(message)}</div></div>'


def hbar(pairs: Sequence[tuple[str, float]], title: str, color: str = COLORS["CRITICAL"], fmt: str = "",
         if_empty: str = REPORT["en"]["fig_no_data"]) -> str:
    if not pairs:
        return empty(title, if_empty)
    labels = [p[0] for p in pairs]
    values = [p[1] for p in pairs]
    fig = go.Figure(go.Bar(y=labels, x=values, orientation="h", marker_color=color, text=values,
                           texttemplate=f"%{{x{fmt}}}", textposition="outside", cliponaxis=False))
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(range=[0, max(max(values), 1e-9) * 1.15])  # room for the value labels
    return fragment(_layout(fig, 70 + 32 * len(labels), title=title))
