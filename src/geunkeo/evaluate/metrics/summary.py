"""Summarization metrics (seed 003 §4.1): summarization score (coeff 0.3) and summary faithfulness.

The summarization score follows the ragas definition: a QA score (share of the source's key facts the summary
answers) blended with a conciseness score, `qa * (1 - coeff) + conciseness * coeff`, where conciseness is
`1 - min(len(summary), len(source)) / len(source)`. Without an LLM the key facts are the reference claims
(else the reference answer's claims, else the source's own claims), and "answered" means the support checker
finds the fact supported by the summary.
"""

from __future__ import annotations

from geunkeo.checks.claims import extract_claims
from geunkeo.evaluate.base import Claim, MetricResult
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


# -- overlap with the reference summary, over Kiwi morphemes ------------------------------------------------
def _morphemes(text: str) -> list[str]:
    """Kiwi morphemes (Korean) or lower-cased words (English): the units ROUGE-L and chrF count over, so that
    "환불한다" and "환불합니다" share 환불 and 하."""
    from geunkeo.text.kiwi import get_kiwi
    from geunkeo.text.patterns import HANGUL

    if HANGUL.search(text):
        return [t.form for t in get_kiwi().tokenize(text) if not str(t.tag).startswith("S") or t.form.isalnum()]
    return [w for w in (x.strip(".,;:!?()[]\"'").lower() for x in text.split()) if w]


def rouge_l(candidate: list[str], reference: list[str], beta: float = 1.2) -> float:
    """ROUGE-L F-measure (Lin 2004) from the longest common subsequence of two token lists."""
    if not candidate or not reference:
        return 0.0
    prev = [0] * (len(reference) + 1)
    for c in candidate:
        cur = [0]
        for j, r in enumerate(reference, 1):
            cur.append(prev[j - 1] + 1 if c == r else max(prev[j], cur[j - 1]))
        prev = cur
    lcs = prev[-1]
    if lcs == 0:
        return 0.0
    prec, rec = lcs / len(candidate), lcs / len(reference)
    return (1 + beta**2) * prec * rec / (rec + beta**2 * prec)


def chrf(candidate: str, reference: str, n: int = 6, beta: float = 2.0) -> float:
    """chrF (Popović 2015): character n-gram F-beta, n = 1..6 averaged, whitespace ignored."""
    from collections import Counter

    a, b = "".join(candidate.split()), "".join(reference.split())
    if not a or not b:
        return 0.0
    ps, rs = [], []
    for k in range(1, n + 1):
        ca = Counter(a[i:i + k] for i in range(len(a) - k + 1))
        cb = Counter(b[i:i + k] for i in range(len(b) - k + 1))
        if not ca or not cb:
            continue
        hit = sum((ca & cb).values())
        ps.append(hit / sum(ca.values()))
        rs.append(hit / sum(cb.values()))
    if not ps:
        return 0.0
    p, r = sum(ps) / len(ps), sum(rs) / len(rs)
    return 0.0 if p + r == 0 else (1 + beta**2) * p * r / (beta**2 * p + r)


def summary_overlap(x: CaseInputs) -> MetricResult:
    """ROUGE-L and chrF of the summary against the reference summary, over Kiwi morphemes (value: ROUGE-L)."""
    name, method = "summary_rouge_l", "ROUGE-L F (beta 1.2) over Kiwi morphemes; chrF (n≤6, beta 2) in details"
    if x.case.task != "summary":
        return MetricResult.not_computable(name, method, NOT_SUMMARY)
    if x.answer_text is None or not x.reference_text:
        return MetricResult.not_computable(name, method, NO_ANSWER if x.answer_text is None else
                                           "the case has no reference summary")
    cand, ref = _morphemes(x.answer_text), _morphemes(x.reference_text)
    return MetricResult(name, round(rouge_l(cand, ref), 6), method,
                        details={"chrf": round(chrf(" ".join(cand), " ".join(ref)), 6), "tokens": len(cand),
                                 "reference_tokens": len(ref)})


def proviso_preservation(x: CaseInputs) -> MetricResult:
    """Share of the sources' provisos, exceptions and exclusions the summary keeps (answer/summarize.py)."""
    from geunkeo.answer.summarize import proviso_check

    name, method = "proviso_preservation", "provisos of the contexts kept verbatim or by ≥ 70% of their terms"
    if x.case.task != "summary":
        return MetricResult.not_computable(name, method, NOT_SUMMARY)
    if x.answer_text is None:
        return MetricResult.not_computable(name, method, NO_ANSWER)
    checks = proviso_check(list(x.contexts), x.answer_text)
    if not checks:
        return MetricResult.not_computable(name, method, "the contexts state no proviso")
    kept = sum(c.kept for c in checks)
    return MetricResult(name, round(kept / len(checks), 6), method,
                        details={"provisos": len(checks), "lost": [c.text for c in checks if not c.kept]})


def semantic_drift(x: CaseInputs) -> MetricResult:
    """How far the summary's meaning moved from its sources: 1 − calibrated similarity(summary, sources)."""
    from geunkeo.checks.similarity import load_calibration, semantic_similarity

    name = "summary_semantic_drift"
    if x.case.task != "summary":
        return MetricResult.not_computable(name, "1 - calibrated cosine(summary, sources)", NOT_SUMMARY)
    if x.answer_text is None:
        return MetricResult.not_computable(name, "1 - calibrated cosine(summary, sources)", NO_ANSWER)
    source = "\n".join(h.chunk.text for h in x.contexts)
    sim = semantic_similarity(x.answer_text, source, x.vectors, x.settings.evaluate.semantic_threshold,
                              load_calibration(), name=name)
    if not sim.computable or sim.value is None:
        return sim
    return MetricResult(name, round(1 - sim.value, 4), f"1 - {sim.method}", details=sim.details)
