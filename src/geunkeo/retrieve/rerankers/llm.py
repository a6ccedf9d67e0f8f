"""LLM listwise reranking (seed 001): the top 20 in one call, the model names the best 5.

The reply must be the JSON ranking the prompt asks for (`{"ranking": [3, 1, ...]}`, or a bare list of ids),
repaired by `geunkeo.llm.parsing.parse_ranking`; a partial ranking keeps the input order for every candidate the
model did not name. Anything else (prose such as "passage 2 is best", a text ranking "[3] > [1]") is
LLMBadOutput and, like an unreachable LLM, falls back to the fallback reranker (dense re-scoring) or, without
one, the input order; the trace records the error.
"""

from __future__ import annotations

from geunkeo.errors import LLMError
from geunkeo.llm import prompts
from geunkeo.llm.base import LLM
from geunkeo.llm.calls import complete_traced
from geunkeo.llm.parsing import parse_ranking
from geunkeo.retrieve.base import Hit, Reranker
from geunkeo.retrieve.rerankers.dense import reorder

# Each candidate is cut to this many characters so 20 of them fit a small model's context.
PASSAGE_CHARS = 300


class LLMReranker(Reranker):
    name = "llm"

    def __init__(self, llm: LLM | None, keep: int = 5, fallback: Reranker | None = None):
        self.llm = llm
        self.keep = keep
        self.fallback = fallback

    def _degrade(self, query: str, hits: list[Hit], top_n: int, trace, reason: str,
                 error: str | None = None) -> list[Hit]:
        via = self.fallback.name if self.fallback else "input order"
        if trace is not None:
            trace.warn(f"llm reranker skipped: {reason}; using {via}")
            detail = {"error": error} if error else {}
            trace.decide("retrieve.rerank", f"llm reranker fell back to {via}", reason=reason, **detail)
        return self.fallback.rerank(query, hits, top_n, trace) if self.fallback else hits

    def rerank(self, query: str, hits: list[Hit], top_n: int, trace=None) -> list[Hit]:
        """The model's picks first (best first), then the other top-`top_n` hits in input order, then the rest."""
        head = hits[:top_n]
        if len(head) < 2:
            return hits
        if self.llm is None:
            return self._degrade(query, hits, top_n, trace, "no LLM configured (llm.provider = none)")
        passages = [" ".join(h.chunk.embed_text().split())[:PASSAGE_CHARS] for h in head]
        messages = prompts.rerank(query, passages, min(self.keep, len(head)))
        try:
            out = complete_traced(self.llm, messages, trace=trace, feature="rerank", json=True, max_tokens=120)
            order = parse_ranking(out.text, len(head))
        except LLMError as e:
            return self._degrade(query, hits, top_n, trace, f"{type(e).__name__}: {e}", error=type(e).__name__)
        if trace is not None:
            trace.decide("retrieve.rerank", f"llm listwise over {len(head)}: model ranked {len(order)}",
                         picked=[head[i].chunk_id for i in order])
            if len(order) < min(self.keep, len(head)):
                trace.warn(f"llm reranker: partial ranking ({len(order)} of {self.keep}); the rest keep input order")
        return reorder(hits, top_n, order, self.name)
