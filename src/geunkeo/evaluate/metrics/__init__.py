"""Evaluation metrics: every one returns value + method + details, or "not computable" with the reason.

`compute_case_metrics` runs every registered metric its inputs allow; `METRICS` is the registry (name →
function of `CaseInputs`); adding a metric is one function plus one line here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict

from geunkeo.checks.claims import extract_claims
from geunkeo.checks.judge import LLMJudge, judge_metrics
from geunkeo.config import Settings
from geunkeo.evaluate.base import Claim, MetricResult, QACase
from geunkeo.evaluate.metrics.citation import citation_accuracy, citation_coverage
from geunkeo.evaluate.metrics.context import context_entities_recall, context_precision, context_recall
from geunkeo.evaluate.metrics.generation import (
    factual_correctness,
    faithfulness,
    noise_sensitivity,
    response_relevancy,
    semantic_similarity_metric,
)
from geunkeo.evaluate.metrics.inputs import (
    CaseInputs,
    CheckParts,
    check_parts,
    context_text,
    prefetch_vectors,
)
from geunkeo.evaluate.metrics.retrieval import case_retrieval, cases_retrieval, retrieval_metrics
from geunkeo.evaluate.metrics.summary import (
    proviso_preservation,
    semantic_drift,
    summarization_score,
    summary_faithfulness,
    summary_overlap,
)
from geunkeo.trace import Trace

__all__ = ["METRICS", "case_inputs", "cases_retrieval", "compute_case_metrics", "extract_and_check_claims",
           "prefetch_vectors", "retrieval_metrics"]

METRICS: dict[str, Callable[[CaseInputs], MetricResult]] = {
    "context_recall": context_recall,
    "context_precision": context_precision,
    "context_entities_recall": context_entities_recall,
    "noise_sensitivity": noise_sensitivity,
    "response_relevancy": response_relevancy,
    "faithfulness": faithfulness,
    "factual_correctness": factual_correctness,
    "citation_coverage": citation_coverage,
    "citation_accuracy": citation_accuracy,
    "semantic_similarity": semantic_similarity_metric,
    "summarization_score": summarization_score,
    "summary_faithfulness": summary_faithfulness,
    "summary_rouge_l": summary_overlap,
    "proviso_preservation": proviso_preservation,
    "summary_semantic_drift": semantic_drift,
}


def _as_judge(judge, trace: Trace) -> LLMJudge | None:
    """Accept an LLMJudge or a bare LLM (wrapped); None stays None."""
    if judge is None or isinstance(judge, LLMJudge):
        return judge
    if hasattr(judge, "complete"):
        return LLMJudge(judge, trace=trace)
    raise TypeError(f"judge must be an LLMJudge or an LLM, not {type(judge).__name__}")


def case_inputs(case: QACase, answer, retrieved: list, settings: Settings, embedder=None, judge=None,
                trace: Trace | None = None, parts: CheckParts | None = None) -> CaseInputs:
    """What the metrics of one case read: the run's vector cache and checker (`parts`, built once per run by
    `check_parts`; else new ones over `embedder`). Build these for a whole run and pass them to
    `prefetch_vectors` to embed every claim and sentence in a few batched calls."""
    trace = trace if trace is not None else Trace()
    parts = parts or check_parts(settings, embedder)
    return CaseInputs(case, answer, list(retrieved), settings, parts.vectors, parts.checker,
                      _as_judge(judge, trace), trace)


def compute_case_metrics(case: QACase, answer, retrieved: list, settings: Settings, embedder=None,
                         judge=None, trace: Trace | None = None, inputs: CaseInputs | None = None,
                         ranking_hits: list | None = None,
                         ranking: dict[str, MetricResult] | None = None) -> dict[str, MetricResult]:
    """Every metric for one case (from `inputs` when already built by `case_inputs`). The ranking metrics
    (recall@k, MRR, nDCG, MAP) read `ranking_hits` when given (e.g. all hits searched), else `retrieved`;
    `ranking` passes them in already computed (`cases_retrieval` over a whole run).
    Answer claims (with support links) are in `result["faithfulness"].details["claims"]`, reference claims in
    `result["context_recall"].details["claims"]`."""
    x = inputs if inputs is not None else case_inputs(case, answer, retrieved, settings, embedder, judge, trace)
    trace, judge = x.trace, x.judge
    out: dict[str, MetricResult] = {}
    with trace.stage("evaluate.retrieval_metrics"):
        if ranking is not None:
            out.update(ranking)
        else:
            ranked = x.retrieved if ranking_hits is None else list(ranking_hits)
            out.update(case_retrieval(case.expected_chunk_ids, case.expected_doc_ids, ranked, case_id=case.id))
    for name, fn in METRICS.items():
        with trace.stage(f"evaluate.{name}"):
            out[name] = fn(x)
    with trace.stage("evaluate.judge"):
        out.update(judge_metrics(judge, case.query, x.answer_text, [context_text(h) for h in x.contexts],
                                 x.reference_text, case.lang))
    # Claims last: factual correctness adds labels to the answer claims after faithfulness ran.
    out["faithfulness"].details["claims"] = [asdict(c) for c in x.answer_claims]
    out["context_recall"].details["claims"] = [asdict(c) for c in x.reference_claims]
    return out


def extract_and_check_claims(answer_text: str, contexts: Sequence, embedder=None, settings: Settings | None = None,
                             llm=None, lang: str = "ko", trace: Trace | None = None,
                             parts: CheckParts | None = None) -> list[Claim]:
    """Claims of `answer_text`, each linked to the contexts that support it (with scores and evidence).

    `contexts` are retrieved `Hit`s or (chunk_id, text) pairs."""
    checker = (parts or check_parts(settings, embedder)).checker
    pairs = [(c.chunk_id, context_text(c)) if hasattr(c, "chunk") else (str(c[0]), str(c[1])) for c in contexts]
    claims = extract_claims(answer_text, llm=llm, lang=lang, trace=trace)
    return [checker.check(c, pairs) for c in claims]
