"""Rebuild the sentences a PDF (or any hard-wrapped text) broke across lines, and drop page furniture.

Extracted PDF text ends a line wherever the page ran out of width: "…대부분 동일하나, 일부\n지방은행은 …", and in
justified Korean text even inside a word ("피고 주\n장의"). Quoting such a line gives a fragment. `reflow` joins a
line to the next one when

- the line does not end a sentence (., ?, !, :, ;, or a Korean final syllable 다/요/음/함/임/됨),
- the line is long, i.e. the page's width ran out (at least `_WIDE` of the text's typical line length), so a short
  heading or title line stays on its own, and
- the next line does not start a unit of its own: a list item or bullet (□ ○ - ① 1. 가. (1) <13>, and the ○
  bullet as OCR reads it, "0 (…)"), a heading (Markdown, 제N조, Article N), a table row, a Q/A marker, or a 개조식
  item that lost its bullet and opens with a bracketed topic label.

A number the page's margin put inside a sentence (a line number, a side-column figure) is dropped: a line that is
only a number between a cut line and its continuation ("…유의\n4\n해야 한다"), and a number at the start of the
continuation when Kiwi reads the words around it as one word ("…동호회로부\n20 터 받는" → "동호회로부터 받는");
a number cannot sit inside a word. When Kiwi reads two words, the number stays ("…수도\n46 경제는"). A date the
page edge split ("2022. 10.\n17.") is joined although the line ends with a full stop and the next starts like an
item.

Whether the join needs a space is Kiwi's call when a Hangul syllable meets a Hangul syllable (`Kiwi.space` on
the two words around the break, batched); elsewhere it is a space, or nothing after an English hyphenation.

`drop_running_lines` removes the lines repeated on most pages of one source (headers, footers, "본 판결서는 …
출력되었습니다"), for corpora that arrive one page per record (BEIR/JSONL pages of the same title).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence

from geunkeo.corpus.base import Document

PAGE_NUMBER = re.compile(r"^(?:[-\u2013\u2014]\s*)?(?:page\s+|p\.\s*)?\d{1,3}(?:\s*(?:/|of)\s*\d{1,4})?"
                         r"(?:\s*[-\u2013\u2014])?$", re.I)

_UNIT_START = re.compile(
    r"""^\s*(?:
        \#{1,6}\s | \| | [-*+•·▪▫◦●○◎■□◆◇▶▷►▸※☞✓✔→⇒❍❑❏◯]
      | [①-⑳㉑-㉟㈀-㈍㉠-㉭]
      | \(?\d{1,3}[.)](?!\d) | \(\d{1,3}\) | [가-하][.)] | \([가-하]\) | <\s?\d{1,3}\s?>
      | 제\s?\d+\s?[조장절관편](?:의\s?\d+)?(?:\s|\(|$) | 부\s?칙 | \[[^\]]{1,30}\]
      | (?:Article|Section|Chapter|Rule|Part)\s+\d | [IVX]{1,4}\.\s | [Oo0ㅇ]\s+(?=[가-힣(])
      | [QA](?:\.|:|\s)
    )""",
    re.X,
)
_ENDS_SENTENCE = re.compile(r"(?:[.!?。:;…]|[다요음함임됨])[\"'”’)\]」』]*$")
_NUMERIC = re.compile(r"^[-+(]?[\d.,%]+[)%]?$|^[\d.,]+[조억만천원개명건년월일%]+$")
_WIDE = 0.7  # a line at least this share of the typical line length was cut by the page edge
_MIN_LINES = 3


# Korean list letters in order: "다." opens an item only after a "나." item; otherwise it is the end of a sentence
# the page edge cut ("…창출되고 있\n다. 한국은 …")
_SERIES = "가나다라마바사아자차카타파하"
_LETTER_ITEM = re.compile(r"^\s*([가-힣])[.)]")


def _opens_unit(line: str, letters: set[str]) -> bool:
    """`is_unit_start`, with a Korean letter item ("다.") counted only when the letter before it opened one."""
    m = _LETTER_ITEM.match(line)
    if m:
        at = _SERIES.find(m.group(1))
        if at < 0 or (at > 0 and _SERIES[at - 1] not in letters):
            return False
        letters.add(m.group(1))
    return is_unit_start(line) or _labelled_item(line)


# a 개조식 item whose bullet the extraction lost opens with its topic in brackets: "(민간투자 연계) 기금을 …";
# a bracket that closes an aside of the previous line's sentence is followed by a particle or a bound word instead
_LABEL_START = re.compile(r"^\s*\((?=[^()]*[\uac00-\ud7a3]{2})[^()]{2,25}\)\s+(\S+)")
_CONTINUES_TAGS = ("J", "E", "NNB", "XS", "VX", "VC", "VV")


def _labelled_item(line: str) -> bool:
    """Whether `line` opens with a bracketed Korean topic label followed by a word that can start a phrase (Kiwi
    reads its first morpheme as a noun, number, prefix or adjective, not a particle, ending or verb)."""
    m = _LABEL_START.match(line)
    if not m:
        return False
    from geunkeo.text.kiwi import get_kiwi

    toks = get_kiwi().tokenize(m.group(1))
    return bool(toks) and not str(toks[0].tag).startswith(_CONTINUES_TAGS)


def is_unit_start(line: str) -> bool:
    """Whether a line begins a list item, bullet, heading, table row or Q/A of its own."""
    return bool(_UNIT_START.match(line))


def ends_sentence(line: str) -> bool:
    return bool(_ENDS_SENTENCE.search(line.rstrip()))


def _is_table_row(line: str) -> bool:
    tokens = line.split()
    numeric = sum(1 for t in tokens if _NUMERIC.match(t))
    return numeric >= 3 and numeric * 2 >= len(tokens)


def _typical_width(lines: Sequence[str]) -> int:
    widths = sorted(len(s) for s in lines if len(s) >= 10)
    if len(widths) < _MIN_LINES:
        return max(widths, default=0)
    return widths[int(0.8 * (len(widths) - 1))]


def reflow(text: str) -> str:
    """`text` with hard-wrapped lines joined into whole sentences; blank lines and unit starts are kept."""
    return reflow_many([text])[0]


def reflow_many(texts: Sequence[str]) -> list[str]:
    """`reflow` of many texts with one batched Kiwi call for all Hangul–Hangul breaks."""
    plans = [_plan(t) for t in texts]
    windows = [w for _, joins in plans for (_, w, _) in joins.values() if w is not None]
    spaced = iter(_kiwi_spacing(windows)) if windows else iter(())
    out = []
    for lines, joins in plans:
        glue = {i: (next(spaced) if w is not None else sep) for i, (sep, w, _) in joins.items()} if joins else {}
        pieces: list[str] = []
        for i, line in enumerate(lines):
            if i - 1 in glue:
                prev, sep = pieces[-1].rstrip(), glue[i - 1]
                line = line.lstrip()
                if sep == "-":
                    prev, sep = prev[:-1], ""
                elif joins[i - 1][2] and sep == "":  # a margin number inside the word: it goes
                    line = line[joins[i - 1][2]:]
                pieces[-1] = prev + sep + line
            else:
                pieces.append(line)
        out.append("\n".join(pieces))
    return out


# (separator, or the two words Kiwi decides the separator for, and how many leading characters of the next line
# to drop when Kiwi joins them into one word: a margin number inside the word)
Join = tuple[str, tuple[str, str] | None, int]
_MARGIN_NUMBER = re.compile(r"^\d{1,3}\s+(?=[\uac00-\ud7a3])")
_BARE_NUMBER = re.compile(r"^\d{1,3}$")
# a date the page edge split: the line ends with its year (and month), the next starts with the rest
_DATE_HEAD = re.compile(r"(?<!\d)(?:19|20)\d{2}\.(?:\s?\d{1,2}\.)?$")
_DATE_TAIL = re.compile(r"^\d{1,2}\.(?:\s?\d{1,2}\.)?(?!\d)")


def _drop_margin_lines(lines: list[str], width: int) -> list[str]:
    """`lines` without the bare-number lines that sit between a cut line ending in a Hangul syllable and a line
    that continues it with a Hangul syllable."""
    out: list[str] = []
    for i, line in enumerate(lines):
        if (_BARE_NUMBER.match(line.strip()) and out and i + 1 < len(lines)
                and _cut_line(out[-1].strip(), width) and _hangul(out[-1].strip()[-1])
                and _continues(lines[i + 1].strip())):
            continue
        out.append(line)
    return out


def _continues(line: str) -> bool:
    """Whether `line` starts with a Hangul syllable, after a margin number if there is one."""
    margin = _MARGIN_NUMBER.match(line)
    rest = line[margin.end():] if margin else line
    return bool(rest) and _hangul(rest[0])


def _cut_line(line: str, width: int) -> bool:
    """Whether the page edge cut `line` mid-sentence: long, not ending a sentence, not a table row or heading."""
    return (bool(line) and not ends_sentence(line) and len(line) >= _WIDE * width and not _is_table_row(line)
            and not line.startswith(("|", "#")))


def _plan(text: str) -> tuple[list[str], dict[int, Join]]:
    """The text's lines and, per line index i joined to line i+1, (separator, Kiwi window or None)."""
    lines = text.split("\n")
    width = _typical_width([s.strip() for s in lines])
    joins: dict[int, Join] = {}
    if width < 20:
        return lines, joins
    lines = _drop_margin_lines(lines, width)
    letters: set[str] = set()  # Korean list letters that opened an item so far
    _opens_unit(lines[0].strip(), letters)
    for i in range(len(lines) - 1):
        cur, nxt = lines[i].strip(), lines[i + 1].strip()
        date = _DATE_HEAD.search(cur)
        if date and date.start() >= 10 and _DATE_TAIL.match(nxt):  # "…위원장은 2022. 10.\n17. 해당 …": one date
            joins[i] = (" ", None, 0)
            continue
        if not nxt or _opens_unit(nxt, letters) or not _cut_line(cur, width) or _is_table_row(nxt):
            continue
        a, b = cur[-1], nxt[0]
        margin = _MARGIN_NUMBER.match(nxt)
        if _hangul(a) and _hangul(b):
            joins[i] = ("", (cur.split()[-1], nxt.split()[0]), 0)
        elif _hangul(a) and margin:
            joins[i] = ("", (cur.split()[-1], nxt[margin.end():].split()[0]), margin.end())
        elif a == "-" and b.islower() and len(cur) > 1 and cur[-2].isalpha():
            joins[i] = ("-", None, 0)  # English hyphenation: the hyphen goes
        else:
            joins[i] = (" ", None, 0)
    return lines, joins


