"""Context metrics (seed 003 P0-1 and P1): context recall, context precision@k, context entities recall."""

from __future__ import annotations

from geunkeo.checks.support import entity_grounding, extract_entities
from geunkeo.evaluate.base import MetricResult
from geunkeo.evaluate.metrics.inputs import CaseInputs, context_text


def context_recall(x: CaseInputs) -> MetricResult:
    """Share of reference claims that some retrieved context supports."""
    name, method = "context_recall", f"reference claims attributable to {x.context_scope}; {x.checker.method}"
    if x.reference_text is None:
        return MetricResult.not_computable(name, method, "the case has no reference answer or reference claims")
    if not x.context_hits:
        return MetricResult.not_computable(name, method, "nothing was retrieved")
    claims = x.reference_claims
    if not claims:
        return MetricResult.not_computable(name, method, "no claims could be taken from the reference")
    hits = sum(1 for c in claims if c.supported)
    return MetricResult(name, round(hits / len(claims), 6), method,
                        details={"supported": hits, "claims": len(claims),
                                 "unsupported": [c.text for c in claims if not c.supported]})


def precision_at_k(relevant: list[bool]) -> float:
    """Rank-weighted precision: mean of precision@i over the ranks i that hold a relevant item (0 if none)."""
    total, found = 0.0, 0
    for i, rel in enumerate(relevant, start=1):
        if rel:
            found += 1
            total += found / i
    return total / found if found else 0.0


def context_precision(x: CaseInputs) -> MetricResult:
    """Rank-weighted relevance of the retrieved chunks (ragas context precision@k, k = hits retrieved)."""
    name = "context_precision"
    if not x.context_hits:
        return MetricResult.not_computable(name, "rank-weighted precision@k", "nothing was retrieved")
    rel = x.relevance
    if rel is None:
        return MetricResult.not_computable(
            name, "rank-weighted precision@k",
            "relevance unknown: the case has neither expected ids nor a reference to check support against")
    flags, how = rel
    return MetricResult(name, round(precision_at_k(flags), 6),
                        f"rank-weighted precision@k over {x.context_scope}; relevance by {how}",
                        details={"k": len(flags), "relevant_ranks": [i + 1 for i, f in enumerate(flags) if f]})


def context_entities_recall(x: CaseInputs) -> MetricResult:
    """Share of the reference's entities (numbers, dates, amounts, articles, names) found in the retrieved text."""
    name = "context_entities_recall"
    method = f"reference entities present in {x.context_scope} (regex + Kiwi NNP)"
    if x.reference_text is None:
        return MetricResult.not_computable(name, method, "the case has no reference answer or reference claims")
    if not x.context_hits:
        return MetricResult.not_computable(name, method, "nothing was retrieved")
    ents = extract_entities(x.reference_text)
    if not ents:
        return MetricResult.not_computable(name, method, "the reference names no entities")
    joined = "\n".join(context_text(h) for h in x.context_hits)
    cov, missing = entity_grounding(ents, joined)
    return MetricResult(name, round(cov, 6), method,
                        details={"entities": [f"{e.value}{e.unit}" for e in ents],
                                 "missing": [f"{e.value}{e.unit}" for e in missing]})
