"""The answer stage end to end: generate → hallucination filter → verification → serving gate (→ one
regeneration) → Answer.

`answer_hits(query, hits)` answers over hits already retrieved; `Engine.answer` (geunkeo/engine.py) searches first.
The filter and the claim-by-claim verification (answer/verify.py) run after every generation, LLM or
extractive: sentences the chunks they cite do not support, or contradict, are removed (`Answer.verification`
and trace decisions say which and why), and the gate sees the counts. When the LLM is unreachable or not
configured, or its answer has no supported, cited sentence left, the extractive answerer answers instead, and
the Answer says so (`fallback`, plus a trace warning). A supported sentence the LLM wrote without a marker cites
the one context that clearly supports it, after the fact (`_attribute`, a trace decision and `SentenceCheck.attributed`
say so), and counts as cited from then on.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from geunkeo.answer.answerability import AbsentWord, absent_from_cited, assess, stand_ins
from geunkeo.answer.base import Answer, AnswerSentence, GateDecision, SentenceCheck, Verification
from geunkeo.answer.cited import citation_for, render
from geunkeo.answer.codes import GateAction, GateReason
from geunkeo.answer.extractive import RankedUnits, question_lang, readable
from geunkeo.answer.filter import HallucinationFilter
from geunkeo.answer.gate import NOT_ANSWERED, cited_hits, decide, retrieval_confidence
from geunkeo.answer.parts import AnswerParts, build_parts
from geunkeo.answer.slots import field_label
from geunkeo.answer.unit_ranker import UnitRanker, intrinsic
from geunkeo.answer.verify import SUPPORTED
from geunkeo.config import AnswerSettings, load_settings
from geunkeo.errors import LLMError
from geunkeo.llm.base import LLM
from geunkeo.retrieve.base import Hit
from geunkeo.text.figures import FIGURE_KINDS
from geunkeo.trace import Trace

WARNING = {
    "ko": "⚠ 근거 불충분: 이 답변의 일부는 검색된 문서에서 확인되지 않았습니다. 출처를 함께 확인해 주세요.",
    "en": "⚠ Insufficient evidence (근거 불충분): part of this answer could not be confirmed in the retrieved "
          "documents; please check the sources.",
}
ESCALATION = {
    "ko": "검색된 문서만으로는 이 질문에 정확히 답하기 어렵습니다. 담당 부서에 직접 문의해 주시기 바랍니다.",
    "en": "The retrieved documents are not enough to answer this question reliably. Please contact the "
          "responsible office directly.",
}
# "not confirmed", not "not there": the check withholds when it cannot confirm an answer (a question in another
# language than the documents, a figure it cannot find), which is no proof the documents are silent
NOT_FOUND_IN_DOCS = {
    "ko": "제공된 문서에서 이 질문에 대한 내용은 확인되지 않습니다.",
    "en": "An answer to this could not be confirmed in the documents; none is given rather than a guess.",
}
SOURCES = {"ko": "참고할 수 있는 문서:", "en": "Documents that may help:"}


def answer_hits(query: str, hits: list[Hit], parts: AnswerParts | None = None, *, answerer: str | None = None,
                llm: LLM | None = None, terms: dict[str, float] | None = None,
                trace: Trace | None = None, term_sources: dict[str, str] | None = None,
                rarity: dict[str, float] | None = None) -> Answer:
    """Answer `query` from `hits`: generate, filter, verify, gate. `parts` are the stage's parts (the Engine's;
    default: built from the loaded settings); `llm` overrides the configured one (tests, reuse); `terms` and
    `term_sources` are the query plan's BM25 terms and where each expansion came from (the answerability check
    reads them); `rarity` is the index's rarity of those terms (the learned answerability reads it)."""
    parts = parts or build_parts(load_settings())
    trace = trace if trace is not None else Trace()
    name = parts.answerers.resolve(answerer) if llm is None or answerer else "llm"
    if name == "llm" and llm is None:
        llm = parts.llm()
    # the top chunks' units, ranked once: the extractive answer quotes them and the gate reads them, whoever answers
    extractive = parts.extractive
    ranked = extractive.ranked_units(query, hits, terms) if hits else None

    def extract() -> Answer:
        return extractive.answer(query, hits, trace, terms=terms, ranked=ranked)

    check = _Checks(parts, hits, trace, extract, llm)
    ans = check(_generate(name, query, hits, parts, llm, trace, extract))
    with trace.stage("answer.gate"):
        conf = retrieval_confidence(query, hits, terms, term_sources)
        able = assess(query, hits, terms, term_sources)
        unit = unit_confidence(ranked, extractive.ranker, hits, parts.settings, rarity, stand_ins(term_sources))
        def absent(a: Answer) -> list[AbsentWord]:
            quoted = cited_hits(a)
            return absent_from_cited(query, quoted, rarity, term_sources, [h for h in hits if h not in quoted])

        gate = decide(ans, parts.settings, can_regenerate=ans.answerer == "llm", confidence=conf,
                      answerability=able, unit_confidence=unit, absent=absent)
    trace.decide("answer.gate", gate.action, reasons=gate.reasons, checks=gate.checks)
    if gate.action == GateAction.REGENERATE:
        ans, gate = _regenerate(query, ans, gate, check, lambda a: decide(
            a, parts.settings, can_regenerate=False, confidence=conf, answerability=able, unit_confidence=unit,
            absent=absent))
    return _finish(ans, gate, hits, trace)


