"""The per-case claim-level evaluation log in the JSON schema of seed 003 §6.1 (one line of cases.jsonl).

Fields beyond the seed's schema are additions, never replacements: `metrics` keeps every `MetricResult` with
its method and details (so each number says how it was made), `gates` the threshold checks, `review_status`
the queue state (§3.1.2), `removed` what the hallucination filter took out, `timings_ms` the stage times.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from geunkeo.answer.base import Answer
from geunkeo.evaluate.base import Claim, MetricResult, QACase
from geunkeo.evaluate.gates import FlagOutcome
from geunkeo.evaluate.records import (
    CaseFlag,
    CaseRecord,
    CitationLog,
    ClaimEvaluation,
    ClaimRecord,
    FactualLabel,
    Faithfulness,
    FlagRecord,
    FlagState,
    ResponseLog,
    RetrievalLog,
    RetrievedDoc,
    ReviewStatus,
)
from geunkeo.retrieve.base import Hit

RETRIEVAL_METRICS = ("context_recall", "context_precision", "context_entities_recall")
AGGREGATE_METRICS = ("faithfulness", "factual_correctness", "citation_coverage", "citation_accuracy",
                     "response_relevancy")

# Claim risk tags (seed §6.1 `risk_tags`; §7.3 "고위험 Claim"): exclusions and amounts/limits are high risk.
_EXCLUSION = re.compile(r"제외|면책|불가|아니|않|못|없|금지|exclu|not covered|\bnot\b|\bno\b|cannot|prohibit", re.I)
_AMOUNT = re.compile(r"\d[\d,.]*\s*(?:원|만원|%|퍼센트|일|개월|년|학기|학점|시간|회|세|percent|days?|months?|years?|"
                     r"semesters?|credits?|hours?|won|KRW|USD)", re.I)
_CONDITION = re.compile(r"경우|단,|다만|조건|이내|까지|이상|이하|\bif\b|\bunless\b|\bwithin\b|\bat least\b", re.I)


def claim_risk_tags(text: str, supported: bool | None, case_tags: list[str]) -> list[str]:
    """Risk tags of one claim: the case's own tags plus exclusion / amount / condition / hallucination."""
    tags = list(case_tags)
    if _EXCLUSION.search(text):
        tags.append("exclusion")
    if _AMOUNT.search(text):
        tags.append("amount")
    if _CONDITION.search(text):
        tags.append("condition")
    if {"exclusion", "amount"} & set(tags):
        tags.append("high_risk")
    if supported is False:
        tags += ["hallucination", "critical"]
    return list(dict.fromkeys(tags))


def _num(result: MetricResult | None) -> float | None:
    if result is None or not result.computable or result.value is None:
        return None
    return round(float(result.value), 4)


def _claim_entry(claim: Claim, answer: Answer | None, case: QACase,
                 factual: dict[str, FactualLabel]) -> ClaimRecord:
    faith = Faithfulness(claim.supported, [s.get("chunk_id") for s in claim.supporting_chunks],
                         None if claim.support_score is None else round(float(claim.support_score), 4),
                         claim.checks.get("support", {}).get("method", claim.method),
                         claim.failure_reason if claim.supported is False else None)
    contexts = answer.contexts if answer else []
    cited = [n for n in claim.checks.get("citations", []) if 1 <= n <= len(contexts)]
    citation = CitationLog(provided=False)
    if cited:
        chunk = contexts[cited[0] - 1].chunk
        supporting = {s.get("chunk_id") for s in claim.supporting_chunks}
        citation = CitationLog(True, chunk.doc_id, chunk.chunk_id, chunk.location,
                               any(contexts[n - 1].chunk_id in supporting for n in cited), cited)
    return ClaimRecord(claim.claim_id, claim.text, ClaimEvaluation(faith, _claim_factual(claim, factual)), citation,
                       claim_risk_tags(claim.text, claim.supported, case.risk_tags), claim.checks)


