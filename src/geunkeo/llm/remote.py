"""What every provider shares: a concurrency limit, bounded retries with backoff, Retry-After, error mapping.

A provider implements `_complete_once`, which makes exactly one request and raises `TransientError` for
failures worth retrying (timeouts, connection errors, HTTP 429/5xx) and `LLMUnavailable` / `LLMBadOutput`
for the rest. `complete` adds the semaphore and the retry loop, so every provider behaves the same.
"""

from __future__ import annotations

import email.utils
import importlib
import threading
import time
from abc import abstractmethod

from geunkeo.errors import LLMBadOutput, LLMUnavailable
from geunkeo.llm.base import LLM, Completion, Message

# Never wait longer than this for one Retry-After, whatever the server asks: callers must not block for minutes.
MAX_RETRY_AFTER_S = 30.0
BACKOFF_BASE_S = 0.5
# After a provider gives up (retries exhausted), calls fail at once for this long instead of waiting again:
# a down LLM must not add its timeout to every search.
COOL_DOWN_S = 30.0


class TransientError(LLMUnavailable):
    """A failure worth retrying (timeout, connection refused, 429, 5xx); `retry_after` is the server's hint."""

    def __init__(self, message: str, retry_after: float | None = None, status: int | None = None,
                 retryable: bool = True):
        super().__init__(message)
        self.retry_after = retry_after
        self.status = status
        # False for "connection refused": the server is not running, so waiting and retrying only adds latency.
        self.retryable = retryable


def parse_retry_after(value: str | None) -> float | None:
    """Seconds to wait from a Retry-After header: delta-seconds (int or float) or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def status_error(status: int, body: str, provider: str, retry_after: float | None = None) -> LLMUnavailable:
    """The geunkeo error for an HTTP error status: 408/429/5xx are transient, the rest need the user."""
    snippet = " ".join(body.split())[:200]
    if status in (408, 409, 429) or status >= 500:
        return TransientError(f"{provider} answered HTTP {status}: {snippet}", retry_after, status)
    hint = {
        401: "check the API key environment variable",
        403: "check the API key's permissions",
        404: "check the model name and base URL",
    }.get(status, "check the request settings")
    return LLMUnavailable(f"{provider} answered HTTP {status}: {snippet} — {hint}")


class RemoteLLM(LLM):
    """Base of the providers: subclasses implement `_complete_once` (one request, no retries)."""

    def __init__(self, model: str, *, timeout_s: float = 30.0, max_retries: int = 2, concurrency: int = 4,
                 temperature: float = 0.0):
        if max_retries < 0:
            raise ValueError("max_retries must be >= 0")
        if concurrency < 1:
            raise ValueError("concurrency must be >= 1")
        self.model = model
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.temperature = temperature
        self._slots = threading.BoundedSemaphore(concurrency)
        self.cool_down_s = COOL_DOWN_S
        self._down_until = 0.0
        self._down_reason = ""
        # Tests replace this to observe waits without sleeping.
        self._sleep = time.sleep

    @abstractmethod
    def _complete_once(self, messages: list[Message], *, json: bool, temperature: float,
                       max_tokens: int | None) -> Completion: ...

    def complete(self, messages: list[Message], *, json: bool = False, temperature: float | None = None,
                 max_tokens: int | None = None) -> Completion:
        """One chat completion with retries; raises LLMUnavailable or LLMBadOutput when it cannot answer."""
        if not messages:
            raise LLMBadOutput("no messages to send: pass at least one Message")
        temp = self.temperature if temperature is None else temperature
        wait_s = self._down_until - time.monotonic()
        if wait_s > 0:
            raise LLMUnavailable(f"{self._down_reason} (not retried for another {wait_s:.0f} s)")
        attempt = 0
        while True:
            start = time.perf_counter()
            try:
                with self._slots:
                    out = self._complete_once(messages, json=json, temperature=temp, max_tokens=max_tokens)
            except TransientError as e:
                if attempt >= self.max_retries or not e.retryable:
                    reason = f"{e} (gave up after {attempt + 1} attempt{'s' if attempt else ''})"
                    self._down_until = time.monotonic() + self.cool_down_s
                    self._down_reason = reason
                    raise LLMUnavailable(reason) from e
                self._sleep(self._delay(attempt, e.retry_after))
                attempt += 1
                continue
            out.ms = (time.perf_counter() - start) * 1000.0
            out.raw.setdefault("attempts", attempt + 1)
            return out

    @staticmethod
    def _delay(attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, MAX_RETRY_AFTER_S)
        return BACKOFF_BASE_S * (2**attempt)


def httpx_errors(name: str) -> tuple[type[BaseException], ...]:
    """`httpx.<name>` and, when installed, `httpx2.<name>`: SDKs use one or the other fork."""
    found = []
    for mod in ("httpx", "httpx2"):
        try:
            found.append(getattr(importlib.import_module(mod), name))
        except (ImportError, AttributeError):
            continue
    return tuple(found)


def to_dicts(messages: list[Message]) -> list[dict[str, str]]:
    """Messages as the role/content dicts every chat API takes."""
    return [{"role": m.role, "content": m.content} for m in messages]
