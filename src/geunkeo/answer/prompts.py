"""Prompts of the LLM answerer: numbered context blocks and the seed 002 option B rules, in Korean and English.

The rules are in the language of the question, and so is the requested answer. Changing a prompt changes the
LLM cache key, so cached answers from older prompts are not reused.
"""

from __future__ import annotations

from geunkeo.llm.base import Message
from geunkeo.retrieve.base import Hit

RULES_KO = """당신은 대학 학칙·규정, 학사 공지, 보험 약관에 대한 질문에 답하는 도우미입니다. 아래의 번호가 붙은 검색 결과만 근거로 답하세요.

중요 규칙:
- 모든 문장 끝에 그 문장의 근거인 검색 결과 번호를 [1], [2]처럼 붙이세요. 근거가 없는 문장은 쓰지 마세요.
- 검색 결과에 없는 연락처(전화번호, 팩스, 이메일, 웹 주소)는 절대 생성하지 마세요.
- 검색 결과에 없는 부서명은 구체적으로 언급하지 마세요. 필요하면 "담당 부서"라고 쓰세요.
- 규정 조항은 검색 결과에 있는 것만, 규정 이름과 함께 (예: 「학칙」 제12조 제1항) 인용하세요.
- 확실하지 않은 정보는 "해당 규정에 명시되어 있지 않습니다"라고 답변하세요.
- 한국어로, {max_sentences}문장 이내로 간결하게 답하세요."""

RULES_EN = """You answer questions about university regulations, academic notices and insurance policy terms. Answer only from the numbered search results below.

Important rules:
- End every sentence with the number of the search result that supports it, like [1] or [2]. Do not write sentences that no result supports.
- Never write contact details (phone or fax numbers, e-mail or web addresses) that are not in the search results.
- Do not name a department or office that the search results do not name; write "the responsible office" instead.
- Cite only articles that appear in the search results, together with the regulation's name as written there (e.g. Article 5(2) of the Travel Insurance Terms, or 「학칙」 제12조).
- If the results do not say something, answer "The regulations do not specify this."
- Answer in English, in at most {max_sentences} sentences. The results may be in Korean: translate what you use and keep regulation names as written."""

_AVOID = {
    "ko": "이전 답변에는 검색 결과로 확인되지 않는 다음 항목이 있었습니다: {items}. 이 항목들을 쓰지 말고 다시 답하세요.",
    "en": "Your previous answer contained items the search results do not support: {items}. Answer again "
          "without them.",
}


def context_blocks(hits: list[Hit], max_chars: int = 1500) -> str:
    """'[n] location' headers followed by each chunk's text (cut at `max_chars`)."""
    parts = []
    for n, hit in enumerate(hits, start=1):
        c = hit.chunk
        text = c.text if len(c.text) <= max_chars else c.text[:max_chars] + " …"
        parts.append(f"[{n}] {c.location or c.title}\n{text}")
    return "\n\n".join(parts)


def answer_messages(query: str, hits: list[Hit], lang: str, max_sentences: int,
                    avoid: list[str] | None = None) -> list[Message]:
    """System rules + user message with the numbered contexts and the question (and, on a retry, what to avoid)."""
    rules = (RULES_EN if lang == "en" else RULES_KO).format(max_sentences=max_sentences)
    head = "Search results" if lang == "en" else "검색 결과"
    question = "Question" if lang == "en" else "질문"
    user = f"{head}:\n{context_blocks(hits)}\n\n{question}: {query}"
    if avoid:
        user += "\n\n" + _AVOID["en" if lang == "en" else "ko"].format(items=", ".join(avoid))
    return [Message("system", rules), Message("user", user)]
