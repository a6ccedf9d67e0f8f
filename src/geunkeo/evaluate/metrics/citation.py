"""Citation metrics (seed 003 P0-4): coverage (sentences with a citation) and accuracy (citations that hold)."""

from __future__ import annotations

from geunkeo.answer.base import AnswerSentence, Citation, content_sentences
from geunkeo.answer.base import citation_coverage as shared_coverage
from geunkeo.checks.claims import extract_claims, split_sentences, strip_citations
from geunkeo.evaluate.base import Claim, MetricResult
from geunkeo.evaluate.metrics.generation import NO_ANSWER
from geunkeo.evaluate.metrics.inputs import CaseInputs, context_text


def cited_sentences(x: CaseInputs) -> list[AnswerSentence]:
    """The answer's sentences, citation markers stripped: its own sentence list, else parsed from [n] in its text
    (a text-only answer has no generic flags: every sentence counts as content)."""
    if x.answer is None:
        return []
    if x.answer.sentences:
        out = []
        for s in x.answer.sentences:
            text = strip_citations(s.text)[0]
            if text:
                out.append(AnswerSentence(text, list(s.citations), s.generic))
        return out
    return [AnswerSentence(s.text, [Citation(n, "", "") for n in s.citations])
            for s in split_sentences(x.answer.text)]


def citation_coverage(x: CaseInputs) -> MetricResult:
    """Share of content answer sentences that cite at least one context (answer.base.citation_coverage: the
    serving gate's definition, so a generic sentence such as the contact advice needs no citation)."""
    name, method = "citation_coverage", "content sentences with ≥1 citation / content sentences (generic ones excluded)"
    if x.answer_text is None:
        return MetricResult.not_computable(name, method, NO_ANSWER)
    sents = cited_sentences(x)
    coverage = shared_coverage(sents)
    if coverage is None:
        return MetricResult.not_computable(name, method, "the answer has no content sentences")
    content = content_sentences(sents)
    uncited = [s.text for s in content if not s.citations]
    return MetricResult(name, round(coverage, 6), method,
                        details={"cited": len(content) - len(uncited), "sentences": len(content),
                                 "generic": len(sents) - len(content), "uncited": uncited})


def citation_accuracy(x: CaseInputs) -> MetricResult:
    """Share of citations whose cited chunk supports (a claim of) the citing sentence."""
    name, method = "citation_accuracy", f"citations whose chunk supports the sentence / citations; {x.checker.method}"
    if x.answer_text is None:
        return MetricResult.not_computable(name, method, NO_ANSWER)
    contexts = x.contexts
    pairs = [(s.text, c.n) for s in cited_sentences(x) for c in s.citations]
    if not pairs:
        return MetricResult.not_computable(name, method, "the answer cites nothing")
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
