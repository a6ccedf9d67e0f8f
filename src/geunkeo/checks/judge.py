"""LLM-as-judge (seed 000 phase 4): rubric scores for correctness, completeness and citation accuracy.

Prompts in Korean and English; JSON output read with the LLM layer's repairing parser; calls go through the
configured LLM (wrapped in its persistent cache by `get_llm`), run asynchronously with a timeout so nothing
waits on a slow model. When no LLM is configured or the call fails, each judge metric is "not computable" with
the reason — the judge never invents a score (and never derives one from answer length).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any

from geunkeo.checks.base import MetricResult
from geunkeo.errors import LLMBadOutput, LLMError
from geunkeo.trace import Trace

CRITERIA = ("correctness", "completeness", "citation_accuracy")

RUBRIC_KO = """당신은 규정·약관 질의응답의 엄격한 평가자입니다. 아래 질문, 참고 문맥(번호 [n]), 정답(있을 경우),
평가 대상 답변을 읽고 세 기준을 각각 1~5점으로 채점하세요.
- correctness(정확성): 답변의 사실이 문맥·정답과 일치하는가 (5=모두 일치, 1=핵심이 틀림)
- completeness(완전성): 질문에 필요한 조건·예외·면책 등을 빠짐없이 담았는가 (5=빠짐없음, 1=핵심 누락)
- citation_accuracy(인용 정확성): 답변의 인용 [n]이 실제로 그 내용을 담은 문맥을 가리키는가 (인용이 없으면 1)
답변의 길이나 문체로 점수를 주지 마세요. JSON으로만 답하세요:
{"correctness": {"score": 1-5, "reason": "..."}, "completeness": {"score": 1-5, "reason": "..."},
 "citation_accuracy": {"score": 1-5, "reason": "..."}}"""

RUBRIC_EN = """You are a strict grader of question answering over regulations and policy terms. Read the question,
the numbered contexts [n], the reference answer (if any) and the answer under review, then score each criterion
from 1 to 5.
- correctness: do the answer's facts agree with the contexts and the reference? (5 = all agree, 1 = key fact wrong)
- completeness: does it carry the conditions, exceptions and exclusions the question needs? (5 = nothing missing)
- citation_accuracy: do the answer's citations [n] point to contexts that state what is cited? (1 if none)
Do not reward length or style. Reply in JSON only:
{"correctness": {"score": 1-5, "reason": "..."}, "completeness": {"score": 1-5, "reason": "..."},
 "citation_accuracy": {"score": 1-5, "reason": "..."}}"""

VERIFY_KO = ("문맥이 주장을 직접 뒷받침하면 supported=true, 반대되거나 문맥에 없으면 false입니다. "
             'JSON으로만 답하세요: {"supported": true|false, "reason": "..."}')
VERIFY_EN = ("supported=true only when the context directly states the claim; false when it contradicts it or does "
             'not say it. Reply in JSON only: {"supported": true|false, "reason": "..."}')


QUESTIONS_KO = ("다음 답변이 답하고 있는 질문을 3개 쓰세요. 답변에 없는 내용은 묻지 마세요. "
                'JSON으로만 답하세요: {"questions": ["...", "...", "..."]}')
QUESTIONS_EN = ("Write 3 questions that the answer below answers. Do not ask about anything the answer does not "
                'say. Reply in JSON only: {"questions": ["...", "...", "..."]}')


def _run(coro):
    """Run a coroutine from sync code, also when an event loop is already running (then in a worker thread)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


