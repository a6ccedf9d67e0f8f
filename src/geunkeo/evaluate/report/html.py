"""The report: executive, model-debug and compliance views (seed 003 §7). As a file (`write_report`) it is offline;
the server renders it live (`server/runs_routes.live_report`) with plotly.js from a cached URL.

In the file plotly.js is inlined once (no CDN, no network); every other byte is written here. Values with no data show
"n/a" — a missing number is never drawn as 0. Every word comes from report/strings.py in one language: English
(the file `geunkeo eval` writes) or Korean (the web app's default, `geunkeo eval report --lang ko`).
"""

from __future__ import annotations

from dataclasses import replace
from html import escape
from pathlib import Path
from typing import Any

from plotly.offline import get_plotlyjs

from geunkeo.evaluate.codes import FlagLevel
from geunkeo.evaluate.queue_records import QueueStats, ReviewItem
from geunkeo.evaluate.records import CaseRecord, ClaimRecord
from geunkeo.evaluate.report import figures
from geunkeo.evaluate.report.strings import (
    REPORT,
    flag_text,
    heads,
    lang_of,
    level_word,
    metric_name,
    value_word,
)
from geunkeo.evaluate.summary_records import Compliance, Crosslingual, ModelDebug, Operations, SummaryRecord

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


def _w(lang: str, key: str) -> str:
    """One of the report's words, safe as HTML text."""
    return escape(REPORT[lang][key], quote=False)


def _fmt(v: Any, lang: str, pct: bool = True) -> str:
    if v is None:
        return _w(lang, "na")
    if isinstance(v, float):
        return f"{v:.1%}" if pct else f"{v:.3f}"
    return escape(str(v))


def _tile(label: str, value: Any, lang: str, sub: str = "", target: tuple[str, float] | None = None,
          pct: bool = True) -> str:
    cls = ""
    if target and isinstance(value, float):
        op, t = target
        cls = "ok" if (value >= t if op == ">=" else value <= t) else "bad"
        sub = REPORT[lang]["target"].format(op=op, value=f"{t:.0%}") + (f" · {sub}" if sub else "")
    return (f'<div class="tile {cls}"><div class="label">{escape(label)}</div>'
            f'<div class="value">{_fmt(value, lang, pct)}</div><div class="sub">{escape(sub)}</div></div>')


def _table(head: list[str], rows: list[list[Any]], lang: str, num_cols: set[int] | None = None) -> str:
    num_cols = num_cols or set()
    body = "".join("<tr>" + "".join(
        f'<td class="num">{c}</td>' if i in num_cols else f"<td>{c}</td>" for i, c in enumerate(r)) + "</tr>"
        for r in rows) or f'<tr><td colspan="{len(head)}" class="muted">{_w(lang, "none")}</td></tr>'
    return "<table><tr>" + "".join(f"<th>{escape(h)}</th>" for h in head) + "</tr>" + body + "</table>"


def _coded(shown: str, code: str, lang: str) -> str:
    """`shown` as HTML; in Korean, with the code it stands for in a tooltip (where a reviewer can still find it)."""
    return escape(shown) if lang == "en" or shown == code else f'<span title="{escape(code)}">{escape(shown)}</span>'


def _metric(key: str, lang: str) -> str:
    return _coded(metric_name(key, lang), key, lang)


def _pill(level: str, lang: str) -> str:
    title = f' title="{escape(level)}"' if lang != "en" else ""
    return f'<span class="pill {escape(level)}"{title}>{escape(level_word(level, lang))}</span>'


def _codes(codes: list[str]) -> str:
    return "".join(f'<span class="code">{escape(c)}</span>' for c in codes) or '<span class="muted">—</span>'


def _tags(tags: list[str], lang: str) -> str:
    """A claim's risk tags: as codes in English; in Korean as words, each with its tag in a tooltip."""
    if lang == "en":
        return _codes(tags)
    return "".join(f'<span class="code">{_coded(value_word(x, lang), x, lang)}</span>' for x in tags) \
        or '<span class="muted">—</span>'


