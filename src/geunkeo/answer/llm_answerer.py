"""LLM answerer: numbered context blocks, seed 002 option B rules, a citation [n] on every sentence."""

from __future__ import annotations

import re

from geunkeo.answer.base import Answer, Answerer
from geunkeo.answer.cited import parse_cited, render
from geunkeo.answer.extractive import question_lang
from geunkeo.answer.prompts import answer_messages
from geunkeo.config import AnswerSettings
from geunkeo.errors import LLMBadOutput
from geunkeo.llm.base import LLM
from geunkeo.llm.calls import complete_traced
from geunkeo.retrieve.base import Hit
from geunkeo.trace import Trace

_NOT_SPECIFIED = re.compile(r"^(?:해당 )?규정에 명시되어 있지 않습니다\.?$|^The regulations do not specify this\.?$", re.I)


class LLMAnswerer(Answerer):
    """Generates with `llm`; raises LLMUnavailable / LLMBadOutput so the caller can fall back to extractive."""

    name = "llm"

    def __init__(self, llm: LLM, settings: AnswerSettings | None = None):
        self.llm = llm
        self.max_sentences = (settings or AnswerSettings()).max_sentences

    def answer(self, query: str, hits: list[Hit], trace: Trace | None = None, *,
               avoid: list[str] | None = None, **_: object) -> Answer:
        """`avoid`: items a previous generation invented (used when the gate asks for one regeneration)."""
        trace = trace if trace is not None else Trace()
        lang = question_lang(query)
        messages = answer_messages(query, hits, lang, self.max_sentences, avoid=avoid)
        with trace.stage("answer.llm", provider=self.llm.provider, model=self.llm.model, retry=bool(avoid)):
            completion = complete_traced(self.llm, messages, trace=trace, feature="answer")
        # the unfiltered text, so a review can see what the hallucination filter changed
        trace.decide("answer.llm", "generated", text=completion.text[:4000], cached=completion.cached)
        sentences, invalid = parse_cited(completion.text, hits, question=query)
        for sent in sentences:  # the rules' "not specified" answer needs no citation (the gate escalates it)
            sent.generic = sent.generic or bool(_NOT_SPECIFIED.search(sent.text))
        if invalid:
            trace.warn(f"LLM cited context numbers that do not exist: {sorted(set(invalid))}; dropped")
        if not sentences:
            raise LLMBadOutput(f"the {self.llm.provider} model returned an empty answer")
        return Answer(query=query, text=render(sentences), lang=lang, sentences=sentences, contexts=list(hits),
                      answerer=self.name, trace=trace)
