"""Answer metrics: faithfulness, noise sensitivity, response relevancy, factual correctness, semantic similarity."""

from __future__ import annotations

from typing import TYPE_CHECKING

from geunkeo.checks.similarity import RELEVANCY_CALIBRATION_FILE, load_calibration, semantic_similarity
from geunkeo.errors import LLMError
from geunkeo.evaluate.base import Claim, MetricResult
from geunkeo.evaluate.metrics.inputs import CaseInputs

if TYPE_CHECKING:
    from geunkeo.checks.judge import LLMJudge

NO_ANSWER = "there is no answer (retrieval-only run or empty answer)"


def faithfulness(x: CaseInputs, name: str = "faithfulness") -> MetricResult:
    """Supported answer claims / answer claims, checked against the answer's contexts."""
    method = f"supported claims / claims; {x.checker.method}"
    if x.answer_text is None:
        return MetricResult.not_computable(name, method, NO_ANSWER)
    if not x.contexts:
        return MetricResult.not_computable(name, method, "the answer has no contexts to be checked against")
    claims = x.answer_claims
    if not claims:
        return MetricResult.not_computable(name, method, "no claims could be taken from the answer")
    ok = sum(1 for c in claims if c.supported)
    return MetricResult(name, round(ok / len(claims), 6), method,
                        details={"supported": ok, "claims": len(claims),
                                 "hallucinated": [c.claim_id for c in claims if not c.supported]})


def noise_sensitivity(x: CaseInputs) -> MetricResult:
    """Share of answer claims not supported by any relevant context (supported only by noise, or not at all).

    Lower is better (seed 003 P1 target ≤ 0.15)."""
    name = "noise_sensitivity"
    if x.answer_text is None:
        return MetricResult.not_computable(name, "claims without relevant support / claims", NO_ANSWER)
    rel = x.relevance
    if rel is None:
        return MetricResult.not_computable(
            name, "claims without relevant support / claims",
            "relevance unknown: the case has neither expected ids nor a reference to check support against")
    flags, how = rel
    relevant_ids = {h.chunk_id for h, f in zip(x.context_hits, flags, strict=True) if f}
    claims = x.answer_claims
    if not claims:
        return MetricResult.not_computable(name, "claims without relevant support / claims",
                                           "no claims could be taken from the answer")
    noisy_only, unsupported = [], []
    for c in claims:
        ids = {s["chunk_id"] for s in c.supporting_chunks}
        if not ids:
            unsupported.append(c.claim_id)
        elif not ids & relevant_ids:
            noisy_only.append(c.claim_id)
    value = (len(noisy_only) + len(unsupported)) / len(claims)
    return MetricResult(name, round(value, 6), f"claims without relevant support / claims; relevance by {how}",
                        details={"noise_only": noisy_only, "unsupported": unsupported, "claims": len(claims)})


def response_relevancy(x: CaseInputs) -> MetricResult:
    """How directly the answer addresses the question. With an LLM judge: ragas-style, the mean calibrated
    (KorSTS) similarity between the question and questions the LLM writes for the answer. Without one (or
    when it fails): cosine(question, answer) mapped by the relevancy calibration — the probability that an
    answer with that cosine addresses the question, fitted on AutoRAG-ko dev questions with their own vs other
    documents' reference answers (scripts/fit_relevancy_calibration.py). The KorSTS curve is for paraphrases:
    a question and a real answer to it are not paraphrases and scored far below its threshold."""
    name = "response_relevancy"
    if x.answer_text is None:
        return MetricResult.not_computable(name, "calibrated cosine(question, answer)", NO_ANSWER)
    threshold = x.settings.evaluate.semantic_threshold
    if x.judge is not None:
        judged = _judged_relevancy(x, x.judge, x.answer_text, threshold)
        if judged is not None:
            return judged
    cal = load_calibration(shipped=RELEVANCY_CALIBRATION_FILE)
    r = semantic_similarity(x.case.query, x.answer_text, x.vectors, threshold, cal, name=name)
    r.details["note"] = "P(the answer addresses the question | cosine(question, answer)); no LLM question generation"
    return r


def _judged_relevancy(x: CaseInputs, judge: LLMJudge, answer: str, threshold: float) -> MetricResult | None:
    """The mean calibrated similarity between the question and the questions the judge writes for the answer;
    None when the judge fails (recorded in the trace) and the cosine path is to answer instead."""
    try:
        questions = judge.questions_for(answer, x.case.lang)
    except LLMError as e:
        x.trace.decide("evaluate.response_relevancy", "judge failed; question-answer similarity", error=str(e))
        return None
    cal = load_calibration()
    similar = [semantic_similarity(x.case.query, q, x.vectors, threshold, cal) for q in questions]
    scores = [r.value for r in similar if r.value is not None]
    if not scores:  # only an empty text has no similarity: the cosine path reports an empty question
        return None
    value = sum(scores) / len(scores)
    return MetricResult("response_relevancy", round(value, 4),
                        f"mean calibrated cosine(question, generated questions); {judge.method}",
                        details={"generated_questions": questions, "scores": scores,
                                 "threshold": threshold, "similar": value >= threshold})