def _counted(counts: dict[str, int], lang: str, word: str) -> str:
    """A metric's methods or reasons with their case counts: in English each description as it is written; in
    Korean `word` (method, reason) with the description in a tooltip."""
    if lang == "en":
        return _codes([f"{k} ×{v}" for k, v in counts.items()]) if word == "method" \
            else escape("; ".join(f"{k} ×{v}" for k, v in counts.items()))
    return "".join(f'<span class="code" title="{escape(k)}">{_w(lang, word)} ×{v}</span>' for k, v in counts.items())


def _reasons(codes: list[str], lang: str) -> str:
    """Flag reason codes: as codes in English; in Korean as phrases, each with its code in a tooltip."""
    if lang == "en":
        return _codes(codes)
    return "".join(f'<span class="code" title="{escape(c)}">{escape(flag_text(c, lang))}</span>'
                   for c in codes) or '<span class="muted">—</span>'


def _method(text: str, lang: str, wrap: str = "{}") -> str:
    """How a figure was made: its description in English; in Korean the word "method" with the description (a
    formula or a library's name, written once in the code) in a tooltip."""
    if lang == "en":
        return f'<small class="muted">{wrap.format(escape(text))}</small>'
    return f'<small class="muted" title="{escape(text)}">{wrap.format(_w(lang, "method"))}</small>'


def _executive(s: SummaryRecord, records: list[CaseRecord], lang: str) -> str:
    ex, clir, tg, t = s.executive, s.crosslingual, s.executive.targets, REPORT[lang]

    def target(key: str) -> tuple[str, float]:
        return tg[key].op, tg[key].value

    actions = " · ".join(f"{value_word(k, lang)} {v}" for k, v in sorted(ex.serving_actions.items()))
    tiles = "".join([
        _tile(t["p0_pass_rate"], ex.p0_pass_rate, lang,
              t["p0_pass_sub"].format(passed=ex.flags[FlagLevel.PASSED], cases=ex.cases), target("p0_pass_rate")),
        _tile(t["hallucination_rate"], ex.hallucination_rate, lang, t["hallucination_sub"],
              target("hallucination_rate")),
        _tile(t["citation_missing"], ex.citation_missing_rate, lang,
              t["citation_missing_sub"].format(claims=ex.claims), target("citation_missing_rate")),
        _tile(t["review_completion"], ex.review_completion_rate, lang, t["review_completion_sub"].format(
            reviewed=s.queue.reviewed, queued=s.queue.queued), target("review_completion_rate")),
        _tile(t["deflection"], ex.deflection_rate, lang, actions),
        _tile(t["same_documents"], clir.same_documents_rate, lang, t["same_documents_sub"].format(pairs=clir.pairs)),
        _tile(t["claim_sets"], clir.claim_set_equivalence_rate, lang, t["claim_sets_sub"]),
    ])
    return (f'<section id="executive"><h2>{_w(lang, "executive")} <small>{_w(lang, "executive_q")}</small></h2>'
            f'<p class="lead">{t["executive_lead"].format(profile=escape(s.profile))}</p>'
            f'<div class="tiles">{tiles}</div>'
            f'<div class="grid2"><div class="card">{figures.flag_donut(ex.flags, lang)}</div>'
            f'<div class="card">{figures.gate_pass_bars(s.gates, lang)}</div></div>'
            f'<div class="card" style="margin-top:14px">'
            f'{figures.pass_rate_groups(s.pass_rates_by, records, lang)}</div></section>')


def _claim_html(c: ClaimRecord, lang: str) -> str:
    t = REPORT[lang]
    f = c.evaluation.faithfulness
    ok = f.supported
    cls = "ok" if ok else ("bad" if ok is False else "")
    mark = t["supported"] if ok else (t["unsupported"] if ok is False else t["not_checked"])
    cite = c.citation
    where = (t["cites"].format(where=escape(cite.location or cite.chunk_id or ""))
             + ("" if cite.accurate is not False else t["cite_wrong"])
             if cite.provided else t["no_citation"])
    why = f'<div class="why">{escape(f.failure_reason or "")}</div>' if ok is False else ""
    conf = t["confidence"].format(value=f"{f.confidence:.2f}") if isinstance(f.confidence, int | float) else ""
    return (f'<div class="claim {cls}"><b>{escape(c.claim_id)}</b> {escape(c.claim_text)}'
            f'<div class="muted">{mark}{conf} · {where} · {_tags(c.risk_tags, lang)}</div>{why}</div>')


