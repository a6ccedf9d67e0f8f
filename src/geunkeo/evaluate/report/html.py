"""The report: executive, model-debug and compliance views (seed 003 §7). As a file (`write_report`) it is offline;
the server renders it live (`server/runs_routes.live_report`) with plotly.js from a cached URL.

In the file plotly.js is inlined once (no CDN, no network); every other byte is written here. Values with no data show
"n/a" — a missing number is never drawn as 0.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from plotly.offline import get_plotlyjs

from geunkeo.evaluate.records import CaseRecord, ClaimRecord
from geunkeo.evaluate.report import figures

# text colours keep WCAG AA contrast (4.5:1) on their backgrounds; tests/browser/test_walk.py checks with axe-core
_CSS = """
*{box-sizing:border-box}body{margin:0;font-family:Inter,'Noto Sans KR','Apple SD Gothic Neo',sans-serif;
background:#f4f6fa;color:#1f2a37;font-size:14px;line-height:1.5}
header{background:#1f2a37;color:#fff;padding:22px 36px}header h1{margin:0;font-size:22px;font-weight:600}
header .meta{color:#b8c2d3;font-size:13px;margin-top:4px}
nav{position:sticky;top:0;z-index:5;background:#fff;border-bottom:1px solid #e3e7ee;padding:0 36px}
nav a{display:inline-block;padding:12px 16px;color:#4a5568;text-decoration:none;font-weight:500}
nav a:hover{color:#3867d6}main{padding:8px 36px 40px;max-width:1400px;margin:auto}
section{margin-top:26px}h2{font-size:18px;margin:0 0 4px}h2 small{color:#5b6578;font-weight:400;font-size:13px}
p.lead{color:#5b6578;margin:0 0 14px}
.tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(180px,1fr));gap:14px}
.tile{background:#fff;border-radius:10px;padding:16px 18px;box-shadow:0 1px 2px rgba(16,24,40,.06);
border-left:5px solid #cbd2dc}.tile.ok{border-left-color:#27ae60}.tile.bad{border-left-color:#d64541}
.tile .label{color:#5b6578;font-size:12px;text-transform:uppercase;letter-spacing:.04em}
.tile .value{font-size:30px;font-weight:650;margin-top:2px}.tile .sub{color:#5b6578;font-size:12px}
.grid2{display:grid;grid-template-columns:1fr 1fr;gap:14px;margin-top:14px}
.grid3{display:grid;grid-template-columns:1fr 1fr 1fr;gap:14px;margin-top:14px}
.card{background:#fff;border-radius:10px;padding:12px 14px;box-shadow:0 1px 2px rgba(16,24,40,.06)}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{text-align:left;padding:6px 8px;
border-bottom:1px solid #edf0f5;vertical-align:top}th{color:#5b6578;font-weight:600;background:#fafbfd}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.pill{display:inline-block;padding:1px 8px;border-radius:10px;font-size:11px;font-weight:600;color:#fff}
.CRITICAL{background:#c0392b}.WARNING{background:#a35f00}.PASSED{background:#1e7e45}
.code{font-family:ui-monospace,Menlo,monospace;font-size:11.5px;background:#eef1f6;border-radius:4px;
padding:1px 5px;margin:1px 2px;display:inline-block}
.case{background:#fff;border-radius:10px;padding:14px 18px;margin-top:12px;box-shadow:0 1px 2px rgba(16,24,40,.06)}
.case .q{font-size:15px;font-weight:600}.case .ans{background:#f7f9fc;border-radius:6px;padding:8px 10px;
margin:8px 0;white-space:pre-wrap}.claim{padding:4px 0 4px 10px;border-left:3px solid #cbd2dc;margin:4px 0}
.claim.ok{border-left-color:#27ae60}.claim.bad{border-left-color:#d64541;background:#fdf3f2}
.muted{color:#5b6578}.empty{padding:10px 4px;color:#5b6578;min-height:120px}
nav a.back{color:#3867d6;border-right:1px solid #e3e7ee}
.empty .etitle{color:#1f2a37;font-size:15px;margin-bottom:6px}h3{font-size:14px;margin:16px 0 8px}.why{color:#b03a2e;font-size:12px}
@media (max-width:900px){.grid2,.grid3{grid-template-columns:1fr}}
"""


def _fmt(v: Any, pct: bool = True) -> str:
    if v is None:
        return "n/a"
    if isinstance(v, float):
        return f"{v:.1%}" if pct else f"{v:.3f}"
    return escape(str(v))


def _tile(label: str, value: Any, sub: str = "", target: tuple[str, float] | None = None,
          pct: bool = True) -> str:
    cls = ""
    if target and isinstance(value, float):
        op, t = target
        cls = "ok" if (value >= t if op == ">=" else value <= t) else "bad"
        sub = f"target {op} {t:.0%}" + (f" · {sub}" if sub else "")
    return (f'<div class="tile {cls}"><div class="label">{escape(label)}</div>'
            f'<div class="value">{_fmt(value, pct)}</div><div class="sub">{escape(sub)}</div></div>')


def _table(head: list[str], rows: list[list[Any]], num_cols: set[int] | None = None) -> str:
    num_cols = num_cols or set()
    body = "".join("<tr>" + "".join(
        f'<td class="num">{c}</td>' if i in num_cols else f"<td>{c}</td>" for i, c in enumerate(r)) + "</tr>"
        for r in rows) or f'<tr><td colspan="{len(head)}" class="muted">none</td></tr>'
    return "<table><tr>" + "".join(f"<th>{escape(h)}</th>" for h in head) + "</tr>" + body + "</table>"


def _pill(level: str) -> str:
    return f'<span class="pill {escape(level)}">{escape(level)}</span>'


def _codes(codes: list[str]) -> str:
    return "".join(f'<span class="code">{escape(c)}</span>' for c in codes) or '<span class="muted">—</span>'


def _executive(s: dict[str, Any]) -> str:
    ex, clir, t = s["executive"], s.get("crosslingual", {}), s["executive"]["targets"]
    tiles = "".join([
        _tile("P0 pass rate", ex["p0_pass_rate"], f"{ex['flags']['PASSED']} of {ex['cases']} PASSED",
              (t["p0_pass_rate"]["op"], t["p0_pass_rate"]["value"])),
        _tile("Hallucination rate", ex["hallucination_rate"], "cases with an unsupported claim",
              (t["hallucination_rate"]["op"], t["hallucination_rate"]["value"])),
        _tile("Citation missing", ex["citation_missing_rate"], f"of {ex['claims']} claims",
              (t["citation_missing_rate"]["op"], t["citation_missing_rate"]["value"])),
        _tile("Review completion", ex["review_completion_rate"],
              f"{s['review_queue']['reviewed']} of {s['review_queue']['queued']} queued",
              (t["review_completion_rate"]["op"], t["review_completion_rate"]["value"])),
        _tile("Would escalate to a person", ex.get("deflection_rate"),
              " · ".join(f"{k} {v}" for k, v in sorted(ex.get("serving_actions", {}).items()))),
        _tile("Same documents ko↔en", clir.get("same_documents_rate"), f"{clir.get('pairs', 0)} pairs, top-1 doc"),
        _tile("Claim sets equivalent", clir.get("claim_set_equivalence_rate"), "ko/en answers"),
    ])
    return (f'<section id="executive"><h2>Executive view <small>is it safe to ship?</small></h2>'
            f'<p class="lead">Profile <b>{escape(s["profile"])}</b>: a case PASSES only when all four P0 gates '
            f'were computed and passed and no claim is unsupported.</p><div class="tiles">{tiles}</div>'
            f'<div class="grid2"><div class="card">{figures.flag_donut(ex["flags"])}</div>'
            f'<div class="card">{figures.gate_pass_bars(s["gates"])}</div></div>'
            f'<div class="card" style="margin-top:14px">{figures.pass_rate_groups(s["pass_rates_by"], s["_records"])}</div>'
            "</section>")


def _claim_html(c: ClaimRecord) -> str:
    f = c.evaluation.faithfulness
    ok = f.supported
    cls = "ok" if ok else ("bad" if ok is False else "")
    mark = "✓ supported" if ok else ("✗ unsupported" if ok is False else "· not checked")
    cite = c.citation
    where = (f'cites {escape(cite.location or cite.chunk_id or "")}'
             + ("" if cite.accurate is not False else " (citation does not support it)")
             if cite.provided else "no citation")
    why = f'<div class="why">{escape(f.failure_reason or "")}</div>' if ok is False else ""
    conf = f" · confidence {f.confidence:.2f}" if isinstance(f.confidence, int | float) else ""
    return (f'<div class="claim {cls}"><b>{escape(c.claim_id)}</b> {escape(c.claim_text)}'
            f'<div class="muted">{mark}{conf} · {where} · {_codes(c.risk_tags)}</div>{why}</div>')


def _case_html(r: CaseRecord) -> str:
    resp = r.response
    scores = ", ".join(f"{k} {_fmt(v, False)}" for k, v in r.aggregate_scores.items() if v is not None)
    rec = r.retrieval.metrics.get("context_recall")
    docs = ", ".join(escape(d.doc_id) for d in r.retrieval.retrieved_docs[:4]) or "nothing"
    claims = "".join(_claim_html(c) for c in resp.claims) or '<div class="muted">no claims</div>'
    return (f'<div class="case">{_pill(r.flag.level)} <span class="muted">{escape(r.query_id)} · '
            f'{escape(r.query_language)} · {escape(r.task or "")}</span>'
            f'<div class="q">{escape(r.query_text)}</div><div>{_codes(r.flag.reasons)}</div>'
            f'<div class="ans">{escape(resp.response_text or "(no answer)")}</div>'
            f'<div class="muted">reference: {escape(resp.reference_answer or "—")}</div>'
            f'<div class="muted">retrieved: {docs} · context recall {_fmt(rec, False)} · {escape(scores)}</div>'
            f"{claims}</div>")


def _debug(s: dict[str, Any], records: list[CaseRecord]) -> str:
    d = s["model_debug"]
    thresholds = {m: g["threshold"] for m, g in s["gates"].items()}
    stage = sorted(d["failure_stage"].items(), key=lambda x: -x[1])
    versions = [[escape(v), x["cases"], _fmt(x["failure_rate"])] for v, x in d["failure_rate_by_doc_version"].items()]
    methods = [[escape(n), _fmt(m["mean"], False), m["computable"], m["not_computable"],
                _codes([f"{k} ×{v}" for k, v in m["methods"].items()]),
                escape("; ".join(f"{k} ×{v}" for k, v in m["not_computable_reasons"].items()))]
               for n, m in s["metrics"].items()]
    noise = d["noise_sensitivity_by_case"]
    worst = "".join(_case_html(r) for r in s.get("_worst", []))
    clir = s.get("crosslingual", {})
    pairs = [[escape(p["parallel_id"]), escape(p["ko_id"]), escape(p["en_id"]),
              {True: "yes", False: "no", None: "n/a"}[p["same_top1"]], _fmt(p["doc_overlap"], False),
              _fmt(p["claim_equivalence"], False), escape(" / ".join(p["unmatched_claims"] or []))]
             for p in clir.get("details", [])]
    clir_html = (f'<h3>Cross-lingual pairs <small class="muted">'
                 f'{escape(str(clir.get("method", {}).get("claim_set", "")))}</small></h3><div class="card">'
                 + _table(["pair", "ko", "en", "same top-1 doc", "doc overlap", "claim equivalence",
                           "claims without a counterpart"], pairs, {4, 5}) + "</div>")
    return (f'<section id="debug"><h2>Model debug view <small>where does it break?</small></h2>'
            f'<div class="grid2"><div class="card">{figures.hbar(d["claim_failure_top5"], "Claim failure patterns, top 5", if_empty="no failing claim")}'
            f'</div><div class="card">{figures.hbar(stage, "Failing cases by stage", figures.COLORS["WARNING"], if_empty="no failing case")}</div></div>'
            f'<div class="grid2"><div class="card">{figures.metric_distributions(records, thresholds)}</div>'
            f'<div class="card">{figures.metric_distributions(records, {}, True, "Retrieval ranking (ranx)")}'
            "</div></div>"
            f'<div class="grid2"><div class="card">'
            f'{figures.hbar([(q, round(v, 3)) for q, v in sorted(noise, key=lambda x: -x[1])[:12]], "Noise sensitivity by case (≤ 0.15 wanted)", figures.COLORS["blue"], ":.2f", "not computed for any case")}'
            f'</div><div class="card"><h3>Failure rate by document version</h3>'
            f'{_table(["version of top document", "cases", "not PASSED"], versions, {1, 2})}'
            f'<h3>Reason codes</h3>{_table(["code", "cases"], [[_codes([k]), v] for k, v in d["reason_counts"].items()], {1})}'
            f'</div></div>{clir_html}{_operations(d.get("operations"))}<h3>How every number was made</h3><div class="card">'
            f'{_table(["metric", "mean", "computed", "not computable", "method", "why not computable"], methods, {1, 2, 3})}'
            f'</div><h3>Worst cases, with their claims</h3>{worst or "<p class=muted>No failing case.</p>"}</section>')


def _operations(ops: dict[str, Any] | None) -> str:
    """P2 operations: language match and outliers, each with its method."""
    if not ops:
        return ""
    rows = [[escape(name), o["n"], _fmt(o.get("median"), False),
             escape(", ".join(f"{q} ({v})" for q, v in o["cases"][:8]) + (" …" if len(o["cases"]) > 8 else ""))]
            for name, o in ops["outliers"].items() if o["n"]]
    return (f'<h3>Operations <small class="muted">P2 — {escape(ops["outlier_method"])}</small></h3><div class="card">'
            f'<p>Answers in the asker\'s language: <b>{_fmt(ops["language_match_rate"])}</b> '
            f'<small class="muted">({escape(ops["language_match_method"])})</small></p>'
            f'<p>New question types (full review): <b>{ops.get("new_question_types", 0)}</b> '
            f'{escape("; ".join(", ".join(c) for c in ops.get("new_question_clusters", [])[:6]))} '
            f'<small class="muted">({escape(ops.get("new_question_method", ""))})</small></p>'
            + _table(["measure", "cases", "median", "outlying cases"], rows, {1, 2}) + "</div>")


def _compliance(s: dict[str, Any], records: list[CaseRecord], queue_items: list[dict[str, Any]]) -> str:
    c, q = s["compliance"], s["review_queue"]
    tiles = "".join([
        _tile("Claims without citation", c["uncited_claim_rate"], "audit readiness"),
        _tile("High-risk claim failures", c["high_risk_claim_failure_rate"],
              f"{c['high_risk_claims']} exclusion/amount claims"),
        _tile("Review disagreement", c["review_disagreement_rate"], f"{q['reviewed']} reviewed"),
        _tile("Removed by the filter", c["removed_total"], "contacts/departments/citations", pct=False),
    ])
    removed = [[escape(r.query_id), escape(x.kind), escape(x.value), escape(x.replacement)]
               for r in records for x in r.removed]
    items = [[_pill(i["flag_level"]), escape(i["query_id"]), escape(i["queue_type"]), i["priority"],
              escape(i["stratum"] or ""), escape(i["review_deadline"] or ""),
              escape(i["review_decision"] or "pending"), escape(i["reviewer_id"] or "")] for i in queue_items]
    return (f'<section id="compliance"><h2>Compliance view <small>can every claim be audited?</small>'
            f'</h2><div class="tiles">{tiles}</div><div class="grid2">'
            f'<div class="card"><h3>Review queue</h3>{_table(["", "count"], [["queued", q["queued"]], ["full review", q["full_review"]], ["sample review", q["sample_review"]], ["reviewed", q["reviewed"]]], {1})}</div>'
            f'<div class="card"><h3>Decisions</h3>{_table(["decision", "count"], [[k, v] for k, v in q["decisions"].items()], {1})}</div>'
            f'</div><h3>Removed hallucinations <small class="muted">(answer filter)</small></h3>'
            f'<div class="card">{_table(["query", "kind", "removed", "replaced by"], removed)}</div>'
            f'<h3>Queue items</h3><div class="card">'
            f'{_table(["flag", "query", "queue", "priority", "stratum", "deadline", "decision", "reviewer"], items, {3})}'
            "</div></section>")


def dataset_label(dataset: str | None) -> str:
    """The data set as a report names it: the file or folder name and any note, never its path on the machine."""
    head, sep, note = str(dataset or "").partition(" (")
    return Path(head).name + (sep + note if sep else "")


def _meta(summary: dict[str, Any]) -> str:
    p = summary.get("pipeline", {})
    return (f'{escape(summary.get("eval_id", ""))} · {escape(dataset_label(summary.get("dataset")))} · '
            f'{summary["cases"]} cases · profile {escape(summary.get("profile", ""))} · '
            f'answerer {escape(str(p.get("answerer", "?")))} · embedder {escape(str(p.get("embedder", "?")))} · '
            f'{summary.get("seconds", "?")} s · {escape(summary.get("timestamp", ""))}')


def render_report(summary: dict[str, Any], records: list[CaseRecord],
                  queue_items: list[dict[str, Any]] | None = None, *, plotly_src: str | None = None,
                  links: list[tuple[str, str]] | None = None, note: str = "", icon: str | None = None) -> str:
    """The report as one HTML string: self-contained (plotly inlined) unless `plotly_src` names a URL to load it
    from; `links` (href, label) and `note` go in the header (the server's way back and its "live" line), `icon`
    is the server's favicon URL."""
    from geunkeo.evaluate.report.dashboard import worst_cases

    s = {**summary, "_worst": worst_cases(records), "_records": records}
    script = (f'<script src="{escape(plotly_src)}" defer></script>' if plotly_src
              else f"<script>{get_plotlyjs()}</script>") + f"<script>{figures.LAZY_PLOT}</script>"
    script += f'<link rel="icon" type="image/svg+xml" href="{escape(icon)}">' if icon else ""
    back = "".join(f'<a class="back" href="{escape(h)}">{escape(t)}</a>' for h, t in links or [])
    live = f'<div class="meta" id="live">{escape(note)}</div>' if note else ""
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>geunkeo evaluation '
            f'{escape(summary.get("eval_id", ""))}</title><style>{_CSS}</style>{script}</head><body>'
            f'<header><h1>근거 geunkeo · evaluation report</h1><div class="meta">{_meta(summary)}</div>{live}</header>'
            f'<nav>{back}<a href="#executive">Executive</a><a href="#debug">Model debug</a>'
            '<a href="#compliance">Compliance</a></nav><main>'
            f"{_executive(s)}{_debug(s, records)}{_compliance(s, records, queue_items or [])}</main></body></html>")


def with_reviews(summary: dict[str, Any], queue: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """`summary` with its review figures (queue, completion, agreement, disagreement) read now from the review
    store `queue` (a ReviewQueue), and this run's queue items; the summary given is not changed."""
    eval_id = summary.get("eval_id")
    rq = queue.stats(eval_id)
    out = {**summary, "review_queue": rq, "executive": {**summary["executive"]},
           "compliance": {**summary["compliance"]}}
    out["executive"]["review_completion_rate"] = rq["completion_rate"]
    out["executive"]["review_agreement_rate"] = rq["agreement_rate"]
    out["compliance"]["review_disagreement_rate"] = rq["disagreement_rate"]
    return out, queue.items(eval_id=eval_id)


def write_report(run_dir: str | Path, summary: dict[str, Any], records: list[CaseRecord],
                 queue_items: list[dict[str, Any]] | None = None) -> Path:
    """Write RUN_DIR/report.html."""
    out = Path(run_dir) / "report.html"
    out.write_text(render_report(summary, records, queue_items), encoding="utf-8")
    return out
