"""One way for every LLM feature to call a model: timed, and recorded in the Trace's `llm_calls`."""

from __future__ import annotations

import time
from typing import Any

from geunkeo.errors import LLMError
from geunkeo.llm.base import LLM, Completion, Message
from geunkeo.trace import Trace


def complete_traced(llm: LLM, messages: list[Message], *, trace: Trace | None, feature: str,
                    **kwargs) -> Completion:
    """`llm.complete(...)` that appends {provider, model, feature, ms, tokens, cached, error} to `trace.llm_calls`.

    Errors are recorded and re-raised (LLMUnavailable / LLMBadOutput); the feature decides how to degrade.
    """
    start = time.perf_counter()
    record: dict[str, Any] = {"provider": llm.provider, "model": llm.model, "feature": feature}
    try:
        out = llm.complete(messages, **kwargs)
    except LLMError as e:
        record.update(ms=round((time.perf_counter() - start) * 1000.0, 2), cached=False, error=str(e))
        if trace is not None:
            trace.llm_calls.append(record)
        raise
    record.update(
        ms=round((time.perf_counter() - start) * 1000.0, 2), prompt_tokens=out.prompt_tokens,
        completion_tokens=out.completion_tokens, cached=out.cached, model=out.model or llm.model,
    )
    if trace is not None:
        trace.llm_calls.append(record)
    return out
