"""Evaluation runs: for each case search → answer → metrics → flag, then the review queue and the report.

A run directory holds:
- cases.jsonl   one claim-level log record per case (seed §6.1 schema, see claim_log.py)
- flags.jsonl   one flag state record per case (seed §3.1.2)
- summary.json  aggregates: every metric with its methods and not-computable counts, gate pass rates, the §7
                dashboard numbers, cross-lingual pair results, timings and the review queue status
- review.db     the review queue (SQLite, WAL)
- report.html   the offline HTML report

One index (so one embedder and one searcher) serves every case: opening it is the slow part.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from geunkeo.answer.base import Answer, content_sentences
from geunkeo.answer.codes import GateAction
from geunkeo.config import EvaluateSettings, Settings
from geunkeo.errors import ConfigError
from geunkeo.evaluate.base import Claim, MetricResult, QACase
from geunkeo.evaluate.claim_log import CaseOutcome, build_case_log, build_flag_record
from geunkeo.evaluate.codes import NOT_SERVED
from geunkeo.evaluate.crosslingual import ClaimChecker, crosslingual_summary
from geunkeo.evaluate.datasets import from_beir, load_cases, sample_cases
from geunkeo.evaluate.gates import GateProfile, assign_flag, load_profile
from geunkeo.evaluate.queue_records import QueueStats, ReviewItem, ReviewPayload, UnsupportedClaim
from geunkeo.evaluate.records import CaseRecord, FlagRecord, ReviewStatus
from geunkeo.evaluate.report import dashboard
from geunkeo.evaluate.report.dashboard import question_clusters
from geunkeo.evaluate.review import Candidate, ReviewQueue, select_for_review
from geunkeo.evaluate.summary_records import Crosslingual, ReviewSampling, SummaryRecord
from geunkeo.retrieve.base import Hit
from geunkeo.retrieve.versions import several_versions, superseded_cited
from geunkeo.trace import Trace

SEARCH_K = 10  # hits logged and scored by the retrieval metrics
ANSWER_K = 5  # hits the answer is written from (geunkeo.answer.ask's default)


@dataclass
class EvalPipeline:
    """The system under evaluation, as three calls (plus an optional claim checker for CLIR)."""

    search: Callable[[str], tuple[list[Hit], Trace, dict[str, Any]]]  # info: e.g. the plan's BM25 terms
    answer: Callable[[QACase, list[Hit], dict[str, Any]], Answer | None]
    metrics: Callable[[QACase, Answer | None, list[Hit]], dict[str, MetricResult]]
    check_claims: ClaimChecker | None = None
    describe: dict[str, Any] = field(default_factory=dict)
    stage_ms: dict[str, float] = field(default_factory=dict)  # the last case's per-metric times, if reported
    cache_stats: Callable[[], dict[str, Any]] | None = None  # vector cache hits/misses, if there is one
    # called once with every (case, judged answer, hits) before any `metrics` call: batch work (embeddings)
    prepare: Callable[[list[tuple[QACase, Answer | None, list[Hit]]]], dict[str, Any]] | None = None


@dataclass
class RunSummary:
    run_dir: Path
    eval_id: str
    cases: int
    flags: dict[str, int]
    seconds: float
    summary: SummaryRecord

    @property
    def report_path(self) -> Path:
        return self.run_dir / "report.html"


def evaluation_view(ans: Answer | None) -> tuple[Answer | None, str]:
    """What the metrics judge: the generated content, not the serving wrapper around it.

    Generic sentences (the gate's insufficient-evidence notice, contact advice put in by the filter) need no
    evidence and are left out; an answer the gate withheld (escalate) is judged by its draft, because the
    evaluation is about what the generator produced — the gate's action is logged next to it."""
    if ans is None:
        return None, "no answer"
    from geunkeo.answer.cited import render

    if ans.gate is not None and ans.gate.action == GateAction.ESCALATE and ans.draft:
        draft = content_sentences(ans.draft_sentences)
        text = render(draft) if ans.draft_sentences else ans.draft
        return replace(ans, text=text, sentences=draft), "draft withheld by the serving gate"
    content = content_sentences(ans.sentences)
    if len(content) == len(ans.sentences):
        return ans, "served answer"
    return replace(ans, sentences=content, text=render(content)), "served answer without generic sentences"


def claims_of(metrics: dict[str, MetricResult], answer: Answer | None,
              check_claims: ClaimChecker | None) -> list[Claim]:
    """The answer's checked claims: from the faithfulness metric's details, else checked here."""
    faith = metrics.get("faithfulness")
    raw = (faith.details.get("claims") if faith is not None else None) or []
    claims = [c if isinstance(c, Claim) else Claim(**c) for c in raw if isinstance(c, Claim | dict)]
    if claims or answer is None or not answer.text.strip() or check_claims is None:
        return claims
    return check_claims(answer.text, [(h.chunk_id, h.chunk.text) for h in answer.contexts])


def default_pipeline(index_dir, settings: Settings, llm: str | None = None) -> EvalPipeline:
    """The real pipeline: the index's Engine (search and answer stage) and the metric layer (one embedder).

    `index_dir` is an index directory or an already opened index (reused: no second load)."""
    from geunkeo.engine import AnswerOptions, Engine
    from geunkeo.evaluate.metrics import check_parts

    if llm:  # the engine is built once for the run, with the LLM the run asks for
        settings = settings.model_copy(update={"llm": settings.llm.model_copy(update={"provider": llm})})
    idx = index_dir if isinstance(index_dir, Engine) else Engine(index_dir, settings)
    # The metric layer embeds claims, contexts and context sentences through the engine's cached embedder: the
    # persistent vector cache (SQLite keyed by model version + text) lets later runs over a corpus skip that work.
    embedder = idx.cached_embedder
    parts = check_parts(settings, embedder)  # one vector cache and checker for every case of the run
    judge = idx.llm() if llm else None
    answer_options = AnswerOptions(k=ANSWER_K, answerer="llm" if llm else "extractive", llm=judge)

    def search(query: str) -> tuple[list[Hit], Trace, dict[str, Any]]:
        res = idx.search(query, k=SEARCH_K)
        return res.hits, res.trace, {"plan": res.plan}

    def answer(case: QACase, hits: list[Hit], info: dict[str, Any]) -> Answer | None:
        if case.task == "summary":  # summarise what the query retrieved, keeping every proviso
            from geunkeo.answer.summarize import as_answer, summarize_hits

            return as_answer(case.query, summarize_hits(hits[:ANSWER_K], judge))
        # the answer stage reads the top ANSWER_K hits, as `geunkeo ask` does
        return idx.answer_hits(case.query, hits[:ANSWER_K], answer_options, plan=info.get("plan"))

    stage_ms: dict[str, float] = {}  # the last case's per-metric times
    prepare, metrics, check = _metric_calls(settings, embedder, judge, parts, stage_ms)

    pipe = EvalPipeline(search, answer, metrics, check, describe={
        "index": str(idx.path), "embedder": embedder.version, "llm": llm or "none",
        "answerer": "llm" if llm else "extractive", "context_metrics_over": f"top {ANSWER_K} hits (the answer's)",
        "ranking_metrics_over": f"top {SEARCH_K} hits", "index_load_ms": round(idx.load_ms, 1)},
        stage_ms=stage_ms, prepare=prepare)
    from geunkeo.index.base import CacheCounters

    def cache_stats() -> dict[str, Any]:
        if isinstance(embedder, CacheCounters):
            return {"kind": type(embedder).__name__, "hits": embedder.hits, "misses": embedder.misses}
        return {"kind": type(embedder).__name__, "hits": None, "misses": None}

    pipe.cache_stats = cache_stats
    return pipe


def _metric_calls(settings: Settings, embedder, judge, parts, stage_ms: dict[str, float]) -> tuple[
        Callable[[list[tuple[QACase, Answer | None, list[Hit]]]], dict[str, Any]],
        Callable[[QACase, Answer | None, list[Hit]], dict[str, MetricResult]],
        Callable[[str, Sequence[tuple[str, str]]], list[Claim]]]:
    """The real pipeline's metric side: `prepare` (batch work), `metrics` per case (each filling `stage_ms`) and
    the claim checker, over one embedder and checker for the whole run."""
    from geunkeo.evaluate.metrics import (
        case_inputs,
        cases_retrieval,
        compute_case_metrics,
        extract_and_check_claims,
        prefetch_vectors,
    )

    prepared: dict[str, Any] = {}
    ranking: dict[str, tuple[list[Hit], dict[str, MetricResult]]] = {}  # case id → (hits, ranking metrics)

    def inputs_for(case: QACase, ans: Answer | None, hits: list[Hit]):
        # Context metrics (recall, precision, entities, noise) judge the contexts the answer was written from,
        # as Ragas does with `retrieved_contexts`; ranking metrics (recall@10, nDCG@10…) need all SEARCH_K hits.
        return case_inputs(case, ans, hits[:ANSWER_K], settings, embedder=embedder, judge=judge, trace=Trace(),
                           parts=parts)

    def prepare(rows: list[tuple[QACase, Answer | None, list[Hit]]]) -> dict[str, Any]:
        """Build every case's metric inputs and embed all their claims and sentences in one batched pass."""
        t0 = time.perf_counter()
        prepared.clear()
        prepared.update({case.id: inputs_for(case, ans, hits) for case, ans, hits in rows})
        n = prefetch_vectors(next(iter(prepared.values())).vectors, list(prepared.values())) if prepared else 0
        t1 = time.perf_counter()
        ranking.clear()
        if len({case.id for case, _a, _h in rows}) == len(rows):  # one ranx call for all cases' ranking metrics
            scored = cases_retrieval([(c.id, c.expected_chunk_ids, c.expected_doc_ids, h) for c, _a, h in rows])
            ranking.update({c.id: (h, scored[c.id]) for c, _a, h in rows})
        return {"texts": n, "ms": round((t1 - t0) * 1000, 1),
                "ranking_metrics_ms": round((time.perf_counter() - t1) * 1000, 1)}

    def metrics(case: QACase, ans: Answer | None, hits: list[Hit]) -> dict[str, MetricResult]:
        x = prepared.pop(case.id, None)
        if x is None or x.answer is not ans:
            x = inputs_for(case, ans, hits)
        trace = x.trace
        ranked_hits, ranked = ranking.pop(case.id, (None, None))
        out = compute_case_metrics(case, ans, hits[:ANSWER_K], settings, inputs=x, ranking_hits=hits,
                                   ranking=ranked if ranked_hits is hits else None)
        stage_ms.clear()
        for st in trace.stages:
            stage_ms[st.name] = stage_ms.get(st.name, 0.0) + st.ms
        return out

    def check(text: str, contexts: Sequence[tuple[str, str]]) -> list[Claim]:
        return extract_and_check_claims(text, list(contexts), embedder=embedder, parts=parts)

    return prepare, metrics, check


def _eval_id(now: datetime) -> str:
    return f"eval_{now:%Y%m%d_%H%M%S}"


def evaluate_cases(cases: Sequence[QACase], pipeline: EvalPipeline, settings: Settings, out_dir: str | Path,
                   dataset: str = "", eval_id: str | None = None,
                   progress: Callable[[int, int, str], None] | None = None) -> RunSummary:
    """Run every case through the pipeline, flag it, fill the review queue and write the run directory."""
    es = settings.evaluate
    profile = load_profile(es.profile)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    t_start = time.perf_counter()
    now = datetime.now(UTC).replace(microsecond=0)
    eval_id = eval_id or _eval_id(now)
    stamp = now.isoformat().replace("+00:00", "Z")

    # 1. the system under test: search and answer every case
    served_rows, judged_what = _serve_cases(cases, pipeline)
    # 2. batch work of the metric layer (embedding every claim and sentence at once), then metrics per case
    prepared = {}
    if pipeline.prepare is not None:
        prepared = pipeline.prepare([(case, ans, hits) for case, hits, ans, _t in served_rows])
    rows = _score_cases(served_rows, judged_what, pipeline, profile, progress)
    records, flags, review, queue_items = _review_cases(rows, es, eval_id, stamp, out)

    clir_method = "claim-support checker (answer claims vs the other language's answer)"
    summary = replace(
        summarize(records, review, crosslingual_summary(records, pipeline.check_claims, clir_method)),
        eval_id=eval_id, timestamp=stamp, dataset=dataset, profile=profile.name,
        gates_profile={m: {"op": r.op, "threshold": r.threshold, "level": r.level,
                           **({"mode": r.mode} if r.mode else {})} for m, r in profile.p0.items()},
        pipeline={**pipeline.describe, **({"vector_cache": pipeline.cache_stats()} if pipeline.cache_stats else {}),
                  **({"prefetch": prepared} if prepared else {})},
        review_sampling=ReviewSampling(es.review_warning_rate, es.review_passed_rate, es.review_seed),
    )
    summary.seconds = seconds = round(time.perf_counter() - t_start, 2)
    _write_run(out, summary, records, flags, queue_items, t_start)
    return RunSummary(out, eval_id, len(records), summary.executive.flags, seconds, summary)


ServedRow = tuple[QACase, list[Hit], Answer | None, dict[str, float]]  # case, hits, judged answer, timings (ms)


def _serve_cases(cases: Sequence[QACase],
                 pipeline: EvalPipeline) -> tuple[list[ServedRow], dict[str, tuple[str, str | None]]]:
    """Step 1, the system under test: search and answer every case; with what was judged and what was served."""
    judged_what: dict[str, tuple[str, str | None]] = {}
    served_rows = []
    for case in cases:
        t = {}
        t0 = time.perf_counter()
        hits, _trace, info = pipeline.search(case.query)
        t["search"] = (time.perf_counter() - t0) * 1000
        t0 = time.perf_counter()
        served = pipeline.answer(case, hits, info)
        t["answer"] = (time.perf_counter() - t0) * 1000
        ans, judged = evaluation_view(served)
        judged_what[case.id] = (judged, served.text if served else None)
        served_rows.append((case, hits, ans, t))
    return served_rows, judged_what


def _score_cases(served_rows: list[ServedRow], judged_what: dict[str, tuple[str, str | None]],
                 pipeline: EvalPipeline, profile: GateProfile,
                 progress: Callable[[int, int, str], None] | None) -> list[CaseOutcome]:
    """Step 2 after the batch work: each case's metrics, claims and flag."""
    rows: list[CaseOutcome] = []
    for i, (case, hits, ans, t) in enumerate(served_rows, 1):
        t0 = time.perf_counter()
        metrics = pipeline.metrics(case, ans, hits)
        claims = claims_of(metrics, ans, pipeline.check_claims)
        t["metrics"] = (time.perf_counter() - t0) * 1000
        t.update(pipeline.stage_ms)
        action = ans.gate.action.value if ans is not None and ans.gate is not None else NOT_SERVED
        cited_ids = {x.chunk_id for s in (ans.sentences if ans is not None else []) for x in s.citations}
        cited = [c for c in (ans.contexts if ans is not None else []) if c.chunk_id in cited_ids]
        flag = assign_flag(metrics, claims, profile, action, several_versions=several_versions(hits),
                           superseded_cited=len(superseded_cited(cited)), task=case.task)
        rows.append(CaseOutcome(case, hits, ans, metrics, claims, flag, t, *judged_what[case.id]))
        if progress:
            progress(i, len(served_rows), case.id)
    return rows


def _review_cases(rows: list[CaseOutcome], es: EvaluateSettings, eval_id: str, stamp: str,
                  out: Path) -> tuple[list[CaseRecord], list[FlagRecord], QueueStats, list[ReviewItem]]:
    """Step 3: the cases sampled for review go to the queue; each case's log and flag record, the queue's stats
    and items for this run."""
    # a new kind of question (logged ones far from every gold question) goes to full review (seed 003 P2)
    new_kinds = {q for cluster in question_clusters(
        [(r.case.id, r.case.query, bool(r.case.reference_answer or r.case.expected_doc_ids)) for r in rows])
        for q in cluster}
    selection = select_for_review(
        [Candidate(r.case.id, r.outcome.flag.level, r.outcome.full_review or r.case.id in new_kinds, r.case.lang,
                   r.case.task, r.case.complexity) for r in rows],
        es.review_warning_rate, es.review_passed_rate, es.review_seed)
    records: list[CaseRecord] = []
    flags: list[FlagRecord] = []
    with ReviewQueue(out / "review.db") as queue:
        for row in rows:
            case, outcome = row.case, row.outcome
            status = None
            if case.id in selection:
                status = queue.enqueue(
                    eval_id, case.id, selection[case.id], outcome.flag.level, outcome.flag.reason_codes, case,
                    ReviewPayload(answer=row.answer.text if row.answer else None, notes=outcome.flag.notes,
                                  unsupported_claims=[UnsupportedClaim(c.claim_id, c.text, c.failure_reason)
                                                      for c in row.claims if c.claim_id in outcome.hallucinated_claims]),
                    deadline_days=es.review_deadline_days)
            flags.append(build_flag_record(eval_id, case.id, stamp, outcome, status))
            records.append(build_case_log(eval_id, stamp, row, status or ReviewStatus()))
        # a reused run directory keeps earlier runs' reviews; this run's report shows this run's queue
        review = queue.stats(eval_id)
        queue_items = queue.items(eval_id=eval_id)
    return records, flags, review, queue_items


def _write_run(out: Path, summary: SummaryRecord, records: list[CaseRecord], flags: list[FlagRecord],
               queue_items: list[ReviewItem], t_start: float) -> None:
    """The run directory's logs, summary.json and report (summary.json again with the time the report took)."""
    _write_jsonl(out / "cases.jsonl", [r.to_dict() for r in records])
    _write_jsonl(out / "flags.jsonl", [f.to_dict() for f in flags])
    write_summary(out, summary)
    from geunkeo.evaluate.report.html import write_report

    write_report(out, summary, records, queue_items=queue_items)
    summary.seconds_with_report = round(time.perf_counter() - t_start, 2)
    write_summary(out, summary)


def write_summary(run_dir: Path, summary: SummaryRecord) -> None:
    (run_dir / "summary.json").write_text(json.dumps(summary.to_dict(), ensure_ascii=False, indent=2, default=str),
                                          encoding="utf-8")


def summarize(records: Sequence[CaseRecord], review: QueueStats, clir: Crosslingual) -> SummaryRecord:
    """The aggregate part of summary.json (see dashboard.py for each number's definition); what the run was is
    set by `evaluate_cases`."""
    timings: dict[str, list[float]] = {}
    for r in records:
        for k, v in r.timings_ms.items():
            timings.setdefault(k, []).append(v)
    return SummaryRecord(
        cases=len(records),
        metrics=dashboard.metric_stats(records),
        gates=dashboard.gate_stats(records),
        pass_rates_by={k: dashboard.pass_rates_by(records, k) for k in dashboard.GROUPINGS},
        executive=dashboard.executive(records, review),
        model_debug=dashboard.model_debug(records),
        compliance=dashboard.compliance(records, review),
        review_queue=review,
        crosslingual=clir,
        timings_ms={k: {"total": round(sum(v), 1), "mean": round(sum(v) / len(v), 1)} for k, v in timings.items()},
    )


def _write_jsonl(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    with path.open("w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False, default=str) + "\n")


def run_evaluation(dataset_path: str | Path, index_dir, out_dir: str | Path,
                   settings: Settings | None = None, llm: str | None = None,
                   progress: Callable[[int, int, str], None] | None = None,
                   limit: int | None = None) -> RunSummary:
    """Evaluate a JSONL QA file (or a BEIR folder) against an index (a directory or an opened index);
    `make demo` and `geunkeo eval` call this."""
    settings = settings or Settings()
    # a BEIR folder (e.g. sample/gold) is converted on the fly; anything else is a JSONL QA file
    cases = from_beir(dataset_path) if Path(dataset_path).is_dir() else load_cases(dataset_path)
    total = len(cases)
    if limit:
        cases = sample_cases(cases, limit, settings.evaluate.review_seed)
    if isinstance(index_dir, str | Path) and not Path(index_dir).is_dir():
        raise ConfigError(f"index {index_dir} not found; build one with `geunkeo index PATH --index DIR`")
    pipeline = default_pipeline(index_dir, settings, llm=llm)
    name = str(dataset_path) + (f" (seeded sample of {len(cases)} of {total} cases)" if len(cases) < total else "")
    return evaluate_cases(cases, pipeline, settings, out_dir, dataset=name, progress=progress)


def load_run(run_dir: str | Path) -> tuple[SummaryRecord, list[CaseRecord]]:
    """summary.json and the case records of a finished run (of any record version: records.py,
    summary_records.py)."""
    d = Path(run_dir)
    if not (d / "summary.json").is_file() or not (d / "cases.jsonl").is_file():
        raise ConfigError(f"{d} is not an evaluation run directory (summary.json / cases.jsonl missing)")
    summary = SummaryRecord.from_dict(json.loads((d / "summary.json").read_text(encoding="utf-8")))
    with (d / "cases.jsonl").open(encoding="utf-8") as fh:
        records = [CaseRecord.from_dict(json.loads(x)) for x in fh if x.strip()]
    return summary, records