# -- steps ------------------------------------------------------------------------------------------------------


class _Checks:
    """Filter, then verify, one answer's generations (`answer_hits` checks each generation the same way)."""

    def __init__(self, parts: AnswerParts, hits: list[Hit], trace: Trace, extract: Callable[[], Answer],
                 llm: LLM | None):
        self.parts, self.hits, self.trace, self.extract, self.llm = parts, hits, trace, extract, llm

    def __call__(self, ans: Answer) -> Answer:
        return _checked(ans, self.parts.filter, self.verify if self.parts.verifier else None, self.hits, self.trace,
                        self.extract)

    def verify(self, ans: Answer) -> Verification:
        """The verification of `ans`, with a citation attributed to each sentence that cites nothing but that one
        context clearly supports (`_attribute`)."""
        if self.parts.verifier is None:
            raise ValueError("answer.verify is off: there is no verifier to call")
        ver = self.parts.verifier.verify(ans, self.hits, self.trace, llm=self.llm)
        if self.parts.settings.attribute_uncited:
            _attribute(ans, ver, self.hits, self.parts.verifier.attribute, self.trace)
        return ver


def _regenerate(query: str, ans: Answer, gate: GateDecision, check: _Checks,
                decide_again: Callable[[Answer], GateDecision]) -> tuple[Answer, GateDecision]:
    """The gate's one regeneration of an LLM answer, told what the first one invented; the filtered first answer
    is kept, with a warning, when the LLM fails."""
    trace = check.trace
    avoid = [r.value for r in ans.filter_report.removed] + [u.value for u in ans.filter_report.unverified]
    if ans.verification is not None:
        avoid += [c.text for c in ans.verification.sentences if c.removed]
    try:
        second = check.parts.answerers.llm(check.llm).answer(query, check.hits, trace, avoid=avoid)
    except LLMError as e:
        trace.warn(f"regeneration failed ({type(e).__name__}: {e}); the filtered first answer is kept")
        return ans, GateDecision(GateAction.WARN, [*gate.reasons, GateReason.REGENERATION_FAILED], gate.checks)
    ans = check(second)
    first_reasons = gate.reasons
    with trace.stage("answer.gate", retry=True):
        gate = decide_again(ans)
    gate.regenerated = True
    gate.reasons = [f"regenerated once after: {'; '.join(first_reasons)}", *gate.reasons]
    trace.decide("answer.gate", gate.action, reasons=gate.reasons, checks=gate.checks, retry=True)
    return ans, gate


def unit_confidence(ranked: RankedUnits | None, ranker: UnitRanker, hits: list[Hit], settings: AnswerSettings,
                    rarity: dict[str, float] | None = None,
                    stand_ins: dict[str, str] | None = None) -> tuple[float, float]:
    """(the probability that the top chunks state what was asked, the threshold to serve): the same decision for
    every answerer, read on the documents' ranked units, not on what the answerer wrote (answer/unit_ranker.py).
    `rarity` is the index's rarity of the query's terms (VectorStore.term_rarity)."""
    best = 0.0
    if ranked is not None and hits:
        evidence = ranked.evidence(hits, rarity or {}, settings.extractive_top_chunks, stand_ins)
        best = ranker.answer_probability(ranked.features, ranked.probabilities, evidence)
    threshold = settings.gate_min_unit_probability
    return best, ranker.threshold if threshold is None else threshold