def _hangul(ch: str) -> bool:
    return "\uac00" <= ch <= "\ud7a3"


def _kiwi_spacing(windows: list[tuple[str, str]]) -> list[str]:
    """For each (last word of a line, first word of the next): '' when Kiwi reads them as one word, else ' '."""
    from geunkeo.text.kiwi import get_kiwi

    spaced = get_kiwi().space([tail + head for tail, head in windows], reset_whitespace=False)
    return [" " if _space_at(s, len(tail)) else "" for (tail, _), s in zip(windows, spaced, strict=True)]


def _space_at(spaced: str, n: int) -> bool:
    """Whether `spaced` (the window with Kiwi's spaces) has a space right after its first `n` non-space chars."""
    seen = 0
    for j, ch in enumerate(spaced):
        if not ch.isspace():
            seen += 1
            if seen == n:
                return j + 1 < len(spaced) and spaced[j + 1].isspace()
    return False


def strip_page_numbers(text: str) -> str:
    """Drop a page-number line ("- 12 -", "09", "3 / 10") at the top or bottom of a page's text."""
    lines = text.split("\n")
    while lines and (not lines[-1].strip() or PAGE_NUMBER.match(lines[-1].strip())):
        lines.pop()
    while lines and (not lines[0].strip() or PAGE_NUMBER.match(lines[0].strip())):
        lines.pop(0)
    return "\n".join(lines)


def drop_running_lines(docs: list[Document], min_pages: int = 3) -> int:
    """Remove lines repeated on more than half of the pages of one source (documents sharing a title, at least
    `min_pages` of them): running headers, footers and notices. Returns how many lines were removed."""
    groups: dict[str, list[Document]] = defaultdict(list)
    for d in docs:
        if d.title:
            groups[d.title].append(d)
    removed = 0
    for pages in groups.values():
        if len(pages) < min_pages:
            continue
        counts = Counter(line for d in pages for line in {s.strip() for s in d.text.split("\n")} if len(line) >= 4)
        running = {line for line, n in counts.items() if n > len(pages) / 2}
        if not running:
            continue
        for d in pages:
            kept = [s for s in d.text.split("\n") if s.strip() not in running]
            removed += d.text.count("\n") + 1 - len(kept)
            d.text = "\n".join(kept)
    return removed
