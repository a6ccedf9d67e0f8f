"""How a context chunk is divided: its own articles, sections and lists, their paragraphs, items, 목 and points.

The filter's `ContextIndex` (answer/context.py) asks these questions of a chunk's text: which articles it holds
(``제12조(휴학)``, ``Section 4``, ``General Conditions``, a 특별약관's own ``제1조``), which paragraphs an article
has (①, ``(2)``, ``4.2``), and whether an article, paragraph or item lists the item, 목 or point an answer cites.
"""

from __future__ import annotations

import re
from functools import lru_cache

from geunkeo.corpus.base import Chunk
from geunkeo.text.entities import article_key, reg_key

_HEADING = re.compile(r"(?m)^[ \t]*(?:제\s?(\d+)\s?조(?:\s?의\s?(\d+))?\s?\(|(?:Article|ARTICLE)\s+(\d+)\b"
                      r"|(?:Section|SECTION|Clause|CLAUSE|§|Policy(?=\s\d+\.\d))\s?(\d+)\b|(?:Schedule|SCHEDULE)\s?(\d+)\b|(?:Schedule|SCHEDULE)\s([A-Z])\b(?!\.\d)"
                      r"|(?:Regulation|REGULATION|Rule|RULE)\s?(\d+)\b|\[?별표\s?(\d+)\]?"
                      r"|(?:Article|ARTICLE)\s+([IVXL]{1,6})\b|Endorsement\s?(\d+)\b|Endorsement\s([IVX]{1,5})\b|(?:Section|SECTION)\s([A-Z])\b(?![.\d])|(?:Annex|ANNEX)\s([A-Z0-9])\b"
                      r"|(?:Appendix|APPENDIX)\s([A-Z0-9])\b|(?:Part|PART)\s([A-Z])\b)")
_SECTION_LINE = re.compile(r"(?m)^[ \t]*Section\s(\d+)\b")  # "Article VII … Section 2. Grounds …"
_ADDENDA_LINE = re.compile(r"(?m)^[ \t]*부\s?칙\b")
# a policy's numbered lists named by their heading: "Section 6 – What Is Not Covered", "General Conditions"
_LIST_HEADING = re.compile(r"\b(?:General\s)?(Condition|Exclusion)s\b", re.I)
_RIDER_LINE = re.compile(r"(?m)^[ \t]*([가-힣A-Za-z0-9·][가-힣A-Za-z0-9·\s]{0,38}?특별약관)[ \t]*$")
_KO_ARTICLE_LINE = re.compile(r"(?m)^[ \t]*제\s?(\d+)\s?조(?:\s?의\s?(\d+))?\s?\(")
_ENDORSEMENTS_LINE = re.compile(r"(?m)^[ \t]*Endorsements\b")
_NUMBERED_LINE = re.compile(r"(?m)^[ \t]*(\d{1,2})[ \t]+[A-Z].*$")
_LIST_LINE = re.compile(r"(?m)^[ \t]*(?:General\s)?(Condition|Exclusion)s[ \t]*$", re.I)
CIRCLED = {chr(0x2460 + i): i + 1 for i in range(20)}
_ANY_POINT = re.compile(r"\((?:[a-z]|[ivx]{1,4})\)|(?m:^[ \t]*[a-z][.)]\s)")

# "(2)" opening a line, or a sentence running on after the previous paragraph or the heading's "(Title)"
# (a line's own "(2) participation in …" may start lower-case: a list under "7. Losses we exclude:")
_EN_PARA = re.compile(r"(?m)^[ \t]*\((\d+)\)(?=\s+[A-Za-z])|(?<=[.;:)]\s)\((\d+)\)(?=\s+[A-Z])")
_ITEM_NUM = re.compile(r"(?:^|\s)(\d{1,2})[.)]\s")  # a 호 in running text: "… 손해 1. 고의로 … 2. 전쟁으로 …"
_LIST_ITEM = re.compile(r"(?m)^[ \t]*(?:(?:General\s)?Conditions?|GC|Exclusions?)\s?(\d{1,2})\b")
_ITEM_WORD = re.compile(r"\b[Ii]tem\s(\d{1,2})\b")  # a schedule's rows: "Item 4 Rental vehicle excess: …"
_LOC_SPLIT = re.compile(r"\s(?:제\s?\d+\s?조|Article\s\d+|§)")


def chunk_names(chunk: Chunk) -> set[str]:
    raw = [chunk.title, chunk.doc_id.rsplit("/", 1)[-1], _LOC_SPLIT.split(chunk.location)[0]]
    raw.append(str(chunk.metadata.get("regulation", "")))
    return {k for k in (reg_key(r) for r in raw if r) if len(k) >= 2}


