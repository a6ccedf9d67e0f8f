"""Cutting the figures the contexts do not support out of a sentence, clause by clause.

A figure is the claim of its clause, and no stand-in phrase says "an amount" usefully: the clause goes and the
sentence's other clauses stay. A clause here is a stretch between commas, semicolons or a label's colon, at the
figure's bracket depth: inside an aside "(…, <figure>)" only that item and its comma go, an aside of nothing else
goes whole. The clause carrying the sentence's ending cannot simply go: in English the sentence ends with the
clause before it; in Korean a figure right before the copula hands the copula to the clause before ("A는 X, B는
<figure>입니다" → "A는 X입니다"), otherwise the clauses before are closed as a sentence of their own ("…할 수 있고,
…" → "…할 수 있습니다.", answer/clauses.py). Where no rule can hand the ending on, a phrase of what the figure
counts stands in for it ("일정 기간", "a set amount"; a range becomes a period; a floor is dropped and its building
stays); a sentence that says nothing but the figure ("수수료는 <figure>입니다") goes whole. A clause that also holds
a supported figure (other than the other end of the unsupported one's range) does not go: the phrase stands in for
the unsupported figure and the supported one stays ("… from <kept time> to the set time").

Each sentence's brackets, separators and figures are read once (`_Layout`), so a looping answer with thousands of
figures is cut in linear time.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from geunkeo.answer.clauses import salvage_head
from geunkeo.answer.rewrite import capitalize_first, fix_particle, residual_is_empty, tidy
from geunkeo.text.figures import FIGURE_DATA, Figure, extract_figures

_SEP = re.compile(r"[,;]\s+|:\s+")
# where the sentence's text ends: its full stop and citation markers stay
_TAIL = re.compile(r"\s*[.!?。]?(?:\s*\[\d+(?:\s*,\s*\d+)*\])*\s*$")
_KO_COPULA = re.compile(r"\s?(?:입니다|이에요|예요|였습니다|이었습니다)")
_ONLY_CLAIM = {"ko": re.compile(r"\s?(?:입니다|이에요|예요|였습니다|이었습니다|이다)\s*[.!?]?(?:\s*\[\d+(?:\s*,\s*\d+)*\])*\s*$"),
               "en": re.compile(r"\s*[.!?]?(?:\s*\[\d+(?:\s*,\s*\d+)*\])*\s*$")}
_EN_COPULA = re.compile(r"\b(?:is|are|was|were)\s+(?:only\s+|just\s+|about\s+|around\s+)?$")
_RANGE = re.compile(r"\s?(?:[~∼–—-]|부터|에서)\s?")
_STAND_INS = FIGURE_DATA["stand_ins"]
# a floor's building before it ("<building> N층", "<English building> N층"), an English floor's place phrase ("on the
# Nth floor of <building>"), a test's name before its level ("<test> Level N")
_BUILDING_END = re.compile(r"(?:" + "|".join(map(re.escape, FIGURE_DATA["floor_buildings"])) + r")\s?$")
_PLACE = FIGURE_DATA["floor_places_en"]
_PLACE_BEFORE = re.compile(_PLACE["before"])
_PLACE_OF = re.compile(_PLACE["of"])
_ENDS = re.compile(r"(?:\s*(?:[.!?]|\[\d+(?:\s*,\s*\d+)*\]))*\s*$")
_NAME_BEFORE = re.compile(r"\b[A-Z][A-Za-z]*\s$")
# the link word a cut first clause leaves at the sentence's start ("…, and <rest>" → "<rest>")
_EN_LINK = re.compile(r"(?:" + "|".join(sorted(FIGURE_DATA["clause_links_en"], key=len, reverse=True)) + r")\s+",
                      re.I)
_PERIOD_UNITS = frozenset(FIGURE_DATA["period_units"])
# an English clause that cannot stand alone once the clause after it goes (an introductory "under …", "within …")
_EN_INTRO = re.compile(r"\s*(?:under|according to|in|for|if|when|as|after|before|per|within|by|on|since|unless|once|"
                       r"following|during|from|at|with|without|upon|subject to|pursuant to|where|while|to|because|"
                       r"although|though|until|however|also|otherwise|then|finally|first|second|note|e\.g\.)\b", re.I)



def cut_figures(s: str, figs: list[Figure], lang: str) -> str:
    """`s` without the clauses of `figs` (their offsets are in `s`); "" when nothing of it can stand."""
    lay = _Layout(s)
    edits: list[tuple[int, int, str]] = []
    # the sentence's supported figures: a clause holding one of them stays, a stand-in replaces the figure (the
    # other end of a range an unsupported figure is in goes with it)
    kept = sorted({g.start for g in lay.figures} - {f.start for f in figs} - _range_partners(lay, figs))
    for f in sorted(figs, key=lambda x: x.start):
        if (place := _place_edit(s, f, lang)) is not None:  # a floor goes, its building and clause stay
            edits.append(place)
            continue
        span = _clause_span(lay, f, lang)
        if span is not None and not _holds(kept, *span):
            edits.append((*span, ""))
            continue
        head = salvage_head(s, f.start, lang) if lang == "ko" and not edits and span is None else None
        if head is not None and _holds(kept, head[1], len(s)):
            head = None
        if head is not None:
            text, limit = head  # the clauses before, closed: the figures in them are cut from it in turn
            inside = [x for x in figs if x.end <= limit]
            return cut_figures(text, inside, lang) if inside else text
        edit = _stand_in(lay, f, lang)
        if edit[2] and _ONLY_CLAIM[lang].match(s, edit[1]) and (
                lang == "ko" or _EN_COPULA.search(s, max(0, edit[0] - 30), edit[0])):
            return ""  # "수수료는 <figure>입니다": the figure is all the sentence says
        edits.append(edit)
    new = _apply(s, edits)
    if residual_is_empty(new):
        return ""
    if lang == "en" and any(a == 0 and not r for a, _, r in edits):  # the first clause went: not its link word
        new = _EN_LINK.sub("", new, count=1) if _EN_LINK.match(new) else new
    return capitalize_first(new) if lang == "en" else new


def _range_partners(lay: _Layout, figs: list[Figure]) -> set[int]:
    """Starts of the figures joined to one of `figs` as the other end of a range ("A~B", "A부터 B")."""
    out: set[int] = set()
    for f in figs:
        i = bisect_left(lay.fig_starts, f.start)
        for j in (i - 1, i + 1):
            if 0 <= j < len(lay.figures) and _ranged(lay.s, *sorted((lay.figures[j], f), key=lambda g: g.start)):
                out.add(lay.figures[j].start)
    return out


def _ranged(s: str, a: Figure, b: Figure) -> bool:
    """Whether `a` and `b` are the two ends of one range: of one kind, joined by ~ or 부터 ("<time>부터 <date>" is a
    time and the date after it)."""
    return a.kind == b.kind and a.end <= b.start and _RANGE.fullmatch(s, a.end, b.start) is not None


def _holds(starts: list[int], lo: int, hi: int) -> bool:
    """Whether one of the sorted `starts` is in [lo, hi)."""
    i = bisect_left(starts, lo)
    return i < len(starts) and starts[i] < hi


def relocated(s: str, figs: list[Figure]) -> list[Figure]:
    """The figures of `s` that are `figs` (same text, in order), after a rewrite moved them."""
    wanted = [f.text for f in sorted(figs, key=lambda x: x.start)]
    out: list[Figure] = []
    for g in extract_figures(s):
        if len(out) < len(wanted) and g.text == wanted[len(out)]:
            out.append(g)
    return out


class _Layout:
    """One sentence as the edits read it: bracket depth before each position, separators, figures, text end."""

    def __init__(self, s: str) -> None:
        self.s = s
        self.depth: list[int] = []
        d = 0
        for ch in s:
            self.depth.append(d)
            d += 1 if ch == "(" else -1 if ch == ")" and d else 0
        self.seps = list(_SEP.finditer(s))
        self.sep_starts = [m.start() for m in self.seps]
        self.figures = extract_figures(s)
        self.fig_starts = [g.start for g in self.figures]
        self.fig_ends = {g.end for g in self.figures}
        tail = _TAIL.search(s)
        self.end = tail.start() if tail else len(s)

    def level(self, pos: int) -> int:
        return self.depth[pos] if pos < len(self.depth) else 0

    def sep_before(self, pos: int, lo: int, level: int) -> int | None:
        """Index of the last separator at `level` ending by `pos` and starting at `lo` or later."""
        i = bisect_left(self.sep_starts, pos) - 1
        while i >= 0 and self.seps[i].start() >= lo:
            if self.seps[i].end() <= pos and self.level(self.seps[i].start()) == level:
                return i
            i -= 1
        return None

    def sep_after(self, pos: int, hi: int, level: int) -> int | None:
        """Index of the first separator at `level` starting at `pos` or later, before `hi`."""
        i = bisect_left(self.sep_starts, pos)
        while i < len(self.seps) and self.seps[i].start() < hi:
            if self.level(self.seps[i].start()) == level:
                return i
            i += 1
        return None


def _stand_in(lay: _Layout, f: Figure, lang: str) -> tuple[int, int, str]:
    """The edit putting a phrase of what the figure counts in its place ("일정 기간", "a set amount"): its clause
    carries the sentence. A range it ends or starts (two dates joined by ~) becomes a period; a floor is dropped, the
    building before it stays."""
    s, words = lay.s, _STAND_INS[lang]
    if f.kind == "count" and f.unit in ("floor", "level"):
        return _floor_edit(s, f, lang)
    start, end = f.start, f.end
    i = bisect_left(lay.fig_starts, f.start)
    before = lay.figures[i - 1] if i > 0 else None
    after = lay.figures[i + 1] if i + 1 < len(lay.figures) else None
    if before is not None and _ranged(s, before, f):
        start = before.start
    if after is not None and _ranged(s, f, after):
        end = after.end
    if (start, end) != (f.start, f.end):
        return start, end, words["period"]
    if f.kind == "count":
        kind = "period" if f.unit in _PERIOD_UNITS else f.unit if f.unit in words else "count"
    else:
        kind = "ratio" if f.kind in ("percent", "fraction") else f.kind
    if lang == "en" and s[end : end + 1] in ("'", "’"):  # a possessive duration ("N days' …") keeps its possessive
        return start, end + 1, words.get(kind, words["count"]) + s[end] + "s"
    return start, end, words.get(kind, words["count"])


def _place_edit(s: str, f: Figure, lang: str) -> tuple[int, int, str] | None:
    """A floor or level of a place: after a building's name it goes and the building stays ("<building> N층에"
    → "<building>에"); "on the <floor> of <building>" becomes "in <building>"; "is on <floor>" said alone takes the
    sentence with it; "on <floor>" with more said after it becomes "on a set floor". None for any other figure."""
    if f.kind != "count" or f.unit not in ("floor", "level"):
        return None
    if f.start and _BUILDING_END.search(s, max(0, f.start - 12), f.start):
        return f.start - (1 if s[f.start - 1] == " " else 0), f.end, ""
    place = _PLACE_BEFORE.search(s, max(0, f.start - 16), f.start) if lang == "en" else None
    if place is None:
        return None
    of = _PLACE_OF.match(s, f.end)
    if of is not None:
        return place.start() + len(place.group("cop") or ""), of.end(), _PLACE["in"]
    if place.group("cop") and _ENDS.match(s, f.end):
        return 0, len(s), ""  # "The office is on <floor>.": the floor is all it says
    return place.start("the"), f.end, _STAND_INS[lang]["floor_alone"]


def building_after(s: str, end: int) -> int | None:
    """Where the building of an English floor ending at `end` starts ("<floor> of the <building>"), else None."""
    of = _PLACE_OF.match(s, end)
    return None if of is None else of.end() + (4 if s.startswith("the ", of.end()) else 0)


def _floor_edit(s: str, f: Figure, lang: str) -> tuple[int, int, str]:
    """A floor or level whose clause carries the sentence: a place's floor as `_place_edit`, elsewhere a phrase
    stands in ("해당 층"), for a test's level "a set <test> level"."""
    words = _STAND_INS[lang]
    if (place := _place_edit(s, f, lang)) is not None:
        return place
    if f.unit == "level" and (name := _NAME_BEFORE.search(s, max(0, f.start - 24), f.start)):
        head, _, tail = words["level"].rpartition(" ")
        return name.start(), f.end, f"{head} {name.group(0)}{tail}"
    return f.start, f.end, words["level" if f.unit == "level" else "floor_alone"]


