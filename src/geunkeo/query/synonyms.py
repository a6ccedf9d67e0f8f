"""Synonym and abbreviation expansion (Korean and English) from a curated JSON file, user-extendable.

Groups are bidirectional and never chained (A~B and B~C do not make A~C), which keeps expansions from
drifting the way the seed system's did (휴학 → "공부싫어"). Matching happens on analyzer terms, so a group member
fires only when all its terms are in the query, and expansions are the other members' analyzer terms.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from geunkeo.errors import ConfigError
from geunkeo.query.paths import read_dictionary
from geunkeo.text.analyzer import get_analyzer
from geunkeo.text.patterns import HANGUL


@dataclass(frozen=True)
class SynonymHit:
    term: str
    source: str  # "등록금→수업료" or "KYC→Know Your Customer"


def _load(path: Path | None) -> dict:
    data = read_dictionary("synonyms.json", path, "fix it or unset query.user_synonyms")
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected {{'groups': [...], 'abbreviations': [...]}}")
    return data


def _covers(member: str, terms: list[str]) -> bool:
    """Whether the analyzer kept the whole member: 이의신청 → [신청] would fire on every 신청 query."""
    if not terms:
        return False
    if not HANGUL.search(member):
        return True  # English terms are stemmed, so they never spell the member out
    return len("".join(terms)) >= len(member.replace(" ", ""))


class SynonymExpander:
    """Expands analyzer terms with curated synonyms and abbreviations."""

    def __init__(self, user_path: str | Path | None = None):
        data = _load(None)
        groups = [list(g["terms"]) for g in data.get("groups", [])]
        abbrs = [(a["short"], a["long"]) for a in data.get("abbreviations", [])]
        if user_path is not None and Path(user_path).expanduser().is_file():
            user = _load(Path(user_path).expanduser())
            groups += [list(g["terms"]) for g in user.get("groups", [])]
            abbrs += [(a["short"], a["long"]) for a in user.get("abbreviations", [])]
        # (surface of each member, its analyzer terms); abbreviations become two-member groups
        pairs = groups + [[s, lg] for s, lg in abbrs]
        flat = [m for g in pairs for m in g]
        analysed = dict(zip(flat, get_analyzer().terms_batch(flat), strict=True))
        self._groups = [[(m, tuple(analysed[m])) for m in g if _covers(m, analysed[m])] for g in pairs]
        self._by_term: dict[str, list[int]] = {}
        for gi, g in enumerate(self._groups):
            for _, terms in g:
                self._by_term.setdefault(terms[0], []).append(gi)

    def expand(self, terms: list[str]) -> list[SynonymHit]:
        """Terms to add for a query whose analyzer terms are `terms` (none already present)."""
        have = set(terms)
        out: dict[str, SynonymHit] = {}
        for gi in dict.fromkeys(gi for t in terms for gi in self._by_term.get(t, [])):
            group = self._groups[gi]
            fired = [m for m, mt in group if set(mt) <= have]
            if not fired:
                continue
            for m, mt in group:
                if m in fired:
                    continue
                for t in mt:
                    if t not in have and t not in out:
                        out[t] = SynonymHit(t, f"{fired[0]}→{m}")
        return list(out.values())