def own_articles(chunk: Chunk) -> tuple[dict[str, str], set[int]]:
    """Article key → text, for the article the chunk is (Chunk.article / location) and every heading in it; and
    where the Korean headings' "제" stand (an article's own heading is not a reference to it)."""
    text = chunk.text
    # articles after a "부칙" line (or in a chunk of the addenda) are the addenda's own: 부칙 제2조 is not 제2조
    addenda = _ADDENDA_LINE.search(text)
    in_addenda = "부칙" in f"{chunk.article} {chunk.location} {' '.join(chunk.path)}"
    addenda_at = addenda.start() if addenda else (0 if in_addenda else len(text) + 1)
    found = list(_HEADING.finditer(text))
    # a heading's key is the key its words give (article_key); 부칙's 제2조 is the addenda's, not the regulation's
    heads = [(("부칙" if h.group(1) and h.start() >= addenda_at else "") + article_key(h.group(0)), h.start())
             for h in found]
    ko_heads = {text.index("제", h.start()) for h in found if h.group(1)}
    arts: dict[str, str] = {}
    for i, (key, start) in enumerate(heads):
        # an article runs to the next article (the addenda's included, or the 부칙 line): its "Section 2." lines are
        # its paragraphs, not its end
        # ("Policy 4.2.1 …", "Policy 4.2.2 …" are headings of one section 4: it runs on past them)
        later = [h[1] for h in heads[i + 1 :] if h[0] != key and (is_article(h[0]) or not is_article(key))]
        if addenda and start < addenda.start():
            later.append(addenda.start())
        end = min(later, default=len(text))
        arts.setdefault(key, text[start:end])
    listed = _LIST_HEADING.search(f"{chunk.article or ''} {text.lstrip().split(chr(10), 1)[0]}")
    if listed:
        # a chunk holding both lists ("General Exclusions … General Conditions …") keys each from its heading line
        heads = [(m.group(1).lower(), m.start()) for m in _LIST_LINE.finditer(text)]
        if len({k for k, _ in heads}) > 1:
            for i, (kind, start) in enumerate(heads):
                end = heads[i + 1][1] if i + 1 < len(heads) else len(text)
                arts.setdefault("GC" if kind == "condition" else "Exc", text[start:end])
        arts.setdefault("GC" if listed.group(1).lower() == "condition" else "Exc", text)
    endorsements = _ENDORSEMENTS_LINE.search(text)
    if endorsements:  # "Endorsements (apply only if …)\n01 Named driver restriction: …": endorsement 1
        for line in _NUMBERED_LINE.finditer(text, endorsements.end()):
            arts.setdefault(f"End{int(line.group(1))}", line.group(0))
    own = article_key(chunk.article) if chunk.article else ""
    if not own:
        m = re.search(r"제\s?\d+\s?조(?:\s?의\s?\d+)?|Article\s\d+|(?:Section|Clause|Schedule)\s\d+",
                      chunk.location)
        own = article_key(m.group(0)) if m else ""
    if own[:1].isdigit() and in_addenda:  # the chunker's "제1조" under a 부칙 heading
        own = "부칙" + own
    if own and own not in arts:
        end = heads[0][1] if heads and heads[0][1] > 0 else len(text)
        arts[own] = text[:end]
    if chunk.lang == "en" and (chunk.article or "").strip().isdigit():
        # a wording numbered with no word ("7. Losses we exclude …"): "clause 7(3)(a)" and "section 7" name it too
        arts.setdefault("§" + own, arts[own])
    # units numbered without a heading word: "Part 2 - …\n2.1 …" and "3. Appeal steps" are sections 2 and 3;
    # "B1 Accidental injury: …" is item B1
    for pattern, prefix in ((_ANY_SUB_SECTION, "§"), (_NUMBERED_HEADING, "§"), (_CODED_ITEM, "Pt")):
        for key, unit_text in _runs(text, pattern, prefix).items():
            arts.setdefault(key, unit_text)
    return arts, ko_heads


def is_article(key: str) -> bool:
    """A 조 or Article key ("12", "12-2", "부칙2"), as opposed to a section, schedule or list."""
    return key[:1].isdigit() or key.startswith("부칙")


def dotted(key: str) -> bool:
    """Keys whose paragraphs are numbered "6.1", "6.2" (sections, clauses, regulations)."""
    return key.startswith(("§", "R"))


