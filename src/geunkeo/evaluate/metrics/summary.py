"""Summarization metrics (seed 003 §4.1): summarization score (coeff 0.3) and summary faithfulness.

The summarization score follows the ragas definition: a QA score (share of the source's key facts the summary
answers) blended with a conciseness score, `qa * (1 - coeff) + conciseness * coeff`, where conciseness is
`1 - min(len(summary), len(source)) / len(source)`. Without an LLM the key facts are the reference claims
(else the reference answer's claims, else the source's own claims), and "answered" means the support checker
finds the fact supported by the summary.
"""

from __future__ import annotations

from geunkeo.evaluate.base import Claim, MetricResult
from geunkeo.evaluate.claims import extract_claims
from geunkeo.evaluate.metrics.generation import NO_ANSWER, faithfulness
from geunkeo.evaluate.metrics.inputs import CaseInputs

COEFF = 0.3
MAX_SOURCE_FACTS = 20
NOT_SUMMARY = "the case's task is not 'summary'"


def summarization_score(x: CaseInputs, coeff: float = COEFF) -> MetricResult:
    """QA coverage of key facts by the summary, with the conciseness coefficient (default 0.3)."""
    name = "summarization_score"
    method = f"ragas-style: qa * (1 - {coeff}) + conciseness * {coeff}; facts checked by the support checker"
    if x.case.task != "summary":
        return MetricResult.not_computable(name, method, NOT_SUMMARY)
    if x.answer_text is None:
        return MetricResult.not_computable(name, method, NO_ANSWER)
    source = "\n".join(h.chunk.text for h in x.contexts)
    if not source.strip():
        return MetricResult.not_computable(name, method, "there is no source text (no contexts)")
    if x.case.reference_claims:
        facts, origin = list(x.case.reference_claims), "reference claims"
    elif x.reference_text:
        facts, origin = [c.text for c in extract_claims(x.reference_text)], "reference answer claims"
    else:
        facts, origin = [c.text for c in extract_claims(source)][:MAX_SOURCE_FACTS], "source claims"
    if not facts:
        return MetricResult.not_computable(name, method, "no key facts could be taken from the reference/source")
    answered = [x.checker.check(Claim(f"k{i + 1}", f), [("summary", x.answer_text)]).supported
                for i, f in enumerate(facts)]
    qa = sum(1 for a in answered if a) / len(facts)
    conciseness = 1.0 - min(len(x.answer_text), len(source)) / len(source)
    value = qa * (1 - coeff) + conciseness * coeff
    return MetricResult(name, round(value, 6), method,
                        details={"qa_score": round(qa, 6), "conciseness": round(conciseness, 6), "coeff": coeff,
                                 "facts_from": origin, "facts": len(facts),
                                 "missed": [f for f, a in zip(facts, answered, strict=True) if not a]})


def summary_faithfulness(x: CaseInputs) -> MetricResult:
    """Faithfulness of a summary: its claims supported by the source contexts."""
    if x.case.task != "summary":
        return MetricResult.not_computable("summary_faithfulness", "supported claims / claims", NOT_SUMMARY)
    return faithfulness(x, name="summary_faithfulness")
