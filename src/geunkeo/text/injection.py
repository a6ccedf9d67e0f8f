"""Instruction-like passages in documents ("ignore previous instructions", "~라고 답하세요", role prompts).

Documents are data, not instructions: a passage that addresses the model reading it — overriding its
instructions, giving it a persona, dictating what to answer, or imitating a chat template — is detected here, in
Korean and in English, at ingestion (recorded on the chunk) and in context at answer time (the hallucination
filter does not count what such a passage alone says as grounded).

Precision comes first: regulations, notices and policy terms are full of obligations ("…하여야 한다",
"…제출하여야 한다", "답하여야 한다", "shall answer", "act as the insured's agent"), which are *not* injections. So
every pattern needs a form that only a message to a model takes: an imperative aimed at the reader's earlier
instructions (무시하고/무시하세요, "ignore previous instructions"), a quoted dictated answer (…라고 답하세요,
"say that …" opening a sentence), a persona switch (너는 이제, "you are now an assistant"), or chat-template
markup (``<|im_start|>``, ``system:`` opening a line). Adnominal and declarative forms ("지시를 무시한 자는",
"…라고 한다") never match.

Detection reads a normalised copy of the text (NFKC, so full-width letters are ASCII; zero-width, soft-hyphen and
bidi-control characters removed; Cyrillic and Greek look-alikes folded to Latin, `data/injection_cues.json`), and
maps what it finds back to the original offsets: "Ig\u200bnore previous instructions" is the phrase it reads as.
Besides the phrases below, an instruction addressed to a model by meaning is caught (kind "addressed"): a sentence
whose subject or addressee is a reader word (AI, 인공지능 비서, assistants, language models) that goes on to a speech act
(답변, 안내, 덧붙이다; tell, say, include) under an imperative or obligation (…할 것, …하라; must, should), whatever
its wording ("이 문서를 요약하는 인공지능은 … 덧붙일 것", "Any assistant reading this notice must add …").

`detect_injections(text)` returns one `InjectionSpan` per trigger: `phrase` is the matched words and
`start`/`end` the passage they govern — from the start of the trigger's line to the end of its paragraph (a
blank line or the next structural line: heading, article, numbered or bulleted item), at most `MAX_PASSAGE`
characters after the trigger and half that before it (cut at sentence ends). `passages(text)` merges them into
character ranges; `without_injections(text)` blanks them.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

MAX_PASSAGE = 600


@dataclass(frozen=True)
class InjectionSpan:
    start: int  # the passage the trigger governs (see the module docstring)
    end: int
    kind: str  # override | system_prompt | persona | directive | role | mode | addressed | fence
    phrase: str  # the words that matched (normalised: see the module docstring)
    phrase_start: int = 0
    phrase_len: int = 0  # the phrase's length in the original text (zero-width characters included)

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "text": self.phrase, "start": self.start, "end": self.end}


# -- patterns ---------------------------------------------------------------------------------------------------

_I = re.I
# Korean: what the reader was told before, then an imperative or connective "ignore/forget" (무시하고, 무시하세요,
# 무시해, 무시하라, 무시하십시오, 무시할 것, 잊어/잊고/잊으세요) — never 무시한 (adnominal) or 무시하여서는 (a ban)
_KO_PRIOR = (r"(?:이전|앞|위|상기|기존|앞서|지금까지|이때까지|원래|모든|너의|네|당신의|(?:이전에|기존에|앞서|당신이|네가)\s*받은)"
             r"(?:의|의\s*모든)?")
_KO_ORDERS = (r"(?:지시\s*사항|지시문|지시|명령어?|프롬프트|시스템\s*메시지|instructions?|prompts?)(?:들)?")
_KO_RULES = r"(?:규칙|지침)(?:들)?"  # only with an imperative 무시/잊: "기존 지침은 무효이다" is a real 부칙
_KO_OBJ = r"(?:(?:은|는|을|를|도|에\s*대해서는)\s*)?(?:모두\s*|전부\s*|다\s*|전부\s*다\s*|일체\s*|완전히\s*)?"
_KO_IGNORE_IMP = (r"(?:무시\s*(?:하고|하세요|하십시오|하시오|해라|하라|해|해요|할\s*것|하도록\s*해)"
                  r"|잊(?:어|고|으세요|으십시오|어라|으라|어버려|어버리고|어버리세요))(?![가-힣])")
_KO_IGNORE = r"(?:" + _KO_IGNORE_IMP + r"|따르지\s*(?:마|말고|마세요|마십시오|말\s*것)(?![가-힣]))"
_KO_OVERRIDE = re.compile(_KO_PRIOR + r"\s*(?:모든\s*)?(?:" + _KO_ORDERS + r"\s*" + _KO_OBJ + _KO_IGNORE + r"|"
                          + _KO_RULES + r"\s*" + _KO_OBJ + _KO_IGNORE_IMP + r")")

# a dictated answer: …라고 답하세요 / 말하세요 / 답변하라 / 안내하십시오 / 출력해 (imperatives only)
_KO_SAY = re.compile(
    r"(?:라|다)\s*고\s*(?:만\s*|반드시\s*|꼭\s*)?(?:답|답변|대답|응답|말|안내|출력|전달|회신|설명)\s*"
    r"(?:하세요|하십시오|하시오|해라|하라|해\s*주세요|해\s*줘|해줘|해요|할\s*것|해(?=\s*(?:[.!?\n\"'”’)]|$)))(?![가-힣])"
    r"|(?:다음|아래|위)(?:과|와)\s*같이\s*(?:만\s*)?(?:답|답변|대답|응답|말|출력)\s*(?:하세요|하십시오|하시오|해라|하라|해)"
    r"(?![가-힣])"
)
# a persona switch: 너는 이제 …이다, 당신은 지금부터, 이제부터 너는, …인 척 하라, …처럼 행동하라
_KO_PERSONA = re.compile(
    r"(?<![가-힣])(?:너|당신|넌|니)\s*(?:는|은)?\s*(?:이제|지금부터|이제부터|앞으로)(?![가-힣])"
    r"|(?:이제부터|지금부터)\s*(?:너|당신|AI|에이아이|어시스턴트|챗봇)\s*(?:는|은)"
    r"|인\s*척\s*(?:하세요|하십시오|하라|해라|해)(?![가-힣])"
    r"|(?:처럼|로서)\s*(?:행동|연기|답)\s*(?:하세요|하십시오|하라|해라|해)(?![가-힣])"
    r"|역할을\s*(?:맡아|수행해|해)\s*(?:주세요|라|줘|)\s*[.!]"
)
_KO_SYSTEM = re.compile(r"시스템\s*프롬프트|시스템\s*지시(?:문|사항)|탈옥\s*(?:모드|프롬프트)")
# 관리자 모드 only when it is switched on, or switched to by a persona phrase
_KO_MODE = re.compile(
    r"(?:관리자|개발자|디버그|디버깅|제한\s*해제|무제한)\s*모드\s*(?:가|로|를)?\s*"
    r"(?:활성화\s*(?:되었|됐|됨|하세요|하라|해)|전환\s*(?:되었|됐|됨|하세요|하라|해)|켜\s*(?:졌|짐|세요|라)|진입\s*(?:했|함|하세요|하라))"
    r"|(?:이제|지금부터|이제부터)\s*(?:너는|당신은)?\s*(?:관리자|개발자|디버그)\s*모드"
)
_KO_ADDRESSED = re.compile(
    r"이\s*(?:문서|글|텍스트|내용|페이지)를\s*(?:읽는|처리하는|보는|요약하는|참고하는|검색한)\s*"
    r"(?:AI|인공지능|에이아이|어시스턴트|챗봇|언어\s*모델|모델|LLM|GPT|시스템)", _I
)
_CUES = json.loads(resources.files("geunkeo.data").joinpath("injection_cues.json").read_text("utf-8"))


def _alt(words: list[str]) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"\s*") for w in sorted(words, key=len, reverse=True))


# a reader word as the sentence's subject/addressee (not a modifier: "AI 교육센터는" is no addressee), then within
# the same sentence a speech act and an order
# "…덧붙일 것.", "…알릴 것.": any verb's -ㄹ 것 closing a sentence is an order (the syllables with a final ㄹ)
_RIEUL = "".join(chr(c) for c in range(0xAC00, 0xD7A4) if (c - 0xAC00) % 28 == 8)
_KO_READER_ORDER = re.compile(
    rf"(?<![가-힣A-Za-z])(?:{_alt(_CUES['ko_readers'])})(?:{_alt(_CUES['ko_particles'])})(?![가-힣])"
    rf"[^.!?\n]{{0,160}}?(?:{_alt(_CUES['ko_speech'])})[^.!?\n]{{0,40}}?"
    rf"(?:(?:{_alt(_CUES['ko_orders'])})(?![가-힣])|[{_RIEUL}]\s*것(?=\s*(?:[.!\n]|$)))", _I)
_EN_READER_ORDER = re.compile(
    rf"\b(?:{_alt(_CUES['en_readers'])})(?:\s+(?:that|which|who|reading|processing|summari[sz]ing|answering|"
    rf"using)\b[^.!?\n]{{0,60}}?)?\s+(?:{_alt(_CUES['en_modals'])})\b[^.!?\n]{{0,40}}?\b(?:{_alt(_CUES['en_speech'])})\b", _I)
_KO_NEW_ORDERS = re.compile(r"새로운?\s*(?:지시\s*사항|지시|명령)\s*[:：]")

_EN_OVERRIDE = re.compile(
    r"\b(?:ignore|disregard|forget|override|bypass|discard)\s+(?:all\s+|any\s+|the\s+|your\s+|of\s+|my\s+|these\s+|"
    r"those\s+)*(?:previous|prior|above|earlier|preceding|foregoing|original|initial|system|existing|other|former)"
    r"\s+(?:\w+\s+)?(?:instructions?|prompts?|rules|directions|directives|guidelines|messages|context|commands|"
    r"orders|constraints)\b"
    r"|\b(?:ignore|disregard|forget)\s+(?:all\s+of\s+|everything\s+|anything\s+|all\s+)(?:the\s+)?(?:above|before|"
    r"previously|prior|you\s+(?:were|have\s+been)\s+(?:told|given))\b"
    r"|\b(?:ignore|disregard)\s+(?:your|the|all)\s+(?:instructions|guidelines|rules|programming|training)\b"
    r"|\b(?:do\s+not|don't|never)\s+follow\s+(?:the\s+|your\s+|any\s+)?(?:previous|prior|above|system|original|"
    r"earlier)\s+(?:instructions?|prompts?|rules)\b",
    _I,
)
_EN_SYSTEM = re.compile(r"\bsystem\s+prompt\b|\bjailbreak(?:en)?\b|\bprompt\s+injection\b", _I)
_EN_PERSONA = re.compile(
    r"\byou\s+are\s+now\s+(?:in\s+\w+\s+mode\b|(?:a|an|the|my)\s+(?:\w+\s+){0,3}?(?:assistant|ai|chatbot|bot|model|"
    r"agent|persona|character)\b|dan\b|no\s+longer\b)"
    r"|\b(?:from\s+now\s+on|henceforth|starting\s+now),?\s+you\s+(?:are|will|must|shall|should)\b"
    r"|\bpretend\s+(?:to\s+be|you\s+are|that\s+you)\b|\brole-?play\s+as\b",
    _I,
)
# "act as" only as an order opening a sentence (LEAD) or after "you must": "the broker shall act as the agent" is
# an ordinary clause
_EN_ACT = re.compile(r"\b(?:you\s+(?:must|should|will|shall)\s+(?:now\s+)?)?act\s+as\s+(?:if|though|a|an|the|my)\b", _I)
# a dictated answer, as an imperative opening a sentence (or after "and"/"then"/"instead"/"always"/"just"); "answer
# that question" and "reply with your student number" are ordinary requests, so answer/respond/reply need "that"
# followed by a statement, or "with" followed by a quotation or "the following"
_EN_WITH = r"\s+with\s+(?:only\s+|exactly\s+)?(?:[\"“'‘]|the\s+following\b|this\s+(?:exact\s+)?(?:text|sentence|phrase|" \
           r"message)\b|the\s+(?:phrase|sentence|words|text)\b)"
_EN_THAT = r"\s+that\s+(?!question|questions|call|calls|e-?mail|letter|query|request|inquiry|form|notice|message)"
_EN_SAY = re.compile(
    r"\b(?:(?:say|state|tell\s+(?:the\s+)?(?:user|users|them|everyone|readers?|customers?|students?|people))"
    r"(?:\s+only)?(?:\s+that\b|\s*:|\s*[\"“]|\s+the\s+following\b)"
    r"|(?:answer|respond|reply|output|write)(?:\s+only)?(?:" + _EN_THAT + r"|" + _EN_WITH + r"|\s*:\s*[\"“]))",
    _I,
)
_EN_MUST_SAY = re.compile(
    r"\byou\s+(?:must|should|will|shall)\s+(?:always\s+|only\s+)?(?:say|answer|respond|reply|tell\s+(?:the\s+)?users?)"
    r"(?:\s+that\b|\s*:|" + _EN_WITH + r")",
    _I,
)
# what may stand before an order for it to open a sentence: a sentence end, a quote, "and", "then", and adverbs
_EN_LEAD = re.compile(r"(?:^|[.!?:;\n\"“(\[]|\band|\bthen)\s*(?:(?:please|instead,?|always|just|now|only|also)\s+)*$", _I)
_EN_MODE = re.compile(
    r"\b(?:developer|admin|administrator|debug|god|dan|unrestricted|maintenance)\s+mode\s+(?:is\s+|has\s+been\s+)?"
    r"(?:now\s+)?(?:enabled|activated|on|unlocked)\b"
    r"|\b(?:enable|activate|enter|switch\s+to|turn\s+on)\s+(?:the\s+)?(?:developer|admin|administrator|debug|god|dan|"
    r"unrestricted)\s+mode\b",
    _I,
)
_EN_ADDRESSED = re.compile(
    r"\b(?:note\s+to|attention|message\s+(?:to|for))\s+(?:the\s+|any\s+|all\s+)?(?:ai|llm|language\s+models?|"
    r"assistants?|chatbots?|gpt)\b"
    r"|\b(?:ai|llm|language\s+model|assistant|chatbot|gpt)s?\s+(?:reading|processing|summari[sz]ing|parsing)\s+this\b"
    r"|\bif\s+you\s+are\s+an?\s+(?:ai|llm|language\s+model|assistant|chatbot)\b"
    r"|\b(?:new|updated|real|actual|revised)\s+instructions?\s*:",
    _I,
)
# chat-template markup and role prompts opening a line
_ROLE = re.compile(
    r"<\|\s*(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id)\s*\|>"
    r"|\[/?INST\]|<</?SYS>>|<\s*/?\s*(?:system|instructions?|assistant)\s*>"
    r"|(?im:^[ \t>*#]*(?:assistant|(?:system|developer)\s*(?:message|prompt))\s*:)"
    # a bare "System:" is often a form label ("System: Library Catalogue"): only when it goes on to give orders
    r"|(?im:^[ \t>*#]*(?:system|developer)\s*:(?=\s*(?:you\b|너|당신|ignore\b|disregard\b|forget\b|from\s+now\b|"
    r"act\b|pretend\b|new\b|이전|앞의|모든|지금부터|이제부터)))"
    r"|(?im:^[ \t]*#{2,}\s*(?:system|instruction|instructions|response)\b)",
)
# a fence of the answer prompt inside a document: an attempt to close the quoted data early
_FENCE = re.compile(r"<\s*/?\s*document\b[^>]{0,80}>?", _I)

# (kind, pattern, words one of which the lowercased text must contain for the pattern to be tried, whether the
# match must open a sentence)
PATTERNS: tuple[tuple[str, re.Pattern, tuple[str, ...], bool], ...] = (
    ("override", _KO_OVERRIDE, ("무시", "잊", "따르지"), False),
    ("override", _EN_OVERRIDE, ("ignore", "disregard", "forget", "override", "bypass", "discard", "follow"), False),
    ("system_prompt", _KO_SYSTEM, ("시스템", "탈옥"), False),
    ("system_prompt", _EN_SYSTEM, ("prompt", "jailbreak"), False),
    ("persona", _KO_PERSONA, ("너", "당신", "넌", "니", "척", "처럼", "로서", "역할"), False),
    ("persona", _EN_PERSONA, ("you", "henceforth", "pretend", "role"), False),
    ("persona", _EN_ACT, ("act as",), True),
    ("directive", _KO_SAY, ("고", "같이"), False),
    ("directive", _EN_SAY, ("say", "state", "tell", "answer", "respond", "reply", "output", "write"), True),
    ("directive", _EN_MUST_SAY, ("you",), False),
    ("mode", _KO_MODE, ("모드",), False),
    ("mode", _EN_MODE, ("mode",), False),
    ("addressed", _KO_ADDRESSED, ("를",), False),
    ("addressed", _EN_ADDRESSED, ("ai", "llm", "model", "assistant", "chatbot", "gpt", "instruction"), False),
    ("addressed", _KO_NEW_ORDERS, ("새",), False),
    ("addressed", _KO_READER_ORDER, ("ai", "에이아이", "인공", "어시스턴트", "챗봇", "모델", "llm", "gpt"), False),
    ("addressed", _EN_READER_ORDER, ("ai", "assistant", "chatbot", "model", "llm", "gpt", "bot"), False),
    ("role", _ROLE, ("<", "[inst", "[/inst", "system", "assistant", "developer", "##"), False),
    ("fence", _FENCE, ("document",), False),
)


# -- passages ---------------------------------------------------------------------------------------------------

_SENT_END = re.compile(r"[.!?。](?=\s)|\n")
# a line that starts a new unit: heading, article, paragraph/item number, bullet, table row
_STRUCTURAL = re.compile(
    r"[ \t]*(?:#|제\s?\d+\s?(?:조|장|절|관|편)|[①-⑳]|\(?\d{1,3}[.)]\s|[가-하][.)]\s|[-*•□■○●◦▪·※>|]|"
    r"(?:Article|ARTICLE|Section|SECTION|Chapter|CHAPTER)\s+\d)"
)


def _passage_start(text: str, pos: int) -> int:
    """Start of the line the trigger at `pos` is on (what is dictated may come before the order: "…로 전화하세요.
    이렇게 답하세요."), at most MAX_PASSAGE // 2 characters before the trigger (then from a sentence start)."""
    start = text.rfind("\n", 0, pos) + 1
    floor = pos - MAX_PASSAGE // 2
    if start < floor:
        start = floor
        for m in _SENT_END.finditer(text, floor, pos):
            start = m.end()
            break
    while start < pos and text[start] in " \t\n":
        start += 1
    return start


def _passage_end(text: str, pos: int) -> int:
    """End of the paragraph the trigger at `pos` is in: the line's end, then following lines up to a blank line or a
    structural line; capped at MAX_PASSAGE characters from `pos`, cut at a sentence end when capped."""
    end = text.find("\n", pos)
    end = len(text) if end < 0 else end
    while end < len(text):
        nxt = text.find("\n", end + 1)
        nxt = len(text) if nxt < 0 else nxt
        line = text[end + 1 : nxt]
        if not line.strip() or _STRUCTURAL.match(line):
            break
        end = nxt
    if end - pos > MAX_PASSAGE:
        cap = pos + MAX_PASSAGE
        m = _SENT_END.search(text, cap)
        end = min(end, m.end() if m else end)
    return end


_INVISIBLE = frozenset("\u00ad\u180e\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2060\u2061"
                       "\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff")
_CONFUSABLES: dict[str, str] = _CUES["confusables"]


def normalised(text: str) -> tuple[str, list[int]]:
    """`text` as detection reads it (see the module docstring) and, for each of its characters, the offset of the
    original character it came from (plus one entry for the end)."""
    if text.isascii():
        return text, list(range(len(text) + 1))
    out: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        if ch in _INVISIBLE:
            continue
        for c in unicodedata.normalize("NFKC", _CONFUSABLES.get(ch, ch)):
            out.append(c)
            where.append(i)
    where.append(len(text))
    return "".join(out), where


def _triggers(text: str) -> list[tuple[str, int, int]]:
    """(kind, start, end) of every pattern match in (normalised) `text`, in pattern order."""
    lower = text.lower()
    found: list[tuple[str, int, int]] = []
    for kind, rx, words, opens in PATTERNS:
        if not any(w in lower for w in words):
            continue
        for m in rx.finditer(text):
            a, b = m.start(), m.end()
            if b == a or (opens and not (m.group(0).lower().startswith("you")
                                         or _EN_LEAD.search(text, max(0, a - 40), a))):
                continue
            while a < b and text[a].isspace():
                a += 1
            found.append((kind, a, b))
    return found


def detect_injections(text: str) -> list[InjectionSpan]:
    """Instruction-like passages in `text`, in order of their trigger (one per trigger; passages may overlap).
    Offsets are `text`'s; `phrase` is the trigger as read after normalisation."""
    if not text:
        return []
    norm, where = normalised(text)
    found: list[InjectionSpan] = []
    seen: set[tuple[int, int]] = set()
    for kind, a, b in _triggers(norm):
        if (a, b) in seen or any(s.phrase_start <= where[a] < s.phrase_start + s.phrase_len for s in found):
            continue
        seen.add((a, b))
        # the passage is read on the original: its line and item structure (②, ㈜) is what NFKC would flatten
        pa, pb = where[a], where[b]
        found.append(InjectionSpan(_passage_start(text, pa), _passage_end(text, pb), kind, norm[a:b].strip(), pa,
                                   pb - pa))
    found.sort(key=lambda s: (s.phrase_start, s.start))
    return found


@lru_cache(maxsize=4096)
def spans_of(text: str) -> tuple[InjectionSpan, ...]:
    """`detect_injections`, cached: the answer stage's prompt, filter and verifier read the same contexts, and
    contexts recur across questions and regenerations."""
    return tuple(detect_injections(text))


def passages(text: str, spans: list[InjectionSpan] | None = None) -> list[tuple[int, int]]:
    """The passages of `text` that instruction-like triggers govern, merged into sorted (start, end) ranges."""
    spans = detect_injections(text) if spans is None else spans
    merged: list[tuple[int, int]] = []
    for s in sorted(spans, key=lambda x: x.start):
        if merged and s.start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], s.end))
        else:
            merged.append((s.start, s.end))
    return merged


def without_injections(text: str, spans: list[InjectionSpan] | None = None) -> str:
    """`text` with every instruction-like passage blanked (same length: offsets stay valid; line breaks kept)."""
    out = list(text)
    for a, b in passages(text, spans):
        for i in range(a, b):
            if out[i] != "\n":
                out[i] = " "
    return "".join(out)
