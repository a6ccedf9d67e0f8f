"""Citation metrics (seed 003 P0-4): coverage (sentences with a citation) and accuracy (citations that hold)."""

from __future__ import annotations

from geunkeo.evaluate.base import Claim, MetricResult
from geunkeo.evaluate.claims import split_sentences
from geunkeo.evaluate.metrics.generation import NO_ANSWER
from geunkeo.evaluate.metrics.inputs import CaseInputs, context_text


def cited_sentences(x: CaseInputs) -> list[tuple[str, list[int]]]:
    """(sentence text, cited context numbers) — from the answer's own sentence list, else parsed from [n]."""
    if x.answer is None:
        return []
    if x.answer.sentences:
        from geunkeo.evaluate.claims import strip_citations

        return [(strip_citations(s.text)[0], [c.n for c in s.citations]) for s in x.answer.sentences
                if strip_citations(s.text)[0]]
    return [(s.text, s.citations) for s in split_sentences(x.answer.text)]


def citation_coverage(x: CaseInputs) -> MetricResult:
    """Share of answer sentences that cite at least one context."""
    name, method = "citation_coverage", "sentences with ≥1 citation / sentences"
    if x.answer_text is None:
        return MetricResult.not_computable(name, method, NO_ANSWER)
    sents = cited_sentences(x)
    if not sents:
        return MetricResult.not_computable(name, method, "the answer has no sentences")
    cited = sum(1 for _, c in sents if c)
    return MetricResult(name, round(cited / len(sents), 6), method,
                        details={"cited": cited, "sentences": len(sents),
                                 "uncited": [t for t, c in sents if not c]})


def citation_accuracy(x: CaseInputs) -> MetricResult:
    """Share of citations whose cited chunk supports (a claim of) the citing sentence."""
    name, method = "citation_accuracy", f"citations whose chunk supports the sentence / citations; {x.checker.method}"
    if x.answer_text is None:
        return MetricResult.not_computable(name, method, NO_ANSWER)
    contexts = x.contexts
    pairs = [(t, n) for t, ns in cited_sentences(x) for n in ns]
    if not pairs:
        return MetricResult.not_computable(name, method, "the answer cites nothing")
    from geunkeo.evaluate.claims import extract_claims

    rows, ok = [], 0
    for text, n in pairs:
        if not 1 <= n <= len(contexts):
            rows.append({"sentence": text, "n": n, "accurate": False, "reason": "CITED_CONTEXT_MISSING"})
            continue
        hit = contexts[n - 1]
        claims = extract_claims(text) or [Claim("s", text)]
        verdicts = [x.checker.check(Claim(c.claim_id, c.text), [(hit.chunk_id, context_text(hit))])
                    for c in claims]
        accurate = any(v.supported for v in verdicts)
        ok += accurate
        rows.append({"sentence": text, "n": n, "chunk_id": hit.chunk_id, "accurate": accurate,
                     "score": max(v.support_score or 0.0 for v in verdicts)})
    return MetricResult(name, round(ok / len(pairs), 6), method,
                        details={"accurate": ok, "citations": len(pairs), "per_citation": rows})
