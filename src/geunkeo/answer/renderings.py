"""Names rendered from one language into the other, read word by word (issue 30, names across languages).

An English office, hall or committee name is a rendering of a Korean one when, in one Korean phrase of the
contexts, a run starting at a word holds a Korean rendering of each of its words (`data/name_glossary.json`, or
the word's romanisation for a proper word a glossary cannot hold) and those renderings make up most of the run,
the head word's closing it ("Budget Planning Committee" is 예산기획위원회). The other way round, a Korean name is
a rendering of an English name of the contexts when the renderings of that name's words make up most of the
Korean name, the head's closing it (기획예산처 is the "Office of Planning and Budget"). Every word has to be
rendered both ways, so a name that adds a word of its own ("Budget Ombudsman Committee") or drops one the
context's name has is not a rendering.

Romanisation (Revised Romanisation, letters only) lives here too: the name check reads romanised names with it.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

from geunkeo.answer.name_candidates import EN_LEAD_STOP

# a run of renderings covers at least this share of its characters (the rest: what a rendering leaves out, such
# as a trailing syllable of the Korean head, or a word between a place and the office)
MIN_COVER = 0.75
_EN_WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*")
EN_STOP = frozenset({"of", "the", "and", "for", "on", "in", "at"})
_KO_PHRASE = re.compile(r"[가-힣][가-힣 ·ㆍ]*")
# an English name in a context: capitalised words, with "of", "and", "for", "the" between them
_EN_NAME = re.compile(r"\b[A-Z][A-Za-z'\-]+(?:\s(?:(?:of|and|for|the)\s)*[A-Z][A-Za-z'\-]+)*")
_LEADING = re.compile(r"^(?:(?:" + "|".join(sorted(EN_LEAD_STOP, key=len, reverse=True)) + r")\s(?:the\s)?)+")
_ROMAN_MAX = 4  # the longest Hangul run a proper word's romanisation is compared with


# -- romanised Korean ------------------------------------------------------------------------------------------
_INITIALS = ["g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "-", "j", "jj", "ch", "k", "t", "p", "h"]
_MEDIALS = ["a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae", "oe", "yo", "u", "wo", "we", "wi", "yu",
            "eu", "ui", "i"]
_FINALS = ["", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "l", "l", "l", "p", "l", "m", "p", "p", "t", "t",
           "ng", "t", "t", "k", "t", "p", "t"]


def romanise(hangul: str) -> str:
    """Revised Romanisation of Hangul syllables, letters only ("한강" → "hangang")."""
    out = []
    for ch in hangul:
        code = ord(ch) - 0xAC00
        if 0 <= code < 11172:
            ini, med, fin = code // 588, (code % 588) // 28, code % 28
            out.append(_INITIALS[ini].strip("-") + _MEDIALS[med] + _FINALS[fin])
    return "".join(out)


def loose_roman(text: str) -> str:
    """A romanisation key that spelling variants share (Yoon / Yun, Jeong / Jung, Hyeon / Hyun)."""
    key = re.sub(r"[^a-z]", "", text.casefold())
    for a, b in (("oo", "u"), ("eo", "u"), ("ee", "i"), ("sh", "s"), ("ou", "u"), ("wu", "u")):
        key = key.replace(a, b)
    return key


# -- renderings of words ---------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def glossary() -> dict[str, list[str]]:
    """English word → the Korean morphemes a Korean name of that meaning writes."""
    return json.loads(resources.files("geunkeo.data").joinpath("name_glossary.json").read_text("utf-8"))["words"]


def content_words(name: str) -> list[str]:
    """The casefolded words of an English name, without "of", "the", "and"…"""
    return [w.casefold() for w in _EN_WORD.findall(name) if w.casefold() not in EN_STOP]


def head_first(name: str) -> tuple[str, ...]:
    """The content words of an English name with its head word first: the word before "of" ("Office of …"), else
    the last one. A Korean name ends with the head's rendering (…처, …위원회)."""
    words = [w.casefold() for w in _EN_WORD.findall(name)]
    head = words[words.index("of") - 1] if "of" in words[1:] else (words[-1] if words else "")
    rest = content_words(name)
    if head in rest:
        rest.remove(head)
        return (head, *rest)
    return tuple(rest)