def _claim_factual(claim: Claim, by_id: dict[str, FactualLabel]) -> FactualLabel:
    """The metric's label of the claim, with the claim's own check's label and confidence over it."""
    own = claim.checks.get("factual_correctness")
    metric = by_id.get(claim.claim_id)
    if isinstance(own, dict) and "label" in own:
        return FactualLabel(own["label"], own.get("confidence", metric.confidence if metric else None),
                            metric.method if metric else None)
    return metric or FactualLabel(None, method="not evaluated per claim")


def _factual_labels(metrics: dict[str, MetricResult]) -> dict[str, FactualLabel]:
    """Per-claim correct/incorrect labels, when the factual-correctness metric reports them by claim id."""
    fc = metrics.get("factual_correctness")
    if fc is None or not fc.computable:
        return {}
    out = {}
    for item in fc.details.get("answer_claims", fc.details.get("claims", [])) or []:
        if isinstance(item, dict) and "claim_id" in item:
            ok = item.get("correct", item.get("supported"))
            label = item.get("label") or (None if ok is None else ("correct" if ok else "incorrect"))
            out[item["claim_id"]] = FactualLabel(label, item.get("score"), fc.method)
    return out


def _retrieved_docs(hits: list[Hit]) -> list[RetrievedDoc]:
    """The hits grouped by document, in the order each document first appears."""
    docs: dict[str, RetrievedDoc] = {}
    for rank, h in enumerate(hits, 1):
        d = docs.setdefault(h.chunk.doc_id, RetrievedDoc(h.chunk.doc_id, version=h.chunk.metadata.get("version"),
                                                         title=h.chunk.title))
        d.chunks.append(h.chunk_id)
        d.ranks.append(rank)
    return list(docs.values())


@dataclass
class CaseOutcome:
    """What the run made of one case: its hits, the answer judged, its metrics, claims and flag."""

    case: QACase
    hits: list[Hit]
    answer: Answer | None
    metrics: dict[str, MetricResult]
    claims: list[Claim]
    outcome: FlagOutcome
    timings_ms: dict[str, float] = field(default_factory=dict)
    evaluated: str | None = None  # what was judged (evaluate/runner.evaluation_view)
    served_text: str | None = None


def build_case_log(eval_id: str, timestamp: str, c: CaseOutcome, review_status: ReviewStatus) -> CaseRecord:
    """One case's claim-level log record (seed §6.1 plus the additions listed in the module docstring)."""
    case, answer, metrics = c.case, c.answer, c.metrics
    factual = _factual_labels(metrics)
    response = ResponseLog(answer.text if answer else None, answer.answerer if answer else None,
                           case.reference_answer,
                           [_claim_entry(x, answer, case, factual) for x in c.claims if x.source == "answer"],
                           c.evaluated, c.served_text)
    flag = c.outcome.flag
    return CaseRecord(
        eval_id, case.id, case.lang, case.query, timestamp, case.task, case.complexity, case.style, case.parallel_id,
        RetrievalLog(_retrieved_docs(c.hits), case.expected_chunk_ids, case.expected_doc_ids,
                     {m: _num(metrics.get(m)) for m in RETRIEVAL_METRICS}),
        response, {m: _num(metrics.get(m)) for m in AGGREGATE_METRICS},
        CaseFlag(flag.level, flag.reason_codes, flag.notes), dict(metrics), list(c.outcome.checks), review_status,
        list(answer.filter_report.removed) if answer else [], answer.gate if answer else None,
        c.outcome.serving_action, {k: round(v, 2) for k, v in c.timings_ms.items()})


def build_flag_record(eval_id: str, query_id: str, timestamp: str, outcome: FlagOutcome,
                      review_status: ReviewStatus | None = None) -> FlagRecord:
    """The flag state record of seed §3.1.2."""
    return FlagRecord(eval_id, query_id, timestamp, FlagState(outcome.flag.level, list(outcome.flag.reason_codes)),
                      review_status or ReviewStatus())