def _generate(name: str, query: str, hits: list[Hit], parts: AnswerParts, llm: LLM | None, trace: Trace,
              extract: Callable[[], Answer]) -> Answer:
    """The answerer `name`'s answer. "extractive" reuses the units ranked for the gate (`extract`); "llm" falls
    back to them when the LLM fails; any other name is an answerer registered in answer/registry.py ANSWERERS,
    whose answer is filtered, verified and gated like the others."""
    reason = None
    if name not in ("llm", "extractive"):
        with trace.stage("answer.generate", answerer=name):
            return parts.answerers.get(name, llm).answer(query, hits, trace)
    if name == "llm":
        if llm is None:
            reason = "no LLM is configured (llm.provider = 'none')"
        else:
            try:
                with trace.stage("answer.generate", answerer="llm"):
                    return parts.answerers.get("llm", llm).answer(query, hits, trace)
            except LLMError as e:
                reason = f"LLM unavailable ({type(e).__name__}: {e})"
        trace.warn(f"{reason}; answered with the extractive answerer instead")
        trace.decide("answer.generate", "fallback to extractive", reason=reason)
    with trace.stage("answer.generate", answerer="extractive"):
        ans = extract()
    ans.fallback = reason
    return ans


def _checked(ans: Answer, filt: HallucinationFilter, verify: Callable[[Answer], Verification] | None,
             hits: list[Hit], trace: Trace, extract: Callable[[], Answer]) -> Answer:
    """Filter, then verify: unsupported and contradicted sentences are removed; an LLM answer left without a
    supported, cited sentence is replaced by the extractive answer (`extract`; filtered and verified in turn)."""
    ans = _filtered(ans, hits, filt, trace)
    # an LLM answer the filter left with no content sentence because its figures were wrong (not because a
    # document dictated it: that is the gate's to escalate) is replaced like a contradicted one
    report = ans.filter_report
    emptied = (ans.answerer == "llm" and bool(report.removed) and not report.injection_used
               and all(r.kind in FIGURE_KINDS for r in report.removed) and all(s.generic for s in ans.sentences))
    fragments = _drop_fragments(ans, trace) if ans.answerer == "llm" else 0
    if verify is None:
        return ans
    ans = _verified(ans, hits, verify, trace)
    ver = ans.verification
    if ver is None or ans.answerer != "llm" or (not ver.checked and not fragments and not emptied) or any(
            c.verdict == SUPPORTED and (c.cited or c.attributed) for c in ver.sentences):
        return ans  # (an LLM answer with no content sentence, "not specified", is the gate's to escalate)
    uncited = sum(1 for c in ver.sentences if c.verdict == SUPPORTED and not c.cited)
    reason = (f"the LLM answer had no sentence that cites the context and is supported by it ({ver.supported} "
              f"supported{f' but {uncited} of them cite no source' if uncited else ''}, {ver.unsupported} unsupported, "
              f"{ver.contradicted} contradicted of {ver.checked}"
              f"{'; the filter removed the rest' if emptied else ''})")
    trace.warn(f"{reason}; answered with the extractive answerer instead")
    trace.decide("answer.verify", "fallback to extractive", reason=reason,
                 rejected=[{"text": c.text, "verdict": c.verdict, "reason": c.reason} for c in ver.sentences])
    with trace.stage("answer.generate", answerer="extractive", fallback=True):
        ext = extract()
    ext = _verified(_filtered(ext, hits, filt, trace), hits, verify, trace)
    ext.fallback = reason
    return ext


def _drop_fragments(ans: Answer, trace: Trace) -> int:
    """Remove the LLM's sentences that are no sentence to read: short Korean without a sentence ending, a full
    stop aside ("한도 유보분.", "재해복구 특별 지원 0.3." — headers and table cells copied from the context), garbled
    text, or a figures-only table row. The extractive answerer never quotes such units (answer/extractive.py
    `readable`, source_units); the same readability decision applies to every answerer. Returns how many were removed."""
    keep: list[AnswerSentence] = []
    for sent in ans.sentences:
        text = sent.text.strip()
        shape = intrinsic(text) if text else None
        # (no_ending is only read on a Korean tail: an English sentence is never cut here for lack of 다/요)
        fragment = (not sent.generic and shape is not None and (
            (shape.no_ending and shape.short and field_label(text) is None) or not readable(text)))
        if fragment:
            trace.decide("answer.readability", "removed a fragment", sentence=text)
        else:
            keep.append(sent)
    removed = len(ans.sentences) - len(keep)
    if removed:
        ans.sentences = keep
        ans.text = render(keep)
    return removed


