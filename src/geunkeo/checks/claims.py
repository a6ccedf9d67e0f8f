"""Answer → atomic claims.

Without an LLM: Kiwi sentence split, then a clause split on the connective endings -고, -며, -지만, -(으)나 and
on 그리고 / 또한 (English: ", and", ", but", "; ", ", which"). Each clause is rewritten as a full statement: the
connective becomes a declarative ending (분류되고 → 분류된다) and a clause without its own subject borrows the
sentence's topic (임플란트는 …). Citation markers [n] are stripped and kept on the claim.
With an LLM: the model decomposes the answer (JSON list); any LLM error falls back to the rule split, recorded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from geunkeo.checks.base import Claim
from geunkeo.errors import LLMBadOutput, LLMError
from geunkeo.text.analyzer import get_analyzer
from geunkeo.text.kiwi import get_kiwi
from geunkeo.text.patterns import HANGUL
from geunkeo.trace import Trace

CITATION = re.compile(r"\s*\[(\d+(?:\s*[,\-–]\s*\d+)*)\]")
_CONNECTIVES = {"고", "며", "으며", "지만", "으나", "나"}
_LEADING_ADVERBS = {"그리고", "또한", "또", "하지만", "그러나", "그런데", "다만"}
_ADJ_TAGS = {"VA", "VA-I", "VA-R", "XSA", "VCP", "VCN"}
_ALWAYS_DA = {"있", "없", "계시"}  # 있다/없다: never 있는다
_EN_SPLIT = re.compile(r"(?:,\s*(?:and|but)\s+|;\s+|,\s*which\s+)")
_EN_SUBJECT_START = re.compile(r"^(?:it|they|this|these|that|those|the|a|an|he|she|we|you|i|[A-Z][a-z]+)\b")

CLAIM_PROMPT_KO = (
    "다음 답변을 원자적 주장(atomic claim)으로 분해하세요. 각 주장은 하나의 사실만 담은 완전한 문장이어야 하며, "
    "대명사 대신 주어를 명시하세요. 인용 표시 [n]은 빼세요. JSON으로만 답하세요: {\"claims\": [\"...\", ...]}"
)
CLAIM_PROMPT_EN = (
    "Split the answer below into atomic claims. Each claim is one complete sentence stating a single fact, with "
    "its subject spelled out (no pronouns). Leave out citation markers [n]. Reply in JSON only: "
    "{\"claims\": [\"...\", ...]}"
)


@dataclass
class SplitSentence:
    """One answer sentence with its citation numbers and the claims taken from it."""

    text: str
    citations: list[int] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)


def strip_citations(text: str) -> tuple[str, list[int]]:
    """Remove [n] / [1, 2] / [1-3] markers; returns the clean text and the cited numbers in order."""
    nums: list[int] = []
    for m in CITATION.finditer(text):
        for part in re.split(r"\s*,\s*", m.group(1)):
            if re.search(r"[\-–]", part):
                a, b = (int(x) for x in re.split(r"\s*[\-–]\s*", part))
                nums.extend(range(a, b + 1))
            else:
                nums.append(int(part))
    clean = CITATION.sub("", text)
    clean = re.sub(r"\s+([.,!?])", r"\1", clean)
    return " ".join(clean.split()), list(dict.fromkeys(nums))


def _declarative(stem_surface: str, prev_tag: str, prev_form: str) -> str:
    """Close a clause cut before its connective ending: verbs take ㄴ다/는다, adjectives and past tense 다."""
    if prev_tag == "EP" or prev_tag in _ADJ_TAGS or prev_form in _ALWAYS_DA:
        return stem_surface + "다"
    last = stem_surface[-1] if stem_surface else ""
    if not ("가" <= last <= "힣"):
        return stem_surface + "다"
    code = ord(last) - 0xAC00
    jong = code % 28
    if jong == 0:  # open syllable: 되 → 된다
        return stem_surface[:-1] + chr(ord(last) + 4) + "다"
    if jong == 8:  # ㄹ-final: 만들 → 만든다
        return stem_surface[:-1] + chr(ord(last) - 8 + 4) + "다"
    return stem_surface + "는다"


_LIST_MARK = re.compile(r"^(?:[\u2460-\u2473]|\(\d{1,2}\)|\d{1,2}[.)](?!\d)|[가-하][.)])\s*")
_TRAILING_LIST_MARK = re.compile(r"\s+(?:[\u2460-\u2473]|\(\d{1,2}\))$")
_CITED_BREAK = re.compile(r"(?<=\])\s+(?=\S)")  # "… [2] next statement": a citation closes a statement


def _clean_clause(text: str) -> str:
    text = _TRAILING_LIST_MARK.sub("", _LIST_MARK.sub("", text.strip().strip(",").strip()))
    words = text.split()
    while words and words[0].rstrip(",") in _LEADING_ADVERBS:
        words = words[1:]
    return " ".join(words).rstrip(".!?。 ").strip()


def _korean_clauses(sentence: str) -> list[str]:
    tokens = get_kiwi().tokenize(sentence)
    cuts: list[tuple[int, int, str, str]] = []  # (clause end, next clause start, predicate tag, predicate form)
    for i, tok in enumerate(tokens):
        tag = str(tok.tag)
        if tag != "EC" or tok.form not in _CONNECTIVES or i == 0 or i + 1 >= len(tokens):
            continue
        nxt = tokens[i + 1]
        # -고 있다 / -고 싶다 (auxiliary) and -고는/-고도 (particle) keep one statement.
        if str(nxt.tag).startswith(("VX", "J", "E")):
            continue
        if all(str(t.tag).startswith(("S", "E")) for t in tokens[i + 1 :]):
            continue
        prev = tokens[i - 1]
        cuts.append((tok.start, tok.start + tok.len, str(prev.tag), prev.form))
    if not cuts:
        return [_clean_clause(sentence)]
    clauses: list[str] = []
    start = 0
    for end, nxt_start, prev_tag, prev_form in cuts:
        clauses.append(_clean_clause(_declarative(sentence[start:end].rstrip(), prev_tag, prev_form)))
        start = nxt_start
    clauses.append(_clean_clause(sentence[start:]))
    clauses = [c for c in clauses if c]
    return _carry_subject(clauses)


def _carry_subject(clauses: list[str]) -> list[str]:
    """Clauses after the first that have no topic/subject particle borrow the first clause's topic phrase."""
    if len(clauses) < 2:
        return clauses
    kiwi = get_kiwi()
    first = kiwi.tokenize(clauses[0])
    topic_end = next((t.start + t.len for t in first if str(t.tag) in {"JX", "JKS"} and t.form in
                      {"은", "는", "이", "가", "께서"}), None)
    if topic_end is None:
        return clauses
    topic = clauses[0][:topic_end].strip()
    out = [clauses[0]]
    for c in clauses[1:]:
        has_subject = any(str(t.tag) in {"JX", "JKS"} and t.form in {"은", "는", "이", "가", "께서"}
                          for t in kiwi.tokenize(c))
        out.append(c if has_subject else f"{topic} {c}")
    return out


