"""The gate warns when an answer cites a version of a document that is not in force."""

from __future__ import annotations

from geunkeo.answer.base import Answer, AnswerSentence, Citation
from geunkeo.answer.gate import SUPERSEDED_CITED, decide
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
