"""What the filter tests share: one filter, and an answer's text after it with the values it removed."""

from __future__ import annotations

from geunkeo.answer.filter import HallucinationFilter
from geunkeo.corpus.base import Chunk

FILTER = HallucinationFilter()


def removed_items(answer: str, ctx: list[Chunk], lang: str) -> tuple[str, list[str]]:
    """(filtered text, removed values in order) of `answer` over the contexts `ctx`."""
    res = FILTER.apply(answer, ctx, lang=lang)
    return res.text, [r.value for r in res.report.removed]