def _english_clauses(sentence: str) -> list[str]:
    parts = _EN_SPLIT.split(sentence)
    seps = _EN_SPLIT.findall(sentence)
    out = [parts[0]]
    for sep, part in zip(seps, parts[1:], strict=True):
        part = part.strip()
        if "which" in sep:
            out.append("This " + part)
        elif _EN_SUBJECT_START.match(part) and len(part.split()) >= 3:
            out.append(part[0].upper() + part[1:])
        else:  # "A, and B" where B has no subject: keep it with the previous clause
            out[-1] = out[-1] + sep + part
    return [c for c in (_clean_clause(x) for x in out) if c]


# an extractive answer quotes a list as one sentence: "…다음 각 호와 같다: (1) A; (2) B" (answer/extractive.py)
_LIST_START = re.compile(r":\s*\(1\)\s+")
_LIST_ITEM = re.compile(r";\s*\(\d{1,2}\)\s+")


def clauses_of(sentence: str) -> list[str]:
    """Rule-based clauses of one sentence, each a full statement (citations already stripped); a quoted list
    gives its lead-in's clauses and one claim per item."""
    m = _LIST_START.search(sentence)
    if m:
        lead, items = sentence[: m.start()], _LIST_ITEM.split(sentence[m.end():])
        return [*clauses_of(lead), *(c for c in (_clean_clause(i) for i in items) if c)]
    return _korean_clauses(sentence) if HANGUL.search(sentence) else _english_clauses(sentence)