def paragraph_numbers(chunk: Chunk, key: str, text: str) -> set[int]:
    nums = {CIRCLED[c] for c in text if c in CIRCLED}
    nums |= {int(m.group(1) or m.group(2)) for m in _EN_PARA.finditer(text)}
    if key.isdigit():  # an article divided into "Section 1.", "Section 2." lines
        nums |= {int(n) for n in _SECTION_LINE.findall(text)}
    if key.startswith("Pt"):  # coded items: "C1 …", "C2 …"
        nums |= {int(n) for n in re.findall(rf"(?m)^[ \t]*{key[2:]}(\d{{1,2}})\b", text)}
    if dotted(key):  # a handbook's sub-sections: "6.1 A graduate student …" under Section 6
        nums |= {int(m.group(0).rpartition(".")[2]) for m in re.finditer(_sub_section(key[1:], r"\d+"), text)}
    if chunk.article and article_key(chunk.article) == key:
        nums |= {int(m.group(1)) for p in chunk.paragraphs if (m := re.search(r"(\d+)", p))}
    return nums


_ITEM_AT = r"(?:^|(?<=\s))"
_MOK = re.compile(_ITEM_AT + r"([가-하])[.)]\s")
_NEXT_ITEM_OR_PARAGRAPH = re.compile(_ITEM_AT + r"(?:\d{1,2}[.)]\s|[①-⑳])")


# "2.1 …" at a line's start or after a sentence end (group 1: the section); "C3 You must …" (group 1: the letter)
_ANY_SUB_SECTION = re.compile(r"(?m)(?:^[ \t]*(\d{1,2})\.[1-9]\d?(?:\.[1-9]\d?)?\s|(?<=[.;:–—]\s)(\d{1,2})\.[1-9]\d?\s+(?=[A-Z(]))")
_CODED_ITEM = re.compile(r"(?m)^[ \t]*([A-H])(\d{1,2})\b[ \t]+(?=[A-Z(])")
# a section heading numbered without a word: "3. Appeal steps" on its own line (a title, no closing stop), as
# councils and statutes number them; "section 3(2)" and "clause 3(1)(c)" cite it
_NUMBERED_HEADING = re.compile(r"(?m)^[ \t]*(\d{1,2})\.[ \t]+[A-Z][A-Za-z'’&,\- ]{2,60}$")


def _runs(text: str, pattern: re.Pattern[str], prefix: str) -> dict[str, str]:
    """prefix + unit → its text, for a document whose lines are numbered by unit ("2.1", "2.2" under section 2;
    "C1", "C2" under part C): from the unit's first line to the first line of another unit."""
    starts = [(next(g for g in m.groups() if g), m.start()) for m in pattern.finditer(text)]
    out: dict[str, str] = {}
    for i, (unit, start) in enumerate(starts):
        key = prefix + (str(int(unit)) if unit.isdigit() else unit)
        if key in out:
            continue
        end = next((st for u, st in starts[i + 1 :] if u != unit), len(text))
        out[key] = text[start:end]
    return out


def _sub_section(article: str, para: str) -> str:
    """Where sub-section `article`.`para` starts: at a line's start ("6.1 A graduate …"), or inside a line after a
    sentence ends ("… Confirmation. 3.1 New employees serve …", "Leave. 4.2 Employees must …") when a capital or
    a bracket follows, so "$3.3 million" and "rated 4.2 out of 5" are not sub-sections."""
    return (rf"(?m)(?:^[ \t]*(?:[A-Z][a-z]+\s)?{article}\.{para}\b|(?<=[.;:–—]\s){article}\.{para}\b(?=\s+[A-Z(]))")


def paragraph_text(text: str, art: str, para: int) -> str | None:
    """The text of paragraph `para` of an article (② … up to ③; "(2) …"; a section's "4.2 …"), or None when the
    article does not mark its paragraphs that way."""
    if art.startswith("Pt"):
        start = re.search(rf"(?m)^[ \t]*{art[2:]}{para}\b", text)
        nxt = re.compile(r"(?m)^[ \t]*[A-H]\d{1,2}\b")
    elif dotted(art):
        n = re.escape(art[1:])
        start = re.search(_sub_section(n, str(para)), text)
        nxt = re.compile(_sub_section(n, rf"(?!{para}(?!\d))\d+"))  # the next paragraph, not "9.2.1" under 9.2
        if start is None:  # a clause whose paragraphs are "(1) …", "(2) …" lines
            start = re.search(rf"(?m)^[ \t]*\({para}\)", text)
            nxt = re.compile(r"(?m)^[ \t]*\(\d+\)")
    elif art.isdigit() and _SECTION_LINE.search(text):
        start = re.search(rf"(?m)^[ \t]*Section\s{para}\b", text)
        nxt = _SECTION_LINE
    elif 1 <= para <= 20:
        start = re.search(chr(0x245F + para), text)  # ① is U+2460
        nxt = re.compile(r"[①-⑳]")
    else:
        return None
    if start is None:
        return None
    end = nxt.search(text, start.end())
    return text[start.start() : end.start() if end else len(text)]


