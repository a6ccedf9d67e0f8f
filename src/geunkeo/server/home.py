"""The home page's content, read from the served index: the documents it covers (titles, kinds, passage counts)
and 3–5 example questions.

Example questions come from `server.example_questions` when set; otherwise they are made from the index's own
article headings (the longest article of each of the largest documents: "퇴사 및 관리비 환불에 대해 알려 주세요")
and kept only when the extractive answerer answers them without a warning, so an example never leads to a
withheld answer. Both are computed once per language and cached on the app.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from typing import Any

from geunkeo.answer.codes import GateAction
from geunkeo.corpus.base import Chunk
from geunkeo.engine import AnswerOptions, Engine

EXAMPLES = 4  # shown on the home page (3–5)
_CANDIDATES = 10  # example questions tried at most, per language
_TEMPLATE = {"ko": "{topic}에 대해 알려 주세요", "en": "What do the documents say about {topic}?"}
_KINDS = ("regulation", "notice", "policy")


def covered_documents(chunks: list[Chunk]) -> dict[str, Any]:
    """The index's documents grouped by kind: each title once (versions of one document counted), with its
    passage count; and the totals."""
    by_title: dict[str, dict[str, Any]] = {}
    for c in chunks:
        doc = by_title.setdefault(c.title, {"title": c.title, "kind": c.metadata.get("kind") or "other",
                                            "chunks": 0, "doc_ids": set()})
        doc["chunks"] += 1
        doc["doc_ids"].add(c.doc_id)
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for doc in sorted(by_title.values(), key=lambda d: (-d["chunks"], d["title"])):
        kind = doc["kind"] if doc["kind"] in _KINDS else "other"
        groups[kind].append({"title": doc["title"], "chunks": doc["chunks"], "versions": len(doc["doc_ids"])})
    ordered = {k: groups[k] for k in (*_KINDS, "other") if groups.get(k)}
    return {"groups": ordered, "documents": len({c.doc_id for c in chunks}), "chunks": len(chunks)}


def candidate_questions(chunks: list[Chunk], lang: str) -> list[str]:
    """Questions about the longest titled article of each document, largest documents first; the page's
    language first, then the other."""
    by_doc: dict[str, list[Chunk]] = defaultdict(list)
    for c in chunks:
        by_doc[c.doc_id].append(c)
    docs = sorted(by_doc.values(), key=lambda cs: -len(cs))
    out: list[str] = []
    for want in (lang, "ko" if lang == "en" else "en"):
        for cs in docs:
            titled = [c for c in cs if c.article_title and c.lang == want]
            if titled:
                topic = max(titled, key=lambda c: len(c.text)).article_title or ""
                out.append(_TEMPLATE[want].format(topic=topic if want == "ko" else topic.lower()))
    return list(dict.fromkeys(out))


class Home:
    """What the home page shows for one index, computed when first asked and kept."""

    def __init__(self, index: Engine, configured: list[str]) -> None:
        self.index, self.configured = index, configured
        self._docs: dict[str, Any] | None = None
        self._examples: dict[str, list[str]] = {}
        self._lock = threading.Lock()

    def documents(self) -> dict[str, Any]:
        if self._docs is None:
            self._docs = covered_documents(self.index.store.chunks())
        return self._docs

    def examples(self, lang: str) -> list[str]:
        if self.configured:
            return self.configured[:5]
        with self._lock:
            if lang not in self._examples:
                self._examples[lang] = self._answered(candidate_questions(self.index.store.chunks(), lang))
        return self._examples[lang]

    def _answered(self, questions: list[str]) -> list[str]:
        kept = []
        for q in questions[:_CANDIDATES]:
            ans = self.index.answer(q, AnswerOptions(k=5, answerer="extractive"))
            if ans.gate is not None and ans.gate.action == GateAction.ANSWER:
                kept.append(q)
            if len(kept) == EXAMPLES:
                break
        return kept