class LLMJudge:
    """Rubric judge over one LLM; `timeout_s` bounds each call on top of the provider's own timeout."""

    def __init__(self, llm, timeout_s: float = 60.0, trace: Trace | None = None):
        self.llm = llm
        self.timeout_s = timeout_s
        self.trace = trace if trace is not None else Trace()

    @property
    def method(self) -> str:
        return f"llm-judge {getattr(self.llm, 'provider', '?')}/{getattr(self.llm, 'model', '?')}"

    async def _ask(self, system: str, user: str, feature: str) -> dict[str, Any]:
        from geunkeo.llm.base import Message
        from geunkeo.llm.calls import complete_traced
        from geunkeo.llm.parsing import extract_json

        msgs = [Message("system", system), Message("user", user)]
        try:
            out = await asyncio.wait_for(
                asyncio.to_thread(complete_traced, self.llm, msgs, trace=self.trace, feature=feature, json=True),
                timeout=self.timeout_s)
        except TimeoutError as e:
            raise LLMError(f"the judge did not answer within {self.timeout_s:.0f} s") from e
        value = extract_json(out.text)
        if not isinstance(value, dict):
            raise LLMBadOutput(f"the judge returned {type(value).__name__}, not a JSON object")
        return value

    async def arate(self, question: str, answer: str, contexts: list[str], reference: str | None,
                    lang: str = "ko") -> dict[str, dict[str, Any]]:
        """Scores per criterion: {criterion: {"score": 0–1, "raw": 1–5, "reason": str}}; raises LLMError."""
        ctx = "\n".join(f"[{i + 1}] {c}" for i, c in enumerate(contexts)) or "(none)"
        user = (f"Question: {question}\n\nContexts:\n{ctx}\n\nReference answer: {reference or '(none)'}\n\n"
                f"Answer under review: {answer}")
        value = await self._ask(RUBRIC_KO if lang == "ko" else RUBRIC_EN, user, "evaluate.judge")
        out: dict[str, dict[str, Any]] = {}
        for crit in CRITERIA:
            item = value.get(crit)
            raw = _number(item.get("score") if isinstance(item, dict) else item)
            if raw is not None and 1.0 <= raw <= 5.0:
                reason = item.get("reason", "") if isinstance(item, dict) else ""
                out[crit] = {"score": round((raw - 1.0) / 4.0, 4), "raw": raw, "reason": reason}
        if not out:
            raise LLMBadOutput(f"the judge's JSON has no 1–5 score for {', '.join(CRITERIA)}")
        return out

    def rate(self, question: str, answer: str, contexts: list[str], reference: str | None,
             lang: str = "ko") -> dict[str, dict[str, Any]]:
        return _run(self.arate(question, answer, contexts, reference, lang))

    def questions_for(self, answer: str, lang: str = "ko") -> list[str]:
        """Questions the answer responds to (ragas response relevancy); raises LLMError when unusable."""
        value = _run(self._ask(QUESTIONS_KO if lang == "ko" else QUESTIONS_EN, answer, "evaluate.relevancy"))
        items = value.get("questions")
        items = [q.strip() for q in items if isinstance(q, str) and q.strip()] if isinstance(items, list) else []
        if not items:
            raise LLMBadOutput("the judge wrote no questions for the answer")
        return items[:5]

    def verify_claim(self, claim: str, evidence: str, lang: str = "ko") -> dict[str, Any]:
        """The judge's verdict on one claim: {"supported": bool | None, "reason", "method"} (None on failure)."""
        user = f"Context: {evidence}\n\nClaim: {claim}"
        try:
            value = _run(self._ask(VERIFY_KO if lang == "ko" else VERIFY_EN, user, "evaluate.verify_claim"))
        except LLMError as e:
            self.trace.warn(f"judge claim check failed: {e}")
            return {"supported": None, "error": str(e), "method": self.method}
        sup = value.get("supported")
        if isinstance(sup, str):
            sup = {"true": True, "false": False}.get(sup.strip().lower())
        return {"supported": sup if isinstance(sup, bool) else None, "reason": value.get("reason", ""),
                "method": self.method}


def judge_metrics(judge: LLMJudge | None, question: str, answer: str | None, contexts: list[str],
                  reference: str | None, lang: str = "ko") -> dict[str, MetricResult]:
    """judge_correctness / judge_completeness / judge_citation_accuracy, or "not computable" with the reason."""
    names = {c: f"judge_{c}" for c in CRITERIA}
    if judge is None:
        return {n: MetricResult.not_computable(n, "llm-judge", "no LLM judge is configured (llm.provider = none)")
                for n in names.values()}
    if not answer:
        return {n: MetricResult.not_computable(n, judge.method, "there is no answer to judge")
                for n in names.values()}
    try:
        scores = judge.rate(question, answer, contexts, reference, lang)
    except LLMError as e:
        judge.trace.decide("evaluate.judge", "judge unavailable; metrics not computable", error=str(e))
        return {n: MetricResult.not_computable(n, judge.method, f"the LLM judge failed: {e}")
                for n in names.values()}
    out = {}
    for crit, n in names.items():
        if crit in scores:
            s = scores[crit]
            out[n] = MetricResult(n, s["score"], f"{judge.method}; rubric 1–5 mapped to (s-1)/4",
                                  details={"raw": s["raw"], "reason": s["reason"]})
        else:
            out[n] = MetricResult.not_computable(n, judge.method, f"the judge gave no score for {crit}")
    return out


def _number(value: object) -> float | None:
    """A score as the judge may write it (4, 4.0, "4"), or None for anything else (null, "n/a", a list)."""
    if not isinstance(value, (int, float, str)):
        return None
    try:
        return float(value)
    except ValueError:
        return None
