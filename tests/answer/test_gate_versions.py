"""The gate warns when an answer cites a version of a document that is not in force, and its retrieval confidence
reads only the versions in force."""

from __future__ import annotations

import pytest

from geunkeo.answer.base import Answer, AnswerSentence, Citation
from geunkeo.answer.gate import SUPERSEDED_CITED, decide, retrieval_confidence
from geunkeo.config import AnswerSettings
from geunkeo.corpus.base import Chunk
from geunkeo.retrieve.base import Hit
from geunkeo.retrieve.versions import prefer_in_force


def _hits() -> list[Hit]:
    def hit(doc_id: str, effective: str, score: float, fee: str) -> Hit:
        chunk = Chunk(f"{doc_id}#제7조", doc_id, "생활관 운영 규정", f"제7조(관리비) ① 2인실 관리비는 {fee}이다.",
                      f"생활관 운영 규정 제7조(관리비) [{effective}]",
                      metadata={"doc_key": "생활관 운영 규정", "effective_date": effective})
        return Hit(chunk, score, ranks={"bm25": 1, "dense": 1})

    return prefer_in_force([hit("dorm-2024", "2024-03-01", 0.9, "1,420,000원"),
                            hit("dorm", "2025-03-01", 0.8, "1,480,000원")], as_of="2025-06-01")


def _answer(cited_n: int) -> Answer:
    hits = _hits()
    sent = AnswerSentence("2인실 관리비는 정해져 있다.", [Citation(cited_n, hits[cited_n - 1].chunk_id, "")])
    return Answer(query="2인실 관리비", text="", lang="ko", sentences=[sent], contexts=hits)


def test_citing_the_version_in_force_is_answered():
    gate = decide(_answer(1), AnswerSettings(), can_regenerate=False, confidence=(0.9, {}))
    assert gate.action == "answer" and gate.checks["superseded_cited"] == 0.0


def test_citing_a_superseded_version_warns_and_names_it():
    gate = decide(_answer(2), AnswerSettings(), can_regenerate=False, confidence=(0.9, {}))
    assert gate.action == "warn"
    assert gate.reasons == [f"{SUPERSEDED_CITED}: 생활관 운영 규정 제7조(관리비) [2024-03-01] is not the version in force"]


def _fused_with_the_old_version_first() -> list[Hit]:
    """The 2024 text ranked first by both retrievers (fused score 1.0), the 2025 text second."""
    def hit(doc_id: str, key: str, effective: str | None, score: float, bm25: int, dense: int) -> Hit:
        meta = {"doc_key": key, "effective_date": effective} if effective else {}
        chunk = Chunk(f"{doc_id}#c", doc_id, key, f"{key}의 벌점 기준", f"{key} [{effective}]", metadata=meta)
        return Hit(chunk, score, ranks={"bm25": bm25, "dense": dense})

    return [hit("rule-2024", "생활관 규정", "2024-03-01", 1.0, 1, 1), hit("rule", "생활관 규정", "2025-03-01", 0.86, 2, 2),
            hit("notice", "입사 안내", None, 0.78, 4, 4), hit("guide", "생활 안내", None, 0.76, 5, 3),
            hit("faq", "자주 묻는 질문", None, 0.73, 3, 10)]


def test_confidence_sets_aside_a_superseded_version_ranked_above_the_text_in_force():
    # prefer_in_force moves the superseded text after the in-force hits, its score and ranks unchanged
    hits = prefer_in_force(_fused_with_the_old_version_first(), as_of="2025-06-01")
    assert hits[-1].chunk.metadata["version_status"] == "superseded"
    _, parts = retrieval_confidence("Dormitory penalty points", hits)  # English: ranks and margin only
    # the text in force is both retrievers' first once the old version is not counted; margin over the in-force
    # scores in order (0.86 − 0.78) / (0.86 − 0.73), not (0.86 − 0.78) / (0.86 − 1.0) < 0
    assert parts["agreement"] == 1.0
    assert parts["margin"] == pytest.approx(0.08 / 0.13, abs=1e-3)


def test_confidence_of_only_versions_not_yet_in_force_reads_them():
    hits = prefer_in_force(_fused_with_the_old_version_first()[:2], as_of="2020-01-01")
    assert {h.chunk.metadata["version_status"] for h in hits} == {"not_yet_in_force"}
    conf, parts = retrieval_confidence("Dormitory penalty points", hits)
    assert conf > 0 and parts["agreement"] == 1.0
