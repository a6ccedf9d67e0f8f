"""The colloquial→formal pattern dictionary: the packaged default, with the user's own file merged over it.

Schema (seed 000): `{"version", "mappings": [{"pattern", "formal", "context", "pos"?, "requires"?}],
"regex_patterns": [{"pattern", "replacement", "context"?}]}`. A mapping with `"pos": "VV"` names a verb lemma
(떼다) and is matched on Kiwi's analysis, never on surface text. User entries replace default entries with the
same pattern and add new ones.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from geunkeo.errors import ConfigError
from geunkeo.query.paths import read_dictionary

SCHEMA_VERSION = "1.0.0"


@dataclass(frozen=True)
class Mapping:
    pattern: str
    formal: str
    context: str
    pos: str | None = None  # "VV": a verb lemma matched on morphemes
    # the rewrite's sense needs one of these words in the query ("끊다" → 해지 only with 보험, 계약 …); without one
    # the asker's word stays as written
    requires: tuple[str, ...] = ()

    def applies_to(self, text: str) -> bool:
        return not self.requires or any(w in text for w in self.requires)


@dataclass(frozen=True)
class RegexPattern:
    pattern: str
    replacement: str
    context: str = "regex"


@dataclass
class PatternDictionary:
    version: str
    mappings: list[Mapping] = field(default_factory=list)
    regex_patterns: list[RegexPattern] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)

    def contexts(self) -> set[str]:
        return {m.context for m in self.mappings} | {r.context for r in self.regex_patterns}


def _parse(data: dict, origin: str) -> tuple[list[Mapping], list[RegexPattern]]:
    if not isinstance(data, dict):
        raise ConfigError(f"{origin}: expected a JSON object with 'mappings' and 'regex_patterns'")
    maps: list[Mapping] = []
    for i, m in enumerate(data.get("mappings", [])):
        if not isinstance(m, dict) or not m.get("pattern") or "formal" not in m:
            raise ConfigError(f"{origin}: mappings[{i}] needs 'pattern' and 'formal' (got {m!r})")
        req = m.get("requires") or ()
        if not isinstance(req, list | tuple) or not all(isinstance(w, str) for w in req):
            raise ConfigError(f"{origin}: mappings[{i}] 'requires' must be a list of words (got {req!r})")
        maps.append(Mapping(str(m["pattern"]).strip(), str(m["formal"]).strip(), str(m.get("context", "other")),
                            m.get("pos"), tuple(req)))
    regs: list[RegexPattern] = []
    for i, r in enumerate(data.get("regex_patterns", [])):
        if not isinstance(r, dict) or not r.get("pattern") or "replacement" not in r:
            raise ConfigError(f"{origin}: regex_patterns[{i}] needs 'pattern' and 'replacement' (got {r!r})")
        try:
            re.compile(r["pattern"])
        except re.error as exc:
            raise ConfigError(f"{origin}: regex_patterns[{i}] {r['pattern']!r} does not compile: {exc}") from exc
        regs.append(RegexPattern(r["pattern"], r["replacement"], str(r.get("context", "regex"))))
    return maps, regs


def load_dictionary(user_path: str | Path | None = None) -> PatternDictionary:
    """The default dictionary merged with `user_path` (if it exists): user entries win by pattern."""
    raw = read_dictionary("colloquial_mappings.json")
    maps, regs = _parse(raw, "colloquial_mappings.json (default)")
    sources = ["default"]
    if user_path is not None and Path(user_path).is_file():
        umaps, uregs = _parse(read_dictionary("colloquial_mappings.json", Path(user_path)), str(user_path))
        by_pat = {m.pattern: m for m in maps}
        by_pat.update({m.pattern: m for m in umaps})
        maps = list(by_pat.values())
        rby = {r.pattern: r for r in regs}
        rby.update({r.pattern: r for r in uregs})
        regs = list(rby.values())
        sources.append(str(user_path))
    return PatternDictionary(raw.get("version", SCHEMA_VERSION), maps, regs, sources)


def add_user_mapping(path: str | Path, pattern: str, formal: str, context: str) -> bool:
    """Add (or replace) one mapping in the user file, creating it if needed. Returns True if it was new."""
    pattern, formal = pattern.strip(), formal.strip()
    if not pattern:
        raise ConfigError("the pattern is empty: give the colloquial phrase to match, e.g. '어떻게 해'")
    path = Path(path)
    data: dict[str, Any] = read_dictionary("colloquial_mappings.json", path) if path.is_file() else {
        "version": SCHEMA_VERSION, "mappings": [], "regex_patterns": []}  # the file's JSON, checked by _parse
    data.setdefault("mappings", [])
    data.setdefault("regex_patterns", [])
    new = True
    for m in data["mappings"]:
        if m.get("pattern") == pattern:
            m.update(formal=formal, context=context)
            new = False
    if new:
        data["mappings"].append({"pattern": pattern, "formal": formal, "context": context})
    _parse(data, str(path))  # refuse to write a file we could not read back
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".mappings-", suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=1)
    os.replace(tmp, path)
    return new