def _case_html(r: CaseRecord, lang: str) -> str:
    t = REPORT[lang]
    resp = r.response
    scores = ", ".join(f"{metric_name(k, lang)} {_fmt(v, lang, False)}"
                       for k, v in r.aggregate_scores.items() if v is not None)
    rec = r.retrieval.metrics.get("context_recall")
    docs = ", ".join(escape(d.doc_id) for d in r.retrieval.retrieved_docs[:4]) or t["nothing"]
    claims = "".join(_claim_html(c, lang) for c in resp.claims) or f'<div class="muted">{t["no_claims"]}</div>'
    return (f'<div class="case">{_pill(r.flag.level, lang)} <span class="muted">{escape(r.query_id)} · '
            f'{escape(r.query_language)} · {escape(r.task or "")}</span>'
            f'<div class="q">{escape(r.query_text)}</div><div>{_reasons(r.flag.reasons, lang)}</div>'
            f'<div class="ans">{escape(resp.response_text or t["no_answer"])}</div>'
            f'<div class="muted">{t["reference"].format(text=escape(resp.reference_answer or "—"))}</div>'
            f'<div class="muted">{t["retrieved"].format(docs=docs, recall=_fmt(rec, lang, False), scores=escape(scores))}'
            f"</div>{claims}</div>")


def _crosslingual(clir: Crosslingual, lang: str) -> str:
    t = REPORT[lang]
    yes_no = {True: t["yes"], False: t["no"], None: t["na"]}
    pairs = [[escape(p.parallel_id), escape(p.ko_id), escape(p.en_id), yes_no[p.same_top1],
              _fmt(p.doc_overlap, lang, False), _fmt(p.claim_equivalence, lang, False),
              escape(" / ".join(p.unmatched_claims or []))]
             for p in clir.details]
    return (f'<h3>{_w(lang, "clir_pairs")} {_method(str(clir.method.get("claim_set", "")), lang)}'
            f'</h3><div class="card">' + _table(heads("head_pairs", lang), pairs, lang, {4, 5}) + "</div>")


def _debug_figures(d: ModelDebug, records: list[CaseRecord], thresholds: dict[str, float], lang: str) -> str:
    t = REPORT[lang]
    failures = [(value_word(p, lang), n) for p, n in d.claim_failure_top5]
    stage = [(value_word(k, lang), n) for k, n in sorted(d.failure_stage.items(), key=lambda x: -x[1])]
    noise = [(q, round(v, 3)) for q, v in sorted(d.noise_sensitivity_by_case, key=lambda x: -x[1])[:12]]
    return (f'<div class="grid2"><div class="card">'
            f'{figures.hbar(failures, t["claim_failures"], if_empty=t["no_failing_claim"])}</div>'
            f'<div class="card">{figures.hbar(stage, t["failing_stages"], figures.COLORS["WARNING"], if_empty=t["no_failing_case"])}'
            f'</div></div><div class="grid2">'
            f'<div class="card">{figures.metric_distributions(records, thresholds, lang=lang, title=t["distributions"])}</div>'
            f'<div class="card">{figures.metric_distributions(records, {}, True, lang, t["ranking"])}</div></div>'
            f'<div class="grid2"><div class="card">'
            f'{figures.hbar(noise, t["noise"], figures.COLORS["blue"], ":.2f", t["noise_empty"])}</div>')


