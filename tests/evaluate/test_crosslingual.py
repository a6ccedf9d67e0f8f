"""Cross-lingual pairs: same-documents rate, document overlap and claim-set equivalence, by hand."""

from __future__ import annotations

from geunkeo.evaluate.base import Claim
from geunkeo.evaluate.crosslingual import crosslingual_summary, find_pairs
from geunkeo.evaluate.records import CaseRecord


def _rec(qid, lang, pid, docs, answer):  # a record as older runs wrote it: only the keys this reads
    return CaseRecord.from_dict({"query_id": qid, "query_language": lang, "parallel_id": pid,
            "retrieval": {"retrieved_docs": [{"doc_id": d, "ranks": [i + 1]} for i, d in enumerate(docs)]},
            "response": {"response_text": answer}})


# A fake checker: a claim (one per sentence) is supported when the other text contains its number.
def _checker(text, contexts):
    other = contexts[0][1]
    out = []
    for i, sent in enumerate(s for s in text.split(".") if s.strip()):
        digits = "".join(ch for ch in sent if ch.isdigit())
        out.append(Claim(f"c{i + 1}", sent.strip(), supported=bool(digits) and digits in other))
    return out


RECORDS = [
    _rec("k1", "ko", "p1", ["hakchik", "notice", "policy"], "휴학은 6학기까지. 신청은 30일 전."),
    _rec("e1", "en", "p1", ["hakchik", "rules"], "Leave up to 6 semesters. Apply 30 days ahead."),
    _rec("k2", "ko", "p2", ["policy"], "면책 20%."),
    _rec("e2", "en", "p2", ["rules"], "Deductible 10%."),
    _rec("k3", "ko", "p3", ["a"], None),  # no answer: claim comparison not possible
    _rec("e3", "en", "p3", ["a"], "x 1."),
    _rec("k4", "ko", "p4", ["a"], "y 1."),  # two Korean versions, no English: not a pair
    _rec("k4b", "ko", "p4", ["a"], "y 1."),
    _rec("solo", "ko", None, ["a"], "z."),
]


def test_find_pairs_needs_one_per_language():
    assert [(p, k.query_id, e.query_id) for p, k, e in find_pairs(RECORDS)] == [
        ("p1", "k1", "e1"), ("p2", "k2", "e2"), ("p3", "k3", "e3")]


def test_rates_by_hand():
    s = crosslingual_summary(RECORDS, _checker, "test checker")
    assert s.pairs == 3
    # top-1 equal: p1 yes (hakchik), p2 no, p3 yes → 2/3
    assert s.same_documents_rate == 2 / 3
    # Jaccard: p1 {hakchik,notice,policy} vs {hakchik,rules} = 1/4; p2 0/2 = 0; p3 1/1 → (0.25 + 0 + 1) / 3
    assert abs(s.mean_doc_overlap - 1.25 / 3) < 1e-12
    # p1: all 4 claims matched → equivalent; p2: 20 vs 10 → 0 of 2; p3 not comparable
    assert s.claim_set_equivalence_rate == 0.5
    assert s.mean_claim_equivalence == 0.5
    assert s.pairs_without_claim_comparison == 1
    p2 = s.details[1]
    assert p2.equivalent is False and p2.unmatched_claims == ["면책 20%", "Deductible 10%"]
    assert s.details[2].claim_equivalence is None


def test_without_checker_claims_are_not_computed():
    s = crosslingual_summary(RECORDS, None, "unused")
    assert s.claim_set_equivalence_rate is None and s.method["claim_set"].startswith("not computed")
    assert s.same_documents_rate == 2 / 3
