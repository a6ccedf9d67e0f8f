"""Layer 1 of the name check (answer/name_check.py): name candidates found without knowing each name's form.

- a Korean noun compound ending in a name-kind head word (특약, 지점, 장학금, 관, 전공, …: `data/name_kinds.json`),
  taken with the spaced nouns before it when the head word alone is no name (Kiwi reads which words are nouns);
- a person with a title: a Korean three-syllable name whose first syllable is a surname, then a title word; an
  English title (with its "of …" part) then a romanised Korean name;
- a capitalised English run ending in a name-kind head word ("… Branch", "… Scholarship", "… Hall").

Offices and departments the department extractor reads (text/departments.py) are not candidates here: the filter
checks them already; their heads only say which kind a context's name is.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

PARTICLES = sorted(
    ["에게서", "에서", "에게", "에", "께서", "께", "한테", "으로", "로", "와", "과", "의", "이", "가", "은", "는", "을", "를", "도", "만", "까지", "부터", "처럼", "보다", "이나", "나", "이며", "며", "인", "입니다", "이에요", "예요", "이다", "이라고", "라고", "이라는", "라는", "이라", "라", "으로는", "로는", "에는", "에서는", "과의", "와의", "이고", "고", "이자", "만의", "등", "등의"],
    key=len, reverse=True)
_KO_TOKEN = re.compile(r"(?<![가-힣A-Za-z0-9])[가-힣A-Za-z0-9]*[가-힣][가-힣A-Za-z0-9]*")
_NOT_NOUN_END = frozenset("한는은을를의에서고며인된할적로도와과이가및면게지다요라아어여해워려니나든던까죠")
_SPACED_WORD = re.compile(r"([가-힣A-Za-z0-9]+)\s$")
EN_LEAD_STOP = {"The", "This", "That", "These", "Those", "Our", "Your", "Their", "Its", "His", "Her", "A", "An",
                 "Please", "Contact", "Visit", "Ask", "Call", "Email", "See", "Under", "Per", "Each", "Every", "Any",
                 "If", "For", "From", "At", "In", "On", "To", "By", "With", "Apply", "Both", "All"}


@dataclass(frozen=True)
class NameCandidate:
    """A span that names one thing of a kind ("branch", "scholarship", …, "person"), with its head word."""

    text: str
    start: int
    end: int
    kind: str
    head: str
    given: str = ""  # a person: the name without the title (a Korean three-syllable name, a romanised "<Surname> <Given-name>")


@lru_cache(maxsize=1)
def name_kinds() -> dict:
    return json.loads(resources.files("geunkeo.data").joinpath("name_kinds.json").read_text("utf-8"))


@lru_cache(maxsize=1)
def _tables() -> dict:
    d = name_kinds()
    ko_heads = sorted(d["ko"], key=len, reverse=True)
    en_heads = sorted(d["en"], key=len, reverse=True)
    titles_ko = "|".join(sorted(d["titles_ko"], key=len, reverse=True))
    titles_en = "|".join(re.escape(t) for t in sorted(d["titles_en"], key=len, reverse=True))
    surnames_en = "|".join(sorted(d["surnames_en"], key=len, reverse=True))
    cap = r"[A-Z][A-Za-z&'\-]*"
    return {
        "ko_heads": ko_heads,
        "spaced_name": re.compile(r"(?<![가-힣])([가-힣]{2,8}) (" + "|".join(ko_heads) + r")(?="
                                  + "|".join(PARTICLES) + r"|(?![가-힣]))"),
        "has_head": re.compile("|".join(ko_heads)),
        "head_end": re.compile(r"(.*(" + "|".join(ko_heads) + r"))(?:" + "|".join(PARTICLES) + r")?$"),
        "all_ko_heads": sorted(set(d["ko"]) | set(d["ko_department_heads"]), key=len, reverse=True),
        "generic": frozenset(d["ko_generic"]),
        "generic_endings": tuple(d["ko_generic_endings"]),
        "modifiers": frozenset(d["ko_generic_modifiers"]),
        "person_ko": re.compile(r"(?<![가-힣])([" + d["surnames_ko"] + r"][가-힣][^\W" + d["name_not_last"]
                                + r"])\s?(" + titles_ko
                                + r")(?=" + "|".join(PARTICLES) + r"|(?![가-힣]))"),
        "person_en": re.compile(r"\b(?:" + titles_en + r")(?:\s+(?:of|for)\s+(?:the\s+)?" + cap + r"(?:\s+" + cap
                                + r"){0,3}?)?,?\s+(?P<given>(?:" + surnames_en
                                + r")\s+[A-Z][a-z]+(?:-[a-zA-Z][a-z]+|\s[A-Z][a-z]+)?)\b"),
        "en_run": re.compile(r"\b(?:" + cap + r"\s+(?:(?:of|and|&|for)\s+)?){1,5}(?P<head>" + "|".join(en_heads)
                             + r")\b"),
    }


def head_kind(name: str) -> tuple[str, str] | None:
    """(head word, kind) that `name` ends with, Korean or English; None for no name-kind head."""
    d, t = name_kinds(), _tables()
    bare = re.sub(r"\s+", "", name)
    for h in t["all_ko_heads"]:
        if bare.endswith(h):
            return h, d["ko"].get(h) or d["ko_department_heads"][h]
    last = name.split()[-1] if name.split() else ""
    return (last, d["en"][last]) if last in d["en"] else None


def _strip_particle(token: str) -> list[str]:
    """`token` and its forms without a particle ending (longest particle first)."""
    return [token] + [token[: -len(p)] for p in PARTICLES if token.endswith(p) and len(token) > len(p)]


def korean_compounds(text: str, taken: Iterable[tuple[int, int]] = ()) -> list[NameCandidate]:
    """Hangul tokens ending in a name-kind head word (a particle after it is not part of the name); a generic
    compound (도서관, 해당 지점) is none, but a proper noun written before a bare head word makes one. Tokens
    inside a `taken` span (an item another extractor reads) are passed over."""
    t = _tables()
    if not t["has_head"].search(text):  # most sentences hold no head word at all: one search
        return []
    spans = list(taken)
    out: list[NameCandidate] = []
    for m in _KO_TOKEN.finditer(text):
        parts = t["head_end"].match(m.group(0)) if t["has_head"].search(m.group(0)) else None
        if parts is None or any(s < m.end() and m.start() < e for s, e in spans):
            continue
        form, head = parts.group(1), parts.group(2)
        if form.endswith(t["generic_endings"]):
            continue  # a word of the language ending in the head (a generic ending), not a name of the kind
        start: int | None = m.start()
        if form in t["generic"] or len(form) - len(head) < 2:
            # only a bare head word ("장학금", "지점") takes the nouns before it: "보관", "도서관" are words
            start = _spaced_start(text, m.start(), form) if form == head else None
        if start is not None:
            name = text[start : m.start() + len(form)]
            out.append(NameCandidate(name, start, m.start() + len(form), name_kinds()["ko"][head], head))
    return out


def _spaced_start(text: str, at: int, form: str) -> int | None:
    """Where a spaced compound ending in the generic `form` at `at` starts: the nouns written before it (Kiwi
    tags them), when there is at least one and the first is no generic modifier (해당, 각, 인근, …)."""
    t = _tables()
    before = _SPACED_WORD.search(text, max(0, at - 20), at)
    if before is None or before.group(1)[-1] in _NOT_NOUN_END:
        return None  # a verb or a particle before it ("지급한 장학금"): no need to ask Kiwi
    from geunkeo.text.kiwi import get_kiwi

    lo = max(0, at - 30)
    tokens = get_kiwi().tokenize(text[lo : at + len(form)])
    start = None
    for tok in reversed(tokens):
        if lo + tok.start >= at:
            continue
        if tok.tag not in ("NNP", "SL", "SH"):  # a proper noun: "경우 장학금" and "뒤 학과" are no names
            break
        start = lo + tok.start
    if start is None or text[start:at].split()[0] in t["modifiers"]:
        return None
    return start


def person_names(text: str) -> list[NameCandidate]:
    """A Korean name with its title ("<name> 전무"), an English title with a romanised name."""
    t = _tables()
    out = [NameCandidate(m.group(0), m.start(), m.end(), "person", m.group(2), m.group(1))
           for m in t["person_ko"].finditer(text)
           if not m.group(1).endswith(tuple(h for h in t["all_ko_heads"] if len(h) > 1))]  # "위원회 위원장"
    for m in t["person_en"].finditer(text):
        start, words = m.start(), m.group(0).split()
        out.append(NameCandidate(m.group(0), start, m.end(), "person", words[0], m.group("given")))
    return out


def english_runs(text: str) -> list[NameCandidate]:
    """Capitalised runs ending in an English name-kind head word, without a leading article or verb."""
    t = _tables()
    out: list[NameCandidate] = []
    for m in t["en_run"].finditer(text):
        start, words = m.start(), m.group(0).split()
        while len(words) > 1 and words[0] in EN_LEAD_STOP | {"of", "and", "&", "for"}:
            start = text.index(words[1], start + len(words[0]))
            words = words[1:]
        if len(words) >= 2:
            out.extend(_split_pair(text, start, m.end(), m.group("head")))
    return out


def _split_pair(text: str, start: int, end: int, head: str) -> list[NameCandidate]:
    """The run [start, end) as one candidate, or as two where "and" joins two names that each end in a head word
    ("<X> Hall and <Y> Hall": each is checked on its own)."""
    heads = name_kinds()["en"]
    words = list(re.finditer(r"\S+", text[start:end]))
    for i in range(2, len(words) - 2):
        if words[i].group(0) in ("and", "&") and words[i - 1].group(0) in heads:
            left_end, right_start = start + words[i - 1].end(), start + words[i + 1].start()
            left_head = words[i - 1].group(0)
            return [NameCandidate(text[start:left_end], start, left_end, heads[left_head], left_head),
                    NameCandidate(text[right_start:end], right_start, end, heads[head], head)]
    return [NameCandidate(text[start:end], start, end, heads[head], head)]


def latin_runs(text: str) -> list[NameCandidate]:
    """Runs of two or more capitalised Latin words (a product, a place, a scheme), without leading function
    words or sentence openers ("The", "Please", "If"); a possessive ends a run (the owner and the thing are two
    names); "and" and a word that cites a part of a document ("Regulation", "Part") or a date word break one."""
    stop = frozenset(name_kinds()["en_not_proper"])
    out: list[NameCandidate] = []
    for m in _LATIN_RUN.finditer(text):
        run: list[re.Match[str]] = []
        for w in [*_LATIN_WORD.finditer(text, m.start(), m.end()), None]:
            word = w.group(0) if w is not None else ""
            if w is not None and word not in stop and word not in ("and", "&") and not (
                    run and run[-1].group(0).endswith("'s")):
                run.append(w)
                continue
            _add_run(text, run, out)  # "A and B": two names, each checked
            run = [w] if w is not None and word not in stop and word not in ("and", "&") else []
    return out


def _add_run(text: str, run: list[re.Match[str]], out: list[NameCandidate]) -> None:
    while run and (run[0].group(0) in EN_LEAD_STOP or run[0].group(0).casefold() in _function_words()):
        run = run[1:]
    while run and run[-1].group(0) in ("of", "for"):
        run = run[:-1]
    if len(run) >= 2:
        start, end = run[0].start(), run[-1].end()
        end -= 2 if text[start:end].endswith("'s") else 0
        out.append(NameCandidate(text[start:end], start, end, "proper", ""))


_LATIN_RUN = re.compile(r"(?<![\w@./-])[A-Z][a-z]{2,}[A-Za-z'&-]*(?:\s(?:of\s|and\s|&\s|for\s)?(?:[A-Z][a-z]{2,}"
                        r"[A-Za-z'&-]*|[A-Z]{2,}\b))+(?![\w-])")
_LATIN_WORD = re.compile(r"[A-Z][A-Za-z'&-]*|of|and|&|for")


@lru_cache(maxsize=1)
def _function_words() -> frozenset[str]:
    words = json.loads(resources.files("geunkeo.data").joinpath("function_words.json").read_text("utf-8"))["en"]
    return frozenset(w.casefold() for w in words)


def name_candidates(text: str, taken: Iterable[tuple[int, int]] = ()) -> list[NameCandidate]:
    """Every candidate of `text`, by position; of overlapping ones the person (its title is part of it) wins,
    then a name with a head word over a bare capitalised run. Korean compounds inside a `taken` span are not read
    (the caller drops candidates overlapping one anyway)."""
    people = person_names(text)
    found = people + [c for c in korean_compounds(text, taken) + english_runs(text)
                      if not any(p.start < c.end and c.start < p.end for p in people)]
    found += [c for c in latin_runs(text) if not any(p.start < c.end and c.start < p.end for p in found)]
    return sorted(found, key=lambda c: c.start)


def context_names(text: str) -> list[NameCandidate]:
    """The names of a context: candidates as above, offices by the department heads too (a context's
    Korean committee name is what an English "… Committee" renders), and a bare head word with the word written
    before it ("<place> 지점"): a context may name more loosely than an answer is checked."""
    t = _tables()
    out = name_candidates(text)
    for m in t["spaced_name"].finditer(text):
        if m.group(1)[-1] not in _NOT_NOUN_END and m.group(1) not in t["modifiers"]:
            out.append(NameCandidate(m.group(0), m.start(), m.end(), name_kinds()["ko"][m.group(2)], m.group(2)))
    for m in _KO_TOKEN.finditer(text):
        for form in _strip_particle(m.group(0)):
            head = next((h for h in t["all_ko_heads"] if form.endswith(h)), None)
            if head is None:
                continue
            office = head not in name_kinds()["ko"] and len(form) - len(head) >= 2
            # a word of the kind that is no candidate in an answer (학생회관, 본관) still names a context's place
            word = head in name_kinds()["ko"] and len(form) > len(head) and (
                form in t["generic"] or len(form) - len(head) < 2)
            if office or word:
                kind = name_kinds()["ko"].get(head) or name_kinds()["ko_department_heads"][head]
                out.append(NameCandidate(form, m.start(), m.start() + len(form), kind, head))
                break
    return out