def _debug(s: SummaryRecord, records: list[CaseRecord], lang: str) -> str:
    from geunkeo.evaluate.report.dashboard import worst_cases

    d = s.model_debug
    thresholds = {m: g.threshold for m, g in s.gates.items()}
    versions = [[escape(value_word(v, lang)), x.cases, _fmt(x.failure_rate, lang)]
                for v, x in d.failure_rate_by_doc_version.items()]
    methods = [[_metric(n, lang), _fmt(m.mean, lang, False), m.computable, m.not_computable,
                _counted(m.methods, lang, "method"), _counted(m.not_computable_reasons, lang, "reasons_short")]
               for n, m in s.metrics.items()]
    reasons = [[_reasons([k], lang), v] for k, v in d.reason_counts.items()]
    worst = "".join(_case_html(r, lang) for r in worst_cases(records))
    return (f'<section id="debug"><h2>{_w(lang, "debug")} <small>{_w(lang, "debug_q")}</small></h2>'
            f'{_debug_figures(d, records, thresholds, lang)}'
            f'<div class="card"><h3>{_w(lang, "by_version")}</h3>'
            f'{_table(heads("head_versions", lang), versions, lang, {1, 2})}'
            f'<h3>{_w(lang, "reason_codes")}</h3>{_table(heads("head_codes", lang), reasons, lang, {1})}'
            f'</div></div>{_crosslingual(s.crosslingual, lang)}{_operations(d.operations, lang)}'
            f'<h3>{_w(lang, "how_made")}</h3><div class="card">'
            f'{_table(heads("head_metrics", lang), methods, lang, {1, 2, 3})}'
            f'</div><h3>{_w(lang, "worst")}</h3>{worst or "<p class=muted>" + _w(lang, "no_worst") + "</p>"}</section>')


def _operations(ops: Operations | None, lang: str) -> str:
    """P2 operations: language match and outliers, each with its method."""
    if not ops:
        return ""
    rows = [[_metric(name, lang), o.n, _fmt(o.median, lang, False),
             escape(", ".join(f"{q} ({v})" for q, v in o.cases[:8]) + (" …" if len(o.cases) > 8 else ""))]
            for name, o in ops.outliers.items() if o.n]
    return (f'<h3>{_w(lang, "operations")} {_method(ops.outlier_method, lang, "P2 — {}")}</h3><div class="card">'
            f'<p>{_w(lang, "language_match")} <b>{_fmt(ops.language_match_rate, lang)}</b> '
            f'{_method(ops.language_match_method, lang, "({})")}</p>'
            f'<p>{_w(lang, "new_types")} <b>{ops.new_question_types}</b> '
            f'{escape("; ".join(", ".join(c) for c in ops.new_question_clusters[:6]))} '
            f'{_method(ops.new_question_method, lang, "({})")}</p>'
            + _table(heads("head_outliers", lang), rows, lang, {1, 2}) + "</div>")


def _compliance_tiles(c: Compliance, q: QueueStats, lang: str) -> str:
    t = REPORT[lang]
    return "".join([
        _tile(t["uncited"], c.uncited_claim_rate, lang, t["uncited_sub"]),
        _tile(t["high_risk"], c.high_risk_claim_failure_rate, lang, t["high_risk_sub"].format(n=c.high_risk_claims)),
        _tile(t["disagreement"], c.review_disagreement_rate, lang, t["disagreement_sub"].format(n=q.reviewed)),
        _tile(t["removed_total"], c.removed_total, lang, t["removed_total_sub"], pct=False),
    ])


def _compliance(s: SummaryRecord, records: list[CaseRecord], queue_items: list[ReviewItem], lang: str) -> str:
    c, q, t = s.compliance, s.queue, REPORT[lang]
    removed = [[escape(r.query_id), escape(value_word(x.kind, lang)), escape(x.value), escape(x.replacement)]
               for r in records for x in r.removed]
    items = [[_pill(i.flag_level, lang), escape(i.query_id), escape(value_word(i.queue_type, lang)),
              i.priority, escape(i.stratum or ""), escape(i.review_deadline or ""),
              escape(value_word(i.review_decision, lang) if i.review_decision else t["pending"]),
              escape(i.reviewer_id or "")] for i in queue_items]
    counts = [[_w(lang, "queued"), q.queued], [_w(lang, "full_review"), q.full_review],
              [_w(lang, "sample_review"), q.sample_review], [_w(lang, "reviewed"), q.reviewed]]
    decisions = [[escape(value_word(k, lang)), v] for k, v in q.decisions.items()]
    return (f'<section id="compliance"><h2>{_w(lang, "compliance")} <small>{_w(lang, "compliance_q")}</small>'
            f'</h2><div class="tiles">{_compliance_tiles(c, q, lang)}</div><div class="grid2">'
            f'<div class="card"><h3>{_w(lang, "review_queue")}</h3>{_table(heads("head_queue", lang), counts, lang, {1})}</div>'
            f'<div class="card"><h3>{_w(lang, "decisions")}</h3>{_table(heads("head_decisions", lang), decisions, lang, {1})}</div>'
            f'</div><h3>{_w(lang, "removed")} <small class="muted">{_w(lang, "removed_by")}</small></h3>'
            f'<div class="card">{_table(heads("head_removed", lang), removed, lang)}</div>'
            f'<h3>{_w(lang, "queue_items")}</h3><div class="card">'
            f'{_table(heads("head_items", lang), items, lang, {3})}'
            "</div></section>")