def has_mok(text: str, num: str, mok: str) -> bool:
    """Whether item `num` of an article's text lists 목 `mok` ("2. … 가. … 나. …"), or, with no `num`, whether the
    text (a paragraph) does; an item without a listed 목 cannot be checked, so it passes, unless it is seen whole and
    the text lists 목 under its other items."""
    if not num:
        listed = set(_MOK.findall(text))
        return not listed or mok in listed
    start = re.search(_ITEM_AT + re.escape(num) + r"[.)]\s", text)
    if start is None:
        return True
    nxt = _NEXT_ITEM_OR_PARAGRAPH.search(text, start.end())
    segment = text[start.end() : nxt.start() if nxt else len(text)]
    listed = set(_MOK.findall(segment))
    if not listed and nxt is not None and _MOK.search(text):
        # the item is seen whole (another item follows) and the text lists 목 under other items, not under it:
        # "별표 3 제1호 다목" where only 제3호 has 가. 나. 다.
        return False
    return not listed or mok in listed


_ROMAN = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii"]
_POINT_KINDS = {"letter": r"\([a-z]\)", "number": r"\(\d{1,2}\)", "roman": r"\((?:" + "|".join(_ROMAN) + r")\)"}


_LETTERED = re.compile(r"\([a-z]\)|(?m:^[ \t]*[a-z][.)]\s)")


def has_points(text: str, parts: list[str]) -> bool:
    """Whether the nested points `parts` ("b", "iii") are listed: each "(x)" found, then looked for between it and
    its next sibling; a level that lists no points of its kind cannot be checked, so it passes."""
    seg = text
    for depth, p in enumerate(parts):
        kind = ("number" if p.isdigit() else
                "roman" if p in _ROMAN and depth > 0 and re.fullmatch(r"[a-z]", parts[depth - 1]) else "letter")
        found = re.search(rf"\({p}\)|(?m:^[ \t]*{p}[.)]\s)", seg)  # "(c)" or " c. …" opening a line
        if found is None:
            return not re.search(_POINT_KINDS[kind] + r"|(?m:^[ \t]*[a-z][.)]\s)", seg)
        sibling = (str(int(p) + 1) if kind == "number" else
                   _ROMAN[_ROMAN.index(p) + 1] if kind == "roman" and p != _ROMAN[-1] else chr(ord(p[0]) + 1))
        start = found.end()
        nxt = re.compile(rf"\({sibling}\)|(?m:^[ \t]*{sibling}[.)]\s)").search(seg, start)
        seg = seg[start : nxt.start() if nxt else len(seg)]
        if depth + 1 < len(parts) and nxt is not None and not re.search(r"\((?:[a-z]|\d{1,2}|[ivx]{1,4})\)", seg):
            return False  # "(d)" seen whole, up to "(e)", and it lists no sub-points: "(d)(ii)" is not one
    return True


def has_sub_section(text: str, art: str, para: int | None, num: str, rest: str) -> bool:
    """Whether "9.2.6" (article 9, paragraph 2, sub-section 6) is numbered in the text, then its points `rest`; a
    paragraph that neither numbers nor names any sub-section of its own cannot be checked, so it passes ("only
    under 17.4.1 or 17.4.2" names two, so 17.4.3 is not one)."""
    if para is None or not dotted(art):
        return True
    head = rf"(?m)^[ \t]*(?:[A-Z][a-z]+\s)?{re.escape(art[1:])}\.{para}\."  # "4.2.2 …", "Policy 4.2.2 …"
    start = re.search(head + re.escape(num) + r"\b", text)
    if start is None:
        named = set(re.findall(rf"(?<![\d.]){re.escape(art[1:])}\.{para}\.(\d+)\b", text))
        return num in named or not named
    nxt = re.compile(head + r"\d").search(text, start.end())
    return not rest or has_points(text[start.end() : nxt.start() if nxt else len(text)], rest.split("-"))


