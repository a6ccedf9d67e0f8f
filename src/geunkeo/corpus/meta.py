"""Document metadata from text: YAML-style front matter, and version/date lines near the top of a document."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_FRONT = re.compile(r"\A\ufeff?---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.S)
_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:\s*(.*)$")
_HEADING = re.compile(r"^\s{0,3}#\s+(.+?)\s*#*\s*$")

# 2025. 3. 1. / 2025-03-01 / 2025.03.01 / 2025년 3월 1일 / 2025/3/1
_KO_DATE = re.compile(r"(\d{4})\s*(?:[.\-/]|년)\s*(\d{1,2})\s*(?:[.\-/]|월)\s*(\d{1,2})\s*(?:일|\.)?")
_MONTHS = {m: i + 1 for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"])}
_EN_DATE_MDY = re.compile(r"\b([A-Z][a-z]+)\s+(\d{1,2}),?\s+(\d{4})\b")
_EN_DATE_DMY = re.compile(r"\b(\d{1,2})\s+([A-Z][a-z]+),?\s+(\d{4})\b")
_KO_VERSION_WORDS = ("전부개정", "일부개정", "개정", "제정", "시행")
_EN_VERSION = re.compile(r"\b(effective|amended|revised|enacted|adopted|version|updated)\b", re.I)
_TOP_LINES = 15


@dataclass
class FrontMatter:
    fields: dict[str, str] = field(default_factory=dict)
    body: str = ""
    body_line_offset: int = 0  # lines removed from the top, so callers can map line numbers back


def split_front_matter(text: str) -> FrontMatter:
    """Split `---` front matter (simple `key: value` lines, `# comments` allowed) from the body."""
    m = _FRONT.match(text)
    if not m:
        return FrontMatter(body=text)
    fields: dict[str, str] = {}
    for raw in m.group(1).splitlines():
        line = _strip_comment(raw).strip()
        km = _KEY.match(line)
        if km:
            value = km.group(2).strip()
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
                value = value[1:-1]
            fields[km.group(1).lower()] = value
    consumed = text[: m.end()]
    return FrontMatter(fields=fields, body=text[m.end():], body_line_offset=consumed.count("\n"))


def first_heading(text: str) -> str | None:
    """The first Markdown `# heading` in the text, if any."""
    for line in text.splitlines():
        m = _HEADING.match(line)
        if m:
            return m.group(1).strip()
    return None


def first_line_title(text: str, max_chars: int = 100) -> str | None:
    """The first non-empty line when it is short enough to be a title."""
    for line in text.splitlines():
        s = line.strip().lstrip("#").strip()
        if s:
            return s if len(s) <= max_chars else None
    return None


def version_and_date(text: str) -> tuple[str | None, str | None]:
    """Find a version/date line near the top: "2025. 3. 1. 개정", "시행 2024-03-01", "Effective: March 1, 2025".

    Returns (version, ISO date). Among dates on 개정/시행/effective lines the latest wins (the current version);
    without such a line the first date near the top is the document's date and there is no version.
    """
    found: list[tuple[str, str | None]] = []  # (iso date, version label)
    for line in text.splitlines()[:_TOP_LINES]:
        found.extend(_dates_in_line(line))
    if not found:
        return None, None
    labelled = [f for f in found if f[1]]
    if not labelled:
        return None, found[0][0]
    iso, word = max(labelled, key=lambda f: f[0])
    y, m, d = (int(x) for x in iso.split("-"))
    return f"{y}.{m}.{d} {word}", iso


def _dates_in_line(line: str) -> list[tuple[str, str | None]]:
    out = []
    ko_word = next((w for w in _KO_VERSION_WORDS if w in line), None)
    en_word = _EN_VERSION.search(line)
    word = ko_word or (en_word.group(1).lower() if en_word else None)
    for m in _KO_DATE.finditer(line):
        iso = _iso(m.group(1), m.group(2), m.group(3))
        if iso:
            out.append((iso, word))
    for m in _EN_DATE_MDY.finditer(line):
        iso = _iso(m.group(3), _MONTHS.get(m.group(1).lower()), m.group(2))
        if iso:
            out.append((iso, word))
    for m in _EN_DATE_DMY.finditer(line):
        iso = _iso(m.group(3), _MONTHS.get(m.group(2).lower()), m.group(1))
        if iso:
            out.append((iso, word))
    return out


def _iso(y, m, d) -> str | None:
    try:
        y, m, d = int(y), int(m), int(d)
    except (TypeError, ValueError):
        return None
    if not (1900 <= y <= 2100 and 1 <= m <= 12 and 1 <= d <= 31):
        return None
    return f"{y:04d}-{m:02d}-{d:02d}"


def _strip_comment(line: str) -> str:
    # A '#' starts a comment only after whitespace, so values like "C#" survive.
    m = re.search(r"\s#", line)
    return line[: m.start()] if m else line