def dataset_label(dataset: str | None) -> str:
    """The data set as a report names it: the file or folder name and any note, never its path on the machine."""
    head, sep, note = str(dataset or "").partition(" (")
    return Path(head).name + (sep + note if sep else "")


def _meta(summary: SummaryRecord, lang: str) -> str:
    p = summary.pipeline
    return REPORT[lang]["meta"].format(
        eval_id=escape(summary.eval_id), dataset=escape(dataset_label(summary.dataset)),
        cases=summary.cases, profile=escape(summary.profile),
        answerer=escape(str(p.get("answerer", "?"))), embedder=escape(str(p.get("embedder", "?"))),
        seconds="?" if summary.seconds is None else summary.seconds, timestamp=escape(summary.timestamp))


def render_report(summary: SummaryRecord, records: list[CaseRecord],
                  queue_items: list[ReviewItem] | None = None, *, plotly_src: str | None = None,
                  links: list[tuple[str, str]] | None = None, note: str = "", icon: str | None = None,
                  lang: str = "en") -> str:
    """The report as one HTML string in `lang` ("en" or "ko"): self-contained (plotly inlined) unless `plotly_src`
    names a URL to load it from; `links` (href, label) and `note` go in the header (the server's way back and its
    "live" line, in `lang` already), `icon` is the server's favicon URL."""
    lang = lang_of(lang)
    script = (f'<script src="{escape(plotly_src)}" defer></script>' if plotly_src
              else f"<script>{get_plotlyjs()}</script>") + f"<script>{figures.LAZY_PLOT}</script>"
    script += f'<link rel="icon" type="image/svg+xml" href="{escape(icon)}">' if icon else ""
    back = "".join(f'<a class="back" href="{escape(h)}">{escape(t)}</a>' for h, t in links or [])
    live = f'<div class="meta" id="live">{escape(note)}</div>' if note else ""
    title = REPORT[lang]["title"].format(eval_id=escape(summary.eval_id))
    return (f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><title>{title}'
            f'</title><style>{_CSS}</style>{script}</head><body>'
            f'<header><h1>{_w(lang, "h1")}</h1><div class="meta">{_meta(summary, lang)}</div>{live}</header>'
            f'<nav>{back}<a href="#executive">{_w(lang, "nav_executive")}</a>'
            f'<a href="#debug">{_w(lang, "nav_debug")}</a><a href="#compliance">{_w(lang, "nav_compliance")}</a>'
            f'</nav><main>{_executive(summary, records, lang)}{_debug(summary, records, lang)}'
            f"{_compliance(summary, records, queue_items or [], lang)}</main></body></html>")


def with_reviews(summary: SummaryRecord, queue: Any) -> tuple[SummaryRecord, list[ReviewItem]]:
    """`summary` with its review figures (queue, completion, agreement, disagreement) read now from the review
    store `queue` (a ReviewQueue), and this run's queue items; the summary given is not changed."""
    eval_id = summary.eval_id or None  # a summary without an eval id: every run's items, as before
    rq = queue.stats(eval_id)
    out = replace(summary, review_queue=rq,
                  executive=replace(summary.executive, review_completion_rate=rq.completion_rate,
                                    review_agreement_rate=rq.agreement_rate),
                  compliance=replace(summary.compliance, review_disagreement_rate=rq.disagreement_rate))
    return out, queue.items(eval_id=eval_id)


def write_report(run_dir: str | Path, summary: SummaryRecord, records: list[CaseRecord],
                 queue_items: list[ReviewItem] | None = None, lang: str = "en") -> Path:
    """Write RUN_DIR/report.html in `lang` (English unless asked for Korean)."""
    out = Path(run_dir) / "report.html"
    out.write_text(render_report(summary, records, queue_items, lang=lang), encoding="utf-8")
    return out
