"""Extractive answerer (no LLM, the default): the best sentences of the top chunks, each cited.

Sentences come from Kiwi's sentence split (`Analyzer.sentences`) and are scored by the weighted share of the
query's BM25 terms they contain, plus small bonuses for an early position in the chunk and a high-ranked chunk.
The chosen ones are shown in reading order (chunk rank, then position). A question in another language than the
source gets a note saying so, and the source sentences are quoted verbatim rather than translated.
"""

from __future__ import annotations

import re

from geunkeo.answer.base import Answer, Answerer, AnswerSentence
from geunkeo.answer.cited import citation_for, render
from geunkeo.config import AnswerSettings
from geunkeo.retrieve.base import Hit
from geunkeo.text.analyzer import get_analyzer
from geunkeo.text.patterns import detect_lang
from geunkeo.trace import Trace

_HEADING = re.compile(r"^(?:제\s?\d+\s?조(?:\s?의\s?\d+)?\s?\([^)]{1,30}\)|Article\s+\d+\s*\([^)]{1,40}\))\s*")
NOTES = {
    ("en", "ko"): "The source documents are in Korean; the relevant passages are quoted as written.",
    ("ko", "en"): "관련 원문은 영어로 되어 있어 그대로 인용합니다.",
}
NOT_FOUND = {"ko": "검색된 문서에서 질문에 대한 내용을 찾지 못했습니다.",
             "en": "The retrieved documents do not contain an answer to this question."}


_BULLET = re.compile(r"^\s*(?:[-*•·▶■□○]|#{1,6}|\d{1,2}[.)]|[가-하][.)]|\(\d{1,2}\))\s+")
_ENDED = re.compile(r"(?:[.!?。]|[다요함음임됨])[\"'”’)\]]*$")


# A sentence that introduces a list ("…다음 각 호와 같다.", "…다음 각 호의 어느 하나에 해당하는 경우에는 …",
# "as follows:") carries its facts in the items below it; quoted alone it says nothing.
_INTRO = re.compile(r"(?:다음\s*각\s*[호목]|다음과\s*같|아래와\s*같|as\s+follows|the\s+following)|:\s*$")
_ITEM = re.compile(r"^\s*(?:\d{1,2}[.)]|[가-하][.)]|\(\d{1,2}\))\s*\S")
_ITEM_MARK = re.compile(r"^\(?(\d{1,2}|[가-하])[.)]\s*")
MAX_ITEMS, MAX_UNIT_CHARS = 10, 700


def source_sentences(text: str) -> list[str]:
    """Sentences of a chunk worth quoting: split by line first (notices are Markdown-ish), bullets and article
    headings stripped; headings, metadata and table rows (short lines without a sentence ending) skipped.

    A sentence that introduces a list (호/목 items) is kept together with its items, markers included
    ("… 다음 각 호와 같다: (1) …; (2) …"), so the answer quotes the facts and not just the lead-in."""
    analyzer = get_analyzer()
    out: list[str] = []
    open_list = False  # the last sentence out introduced a list whose items may follow
    items = 0
    for raw in text.splitlines():
        if open_list and _ITEM.match(raw) and items < MAX_ITEMS:
            # "1. …" → "(1) …" and the lead-in's full stop → ":", so the unit stays one sentence for readers
            # and for sentence splitters (the citation at its end then covers the items too)
            item = _ITEM_MARK.sub(r"(\1) ", " ".join(raw.split()), count=1)
            if len(out[-1]) + len(item) + 2 <= MAX_UNIT_CHARS:
                lead = re.sub(r"[.。]\s*$", ":", out[-1]) if items == 0 else out[-1]
                out[-1] = f"{lead}{' ' if items == 0 else '; '}{item}"
                items += 1
                continue
        open_list = False
        line = _HEADING.sub("", _BULLET.sub("", raw)).strip()
        if not line or line.startswith("|") or " | " in line:
            continue
        if not _ENDED.search(line) and len(line) < 40:
            continue
        for sent in analyzer.sentences(line):
            sent = _HEADING.sub("", sent).strip()
            if len(re.sub(r"\W", "", sent)) >= 4:
                out.append(sent)
        if out and out[-1] in line and _INTRO.search(out[-1]):
            open_list, items = True, 0
    return out