def _apply(s: str, edits: list[tuple[int, int, str]]) -> str:
    """Apply the edits (overlapping ones merged), re-choosing a Korean particle after each stand-in."""
    parts: list[str] = []
    pos = 0
    for a, b, r in sorted(edits):
        if a < pos:  # two figures of one clause, or of one range
            a, r = pos, ""
        parts += [s[pos:a], r]
        pos = max(pos, b)
    parts.append(s[pos:])
    # the piece after a stand-in begins with the particle that followed the figure
    for k in range(1, len(parts) - 1, 2):
        if parts[k]:
            parts[k + 1] = fix_particle(parts[k], parts[k + 1])
    return tidy("".join(parts))


def _clause_span(lay: _Layout, f: Figure, lang: str) -> tuple[int, int] | None:
    """The span to delete with figure `f`: its clause and one separator, or its whole bracketed aside; None when
    the clause carries the sentence (no other clause, or its ending that no rule can hand on)."""
    s, level = lay.s, lay.level(f.start)
    lo, hi = 0, lay.end
    if level:
        lo = s.rfind("(", 0, f.start) + 1
        close = s.find(")", f.end)
        hi = close if close >= 0 else hi
    p = lay.sep_before(f.start, lo, level)
    n = lay.sep_after(f.end, hi, level)
    prev = lay.seps[p] if p is not None else None
    start = prev.end() if prev else lo
    if n is not None:
        return start, lay.seps[n].end()
    if level and prev is None:  # the aside is the figure's alone: it goes with the space before it
        return lo - 1 - (1 if lo >= 2 and s[lo - 2] == " " else 0), hi + 1
    if prev is None or prev.group(0).startswith(":"):
        return None
    if level:
        return prev.start(), hi
    q = lay.sep_before(prev.start(), lo, level)
    head_start = lay.seps[q].end() if q is not None else lo
    if lang == "en":  # the sentence ends with the clause before, unless that is only its introduction
        alone = q is None and (_EN_INTRO.match(s, head_start) or len(s[head_start : prev.start()].split()) < 4)
        return None if alone else (prev.start(), hi)
    copula = _KO_COPULA.match(s, f.end)
    # "A는 X원, B는 <figure>입니다" → "A는 X원입니다": the clause before ends with a figure of its own
    if copula is not None and copula.end() == hi and prev.start() in lay.fig_ends:
        return prev.start(), f.end
    return None
