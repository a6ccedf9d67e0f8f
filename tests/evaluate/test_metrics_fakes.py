"""Shared fakes for the metric tests: a table-driven support checker and embedder, and case builders.

With these, every metric value below is computed by hand from which claim each chunk supports.
"""

from __future__ import annotations

import numpy as np

from geunkeo.answer.base import Answer, AnswerSentence, Citation
from geunkeo.checks.similarity import VectorCache
from geunkeo.checks.support import SupportChecker, SupportVerdict
from geunkeo.config import Settings
from geunkeo.corpus.base import Chunk
from geunkeo.evaluate.base import QACase
from geunkeo.evaluate.metrics.inputs import CaseInputs
from geunkeo.index.base import Embedder
from geunkeo.retrieve.base import Hit


class TableChecker(SupportChecker):
    """Supports a claim in a context iff the claim text is listed for that context id."""

    def __init__(self, support: dict[str, set[str]]):
        self.support = support
        self.judge = None

    @property
    def method(self) -> str:
        return "table"

    def verdict(self, claim: str, chunk_id: str, context: str) -> SupportVerdict:
        ok = claim in self.support.get(chunk_id, set())
        return SupportVerdict(chunk_id, ok, 0.9 if ok else 0.1, context[:10], {"vetoes": []})


class FixedEmbedder(Embedder):
    """Every text gets the same unit vector unless listed: cosines are 1.0 or as set in `table`."""

    name = "fixed"

    def __init__(self, table: dict[str, list[float]] | None = None):
        self.table = table or {}

    @property
    def dim(self) -> int:
        return 2

    @property
    def version(self) -> str:
        return "fixed-1"

    def embed_queries(self, texts):
        out = [np.asarray(self.table.get(t, [1.0, 0.0]), dtype=np.float32) for t in texts]
        return np.stack([v / np.linalg.norm(v) for v in out])

    embed_passages = embed_queries


def hit(chunk_id: str, text: str, doc_id: str | None = None, score: float = 1.0) -> Hit:
    doc = doc_id or chunk_id.split("#")[0]
    return Hit(Chunk(chunk_id=chunk_id, doc_id=doc, title="", text=text, location=chunk_id), score)


def answer(text: str, contexts: list[Hit], sentences: list[tuple[str, list[int]]] | None = None) -> Answer:
    sents = [AnswerSentence(t, [Citation(n, contexts[n - 1].chunk_id, "") for n in ns]) for t, ns in sentences or []]
    return Answer(query="q", text=text, lang="ko", sentences=sents, contexts=contexts)


def inputs(case: QACase, ans: Answer | None, hits: list[Hit], support: dict[str, set[str]],
           table: dict[str, list[float]] | None = None) -> CaseInputs:
    vectors = VectorCache(FixedEmbedder(table))
    return CaseInputs(case, ans, hits, Settings(), vectors, TableChecker(support))