def _jaccard(a: frozenset, b: frozenset) -> float:
    return len(a & b) / len(a | b) if a or b else 1.0


def question_lang(query: str) -> str:
    return "en" if detect_lang(query) == "en" else "ko"


class ExtractiveAnswerer(Answerer):
    name = "extractive"

    def __init__(self, settings: AnswerSettings | None = None):
        s = settings or AnswerSettings()
        self.max_sentences = s.max_sentences
        self.top_chunks = s.extractive_top_chunks
        self.min_relative_overlap = s.extractive_min_relative_overlap

    def answer(self, query: str, hits: list[Hit], trace: Trace | None = None, *,
               terms: dict[str, float] | None = None) -> Answer:
        """Pick, order and cite sentences; `terms` are the query plan's weighted BM25 terms when available."""
        trace = trace if trace is not None else Trace()
        lang = question_lang(query)
        if not hits:
            return Answer(query=query, text=NOT_FOUND[lang], lang=lang, answerer=self.name, trace=trace,
                          sentences=[AnswerSentence(NOT_FOUND[lang], generic=True)])
        analyzer = get_analyzer()
        weights = dict(terms) if terms else dict.fromkeys(analyzer.terms(query), 1.0)
        total = sum(weights.values()) or 1.0
        cands: list[tuple[int, int, str]] = []  # (hit index, position, sentence)
        for r, hit in enumerate(hits[: self.top_chunks]):
            for p, sent in enumerate(source_sentences(hit.chunk.text)):
                cands.append((r, p, sent))
        term_lists = analyzer.terms_batch([c[2] for c in cands])
        scored = []
        seen: set[str] = set()
        for (r, p, sent), sterms in zip(cands, term_lists, strict=True):
            if sent in seen:
                continue
            seen.add(sent)
            tset = frozenset(sterms)
            overlap = sum(w for t, w in weights.items() if t in tset) / total
            scored.append((overlap + 0.1 / (1 + p) + 0.15 / (1 + r), overlap, r, p, sent, tset))
        scored.sort(key=lambda x: -x[0])
        chosen: list[tuple] = []
        # a sentence sharing much less of the question than the best one is usually from a neighbouring topic
        floor = self.min_relative_overlap * max((x[1] for x in scored), default=0.0)
        for x in scored:
            if x[1] <= 0 or x[1] < floor or len(chosen) >= self.max_sentences:
                continue
            # notices repeat the same contact line in every section: one copy is enough
            if any(_jaccard(x[5], c[5]) >= 0.7 for c in chosen):
                continue
            chosen.append(x)
        if not chosen:  # nothing shares a term (e.g. another language): the top chunk's opening sentences
            chosen = [x for x in scored if x[2] == 0][:2]
        chosen.sort(key=lambda x: (x[2], x[3]))
        trace.decide("answer.extractive", "sentences chosen", candidates=len(scored), chosen=len(chosen),
                     overlaps=[round(x[1], 3) for x in chosen])
        sentences: list[AnswerSentence] = []
        src_langs = {hits[x[2]].chunk.lang if hits[x[2]].chunk.lang in ("ko", "en") else "ko" for x in chosen}
        note_lang = next(iter(src_langs - {lang}), None)
        if note_lang:
            sentences.append(AnswerSentence(NOTES[(lang, note_lang)], generic=True))
        for _, _, r, _, sent, _ in chosen:
            text = f"“{sent}”" if note_lang else sent
            sentences.append(AnswerSentence(text, citations=[citation_for(r + 1, hits)]))
        return Answer(query=query, text=render(sentences), lang=lang, sentences=sentences, contexts=list(hits),
                      answerer=self.name, trace=trace)