def _verified(ans: Answer, hits: list[Hit], verify: Callable[[Answer], Verification], trace: Trace) -> Answer:
    with trace.stage("answer.verify", answerer=ans.answerer) as rec:
        ver = verify(ans)
        drop = {c.sentence for c in ver.sentences if c.verdict != SUPPORTED}
        for c in ver.sentences:
            c.removed = c.sentence in drop
        ver.removed = len(drop)
        rec.info.update(checked=ver.checked, supported=ver.supported, removed=ver.removed,
                        methods=sorted({c.method for c in ver.sentences}))
    for c in ver.sentences:
        if c.removed:
            trace.decide("answer.verify", f"removed {c.verdict}", sentence=c.text, reason=c.reason,
                         method=c.method, chunks=c.chunks)
    if drop:
        ans.sentences = [s for i, s in enumerate(ans.sentences) if i not in drop]
        ans.text = render(ans.sentences)
    ans.verification = ver
    return ans


def _filtered(ans: Answer, hits: list[Hit], filt: HallucinationFilter, trace: Trace) -> Answer:
    with trace.stage("answer.filter") as rec:
        res = filt.apply_sentences([s.text for s in ans.sentences], hits, lang=ans.lang, question=ans.query)
        rec.info.update(removed=len(res.report.removed), kept=len(res.report.kept))
    sentences = []
    for fs in res.sentences:
        if fs.source is None:
            sentences.append(AnswerSentence(fs.text, generic=True))
        else:
            orig = ans.sentences[fs.source]
            sentences.append(AnswerSentence(fs.text, list(orig.citations), orig.generic))
    for r in res.report.removed:
        trace.decide("answer.filter", f"removed {r.kind}", value=r.value, replacement=r.replacement)
    ans.sentences = sentences
    ans.filter_report = res.report
    ans.text = render(sentences)
    return ans


def _attribute(ans: Answer, ver: Verification, hits: list[Hit],
               attribute: Callable[[int, AnswerSentence, list[Hit]], tuple[int, SentenceCheck] | None],
               trace: Trace) -> None:
    """Attribution after the fact: a sentence written without a marker that the check found supported cites the
    one context that clearly supports it alone (`AnswerVerifier.attribute`: checked as if it cited that context,
    by every rule and at the checker's own threshold), and its check becomes that check, marked `attributed`.
    The sentence is then gated like any cited one (citation coverage, a superseded version cited); a sentence no
    single context clearly supports stays uncited, as written."""
    for k, c in enumerate(ver.sentences):
        if c.verdict != SUPPORTED or c.cited or ans.sentences[c.sentence].citations:
            continue
        found = attribute(c.sentence, ans.sentences[c.sentence], hits)
        if found is None:
            continue
        n, check = found
        ans.sentences[c.sentence].citations = [citation_for(n, hits)]
        ver.sentences[k] = dataclasses.replace(check, cited=False, attributed=True,
                                               reason=f"{check.reason}; cited after the fact (the sentence had no marker)")
        trace.decide("answer.verify", "attributed a citation after the fact", sentence=c.text, n=n,
                     chunk=hits[n - 1].chunk.chunk_id, method=check.method, score=check.score)


def _finish(ans: Answer, gate: GateDecision, hits: list[Hit], trace: Trace) -> Answer:
    lang = ans.lang if ans.lang in WARNING else question_lang(ans.query)
    if gate.action == GateAction.WARN:
        ans.sentences.insert(0, AnswerSentence(WARNING[lang], generic=True))
    elif gate.action == GateAction.ESCALATE:
        ans.draft, ans.draft_sentences = render(ans.sentences), list(ans.sentences)
        not_in_docs = any(r.startswith(NOT_ANSWERED) for r in gate.reasons)
        ans.sentences = [AnswerSentence((NOT_FOUND_IN_DOCS if not_in_docs else ESCALATION)[lang], generic=True)]
    ans.text = render(ans.sentences)
    if gate.action == GateAction.ESCALATE and hits:
        listing = "; ".join(f"[{n}] {h.chunk.location or h.chunk.title}" for n, h in enumerate(hits[:3], 1))
        ans.text += f" {SOURCES[lang]} {listing}"
    ans.gate = gate
    ans.contexts = list(hits)
    ans.trace = trace
    return ans
