"""Prompts of the LLM features, kept together so they can be read, compared and versioned in one place.

Changing a prompt changes the cache key (the messages are part of it), so old cached answers are not reused.
"""

from __future__ import annotations

from geunkeo.llm.base import Message

_DOMAIN = (
    "The documents are Korean and English university regulations (학칙, 규정), academic notices (학사공지) "
    "and insurance policy terms (약관)."
)


def multi_query(question: str, n: int, lang: str) -> list[Message]:
    """Ask for `n` alternative search queries for the same need, as JSON {"queries": [...]}."""
    language = "Korean" if lang == "ko" else "English" if lang == "en" else "the language of the question"
    return [
        Message("system", f"You write search queries for a document search engine. {_DOMAIN}"),
        Message(
            "user",
            f"Write {n} different search queries that look for the same information as the question below. "
            f"Write them in {language}. Use the formal wording a regulation or notice would use "
            "(e.g. '휴학 신청 절차' rather than '휴학 어떻게 해'), vary the key terms, keep each under 20 words, "
            "and do not answer the question.\n"
            'Reply with JSON only: {"queries": ["...", "..."]}\n\n'
            f"Question: {question}",
        ),
    ]


def translate(question: str, target: str) -> list[Message]:
    """Ask for the question in the documents' language, as a search query, as JSON {"query": "..."}."""
    language = "Korean" if target == "ko" else "English"
    return [
        Message("system", f"You translate questions for a document search engine. {_DOMAIN}"),
        Message(
            "user",
            f"Translate the question below into {language}, as a person would ask it of {language} documents: keep "
            "names, numbers and dates as written, use the terms such documents use, and do not answer it.\n"
            'Reply with JSON only: {"query": "..."}\n\n'
            f"Question: {question}",
        ),
    ]


def hyde(question: str, lang: str) -> list[Message]:
    """Ask for a hypothetical answer passage and the title of the document it would come from (seed 004)."""
    language = "Korean" if lang == "ko" else "English" if lang == "en" else "the language of the question"
    return [
        Message("system", f"You write plausible excerpts of official documents. {_DOMAIN}"),
        Message(
            "user",
            "Imagine the official document that answers the question below. Write (1) its title, as such a "
            "notice or regulation would be titled, and (2) a passage of 2–3 short sentences from it that answers the "
            f"question in the document's formal style. Write both in {language}. Invented details are fine; "
            "this text is only used to search.\n"
            'Reply with JSON only: {"title": "...", "answer": "..."}\n\n'
            f"Question: {question}",
        ),
    ]


def rerank(question: str, passages: list[str], keep: int) -> list[Message]:
    """Listwise reranking: the model returns the numbers of the most relevant passages, best first."""
    listing = "\n".join(f"[{i}] {p}" for i, p in enumerate(passages, start=1))
    return [
        Message("system", f"You judge which passages answer a question. {_DOMAIN}"),
        Message(
            "user",
            f"Question: {question}\n\nPassages:\n{listing}\n\n"
            f"Rank the passages by how directly they answer the question and give the numbers of the best "
            f"{keep}, best first.\n"
            'Reply with JSON only: {"ranking": [3, 1, ...]}',
        ),
    ]
