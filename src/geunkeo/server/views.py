"""What the pages show, computed from an `Answer`: plain dicts for the templates, no logic of the answer's own.

- the gate's state as a badge in the page's language, and its reasons as plain sentences (server/strings.py);
- the fact line first, at most three supporting items, the rest behind "more";
- each source with the cited chunk's text, split into pieces so the template can highlight the sentences or list
  items the answer rests on (the quoted sentence itself for an extractive answer, else the verifier's evidence);
- "how this was found" in plain words (`found_view`), and the raw pipeline decisions for developers (`plan_view`).
"""

from __future__ import annotations

import re
from typing import Any

from geunkeo.answer.base import Answer, AnswerSentence
from geunkeo.answer.codes import GateAction
from geunkeo.evaluate.report.strings import LEVELS
from geunkeo.server.strings import REVIEW, RUNS, UI, lang_of, reason_text

_STATE = {GateAction.ANSWER: "answered", GateAction.WARN: "warn", GateAction.REGENERATE: "warn",
          GateAction.ESCALATE: "withheld"}
SUPPORTING_SHOWN = 3  # supporting items shown under the fact line; the rest behind "more" (shared/answers.md §5)
_MARKER = re.compile(r"^\s*(?:[①-⑳]|[-•·]|\d+[.)])\s*")
_ITEMS = re.compile(r"\s*[:;]\s*\(\d+\)\s*|\s*;\s*(?=\(\d+\))")  # "…한다: (1) …; (2) …" an answer joined


def ui(lang: str | None) -> dict[str, str]:
    return UI[lang_of(lang)]


def page_lang(request) -> str:
    return lang_of(request.query_params.get("lang"))


def render_page(request, name: str, **ctx):
    """A page from its template with what every page shows: the interface language (`?lang=`), its strings, and
    the language toggle's link, which keeps the page's other query parameters (a filtered queue stays filtered)."""
    from urllib.parse import urlencode

    lang = page_lang(request)
    params = {k: v for k, v in request.query_params.items() if k != "lang"}
    other = urlencode({**params, "lang": "ko" if lang == "en" else "en"})
    return request.app.state.templates.TemplateResponse(request, name, {
        "lang": lang, "t": ui(lang), "r": REVIEW[lang], "s": RUNS[lang], "other_lang_query": other,
        "lv": {level: words[lang] for level, words in LEVELS.items()}, **ctx})


def _norm(text: str) -> str:
    return " ".join(text.split())


def _find(text: str, quote: str) -> tuple[int, int] | None:
    q = _MARKER.sub("", _norm(quote).strip("“”\" ")).rstrip(".")
    if len(q) < 6:
        return None
    m = re.search(r"\s+".join(map(re.escape, q.split())), text)
    return m.span() if m else None


def quote_spans(text: str, quote: str) -> list[tuple[int, int]]:
    """Where `quote` stands in `text`: the whole quote, else each part of a quote that joined a paragraph and its
    items ("…한다: (1) …; (2) …"), so the sentence and every list item it rests on are marked."""
    whole = _find(text, quote)
    if whole:
        return [whole]
    return [span for part in _ITEMS.split(quote) if (span := _find(text, part))]


def highlighted(text: str, quotes: list[str]) -> list[tuple[str, bool]]:
    """`text` as (piece, highlighted) pairs, the `quotes` found in it (whitespace-insensitive) highlighted."""
    spans = sorted(span for q in quotes for span in quote_spans(text, q))
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


def _quotes(ans: Answer) -> dict[int, list[str]]:
    """Context n → the sentences (and the verifier's evidence) the answer cites it for."""
    quotes: dict[int, list[str]] = {}
    for s in ans.sentences:
        for c in s.citations:
            quotes.setdefault(c.n, []).append(s.text)
    if ans.verification:
        for chk in ans.verification.sentences:
            for s in ans.sentences:
                if s.text == chk.text and chk.evidence:
                    for c in s.citations:
                        quotes.setdefault(c.n, []).append(chk.evidence)
    return quotes


def _item(s: AnswerSentence) -> dict[str, Any]:
    """One answer sentence for the page: without its source's paragraph mark (①), a joined list split back."""
    head, *items = _ITEMS.split(_MARKER.sub("", s.text))
    return {"text": head, "parts": items, "cites": [c.n for c in s.citations], "generic": s.generic}


