"""Robust parsing of model output: JSON with repairs, numbered/bulleted lists, partial rankings.

Small models wrap JSON in code fences and prose, leave trailing commas, use single quotes or stop mid-object.
Each parser tries the strict reading first, then repairs; when nothing usable is left it raises LLMBadOutput.
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

from geunkeo.errors import LLMBadOutput

_FENCE = re.compile(r"```[a-zA-Z0-9_-]*\s*\n?(.*?)```", re.S)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_BARE_WORDS = {"true": "True", "false": "False", "null": "None"}
_LIST_MARKER = re.compile(r"^\s*(?:\d{1,3}\s*[.)\]:]|[-*•·●▪]|\(\d{1,3}\)|[①-⑳])\s*")
_INT = re.compile(r"\d+")


def _balanced_span(text: str, start: int) -> tuple[str, bool]:
    """The bracketed value starting at `start` (string-aware); second item False when it never closes."""
    stack: list[str] = []
    quote: str | None = None
    i = start
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch in "{[":
            stack.append("}" if ch == "{" else "]")
        elif ch in "}]":
            if stack and stack[-1] == ch:
                stack.pop()
            if not stack:
                return text[start : i + 1], True
        i += 1
    # Truncated output: close what is still open (and an unterminated string).
    tail = (quote or "") + "".join(reversed(stack))
    return text[start:] + tail, False


def _pythonize(s: str) -> str:
    """JSON literals outside strings → Python literals, so `ast.literal_eval` can read single-quoted output."""
    out: list[str] = []
    quote: str | None = None
    i = 0
    while i < len(s):
        ch = s[i]
        if quote:
            out.append(ch)
            if ch == "\\" and i + 1 < len(s):
                out.append(s[i + 1])
                i += 2
                continue
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
            out.append(ch)
        elif ch.isalpha():
            j = i
            while j < len(s) and (s[j].isalnum() or s[j] == "_"):
                j += 1
            word = s[i:j]
            out.append(_BARE_WORDS.get(word, word))
            i = j
            continue
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def _try_parse(candidate: str) -> tuple[bool, Any]:
    for attempt in (candidate, _TRAILING_COMMA.sub(r"\1", candidate)):
        try:
            return True, json.loads(attempt)
        except json.JSONDecodeError:
            pass
    try:
        return True, ast.literal_eval(_pythonize(candidate))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None


def extract_json(text: str) -> Any:
    """The first JSON object or array in `text`, repaired if needed (fences, prose, trailing commas,
    single quotes, Python literals, truncation). Raises LLMBadOutput when there is none."""
    if text is None or not text.strip():
        raise LLMBadOutput("the model returned an empty answer where JSON was expected")
    sources = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    for src in sources:
        stripped = src.strip()
        ok, value = _try_parse(stripped)
        if ok and isinstance(value, dict | list):
            return value
        for m in re.finditer(r"[{\[]", src):
            span, closed = _balanced_span(src, m.start())
            ok, value = _try_parse(span)
            # A span we had to close ourselves counts only if it held something ("{{{" is not JSON).
            if ok and isinstance(value, dict | list) and (closed or value):
                return value
    raise LLMBadOutput(f"no JSON object or array could be read from the model output: {text[:120]!r}")


def _clean_item(line: str) -> str:
    item = _LIST_MARKER.sub("", line, count=1).strip()
    item = re.sub(r"^\*\*(.*)\*\*$", r"\1", item).strip()
    if len(item) >= 2 and item[0] == item[-1] and item[0] in "\"'“”`":
        item = item[1:-1].strip()
    return item.strip("“”").strip()


def parse_list(text: str, key: str | None = None) -> list[str]:
    """Items of a JSON array (or `obj[key]`, or the object's first list), else of a numbered/bulleted list,
    else the non-empty lines. Deduplicated, order kept. Raises LLMBadOutput when nothing is left."""
    items: list[str] = []
    try:
        value = extract_json(text)
    except LLMBadOutput:
        value = None
    if isinstance(value, dict):
        value = value.get(key) if key and isinstance(value.get(key), list) else next(
            (v for v in value.values() if isinstance(v, list)), None
        )
    if isinstance(value, list):
        items = [str(v).strip() for v in value if isinstance(v, str | int | float) and str(v).strip()]
    if not items:
        body = _FENCE.sub(lambda m: m.group(1), text or "")
        lines = [ln for ln in body.splitlines() if ln.strip()]
        marked = [ln for ln in lines if _LIST_MARKER.match(ln)]
        chosen = marked or [ln for ln in lines if not ln.rstrip().endswith(":")]
        items = [_clean_item(ln) for ln in chosen]
    out: list[str] = []
    seen: set[str] = set()
    for item in items:
        norm = " ".join(item.split()).casefold()
        if item and norm not in seen:
            seen.add(norm)
            out.append(" ".join(item.split()))
    if not out:
        raise LLMBadOutput(f"no list items could be read from the model output: {(text or '')[:120]!r}")
    return out


def parse_ranking(text: str, n: int) -> list[int]:
    """0-based indices of the candidates in the model's order, from 1-based ids in JSON (`{"ranking": [3, 1]}`)
    or text (`[3] > [1] > [2]`, `3, 1, 2`). Out-of-range and repeated ids are dropped; the result may be partial
    (callers append the missing candidates in input order). Raises LLMBadOutput when no valid id is found."""
    ids: list[int] = []
    try:
        value = extract_json(text)
    except LLMBadOutput:
        value = None
    if isinstance(value, dict):
        value = next((v for v in value.values() if isinstance(v, list)), None)
    elif isinstance(value, list) and len(value) < 2:
        value = None  # "[3] > [1] > [2]" starts with a one-element array: read the whole text instead
    if isinstance(value, list):
        for v in value:
            if isinstance(v, dict):  # [{"id": 3, "score": 0.9}, …]
                v = v.get("id", v.get("index", next(iter(v.values()), None)))
            if isinstance(v, bool) or v is None:
                continue
            if isinstance(v, int | float):
                ids.append(int(v))
            elif isinstance(v, str) and _INT.search(v):
                ids.append(int(_INT.search(v).group()))
    if not ids:
        ids = [int(m.group()) for m in _INT.finditer(text or "")]
    order: list[int] = []
    for i in ids:
        if 1 <= i <= n and (i - 1) not in order:
            order.append(i - 1)
    if not order:
        raise LLMBadOutput(f"no candidate numbers 1..{n} in the model's ranking: {(text or '')[:120]!r}")
    return order
