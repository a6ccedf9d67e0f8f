"""Strict parsing of model output: the JSON shape a prompt asks for, repaired, and nothing else.

Small models wrap JSON in code fences and prose, leave trailing commas, use single quotes or stop mid-object;
`extract_json` repairs those. Beyond that the parsers accept only the shape the prompt asked for (a list of
strings, an object with named string fields, a list of candidate ids): bare lines, numbered lists or ids read
out of prose are not guessed at. Anything else raises LLMBadOutput, and the calling feature is skipped.
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
_ID_STRING = re.compile(r"\[?\s*(\d+)\s*\]?")
# "[3] > [1]" or "[3], [1]": ids in brackets joined by text, which is not a JSON list
_TEXT_RANKING = re.compile(r"\[\s*\d+\s*\]\s*(?:>|,|→|->)\s*\[\s*\d+\s*\]")


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


def parse_string_list(text: str, key: str) -> list[str]:
    """The strings of a JSON array, or of `obj[key]` when the model wrote an object (`{"queries": [...]}`).

    Only that shape counts: prose, bare lines, numbered lists, an object without `key` or a list holding
    anything but strings raise LLMBadOutput. The usual repairs apply (fences, surrounding prose, trailing
    commas, single quotes, a cut-off end). Items are whitespace-collapsed and deduplicated (ignoring case),
    order kept; empty items are dropped. Raises LLMBadOutput when no item is left."""
    value = extract_json(text)
    if isinstance(value, dict):
        if not isinstance(value.get(key), list):
            raise LLMBadOutput(f'expected a JSON list or {{"{key}": [...]}}, got an object with keys {sorted(value)}')
        value = value[key]
    if not all(isinstance(v, str) for v in value):
        raise LLMBadOutput(f"expected a JSON list of strings, got {value!r:.120}")
    out: list[str] = []
    seen: set[str] = set()
    for item in value:
        item = " ".join(item.split())
        if item and item.casefold() not in seen:
            seen.add(item.casefold())
            out.append(item)
    if not out:
        raise LLMBadOutput(f"the model's JSON list is empty: {(text or '')[:120]!r}")
    return out


def parse_fields(text: str, fields: tuple[str, ...]) -> dict[str, str]:
    """The string `fields` of a JSON object (`{"title": "...", "answer": "..."}`), stripped; a missing field is "".

    Raises LLMBadOutput unless the reply holds a JSON object with at least one of `fields` as a non-empty string
    (an array, prose, or a field holding a list or a number are not the shape asked for)."""
    value = extract_json(text)
    if not isinstance(value, dict):
        raise LLMBadOutput(f"expected a JSON object with {', '.join(fields)}, got a {type(value).__name__}")
    out: dict[str, str] = {}
    for f in fields:
        v = value.get(f, "")
        if v is None:
            v = ""
        if not isinstance(v, str):
            raise LLMBadOutput(f"field {f!r} of the model's JSON is a {type(v).__name__}, expected a string")
        out[f] = v.strip()
    if not any(out.values()):
        raise LLMBadOutput(f"the model's JSON object has no non-empty {' or '.join(fields)}: {(text or '')[:120]!r}")
    return out


def _ranking_id(v: Any) -> int | None:
    """A 1-based candidate id as the model may write it: 3, 3.0, "3", "[3]", {"id": 3}; None otherwise."""
    if isinstance(v, dict):
        v = v.get("id", v.get("index"))
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, str) and (m := _ID_STRING.fullmatch(v.strip())):
        return int(m.group(1))
    return None


def parse_ranking(text: str, n: int) -> list[int]:
    """0-based indices of the candidates in the model's order, from the 1-based ids of a JSON ranking:
    `{"ranking": [3, 1]}` or a bare `[3, 1]` (ids may also be "3", "[3]" or {"id": 3}).

    Only JSON counts (with the usual repairs): prose ("passage 2 is best"), a text ranking ("[3] > [1] > [2]"),
    an object without "ranking" or an item that is not an id raise LLMBadOutput. Out-of-range and repeated ids
    are dropped, so the result may be partial (callers append the missing candidates in input order); it raises
    LLMBadOutput when no valid id is left."""
    value = extract_json(text)
    if isinstance(value, dict):
        if not isinstance(value.get("ranking"), list):
            raise LLMBadOutput(f'expected {{"ranking": [ids]}}, got an object with keys {sorted(value)}')
        value = value["ranking"]
    elif _TEXT_RANKING.search(text):
        # extract_json would read just the first "[3]" of "[3] > [1] > [2]": a text ranking is not the shape
        raise LLMBadOutput(f"the model wrote a text ranking, not JSON: {text[:120]!r}")
    maybe_ids = [_ranking_id(v) for v in value]
    ids = [i for i in maybe_ids if i is not None]
    if len(ids) < len(maybe_ids):
        raise LLMBadOutput(f"expected a JSON list of candidate numbers, got {value!r:.120}")
    order: list[int] = []
    for i in ids:
        if 1 <= i <= n and (i - 1) not in order:
            order.append(i - 1)
    if not order:
        raise LLMBadOutput(f"no candidate numbers 1..{n} in the model's ranking: {(text or '')[:120]!r}")
    return order