def _sources(ans: Answer, quotes: dict[int, list[str]]) -> list[dict[str, Any]]:
    out = []
    for n, h in enumerate(ans.contexts, 1):
        chunk = h.chunk
        out.append({"n": n, "chunk_id": chunk.chunk_id, "title": chunk.title, "location": chunk.location,
                    "cited": n in quotes, "pieces": highlighted(chunk.text, quotes.get(n, [])),
                    "version": chunk.metadata.get("version"),
                    "version_status": chunk.metadata.get("version_status")})
    return out


def answer_view(ans: Answer, lang: str = "ko") -> dict[str, Any]:
    """The ask page's view of one answer, its words in the page's language `lang`."""
    gate = ans.gate
    state = _STATE.get(gate.action, "answered") if gate else "answered"
    quotes = _quotes(ans)
    content = [_item(s) for s in ans.sentences if not s.generic]
    reasons = list(gate.reasons) if gate else []
    return {
        "state": state, "action": gate.action if gate else GateAction.ANSWER,
        "reasons": list(dict.fromkeys(reason_text(r, lang) for r in reasons)), "raw_reasons": reasons,
        "fact": content[0] if content else None, "supporting": content[1:1 + SUPPORTING_SHOWN],
        "more": content[1 + SUPPORTING_SHOWN:], "notes": [_item(s) for s in ans.sentences if s.generic],
        "sentences": [{"text": s.text, "cites": [c.n for c in s.citations], "generic": s.generic}
                      for s in ans.sentences],
        "text": ans.text, "sources": _sources(ans, quotes), "answerer": ans.answerer, "fallback": ans.fallback,
        # an LLM's withheld draft is its own words, which the checks rejected: server log only (answer/public.py)
        "draft": ans.draft if state == "withheld" and ans.answerer != "llm" and not ans.fallback else None,
        "lang": ans.lang, "any_cited": bool(quotes),
        "first_cited": min(quotes) if quotes else None,
    }


def _stage(trace: dict[str, Any], name: str) -> dict[str, Any]:
    return next((d for d in trace.get("decisions", []) if d.get("stage") == name), {})


def _added_words(trace: dict[str, Any]) -> list[str]:
    """Words searched besides the asker's own that a reader can recognise (synonyms, glossary translations), not
    the stems the index matches on ("leav")."""
    words: list[str] = []
    for stage in ("query.synonyms", "query.vocabulary"):
        terms = _stage(trace, stage).get("terms") or {}
        for term, source in (terms.items() if isinstance(terms, dict) else []):
            target = str(source).split("→", 1)[1] if "→" in str(source) else term
            words.append(target.strip())
    return list(dict.fromkeys(w for w in words if w))[:8]


def found_view(ans: Answer, lang: str, total_docs: int) -> dict[str, Any]:
    """"How this was found" in plain words: the documents searched, the passages kept and where they came from,
    whether the question was reworded, the words added, and how the answer was written."""
    t = UI[lang_of(lang)]
    trace = ans.public_dict()["trace"]
    rewritten = _stage(trace, "query.transform").get("rewritten")
    titles = list(dict.fromkeys(h.chunk.title for h in ans.contexts))
    added = _added_words(trace)
    return {
        "docs": t["how_docs"].format(total=total_docs, k=len(ans.contexts)), "titles": titles,
        "query": t["how_rewritten"].format(q=rewritten) if rewritten and rewritten != ans.query else t["how_kept"],
        "added": t["how_added"].format(terms=", ".join(added)) if added else None,
        "answerer": t["how_llm"] if ans.answerer == "llm" and not ans.fallback else t["how_extractive"],
    }


def _detail(d: dict[str, Any]) -> str:
    """One decision of the trace as a short line."""
    extra = {k: v for k, v in d.items() if k not in ("stage", "decision", "checks") and v not in (None, [], {}, "")}
    text = ", ".join(f"{k}={v}" for k, v in extra.items())
    return f"{d.get('stage')}: {d.get('decision')}" + (f" ({text[:220]})" if text else "")


def plan_view(trace: dict[str, Any]) -> dict[str, Any]:
    """The raw trace for the developer toggle: the rewrite, the style, the fusion weights, every decision."""
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
