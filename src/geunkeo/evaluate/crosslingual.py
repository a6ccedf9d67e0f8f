"""Cross-lingual (CLIR) evaluation of ko/en question pairs (seed 003 §5.2).

Cases sharing a `parallel_id`, one Korean and one English, form a pair. Two questions per pair:
1. Do both versions retrieve the same documents? `same_top1` — the top-ranked document is the same;
   `doc_overlap` — Jaccard overlap of the distinct document ids in the top k.
2. Are the final answers' claim sets equivalent? Each answer's claims are checked against the other answer's
   text with the project's claim-support checker (the same one faithfulness uses; multilingual embeddings plus
   entity and polarity checks). `claim_equivalence` is the share of all claims of both answers that the other
   answer supports; a pair is `equivalent` when every claim in both directions is supported.
A pair missing an answer has claim fields None (counted, never scored as 0 or 1).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence

from geunkeo.checks.claims import strip_citations
from geunkeo.evaluate.base import Claim
from geunkeo.evaluate.records import CaseRecord
from geunkeo.evaluate.summary_records import Crosslingual, PairResult

# (answer_text, [(context_id, context_text)]) -> checked claims of answer_text
ClaimChecker = Callable[[str, Sequence[tuple[str, str]]], list[Claim]]


def find_pairs(records: Sequence[CaseRecord]) -> list[tuple[str, CaseRecord, CaseRecord]]:
    """(parallel_id, ko record, en record) for every parallel id with exactly one case per language."""
    groups: dict[str, dict[str, list[CaseRecord]]] = defaultdict(lambda: defaultdict(list))
    for r in records:
        if r.parallel_id:
            groups[str(r.parallel_id)][r.query_language].append(r)
    out = []
    for pid in sorted(groups):
        g = groups[pid]
        if len(g.get("ko", [])) == 1 and len(g.get("en", [])) == 1:
            out.append((pid, g["ko"][0], g["en"][0]))
    return out


def _doc_ranking(record: CaseRecord) -> list[str]:
    docs = record.retrieval.retrieved_docs
    return [d.doc_id for d in sorted(docs, key=lambda d: d.best_rank or 10**9)]


def _directional(checker: ClaimChecker, text: str, other: str, tag: str) -> tuple[int, list[str], int]:
    claims = [c for c in checker(text, [(tag, other)]) if c.source == "answer"]
    return sum(1 for c in claims if c.supported), [c.text for c in claims if not c.supported], len(claims)


def compare_pair(pid: str, ko: CaseRecord, en: CaseRecord, checker: ClaimChecker | None) -> PairResult:
    """Same-documents and claim-set equivalence for one pair of claim-log records."""
    a, b = _doc_ranking(ko), _doc_ranking(en)
    res = PairResult(pid, ko.query_id, en.query_id, None, None)
    if a and b:
        res.same_top1 = a[0] == b[0]
        res.doc_overlap = len(set(a) & set(b)) / len(set(a) | set(b))
    # without the citation markers: "[2]" in one answer and "[1]" in the other number different hit lists, and
    # the marked sentences would be embedded again beside the clean ones the metrics already embedded
    ta, tb = (strip_citations(r.response.response_text or "")[0] for r in (ko, en))
    if checker is not None and ta and tb:
        ok_a, miss_a, n_a = _directional(checker, ta, tb, f"{en.query_id}:answer")
        ok_b, miss_b, n_b = _directional(checker, tb, ta, f"{ko.query_id}:answer")
        if n_a + n_b:
            res.claim_equivalence = (ok_a + ok_b) / (n_a + n_b)
            res.equivalent = not miss_a and not miss_b
            res.unmatched_claims = miss_a + miss_b
    return res


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def crosslingual_summary(records: Sequence[CaseRecord], checker: ClaimChecker | None,
                         method: str) -> Crosslingual:
    """Pair-level results and rates for the run summary (rates over the pairs where they were computable)."""
    pairs = [compare_pair(pid, ko, en, checker) for pid, ko, en in find_pairs(records)]
    top1 = [p.same_top1 for p in pairs if p.same_top1 is not None]
    overlap = [p.doc_overlap for p in pairs if p.doc_overlap is not None]
    # (claim sets equivalent, claim equivalence) of the pairs whose claims were compared (both are set together)
    equiv = [(p.equivalent, p.claim_equivalence) for p in pairs
             if p.equivalent is not None and p.claim_equivalence is not None]
    return Crosslingual(
        pairs=len(pairs),
        same_documents_rate=_mean([float(x) for x in top1]),
        mean_doc_overlap=_mean(overlap),
        claim_set_equivalence_rate=_mean([float(same) for same, _ in equiv]),
        mean_claim_equivalence=_mean([share for _, share in equiv]),
        pairs_without_claim_comparison=len(pairs) - len(equiv),
        method={"same_documents": "top-1 document id equal; overlap = Jaccard of top-k document ids",
                "claim_set": method if checker else "not computed (no claim checker)"},
        details=pairs,
    )