def rider_articles(text: str) -> list[tuple[str, str, str]]:
    """(특별약관 name key, article key, article text) of each rider in a chunk that holds several, each numbering its
    articles from 제1조 ("상해통원 특별약관\n제1조 …\n골절진단 특별약관\n제1조 …")."""
    out = []
    riders = list(_RIDER_LINE.finditer(text))
    for i, r in enumerate(riders):
        end = riders[i + 1].start() if i + 1 < len(riders) else len(text)
        arts = list(_KO_ARTICLE_LINE.finditer(text, r.end(), end))
        for j, a in enumerate(arts):
            body = text[a.start() : arts[j + 1].start() if j + 1 < len(arts) else end]
            out.append((reg_key(r.group(1)), a.group(1) + (f"-{a.group(2)}" if a.group(2) else ""), body))
    return out


def lists_item(text: str, art: str, item: str, para: int | None = None) -> bool:
    """An article `text` (or its cited paragraph) that lists numbered items must list this one, and the
    item's 목 (가. 나. …) or lettered point ((a) (b) …) when it lists any; one known only by reference, or
    with no list in the context, cannot be checked, so its items pass."""
    num, _, mok = item.partition("-")
    seg = paragraph_text(text, art, para) if para else None
    where = seg if seg is not None else text
    if num.startswith("."):  # "9.2.6(b)": a sub-sub-section of 9.2, then its points
        return has_sub_section(where, art, para, num[1:], mok)
    if re.fullmatch(r"[a-z]|[ivx]{2,4}", num):  # "Section 4.2(b)(iii)", "6.1(ii)": points, then sub-points
        if seg is not None and not _LETTERED.search(seg) and _LETTERED.search(text):
            return False  # the article letters the points of another paragraph, not of this one
        if (seg is not None and not _ANY_POINT.search(seg)
                and text.find(seg) + len(seg.rstrip()) < len(text.rstrip())):
            return False  # "C1(b)": C1 is seen whole, up to C2, and lists no points at all
        return has_points(where, item.split("-"))
    if num:
        listed = set(_ITEM_NUM.findall(seg if seg is not None else text))
        if art.startswith(("Sch", "Anx", "Apx")):  # "Item 7" rows as well as "7." lines
            listed |= set(_ITEM_WORD.findall(text))
        if art in ("GC", "Exc"):  # "Exclusion 3 – …", "GC 2 – …" lines
            listed |= set(_LIST_ITEM.findall(text))
        if seg is not None and not listed and _ITEM_NUM.search(text):
            return f"제{num}호" in seg.replace(" ", "")  # 제1항 lists no 호 although ③ does
        if listed and num not in listed and f"제{num}호" not in text.replace(" ", ""):
            return False
        if dotted(art) and seg is not None and re.search(r"\(\d{1,2}\)", seg) and f"({num})" not in seg:
            return False  # "Section 2.5(5)": 2.5 numbers its points (1)-(4)
    if not mok:
        return True
    # the cited paragraph's own item: 제N조 제3항 제1호 다목 is ③'s item 1, not ①'s
    return has_mok(seg if seg is not None else text, num, mok)


_FULL_WIDTH = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}
_SPACED_HYPHEN = re.compile(r"(?<=\d)[ \t]+([-–.])[ \t]+(?=\d)|(?<=\d)[ \t]+(?=-\d)|(?<=\d-)[ \t]+(?=\d)")
_WRAPPED_WORD = re.compile(r"(?<=[A-Za-z])-\n(?=[a-z])")
_SPACED_SYLLABLES = re.compile(r"(?<![가-힣])(?:[가-힣] ){3,}[가-힣](?![가-힣])")


def ascii_width(text: str) -> str:
    """Full-width characters as their ASCII ("（０２）１２３" → "(02)123"); the length stays, so offsets hold."""
    return text.translate(_FULL_WIDTH)


@lru_cache(maxsize=4096)  # a service retrieves the same chunks again and again
def extracted_text(text: str) -> str:
    """A chunk's text as PDF or OCR extraction should have given it, for checking an answer against it: full-width
    characters as ASCII ("（０２）" → "(02)"), no spaces around a number's hyphens ("02 - 2260 - 4415"), words
    wrapped with a hyphen joined (a word split "…-" / next line), syllables spaced out joined ("교 무 지 원 팀")."""
    out = ascii_width(text)
    out = _SPACED_HYPHEN.sub(lambda m: m.group(1) or "", out)
    out = _WRAPPED_WORD.sub("", out)
    return _SPACED_SYLLABLES.sub(lambda m: m.group(0).replace(" ", ""), out)

