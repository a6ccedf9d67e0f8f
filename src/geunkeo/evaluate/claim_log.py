"""The per-case claim-level evaluation log in the JSON schema of seed 003 §6.1 (one line of cases.jsonl).

Fields beyond the seed's schema are additions, never replacements: `metrics` keeps every `MetricResult` with
its method and details (so each number says how it was made), `gates` the threshold checks, `review_status`
the queue state (§3.1.2), `removed` what the hallucination filter took out, `timings_ms` the stage times.
"""

from __future__ import annotations

import re
from typing import Any

from geunkeo.answer.base import Answer
from geunkeo.evaluate.base import Claim, MetricResult, QACase
from geunkeo.evaluate.gates import FlagOutcome
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
                 factual: dict[str, dict[str, Any]]) -> dict[str, Any]:
    support = claim.checks.get("support", {})
    faith: dict[str, Any] = {
        "supported": claim.supported,
        "supporting_chunks": [s.get("chunk_id") for s in claim.supporting_chunks],
        "confidence": None if claim.support_score is None else round(float(claim.support_score), 4),
        "method": support.get("method", claim.method),
    }
    if claim.supported is False:
        faith["failure_reason"] = support.get("failure_reason") or "NO_SUPPORTING_CONTEXT"
    contexts = answer.contexts if answer else []
    cited = [n for n in claim.checks.get("citations", []) if 1 <= n <= len(contexts)]
    if cited:
        chunk = contexts[cited[0] - 1].chunk
        supporting = {s.get("chunk_id") for s in claim.supporting_chunks}
        citation = {"provided": True, "doc_id": chunk.doc_id, "chunk_id": chunk.chunk_id,
                    "location": chunk.location,
                    # accurate: a cited block is among the chunks the checker found supporting the claim
                    "accurate": any(contexts[n - 1].chunk_id in supporting for n in cited),
                    "cited_blocks": cited}
    else:
        citation = {"provided": False}
    return {
        "claim_id": claim.claim_id,
        "claim_text": claim.text,
        "evaluation": {"faithfulness": faith,
                       "factual_correctness": _claim_factual(claim, factual)},
        "citation": citation,
        "risk_tags": claim_risk_tags(claim.text, claim.supported, case.risk_tags),
        "checks": claim.checks,
    }


def _claim_factual(claim: Claim, by_id: dict[str, dict[str, Any]]) -> dict[str, Any]:
    own = claim.checks.get("factual_correctness")
    if isinstance(own, dict) and "label" in own:
        return {**by_id.get(claim.claim_id, {}), **own}
    return by_id.get(claim.claim_id, {"label": None, "method": "not evaluated per claim"})


def _factual_labels(metrics: dict[str, MetricResult]) -> dict[str, dict[str, Any]]:
    """Per-claim correct/incorrect labels, when the factual-correctness metric reports them by claim id."""
    fc = metrics.get("factual_correctness")
    if fc is None or not fc.computable:
        return {}
    out = {}
    for item in fc.details.get("answer_claims", fc.details.get("claims", [])) or []:
        if isinstance(item, dict) and "claim_id" in item:
            ok = item.get("correct", item.get("supported"))
            label = item.get("label") or (None if ok is None else ("correct" if ok else "incorrect"))
            out[item["claim_id"]] = {"label": label,
                                     "confidence": item.get("score"), "method": fc.method}
    return out


def build_case_log(eval_id: str, timestamp: str, case: QACase, hits: list[Hit], answer: Answer | None,
                   metrics: dict[str, MetricResult], claims: list[Claim], outcome: FlagOutcome,
                   review_status: dict[str, Any], timings_ms: dict[str, float]) -> dict[str, Any]:
    """One case's claim-level log record (seed §6.1 plus the additions listed in the module docstring)."""
    docs: dict[str, dict[str, Any]] = {}
    for rank, h in enumerate(hits, 1):
        d = docs.setdefault(h.chunk.doc_id, {"doc_id": h.chunk.doc_id, "chunks": [], "ranks": [],
                                             "version": h.chunk.metadata.get("version"),
                                             "title": h.chunk.title})
        d["chunks"].append(h.chunk_id)
        d["ranks"].append(rank)
    factual = _factual_labels(metrics)
    answer_claims = [c for c in claims if c.source == "answer"]
    return {
        "eval_id": eval_id,
        "query_id": case.id,
        "query_language": case.lang,
        "query_text": case.query,
        "eval_timestamp": timestamp,
        "task": case.task,
        "complexity": case.complexity,
        "style": case.style,
        "parallel_id": case.parallel_id,
        "retrieval": {
            "retrieved_docs": list(docs.values()),
            "expected_chunk_ids": case.expected_chunk_ids,
            "expected_doc_ids": case.expected_doc_ids,
            "metrics": {m: _num(metrics.get(m)) for m in RETRIEVAL_METRICS},
        },
        "response": {
            "response_text": answer.text if answer else None,
            "answerer": answer.answerer if answer else None,
            "reference_answer": case.reference_answer,
            "claims": [_claim_entry(c, answer, case, factual) for c in answer_claims],
        },
        "aggregate_scores": {m: _num(metrics.get(m)) for m in AGGREGATE_METRICS},
        "flag": {"level": outcome.flag.level, "reasons": outcome.flag.reason_codes, "notes": outcome.flag.notes},
        "metrics": {k: v.to_dict() for k, v in metrics.items()},
        "gates": [c.__dict__ for c in outcome.checks],
        "review_status": review_status,
        "removed": [r.__dict__ for r in answer.filter_report.removed] if answer else [],
        "serving_gate": answer.gate.__dict__ if answer and answer.gate else None,
        "serving_simulation": outcome.serving_action,
        "timings_ms": {k: round(v, 2) for k, v in timings_ms.items()},
    }