def _raw_sentences(text: str) -> list[str]:
    parts = [p for block in _CITED_BREAK.split(text) for p in get_analyzer().sentences(block)]
    # A lone marker the splitter left behind belongs to the sentence before it.
    out: list[str] = []
    for p in parts:
        if out and CITATION.fullmatch(" " + p.strip().rstrip(".")):
            out[-1] += " " + p.strip()
        else:
            out.append(p)
    return out


def split_sentences(text: str) -> list[SplitSentence]:
    """Sentences of an answer (citations stripped) with their rule-based clauses."""
    out: list[SplitSentence] = []
    for raw in _raw_sentences(text):
        clean, cites = strip_citations(raw)
        if not clean:
            continue
        out.append(SplitSentence(clean, cites, [c for c in clauses_of(clean) if c]))
    return out


def rule_claims(text: str, source: str = "answer") -> list[Claim]:
    """Claims by sentence + clause split; each remembers its sentence index and cited context numbers."""
    claims: list[Claim] = []
    for si, sent in enumerate(split_sentences(text)):
        for clause in sent.clauses:
            claims.append(Claim(
                claim_id=f"{source[0]}{len(claims) + 1}", text=clause, source=source, method="kiwi-clause-split",
                checks={"sentence_index": si, "sentence": sent.text, "citations": sent.citations},
            ))
    return claims


def llm_claims(text: str, llm, lang: str = "ko", source: str = "answer", trace: Trace | None = None) -> list[Claim]:
    """Claims decomposed by an LLM; on any LLM error the rule split is used and the fallback recorded."""
    from geunkeo.llm.base import Message
    from geunkeo.llm.calls import complete_traced
    from geunkeo.llm.parsing import extract_json

    trace = trace if trace is not None else Trace()
    clean, _ = strip_citations(text)
    prompt = CLAIM_PROMPT_KO if lang == "ko" else CLAIM_PROMPT_EN
    try:
        out = complete_traced(llm, [Message("system", prompt), Message("user", clean)], trace=trace,
                              feature="evaluate.claims", json=True)
        value = extract_json(out.text)
        items = value.get("claims") if isinstance(value, dict) else value
        if not isinstance(items, list) or not all(isinstance(t, str) for t in items) or not items:
            raise LLMBadOutput(f"expected {{\"claims\": [strings]}}, got {out.text[:80]!r}")
    except LLMError as e:
        trace.warn(f"LLM claim decomposition failed ({e}); used the Kiwi clause split")
        trace.decide("evaluate.claims", "fallback to kiwi-clause-split", error=str(e))
        return rule_claims(text, source)
    method = f"llm:{getattr(llm, 'provider', 'llm')}/{getattr(llm, 'model', '')}"
    trace.decide("evaluate.claims", "llm decomposition", method=method, n=len(items))
    return [Claim(claim_id=f"{source[0]}{i + 1}", text=_clean_clause(t), source=source, method=method)
            for i, t in enumerate(items) if _clean_clause(t)]


def extract_claims(text: str, llm=None, lang: str = "ko", source: str = "answer",
                   trace: Trace | None = None) -> list[Claim]:
    """Atomic claims of `text`: LLM decomposition when `llm` is given, else the Kiwi clause split."""
    if not text or not text.strip():
        return []
    if llm is not None:
        return llm_claims(text, llm, lang, source, trace)
    return rule_claims(text, source)
