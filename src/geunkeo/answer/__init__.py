"""Answer stage: cited answers (extractive or LLM), the hallucination filter and the serving gate.

The names below load on first use: a search imports `geunkeo.answer.base` (the `Answer` type) and must not pay
for compiling the filter's patterns (~0.17 s) on every `geunkeo search`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from geunkeo.answer.filter import HallucinationFilter
    from geunkeo.answer.pipeline import answer_hits

__all__ = ["HallucinationFilter", "answer_hits"]


def __getattr__(name: str) -> Any:
    if name == "HallucinationFilter":
        from geunkeo.answer.filter import HallucinationFilter

        return HallucinationFilter
    if name == "answer_hits":
        from geunkeo.answer.pipeline import answer_hits

        return answer_hits
    raise AttributeError(f"module 'geunkeo.answer' has no attribute {name!r}")
