"""Answer stage: cited answers (extractive or LLM), the hallucination filter and the serving gate."""

from geunkeo.answer.filter import HallucinationFilter
from geunkeo.answer.pipeline import answer_hits

__all__ = ["HallucinationFilter", "answer_hits"]