def _labels(claims: list[Claim], checker, ctx_id: str, ctx: str) -> list[dict]:
    """Copies of `claims` checked against one text (the originals keep their context verdicts)."""
    out = []
    for c in claims:
        probe = checker.check(Claim(c.claim_id, c.text, c.source, c.method), [(ctx_id, ctx)])
        out.append({"claim_id": c.claim_id, "text": c.text, "correct": bool(probe.supported),
                    "label": "correct" if probe.supported else "incorrect", "score": probe.support_score})
    return out


FC_MODES = ("precision", "recall", "f1")


def factual_correctness_mode(x: CaseInputs) -> str:
    """The mode the configured gate profile grades factual correctness in (data/gate_profiles.json)."""
    from geunkeo.evaluate.gates import load_profile

    rule = load_profile(x.settings.evaluate.profile).p0.get("factual_correctness")
    return rule.mode if rule is not None and rule.mode else "f1"


def factual_correctness(x: CaseInputs, mode: str | None = None) -> MetricResult:
    """Claim-level factual correctness of the answer against the reference (ragas FactualCorrectness):
    precision = answer claims the reference supports, recall = reference claims the answer supports (the
    support checker both ways), F1 of the two. `mode` picks which one is the value (default: the gate
    profile's); all three are in the details.

    Recall is the default gate mode: an answer that states every fact of the reference is correct even when
    it quotes more of the regulation than the one-sentence reference; whether the extra claims are true is
    faithfulness's question (they are listed under `extra_claims` with their context support)."""
    mode = mode or factual_correctness_mode(x)
    if mode not in FC_MODES:
        raise ValueError(f"factual correctness mode must be one of {FC_MODES}, got {mode!r}")
    name = "factual_correctness"
    method = f"claim {mode} vs reference (mode={mode}; support checker both ways); {x.checker.method}"
    if x.answer_text is None:
        return MetricResult.not_computable(name, method, NO_ANSWER)
    if x.reference_text is None:
        return MetricResult.not_computable(name, method, "the case has no reference answer or reference claims")
    a_claims, r_claims = x.answer_claims, x.reference_claims
    if not a_claims or not r_claims:
        return MetricResult.not_computable(name, method, "no claims on the answer or the reference side")
    a_labels = _labels(a_claims, x.checker, "reference", x.reference_text)
    r_labels = _labels(r_claims, x.checker, "answer", x.answer_text)
    for c, lab in zip(a_claims, a_labels, strict=True):
        if lab["label"] != "correct" and c.supported is not False:
            # a true extra fact the one-sentence reference does not state is unverified, not incorrect; only the
            # context can say it is wrong
            lab["label"] = "unverified"
        c.checks["factual_correctness"] = {"label": lab["label"], "confidence": lab["score"]}
    p = sum(lab["label"] == "correct" for lab in a_labels) / len(a_labels)
    r = sum(lab["label"] == "correct" for lab in r_labels) / len(r_labels)
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    scores = {"precision": round(p, 6), "recall": round(r, 6), "f1": round(f1, 6)}
    extra = [{"claim_id": c.claim_id, "text": c.text, "supported_by_context": bool(c.supported)}
             for c, lab in zip(a_claims, a_labels, strict=True) if lab["label"] != "correct"]
    return MetricResult(name, scores[mode], method,
                        details={"mode": mode, **scores, "answer_claims": a_labels, "reference_claims": r_labels,
                                 "extra_claims": extra,
                                 "extra_unsupported_by_context": sum(not e["supported_by_context"] for e in extra)})


def semantic_similarity_metric(x: CaseInputs) -> MetricResult:
    """Calibrated similarity of answer and reference, with the configurable threshold (seed 000 phase 3)."""
    name = "semantic_similarity"
    if x.answer_text is None:
        return MetricResult.not_computable(name, "calibrated cosine(answer, reference)", NO_ANSWER)
    if x.reference_text is None:
        return MetricResult.not_computable(name, "calibrated cosine(answer, reference)",
                                           "the case has no reference answer")
    return semantic_similarity(x.answer_text, x.reference_text, x.vectors,
                               x.settings.evaluate.semantic_threshold, load_calibration(), name=name)
