"""Regulation citations in answers and contexts: Korean 조/항/호/목, 별표, 별지 서식; English Articles, Sections,
clauses, Schedules, Parts, points; bare and loose numbers; keyed as (regulation, article, paragraph, item)."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right, insort
from collections.abc import Callable
from typing import NamedTuple

from geunkeo.text.entity_base import Entity, first_char_regex

_REG_WORD = "규정|학칙|약관|특약|규칙|세칙|지침|시행세칙|시행규칙|시행령|법|요강|내규|정관|준칙|조례"
_SELF_NAMED = {"학칙", "정관"}
_NOT_NAME_WORDS = {"경우", "따라", "및", "또는", "등", "위", "아래", "다음", "각", "그", "관련", "해당", "이번", "기존"}
_REG_NOT = ("방법", "불법", "용법", "문법", "편법", "기법", "해법", "어법", "화법")
_DEICTIC = r"(?:같은|동|이|본|당|해당|관련)"
# Words of a multi-word regulation name ("기숙사 입사 규정") do not end in a particle or verb ending; this keeps
# "휴학은 학칙 제12조" from becoming a regulation called "휴학은 학칙".
_NAME_WORD_END = r"[가-힣](?<![은는이가을를에의로와과도서고며면다요라여해게지나만께시니야데어아든])"
_REG_KO = (
    r"(?P<bracket>[「『][^」』\n]{1,40}[」』])"
    r"|(?P<deictic>" + _DEICTIC + r"\s?(?:" + _REG_WORD + r"))"
    r"|(?P<plain>(?:[가-힣]{1,11}" + _NAME_WORD_END + r"\s){0,3}[가-힣·]*(?:" + _REG_WORD + r"))"
)
# the 목 letters (가목 … 하목): not the range 가-하, which takes 각 ("각 목" is every 목, not one)
MOK_LETTERS = "[가나다라마바사아자차카타파하]"
_ART_KO = (
    r"제\s?(?P<art>\d+)\s?조(?:\s?의\s?(?P<sub>\d+))?"
    r"(?:\s?(?:제\s?)?(?P<para>\d+)\s?항|\s?(?P<circ>[①-⑳])(?:\s?항)?)?"  # "제21조 ⑤" is its paragraph 5
    r"(?:\s?(?:제\s?)?(?P<item>\d+)\s?호(?:\s?(?P<mok>" + MOK_LETTERS + r")\s?목)?"
    r"|\s?(?P<pmok>" + MOK_LETTERS + r")\s?목)?"
    r"(?:\([가-힣·\s]{1,20}\))?"
)
# "39조 2항", "학칙 12조": an article written without 제, as chat answers write it; an amount is written the same way
# ("50조 원"), so it is an article only with its paragraph or after a regulation's name (extract_citations)
_ART_KO_LOOSE_RX = first_char_regex("0-9", r"(?<![\d,.제])" + _ART_KO[len(r"제\s?"):])
# The article is found first, then the regulation name is matched backwards from it (anchored at the article):
# scanning every position for a name is what made one combined pattern slow.
_ART_KO_RX = first_char_regex("제", _ART_KO)
_REG_BEFORE = re.compile(r"(?<![가-힣])(?:" + _REG_KO + r")\s?$")
_REG_WINDOW = 60
_ADDENDA_BEFORE = re.compile(r"(?<![가-힣])부칙\s?$")
# "별표 3", "별표 1 제3호": an annexed table, keyed like an English schedule ("Sch3")
# ("별표 4호" is the 4호 of an unnumbered 별표, not table 4: not read as a table)
_ANNEX_KO = first_char_regex("별", r"별표\s?(?P<n>\d+)(?!\d|호)(?:\s?(?:제\s?)?(?P<item>\d+)\s?호)?"
                                   r"(?:\s?(?P<mok>[가나다라마바사아자차카타파하])\s?목)?")
# units a context supports by naming them anywhere (article key "M<kind>:<code>"; ContextIndex.citation): a
# regulation's 별지 forms, its chapters (제3장; a 약관's 제3관), its 부표, a tariff's bands, coded forms, European acts
_KO_UNIT_END = r"(?=\s|[(),.·」]|$|(?:에서|에|의|은|는|을|를|과|와|부터|까지)(?![가-힣]))"
class Mention(NamedTuple):
    """How an answer writes a unit (`answer`, with a `code` group), how a context's text shows that code exists
    (`context`, a pattern with "{code}"), and a word every text naming one holds (`word`: most answers hold none, so
    the scan is skipped)."""

    answer: re.Pattern[str]
    context: str
    word: str


MENTIONED: dict[str, Mention] = {
    "별지": Mention(first_char_regex("별", r"별지\s?(?:제\s?)?(?P<code>\d+)\s?호(?:\s?서식)?"), r"별지\s?(?:제\s?)?{code}\s?호",
                  "별지"),
    "관": Mention(first_char_regex("제", r"제\s?(?P<code>\d{1,2})\s?관" + _KO_UNIT_END), r"제\s?{code}\s?관", "관"),
    "붙임": Mention(first_char_regex("붙", r"붙임\s?(?P<code>\d{1,2})(?!\d)"), r"붙임\s?{code}(?!\d)", "붙임"),
    "장": Mention(first_char_regex("제", r"제\s?(?P<code>\d{1,2})\s?장" + _KO_UNIT_END), r"제\s?{code}\s?장", "장"),
    "부표": Mention(first_char_regex("부", r"부표\s?(?P<code>\d{1,2})(?!\d)"), r"부표\s?{code}(?!\d)", "부표"),
    "band": Mention(first_char_regex("B", r"\bBand\s(?P<code>[A-Z]?\d{1,2})\b"), r"\b{code}\b", "Band"),
    "form": Mention(first_char_regex("Ff", r"\b[Ff]orm\s(?P<code>[A-Z]{1,4}-?\d{1,3}[A-Z]?)\b"), r"\b{code}\b", "orm"),
    # numbered parts of a regulation ("Part 4", "Part II"; lettered ones are keyed "Prt" with their clauses)
    "part": Mention(first_char_regex("P", r"\bP(?:art|ART)\s(?P<code>\d{1,2}(?!\d|\.\d)|[IVX]{1,5}\b)"),
                    r"\bP(?:art|ART)\s{code}(?!\d|\.\d|[IVX])", "P"),
    "act": Mention(first_char_regex("RD", r"\b(?:Regulation|Directive)\s\((?:EC|EU|EEC)\)\s(?:No\.?\s)?(?P<code>\d{1,4}/\d{2,4})"),
                   r"(?<![\d/]){code}(?![\d/])", "/"),
}
_BRACKET_NAME = first_char_regex("「『", r"[「『][^」』\n]{2,40}[」』]")
_EN_REG = r"(?!(?:Article|Section|Clause|Part|Chapter|Schedule)\b)(?:[A-Z][A-Za-z'\-]*)(?:\s+(?:(?:and|of|on|for|the)\s+)?(?!Article\b|Art\.|Clause\b)[A-Z][A-Za-z'\-]*){0,6}"
# Lower-case words that end an English document's name ("the SeaBreeze policy", "the exchange notice") and, alone
# after "the", point at the document under discussion ("Article 4(2) of the notice").
EN_DOC_KINDS = (r"terms|regulations?|policy|policies|rules|agreement|conditions|bylaws|notice|handbook|guidelines?|guide|FAQ|faq|"
                r"wording|code|charter|statute|contract")
_EN_DOC_WORD = r"(?:terms\s+and\s+conditions|" + EN_DOC_KINDS + ")"
# "Section 8.3" is sub-section 3 of Section 8 (handbooks number their paragraphs 8.1, 8.2 …); sections get their
# own article keys ("§6") so a handbook's Section 11 is never supported by a policy's Article 11.
# "s. 7.2(3)" is a section in statute style; a schedule's items are "Schedule 4, item 5" / "Schedule 3, paragraph 2"
_CITE_EN = first_char_regex(
    "「『ACSacs§RrGgEePp", r"(?:(?P<bracket>[「『][^」』\n]{1,40}[」』])\s?)?"
    r"\b(?P<word>[Aa]rticle|Art\.|[Cc]lause|[Ss]ection|Sec\.|§|Policy(?=\s?\d+\.\d)|s\.(?=\s?\d)|[Ss]chedule|Sch\.|[Rr]egulation|Reg\.|"
    r"[Rr]ule|(?:[Gg]eneral\s)?[Cc]ondition|GC(?=\s?\d)|[Ee]xclusion|[Ee]ndorsement|[Pp]ara(?:graph)?\.?(?=\s?\d+\.\d)|Annex|ANNEX|"
    r"Appendix|APPENDIX|Part(?=\s[A-Z]\b)|PART(?=\s[A-Z]\b))\s?"
    r"(?P<art>\d+|(?<=Part\s)[A-Z]\b|(?<=PART\s)[A-Z]\b|(?<=Section\s)[A-Z]\b(?=\s?[–—-]|\s\(|[,.;]|\s+of\b)|"
    r"(?<=Endorsement\s)[IVX]{1,5}\b|(?<=Annex\s)[A-Z]\b|(?<=ANNEX\s)[A-Z]\b|(?<=Schedule\s)[A-Z]\b(?!\.\d|\d)|(?<=Appendix\s)[A-Z]\b|(?<=APPENDIX\s)[A-Z]\b|(?<=Article\s)[IVXL]{1,6}\b|(?<=ARTICLE\s)[IVXL]{1,6}\b)"
    r"(?:-(?P<sub>\d+))?(?:\.(?P<dot>\d+)(?:\.(?P<dot2>\d+))?)?"
    r"(?:\s?\((?P<para>\d+)\))?(?:\s?\((?P<item>[a-z]|\d+)\))?(?:\((?P<sub2>\d+|[ivx]{1,4})\))?"
    r"(?:\((?P<sub3>[ivx]{1,4})\))?"
    r"(?:(?<=[\dA-Z]),?\s(?:[Ii]tem|[Pp]aragraph|[Pp]ara\.)\s(?P<sitem>\d{1,2})\b)?"
    r"(?:(?<=[IVXL]),\s?[Ss]ection\s(?P<asec>\d+)(?:\.(?P<asecx>[a-z])\b|\((?P<asecp>[a-z])\))?)?"
    r"(?:\s+of\s+(?:(?P<deictic>(?:these|this|the\s+same)\s+(?i:" + _EN_DOC_WORD + r"))"
    r"|(?P<the_doc>the\s+" + _EN_DOC_WORD + r"\b)"
    r"|(?:the\s+)?(?P<named>「[^」\n]{1,40}」|" + _EN_REG + r"(?:\s+" + _EN_DOC_WORD + r"\b)?)))?"
)


# "같은 조 제6항" / "동조 제2호" / "같은 항 제3호" / "같은 호 다목": a part of the article cited just before it
_SAME_ARTICLE = first_char_regex("같동", r"(?:같은\s?|동\s?)(?P<level>조|항|호)\s?(?:(?:제\s?)?(?P<para>\d+)\s?항)?"
                                 r"(?:\s?(?:제\s?)?(?P<item>\d+)\s?호)?(?:\s?(?P<mok>" + MOK_LETTERS + r")\s?목)?(?<=[항호목])")


# "paragraph (e) of clause 11" / "paragraph 2 of Article 8": a part of the citation that follows; "paragraph (h)"
# alone: a part of the citation before it
_EN_PART = first_char_regex("pPiIsS", r"\b(?:[Ss]ub-?)?(?:[Pp]aragraph|[Pp]ara\.|[Ii]tem|[Pp]oint)\s?"
                            r"(?:\((?P<x>[a-z]|\d{1,2}|[ivx]{1,4})\)|(?P<n>\d{1,2})\b(?=\s+of\s))(?P<of>\s+of\s+)?")
# "under 7.4.1", "(12.3(b))", "set out in 6.2": a sub-section number without its word, after a citation of the same
# section or regulation; a number with a unit after it is a quantity ("under 4.0 GPA")
_BARE_DOTTED = first_char_regex(
    "(uUpPsSiIoObBaAfF", r"(?:\(|\b(?i:under|per|see|in|of|by|and|or|following)\s+)"
    r"(?P<num>(?P<a>\d{1,2})\.(?P<p>\d{1,2})(?:\.(?P<d2>\d{1,2}))?(?P<pts>(?:\((?:[a-z]|\d{1,2}|[ivx]{1,4})\))*))"
    r"(?![\w%]|\.\d|\s*(?:per\s?cent|percent|C?GPA|points?|credits?|hours?|years?|days?|weeks?|months?|km|kg|"
    r"million|billion|thousand|times|m|cm|mm|ml|litres?|liters?|metres?|meters?|GB|MB)\b)")
_DOTTED_WINDOW = 400
_CODED = first_char_regex("(uUpPsS", r"(?:\(|\b(?i:under|per|see)\s+)(?P<code>(?P<letter>[A-H])(?P<n>[1-9]\d?)"
                            r"(?P<pts>(?:\([a-z]\))*))(?=[\s).,;:]|$)")
_SECTION_LIKE = re.compile(r"[1-9]\d?\.[1-9]\d?\b")  # 4.2, 12.10; not 0.66, 41.0, 3.05
# "breaches 7.2(b)": a sub-section with lettered points is a citation wherever it stands
_POINTED = first_char_regex("0123456789", r"(?<![\w.$€£₹/-])(?P<num>(?P<a>\d{1,2})\.(?P<p>\d{1,2})(?:\.(?P<d2>\d{1,2}))?"
                                r"(?P<pts>(?:\((?:[a-z]|[ivx]{1,4})\))+))(?![\w(])")
# "제1항 제5호" with no article before it (in Korean drafting, the article under discussion)
_BARE_HANG = first_char_regex("제", r"(?<![가-힣\d])제\s?(?P<para>\d{1,2})\s?항(?:\s?제\s?(?P<item>\d{1,2})\s?호)?"
                         r"(?:\s?(?P<mok>[가나다라마바사아자차카타파하])\s?목)?")
# "제3호 가목" with no article or paragraph before it: an item of the paragraph cited before it (not 별지 제3호 서식)
_BARE_HO = first_char_regex("제", r"(?<![가-힣\d])(?<!별지\s)(?<!별지)제\s?(?P<item>\d{1,2})\s?호(?!\s?서식|\d)"
                       r"(?:\s?(?P<mok>[가나다라마바사아자차카타파하])\s?목)?")
# the lines between a citation and a bare part of it may be a list under it ("### 서류 (제7조 제1항)\n1. …\n5. …
# (제1항 제5호)"): its markers are not sentence ends
_LIST_MARKER = re.compile(r"(?:^|(?<=[\n\x00]))[ \t]*(?:\d{1,2}[.)]|[-*•])[ \t]")  # NUL: the filter's sentence joint
# "라목" alone after "같은 호 나목": a 목 of the item cited before it (the list of 목 letters, not the range 가-하,
# which would take 항목, 과목, 품목)
_BARE_MOK = first_char_regex("가나다라마바사아자차카타파하",
                   r"(?<![가-힣\d])(?P<mok>[가나다라마바사아자차카타파하])\s?목(?=(?:의|에서|에|은|는|이|도|과|와|을|를|까지|및)?(?![가-힣]))")


_NOT_ARTICLES = ("Sch", "GC", "Exc", "Anx", "Apx", "End", "Prt", "M")  # annexes, lists, forms: "같은 조" never points at them
_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50}


def roman_to_int(s: str) -> int:
    """'VII' → 7, 'IX' → 9."""
    total = 0
    for a, b in zip(s, [*s[1:], ""], strict=True):
        v = _ROMAN_VALUES[a]
        total += -v if b and _ROMAN_VALUES[b] > v else v
    return total


def reg_key(name: str) -> str:
    """Comparison key of a regulation name: no brackets, spaces or middle dots, casefolded; 특약 is 특별약관 (a 특별약관
    numbers its articles from 제1조 again, so "특약 제6조" is not the 보통약관's 제6조), and a 보통약관 is the 약관 ("동물병원비보험
    약관" names "솔바람화재 동물병원비보험 보통약관")."""
    return re.sub(r"[\s「」『』·ㆍ\"'“”]", "", name).casefold().replace("특약", "특별약관").replace("보통약관", "약관")


# (pattern, key) in order of precedence: the first kind of unit named in the string decides
_ARTICLE_KEYS: list[tuple[re.Pattern, Callable[[re.Match], str]]] = [
    (re.compile(r"(?:\b[Ss]ection|\bSECTION|\bSec\.|\b[Cc]lause|\bCLAUSE|§|(?<![A-Za-z])s\.|\b[Pp]ara(?:graph)?\.?|"
                r"\bPolicy(?=\s?\d+(?:\.\d|$|,)))\s?(\d+)"),
     lambda m: f"§{int(m.group(1))}"),
    (re.compile(r"\b(?:Article|ARTICLE)\s+([IVXL]{1,6})\b"), lambda m: str(roman_to_int(m.group(1)))),
    (re.compile(r"\b[Ee]ndorsements?\s?(\d+)"), lambda m: f"End{int(m.group(1))}"),
    (re.compile(r"\bEndorsements?\s([IVX]{1,5})\b"), lambda m: f"End{roman_to_int(m.group(1))}"),
    # a policy's lettered sections are its parts: "Section D – Claims" (before the numbered-section key)
    (re.compile(r"\b(?:Section|SECTION)\s([A-Z])\b(?![.\d])"), lambda m: "Prt" + m.group(1)),
    (re.compile(r"\b(?:Annex|ANNEX)\s?([A-Z0-9])\b"), lambda m: "Anx" + m.group(1)),
    (re.compile(r"\b(?:Appendix|APPENDIX)\s?([A-Z0-9])\b"), lambda m: "Apx" + m.group(1)),
    # a policy wording's lettered parts (Part + one capital letter); numbered parts stay sections
    (re.compile(r"\b(?:Part|PART)\s([A-Z])\b"), lambda m: "Prt" + m.group(1)),
    (re.compile(r"\bGC(?=\s?\d)"), lambda m: "GC"),
    (re.compile(r"\b(?:[Ss]chedule|SCHEDULE)\s([A-Z])\b(?!\.\d|\d)"), lambda m: "Sch" + m.group(1)),  # "Schedule B"
    (re.compile(r"\b(?:[Ss]chedule|SCHEDULE|Sch\.)\s?(\d+)|별표\s?(\d+)"),
     lambda m: f"Sch{int(m.group(1) or m.group(2))}"),
    (re.compile(r"\b(?:[Rr]egulation|REGULATION|Reg\.|[Rr]ule|RULE)\s?(\d+)"), lambda m: f"R{int(m.group(1))}"),
    # a policy's general conditions / exclusions: one numbered list each
    (re.compile(r"\b(?:(?:[Gg]eneral\s)?([Cc])ondition|[Ee]xclusion)s?\b"), lambda m: "GC" if m.group(1) else "Exc"),
    (re.compile(r"^\s*부칙(?:.*?(\d+)\s?조(?:\s?의\s?(\d+))?)?"),
     lambda m: "부칙" + (m.group(1) + (f"-{m.group(2)}" if m.group(2) else "") if m.group(1) else "")),
    (re.compile(r"(\d+)\s?조(?:\s?의\s?(\d+))?"), lambda m: m.group(1) + (f"-{m.group(2)}" if m.group(2) else "")),
    (re.compile(r"(\d+)(?:-(\d+))?"), lambda m: m.group(1) + (f"-{m.group(2)}" if m.group(2) else "")),
]


def article_key(article: str) -> str:
    """'제12조의2' / 'Article 12' / '12-2' → '12-2' / '12'; 'Section 6' / 'Clause 6' → '§6'; 'Schedule 2' / '별표 2' →
    'Sch2'; 'Regulation 4' / 'Rule 4' → 'R4'; 'General Conditions' → 'GC', 'Exclusions' → 'Exc'; '부칙 제2조' → '부칙2'."""
    for rx, key in _ARTICLE_KEYS:
        m = rx.search(article)
        if m:
            return key(m)
    return ""


def _ko_regulation_before(text: str, s: int) -> tuple[str | None, str, int]:
    """(regulation, how it is named, start) of the name written before a Korean citation starting at `s`."""
    reg, ref = None, "bare"
    r = _REG_BEFORE.search(text, max(0, s - _REG_WINDOW), s)
    if r is None:
        pass
    elif r.group("bracket"):
        reg, ref, s = r.group("bracket")[1:-1].strip(), "named", r.start()
    elif r.group("deictic"):
        word = r.group("deictic")
        ref = "same" if re.match(r"(?:같은|동|해당)", word) else "this"
        reg, s = word, r.start()
    elif r.group("plain"):
        plain = r.group("plain")
        if not (plain.endswith(_REG_NOT) or len(plain) < 2):  # "제출 방법 제5조": not a regulation name
            s = r.start()
            words = plain.split()
            # "학칙" names itself: "… 경우 학칙 제13조" is not a regulation called "경우 학칙"; nor is a name
            # begun before a word no name holds ("수술을 받으신 경우 약관 제5조" is the 약관's 제5조)
            cut = max((i + 1 for i, w in enumerate(words[:-1]) if w in _NOT_NAME_WORDS), default=0)
            s += sum(len(w) + 1 for w in words[:cut])
            words = words[cut:]
            while len(words) > 1 and (words[-1] in _SELF_NAMED or words[0] in _NOT_NAME_WORDS):
                s += len(words[0]) + 1
                words = words[1:]
            plain = " ".join(words)
            if plain not in _SELF_NAMED and re.fullmatch(f"(?:{_REG_WORD})", plain):
                reg, ref = plain, "this"  # "규정 제3조": the regulation under discussion
            else:
                reg, ref = plain, "named"
    return reg, ref, s


def extract_citations(text: str) -> list[Entity]:
    """Regulation citations as (regulation, article, paragraph, item) with how the regulation was named."""
    out = _ko_articles(text)
    for kind, mention in MENTIONED.items():
        if mention.word not in text:
            continue
        for m in mention.answer.finditer(text):
            out.append(_citation(text, m.start(), m.end(), None, "bare", f"M{kind}:{m.group('code')}", None, None))
    for m in _ANNEX_KO.finditer(text):
        reg, ref, s = _ko_regulation_before(text, m.start())
        art, item = f"Sch{m.group('n')}", m.group("item")
        mok = m.group("mok")  # 별표 N followed by a 목 letter: a 목 of the table itself, keyed with an empty 호
        item = _item_key(item, mok) if item else (f"-{mok}" if mok else None)
        out.append(_citation(text, s, m.end(), reg, ref, art, None, item))
    out.extend(_en_citations(text))
    found = _Found(out)
    _add_same_article(text, found)
    _add_parts(text, found)
    # a regulation named in 「」 without an article: "「연구실 안전 관리 지침」을 참고하세요"
    for m in _BRACKET_NAME.finditer(text):
        if not found.inside(m.start()):
            name = m.group(0)[1:-1].strip()
            out.append(Entity("citation", m.group(0), m.start(), m.end(), _cite_norm(name, "", None, None),
                              regulation=name, ref="named"))
    out.sort(key=lambda x: x.start)
    return out


def _ko_articles(text: str) -> list[Entity]:
    """Korean article citations (an article with its 항, 호 and 목), with the regulation named before each."""
    out: list[Entity] = []
    loose = [m for m in (_ART_KO_LOOSE_RX.finditer(text) if "조" in text else ())
             if (m.group("para") or m.group("circ") or _REG_BEFORE.search(text, max(0, m.start() - _REG_WINDOW), m.start()))
             and not re.match(r"\s?(?:원|달러|억|만|천)", text[m.end("art") + 1 :])]
    for m in [*_ART_KO_RX.finditer(text), *loose]:
        s = m.start()
        addenda = _ADDENDA_BEFORE.search(text, max(0, s - 6), s)  # "부칙 제3조": an article of the addenda
        if addenda:
            s = addenda.start()
        reg, ref, s = _ko_regulation_before(text, s)
        art = ("부칙" if addenda else "") + m.group("art") + (f"-{m.group('sub')}" if m.group("sub") else "")
        para = int(m.group("para")) if m.group("para") else (ord(m.group("circ")) - 0x245F if m.group("circ") else None)
        # a 목 right under a 항 ("제7조 제3항 다목") is keyed with an empty 호: "-라"
        item = f"-{m.group('pmok')}" if m.group("pmok") and para else _item_key(m.group("item"), m.group("mok"))
        out.append(_citation(text, s, m.end(), reg, ref, art, para, item))
    return out


def _en_citations(text: str) -> list[Entity]:
    """English citations (articles, sections, clauses with their paragraphs and points), with the document
    named with them, if any."""
    out: list[Entity] = []
    for m in _CITE_EN.finditer(text):
        reg, ref = None, "bare"
        if m.group("bracket"):
            reg, ref = m.group("bracket")[1:-1].strip(), "named"
        elif m.group("deictic") or m.group("the_doc"):
            word = m.group("deictic") or m.group("the_doc")
            reg, ref = word, ("same" if "same" in word else "this")
        elif m.group("named"):
            reg, ref = m.group("named").strip("「」"), "named"
        # sections and clauses get their own keys ("§6"; article_key), articles the bare number
        art = article_key(f"{m.group('word')} {m.group('art')}") + (f"-{m.group('sub')}" if m.group("sub") else "")
        if art in ("GC", "Exc") and m.group("dot"):  # "exclusion 5.3(c)": section 5.3's point, a list's word before it
            art = f"§{int(m.group('art'))}"
        elif art in ("GC", "Exc"):  # "General Condition 11": item 11 of the policy's general conditions
            out.append(_citation(text, m.start(), m.end(), None, "bare", art, None, m.group("art")))
            continue
        if m.group("asec"):  # "Article VII, Section 2.c": the article's section 2, its point c
            x = m.group("asecx") or m.group("asecp")
            out.append(_citation(text, m.start(), m.end(), reg, ref, art, int(m.group("asec")), x))
            continue
        # "Section 8.3" / "Article 3.2": the number after the dot is the paragraph, as "(2)" would be; the
        # bracketed levels after it are the item and its sub-item ("Section 3.2(b)(3)" → item "b-3")
        levels = [x for x in (m.group("para"), m.group("item"), m.group("sub2"), m.group("sub3")) if x]
        para: int | None
        if m.group("dot"):
            para = int(m.group("dot"))
        else:
            para = int(levels.pop(0)) if m.group("para") else None
        if m.group("dot2"):  # "9.2.6": a sub-sub-section, keyed ".6" apart from a point "(6)"
            levels.insert(0, "." + m.group("dot2"))
        item = "-".join(levels) or m.group("sitem")
        out.append(_citation(text, m.start(), m.end(), reg, ref, art, para, item))
    return out


def _add_same_article(text: str, found: _Found) -> None:
    """A paragraph or item of the article cited just before it: "같은 조 제6항", "동조 제2호"."""
    for m in _SAME_ARTICLE.finditer(text):
        prev = found.previous(m.start(), skip=_NOT_ARTICLES)
        level = m.group("level")
        if prev is None or (level != "조" and not (m.group("para") or m.group("item") or m.group("mok"))):
            continue  # "같은 호" alone, or "동호회": nothing cited
        para = int(m.group("para")) if m.group("para") else prev.paragraph
        if level == "호":  # 같은 호 다목: the item cited before, its 목
            item = _item_key((prev.item or "").partition("-")[0] or None, m.group("mok"))
        else:
            item = _item_key(m.group("item"), m.group("mok"))
        found.add(_citation(text, m.start(), m.end(), prev.regulation, prev.ref, prev.article or "", para, item))


class _Found:
    """The citations found so far, by position: "is this position inside one?" and "which ends last before
    here?" are bisections, not scans of every citation (a looping answer can cite thousands of times)."""

    def __init__(self, out: list[Entity]) -> None:
        self.out = out
        self.by_start = sorted(out, key=lambda c: c.start)
        self.by_end = sorted((c for c in out if c.article), key=lambda c: c.end)
        self.longest = max((c.end - c.start for c in out), default=0)

    def add(self, c: Entity) -> None:
        self.out.append(c)
        insort(self.by_start, c, key=lambda x: x.start)
        if c.article:
            insort(self.by_end, c, key=lambda x: x.end)
        self.longest = max(self.longest, c.end - c.start)

    def remove(self, c: Entity) -> None:
        self.out.remove(c)
        self.by_start = [x for x in self.by_start if x is not c]
        self.by_end = [x for x in self.by_end if x is not c]

    def inside(self, pos: int) -> bool:
        lo = bisect_left(self.by_start, pos - self.longest, key=lambda c: c.start)
        hi = bisect_right(self.by_start, pos, key=lambda c: c.start)
        return any(c.end > pos for c in self.by_start[lo:hi])

    def starting_at(self, pos: int) -> Entity | None:
        """The first citation with an article that starts at `pos`."""
        lo = bisect_left(self.by_start, pos, key=lambda c: c.start)
        hi = bisect_right(self.by_start, pos, key=lambda c: c.start)
        return next((c for c in self.by_start[lo:hi] if c.article), None)

    def ending_in(self, lo: int, hi: int) -> list[Entity]:
        """Citations with an article that end in (lo, hi], in order of their ends."""
        return self.by_end[bisect_right(self.by_end, lo, key=lambda c: c.end) : bisect_right(self.by_end, hi,
                                                                                              key=lambda c: c.end)]

    def previous(self, pos: int, skip: tuple[str, ...] = ()) -> Entity | None:
        """The citation with an article (not one whose key starts with `skip`) that ends last at or before `pos`."""
        for j in range(bisect_right(self.by_end, pos, key=lambda c: c.end) - 1, -1, -1):
            if not skip or not self.by_end[j].article.startswith(skip):
                return self.by_end[j]
        return None


def _add_parts(text: str, found: _Found) -> None:
    """Bare parts of a citation: English "paragraph (h)" / "paragraph (e) of clause 11" and a Korean "라목" alone."""
    _add_en_parts(text, found)
    _add_numbered_sections(text, found)
    _add_ko_parts(text, found)


def _add_en_parts(text: str, found: _Found) -> None:
    """English paragraphs, items and points named alone or "of" the citation after them."""
    inside, previous = found.inside, found.previous

    for m in _EN_PART.finditer(text):
        if inside(m.start()):
            continue
        x = m.group("x") or m.group("n")
        para: int | None
        item: str | None
        if m.group("of"):
            target = found.starting_at(m.end())
            if target is None or target.item:
                continue
            found.remove(target)
            start, end = m.start(), target.end
            if x.isdigit() and target.paragraph is None and not target.article.startswith(("Sch", "Anx", "Apx")):
                para, item = int(x), None  # "paragraph 2 of Article 8"
            else:
                para, item = target.paragraph, x
        else:
            target = previous(m.start())
            if target is None:
                continue
            start, end, para = m.start(), m.end(), target.paragraph
            head = (target.item or "").partition("-")[0]
            # a letter is a sibling of the point cited before ("paragraph (h)" after "(e)"); a number or a roman
            # numeral under a lettered point is its sub-item
            item = f"{head}-{x}" if re.fullmatch(r"[a-z]", head) and not re.fullmatch(r"[a-z]", x) else x
        found.add(_citation(text, start, end, target.regulation, target.ref, target.article or "", para, item))


def _add_numbered_sections(text: str, found: _Found) -> None:
    """Section numbers written alone (dotted, coded by letter, pointed), as parts of the sections cited before."""
    inside = found.inside

    for m in _BARE_DOTTED.finditer(text):
        s, e = m.span("num")
        if inside(s):
            continue
        item = _dotted_item(m)
        family = [c for c in found.ending_in(s - _DOTTED_WINDOW, s) if c.article[:1] in "§R"]
        if not family:
            # no section cited before it: only a citation-shaped number, "(6.1)" or "under 6.3", is one ("loose":
            # checked only against contexts that number their sections)
            # "평균(41.0)", "(0.66)" are values: a citation's "(" follows a space, and no part of it is 0 or 0x
            closed = (text[m.start()] == "(" and text[e : e + 1] == ")"
                      and (m.start() == 0 or text[m.start() - 1].isspace()))
            if (closed or m.group(0)[:5].lower() == "under") and _SECTION_LIKE.match(m.group("num")):
                found.add(_citation(text, s, e, None, "loose", "§" + m.group("a"), int(m.group("p")), item))
            continue
        same = [c for c in family if c.article[1:] == m.group("a")]
        target = max(same or family, key=lambda c: c.end)
        art = target.article[0] + m.group("a")
        found.add(_citation(text, s, e, target.regulation, target.ref, art, int(m.group("p")), item))
    for m in _CODED.finditer(text):  # "(C3)", "under D1": an item a policy wording codes by letter and number
        s, e = m.span("code")
        if not inside(s):
            found.add(_citation(text, s, e, None, "loose", "Pt" + m.group("letter"), int(m.group("n")),
                                 _dotted_item(m)))
    for m in _POINTED.finditer(text):
        s, e = m.span("num")
        if not inside(s) and _SECTION_LIKE.match(m.group("num")):
            found.add(_citation(text, s, e, None, "loose", "§" + m.group("a"), int(m.group("p")), _dotted_item(m)))


def _add_ko_parts(text: str, found: _Found) -> None:
    """A bare 항, 호 or 목 of the Korean article (or paragraph) cited just before it."""
    inside, previous = found.inside, found.previous

    for m in _BARE_HANG.finditer(text):  # "제1항 제5호" alone: a paragraph of the article cited before it
        target = previous(m.start())
        # only after an article cited in the same sentence (or list): in a quoted statute a bare 제7항 is its own
        # article's
        if inside(m.start()) or target is None or not target.article[:1].isdigit() or _new_sentence(text, target.end, m.start()):
            continue
        found.add(_citation(text, m.start(), m.end(), target.regulation, target.ref, target.article,
                             int(m.group("para")), _item_key(m.group("item"), m.group("mok"))))
    for m in _BARE_HO.finditer(text):  # "현장실습 (제2호 나목)" under "제19조 제4항": an item of that paragraph
        target = previous(m.start())
        if (inside(m.start()) or target is None or not target.article[:1].isdigit() or target.paragraph is None
                or _new_sentence(text, target.end, m.start())):
            continue
        found.add(_citation(text, m.start(), m.end(), target.regulation, target.ref, target.article,
                             target.paragraph, _item_key(m.group("item"), m.group("mok"))))
    for m in _BARE_MOK.finditer(text):
        target = previous(m.start())
        if inside(m.start()) or target is None or not (target.item or target.paragraph):
            continue
        head = (target.item or "").partition("-")[0]
        item = f"{head}-{m.group('mok')}"
        found.add(_citation(text, m.start(), m.end(), target.regulation, target.ref, target.article or "",
                             target.paragraph, item))


def _new_sentence(text: str, start: int, end: int) -> bool:
    """Whether a sentence ends (or ② opens another paragraph) between `start` and `end`; a list's markers and line
    breaks under the citation do not end it."""
    between = _LIST_MARKER.sub(" ", text[start:end])
    return bool(re.search(r"[.!?。①-⑳]", between)) or (
        bool(re.search(r"[\n\x00]", between)) and not _LIST_MARKER.search(text, start, end))


def _dotted_item(m: re.Match[str]) -> str | None:
    """The item key of "9.2.6(b)(iii)": a third number ".6", then the bracketed points ("b", "iii"), dash-joined."""
    d2 = m.groupdict().get("d2")
    return "-".join(([f".{d2}"] if d2 else []) + re.findall(r"\(([^)]+)\)", m.group("pts"))) or None


def _citation(text: str, start: int, end: int, reg: str | None, ref: str, art: str, para: int | None,
              item: str | None) -> Entity:
    """A citation entity over text[start:end], keyed by (regulation, article, paragraph, item)."""
    return Entity("citation", text[start:end], start, end, _cite_norm(reg, art, para, item), regulation=reg, ref=ref,
                  article=art, paragraph=para, item=item)


def _item_key(item: str | None, mok: str | None) -> str | None:
    """A 호 and its 목 as one key: 제2호 나목 → "2-나" (a 목 without its 호 cannot be checked)."""
    if not item:
        return None
    return f"{item}-{mok}" if mok else item


def _cite_norm(reg: str | None, art: str, para: int | None, item: str | None) -> str:
    return f"{reg_key(reg) if reg else '-'}|{art}|{para or '-'}|{item or '-'}"
