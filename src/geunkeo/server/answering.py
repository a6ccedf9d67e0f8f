"""Answering under a deadline, with one circuit breaker for the LLM shared by every request.

`/api/ask` and the ask page must answer within `server.ask_deadline_s`: the configured answerer (an LLM, perhaps
slow or hung) runs in a worker thread and is waited for until the deadline less a reserve for the fallback; when
that passes, or while the breaker is open, the extractive answer is served instead, marked `fallback`. The
breaker opens after `failures_to_open` consecutive LLM timeouts or failures and stays open `cooldown_s`; then one
request tries the LLM again (half-open) and closes it on success.
"""

from __future__ import annotations

import copy
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

from geunkeo.answer.base import Answer
from geunkeo.config import Settings
from geunkeo.engine import AnswerOptions, Engine, SearchOptions
from geunkeo.retrieve.base import SearchResult
from geunkeo.trace import Trace


class Breaker:
    """Consecutive-failure circuit breaker (closed → open → half-open → closed)."""

    def __init__(self, failures_to_open: int = 3, cooldown_s: float = 30.0) -> None:
        self.failures_to_open, self.cooldown_s = failures_to_open, cooldown_s
        self._failures = 0
        self._opened_at: float | None = None
        self._lock = threading.Lock()

    @property
    def state(self) -> str:
        with self._lock:
            if self._opened_at is None:
                return "closed"
            return "open" if time.monotonic() - self._opened_at < self.cooldown_s else "half_open"

    def allow(self) -> bool:
        return self.state != "open"

    def success(self) -> None:
        with self._lock:
            self._failures, self._opened_at = 0, None

    def failure(self) -> None:
        with self._lock:
            self._failures += 1
            if self._failures >= self.failures_to_open or self._opened_at is not None:
                self._opened_at = time.monotonic()


def fallback_reserve(deadline_s: float) -> float:
    """The part of the deadline kept for the extractive answer after the LLM's wait ends: 2 s, at most a fifth.
    Waiting the whole 15 s first served 4 pages at once under a hung LLM in 16.25 s (the 4 fallbacks share the
    GIL, ~1.2 s)."""
    return min(2.0, 0.2 * deadline_s)


class Answering:
    """Answers for the server: the configured answerer within the deadline, else the extractive one."""

    def __init__(self, index: Engine, settings: Settings, breaker: Breaker | None = None, on_fallback=None,
                 workers: int = 4) -> None:
        self.index, self.settings = index, settings
        self.breaker = breaker or Breaker()
        self.on_fallback = on_fallback or (lambda reason: None)
        # LLM calls that outlive their deadline keep a worker until the LLM client's own timeout ends them
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="geunkeo-answer")
        # built now, when the server starts: the first requests' deadlines are theirs to answer in, not to load in
        index.prepare_answers()

    @property
    def uses_llm(self) -> bool:
        from geunkeo.answer.registry import resolve_name

        return resolve_name(None, self.settings) == "llm"

    def ask(self, query: str, k: int, deadline_s: float | None = None) -> Answer:
        """The answer to `query`, within `deadline_s` (default `server.ask_deadline_s`)."""
        if not self.uses_llm:
            return self.index.answer(query, AnswerOptions(k=k))
        if not self.breaker.allow():
            return self._extractive(query, k, "llm_circuit_open")
        deadline = deadline_s if deadline_s is not None else self.settings.server.ask_deadline_s
        llm_wait = deadline - fallback_reserve(deadline)
        searched: Future[tuple[SearchResult, Trace]] = Future()
        future = self._pool.submit(self._llm_answer, query, k, searched)
        try:
            ans = future.result(timeout=llm_wait)
        except FutureTimeout:
            self.breaker.failure()
            reason = f"llm_deadline ({llm_wait:g} s of {deadline:g} s)"
            if searched.done():  # the reserve is the fallback's: it answers over the hits already found
                return self._extractive(query, k, reason, searched.result())
            return self._extractive(query, k, reason)
        if ans.fallback:  # the pipeline itself fell back: the LLM was unreachable or failed
            self.breaker.failure()
            self.on_fallback("llm_error")
        else:
            self.breaker.success()
        return ans

    def _llm_answer(self, query: str, k: int, searched: Future) -> Answer:
        """Search, hand the hits (with a copy of the trace so far) to a fallback that may need them, then answer
        with the configured answerer."""
        res = self.index.search(query, options=SearchOptions(k=k))
        searched.set_result((res, copy.deepcopy(res.trace)))
        return self.index.answer_hits(query, res.hits[:k], AnswerOptions(k=k), plan=res.plan, trace=res.trace)

    def _extractive(self, query: str, k: int, reason: str, searched: tuple[SearchResult, Trace] | None = None
                    ) -> Answer:
        self.on_fallback(reason.split(" ")[0])
        opts = AnswerOptions(k=k, answerer="extractive")
        if searched is None:
            ans = self.index.answer(query, opts)
        else:
            res, trace = searched
            ans = self.index.answer_hits(query, res.hits[:k], opts, plan=res.plan, trace=trace)
        ans.fallback = reason
        ans.trace.warn(f"served the extractive answer: {reason}")
        return ans