def _spans(word: str, korean: str) -> list[tuple[int, int]]:
    """Where `korean` (spaceless) holds a rendering of the English `word`: a glossary morpheme, or for a word the
    glossary lacks, a run whose romanisation is the word's."""
    out = []
    for g in glossary().get(word, ()):
        at = korean.find(g)
        while at >= 0:
            out.append((at, at + len(g)))
            at = korean.find(g, at + 1)
    if not out and word.isascii() and word.isalpha():
        key = loose_roman(word)
        out = [(i, i + n) for n in range(1, _ROMAN_MAX + 1) for i in range(len(korean) - n + 1)
               if loose_roman(romanise(korean[i : i + n])) == key]
    return out


def _best_run(words: tuple[str, ...], korean: str, starts: frozenset[int]) -> float:
    """The best share of a run of `korean` covered by one rendering of each word, over runs opening at one of
    `starts` with a rendering and closing with the head's (`words[0]`); 0.0 when some word has none."""
    spans = [_spans(w, korean) for w in words]
    if not words or not all(spans):
        return 0.0
    best = 0.0
    for b in sorted(starts):
        chosen = [min((s for s in ws if s[0] >= b), default=None, key=lambda s: s[0]) for ws in spans]
        if any(c is None for c in chosen) or not any(c[0] == b for c in chosen if c):
            continue
        end = max(c[1] for c in chosen if c)
        if chosen[0] is None or chosen[0][1] != end:
            continue
        covered = set().union(*(range(c[0], c[1]) for c in chosen if c))
        best = max(best, len(covered) / (end - b))
    return best


def renders_korean(name: str, texts: tuple[str, ...]) -> bool:
    """Whether the English `name` renders a Korean name one of `texts` writes (a run of one Korean phrase, opening
    at a word)."""
    return _renders_korean(head_first(name), texts)


@lru_cache(maxsize=1024)
def _renders_korean(words: tuple[str, ...], texts: tuple[str, ...]) -> bool:
    return any(_best_run(words, compact, starts) >= MIN_COVER for text in texts for compact, starts in _phrases(text))


@lru_cache(maxsize=256)
def _phrases(text: str) -> tuple[tuple[str, frozenset[int]], ...]:
    """Each Korean phrase of `text` without its spaces and ·, with where its words start (read once per text)."""
    out = []
    for m in _KO_PHRASE.finditer(text):
        phrase, chars, starts = m.group(0), list[str](), set[int]()
        for i, ch in enumerate(phrase):
            if ch in " ·ㆍ":
                continue
            if i == 0 or phrase[i - 1] in " ·ㆍ":
                starts.add(len(chars))
            chars.append(ch)
        out.append(("".join(chars), frozenset(starts)))
    return tuple(out)


def renders_english(name: str, texts: tuple[str, ...]) -> bool:
    """Whether the Korean `name` renders an English name one of `texts` writes: each word of that name rendered in
    it, the renderings making up most of it."""
    korean = re.sub(r"[^가-힣]", "", name)
    return bool(korean) and any(_whole(words, korean) for words in _english_names(texts))


def _whole(words: tuple[str, ...], korean: str) -> bool:
    """Whether renderings of all `words` (head first) cover most of `korean`, from its first character to its
    last, the head's closing it."""
    spans = [_spans(w, korean) for w in words]
    if not words or not all(spans) or not any(e == len(korean) for _, e in spans[0]):
        return False
    covered = set().union(*(range(s, e) for ws in spans for s, e in ws))
    return len(covered) / len(korean) >= MIN_COVER and min(covered) == 0


@lru_cache(maxsize=256)
def _english_names(texts: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """The content words of each capitalised English name of `texts` of two words or more, without the words that
    open a sentence before it ("See the Office of …"; read once per texts)."""
    names = {head_first(_LEADING.sub("", m.group(0))) for t in texts for m in _EN_NAME.finditer(t)}
    return tuple(n for n in names if len(n) >= 2)
