"""Answer stage interface: hits in, a cited `Answer` out (after the hallucination filter and serving gate)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from geunkeo.answer.codes import GateAction
from geunkeo.answer.report import FilterReport
from geunkeo.answer.report import Removal as Removal  # re-exported: the answer's types are read from here
from geunkeo.retrieve.base import Hit
from geunkeo.trace import Trace


@dataclass
class Citation:
    """Answer sentence → context block n (1-based, in `Answer.contexts` order)."""

    n: int
    chunk_id: str
    location: str


@dataclass
class AnswerSentence:
    text: str
    citations: list[Citation] = field(default_factory=list)
    generic: bool = False  # a standard sentence (contact advice, source-language note): needs no citation


def source_lang(query_lang: str, hits: list[Hit]) -> str | None:
    """The language an answer must be drawn from when retrieval ranked a chunk in another language than the
    question's first ("ko" for an English question over a Korean 학칙), else None.

    The same-language hits below it were ranked lower for a reason (retrieve/crosslingual.py: they miss the
    question's concepts), and an answer quotes one language: the answerer, the answerability check and the
    retrieval confidence then read only the hits in this language."""
    top = hits[0].chunk.lang if hits else None
    return top if top in ("ko", "en") and top != query_lang else None


def content_sentences(sentences: Iterable[AnswerSentence]) -> list[AnswerSentence]:
    """The sentences that state something from the documents (not the standard generic ones)."""
    return [s for s in sentences if not s.generic]


def citation_coverage(sentences: Iterable[AnswerSentence]) -> float | None:
    """Share of the content sentences (not generic) that cite at least one context; None when there are none.

    The one definition: the serving gate (answer/gate.py) and the evaluation's `citation_coverage` metric
    (evaluate/metrics/citation.py) both read it, so a served answer and its evaluation agree."""
    content = content_sentences(sentences)
    if not content:
        return None
    return sum(1 for s in content if s.citations) / len(content)


@dataclass
class GateDecision:
    action: GateAction
    reasons: list[str] = field(default_factory=list)
    checks: dict[str, float] = field(default_factory=dict)
    regenerated: bool = False  # the answer shown is the second generation

    def __post_init__(self) -> None:
        self.action = GateAction(self.action)  # a plain word (a stored record, a caller) becomes the member


@dataclass
class SentenceCheck:
    """The verification verdict on one content sentence (answer/verify.py)."""

    sentence: int  # position in the verified answer's sentences
    text: str
    verdict: str  # "supported" | "unsupported" | "contradicted"
    reason: str
    method: str  # what decided: "verbatim" | "numbers" | "articles" | "polarity" | "checker" | "judge" | "none"
    chunks: list[str] = field(default_factory=list)  # chunk ids checked: the cited ones, or every context if none
    cited: bool = True  # False: the sentence cites nothing and was checked against every context
    evidence: str = ""  # the context sentence the verdict rests on
    score: float | None = None  # the support checker's probability, when it ran
    removed: bool = False  # taken out of the served answer


@dataclass
class Verification:
    """Claim-by-claim check of an answer against the chunks its sentences cite, and what was removed."""

    sentences: list[SentenceCheck] = field(default_factory=list)
    checked: int = 0  # content (non-generic) sentences checked
    supported: int = 0
    unsupported: int = 0
    contradicted: int = 0
    removed: int = 0
    elapsed_ms: float = 0.0
    method: str = ""


@dataclass
class Answer:
    query: str
    text: str
    lang: str
    sentences: list[AnswerSentence] = field(default_factory=list)
    contexts: list[Hit] = field(default_factory=list)
    filter_report: FilterReport = field(default_factory=FilterReport)
    gate: GateDecision | None = None
    answerer: str = ""
    trace: Trace = field(default_factory=Trace)
    fallback: str | None = None  # why the configured answerer was replaced (e.g. the LLM was unreachable)
    draft: str | None = None  # the generated text before the gate withheld it (escalate)
    draft_sentences: list[AnswerSentence] = field(default_factory=list)  # the same, sentence by sentence
    verification: Verification | None = None  # claim-by-claim check of the sentences (answer/verify.py)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["contexts"] = [h.to_dict() for h in self.contexts]
        d["filter_report"]["kept"] = [k.to_dict() for k in self.filter_report.kept]
        return d

    def public_dict(self) -> dict[str, Any]:
        """What a user may read: `to_dict` without the text the answerer wrote and the checks rejected
        (answer/public.py)."""
        from geunkeo.answer.public import public_dict

        return public_dict(self)


class Answerer(ABC):
    name: str = "answerer"

    @abstractmethod
    def answer(self, query: str, hits: list[Hit], trace: Trace | None = None) -> Answer: ...
