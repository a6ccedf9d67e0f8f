"""What the pages show, computed from an `Answer`: plain dicts for the templates, no logic of the answer's own.

- the gate's state in words (answered / answered with a warning / withheld) and its reasons;
- each cited block with the cited chunk's text, split into pieces so the template can highlight the sentences
  the answer rests on (the quoted sentence itself for an extractive answer, else the verifier's evidence);
- the query pipeline's decisions ("how this was found").
UI strings in Korean and English live in `UI`.
"""

from __future__ import annotations

import re
from typing import Any

from geunkeo.answer.base import Answer

UI: dict[str, dict[str, str]] = {
    "ko": {
        "title": "근거 — 규정·공지 질의응답", "ask": "질문하기", "placeholder": "예: 휴학은 최대 몇 학기까지 할 수 있나요?",
        "answered": "답변", "warn": "주의가 필요한 답변", "withheld": "답변 보류",
        "withheld_help": "문서에서 답을 확인하지 못해 답변을 보류했습니다. 아래 문서를 참고하거나 담당 부서에 문의하세요.",
        "sources": "근거 문서", "how": "이렇게 찾았습니다", "rewritten": "정규화된 질문", "formality": "문체",
        "weights": "검색 가중치 (BM25 / 의미)", "terms": "검색어", "decisions": "처리 과정", "reasons": "사유",
        "fallback": "LLM 대신 추출식 답변을 제공했습니다", "no_query": "질문을 입력하세요.", "lang_other": "English",
        "nav_ask": "질문", "nav_review": "검토", "nav_runs": "평가 실행", "api": "API 문서", "error": "오류",
        "supporting": "답변이 인용한 문장은 노란색으로 표시됩니다.", "draft": "보류된 초안", "cited": "인용",
    },
    "en": {
        "title": "geunkeo — grounded answers from regulations and notices", "ask": "Ask",
        "placeholder": "e.g. How many semesters of leave are allowed?", "answered": "Answered",
        "warn": "Answered with a warning", "withheld": "Withheld",
        "withheld_help": "The documents do not state an answer, so none is given. See the documents below or "
                         "contact the office in charge.",
        "sources": "Sources", "how": "How this was found", "rewritten": "Normalised question", "formality": "Style",
        "weights": "Fusion weights (BM25 / dense)", "terms": "Search terms", "decisions": "Decisions",
        "reasons": "Why", "fallback": "Served the extractive answer instead of the LLM's",
        "no_query": "Type a question.", "lang_other": "한국어", "nav_ask": "Ask", "nav_review": "Review",
        "nav_runs": "Runs", "api": "API docs", "error": "Error",
        "supporting": "Sentences the answer quotes are highlighted.", "draft": "Withheld draft", "cited": "cited",
    },
}

_STATE = {"answer": "answered", "warn": "warn", "regenerate": "warn", "escalate": "withheld"}


def ui(lang: str | None) -> dict[str, str]:
    return UI["en" if lang == "en" else "ko"]


def render_page(request, name: str, **ctx):
    """A page from its template with what every page shows: the interface language (`?lang=`), its strings, and
    the language toggle's link, which keeps the page's other query parameters (a filtered queue stays filtered)."""
    from urllib.parse import urlencode

    lang = "en" if request.query_params.get("lang") == "en" else "ko"
    params = {k: v for k, v in request.query_params.items() if k != "lang"}
    other = urlencode({**params, "lang": "ko" if lang == "en" else "en"})
    return request.app.state.templates.TemplateResponse(request, name, {
        "lang": lang, "t": ui(lang), "other_lang_query": other, **ctx})


def _norm(text: str) -> str:
    return " ".join(text.split())


def highlighted(text: str, quotes: list[str]) -> list[tuple[str, bool]]:
    """`text` as (piece, highlighted) pairs, the `quotes` found in it (whitespace-insensitive) highlighted."""
    spans: list[tuple[int, int]] = []
    for q in quotes:
        q = _norm(q).strip("“”\" ").rstrip(".")
        if len(q) < 6:
            continue
        pattern = r"\s+".join(map(re.escape, q.split()))
        m = re.search(pattern, text)
        if m:
            spans.append(m.span())
    spans.sort()
    out: list[tuple[str, bool]] = []
    pos = 0
    for start, end in spans:
        if start < pos:
            continue
        if start > pos:
            out.append((text[pos:start], False))
        out.append((text[start:end], True))
        pos = end
    if pos < len(text):
        out.append((text[pos:], False))
    return out


def answer_view(ans: Answer) -> dict[str, Any]:
    """The ask page's view of one answer."""
    gate = ans.gate
    state = _STATE.get(gate.action, "answered") if gate else "answered"
    quotes: dict[int, list[str]] = {}
    for s in ans.sentences:
        for c in s.citations:
            quotes.setdefault(c.n, []).append(re.sub(r"^[①-⑳]\s*", "", s.text))
    if ans.verification:
        for chk in ans.verification.sentences:
            for s in ans.sentences:
                if s.text == chk.text and chk.evidence:
                    for c in s.citations:
                        quotes.setdefault(c.n, []).append(chk.evidence)
    sources = []
    for n, h in enumerate(ans.contexts, 1):
        chunk = h.chunk
        sources.append({"n": n, "chunk_id": chunk.chunk_id, "title": chunk.title, "location": chunk.location,
                        "cited": n in quotes, "pieces": highlighted(chunk.text, quotes.get(n, [])),
                        "version": chunk.metadata.get("version"),
                        "version_status": chunk.metadata.get("version_status")})
    return {
        "state": state, "action": gate.action if gate else "answer", "reasons": list(gate.reasons) if gate else [],
        "sentences": [{"text": s.text, "cites": [c.n for c in s.citations], "generic": s.generic}
                      for s in ans.sentences],
        "text": ans.text, "sources": sources, "answerer": ans.answerer, "fallback": ans.fallback,
        # an LLM's withheld draft is its own words, which the checks rejected: server log only (answer/public.py)
        "draft": ans.draft if state == "withheld" and ans.answerer != "llm" and not ans.fallback else None,
        "lang": ans.lang,
        "first_cited": min(quotes) if quotes else None,
    }


def _detail(d: dict[str, Any]) -> str:
    """One decision of the trace as a short line."""
    extra = {k: v for k, v in d.items() if k not in ("stage", "decision", "checks") and v not in (None, [], {}, "")}
    text = ", ".join(f"{k}={v}" for k, v in extra.items())
    return f"{d.get('stage')}: {d.get('decision')}" + (f" ({text[:220]})" if text else "")


def plan_view(trace: dict[str, Any]) -> dict[str, Any]:
    """"How this was found", read off the trace: the rewrite, the style, the fusion weights, every decision."""
    by_stage = {d.get("stage"): d for d in trace.get("decisions", [])}
    fusion = (by_stage.get("retrieve.fusion") or {}).get("weights") or {}
    return {
        "rewritten": (by_stage.get("query.transform") or {}).get("rewritten"),
        "formality": (by_stage.get("query.formality") or {}).get("decision"),
        "weights": " / ".join(f"{k} {v:g}" for k, v in fusion.items()) or None,
        "decisions": [_detail(d) for d in trace.get("decisions", [])][:40],
        "warnings": trace.get("warnings", []),
        "stages": [f"{s['name']} {s['ms']:.0f} ms" for s in trace.get("stages", []) if s.get("ms", 0) >= 1][:30],
    }
