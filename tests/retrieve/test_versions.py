"""The version of a document in force on a date is preferred; superseded versions follow and are marked."""

from __future__ import annotations

from geunkeo.corpus.base import Chunk, Document
from geunkeo.corpus.versions import doc_key_for, version_metadata
from geunkeo.retrieve.base import Hit
from geunkeo.retrieve.versions import IN_FORCE, NOT_YET, SUPERSEDED, prefer_in_force, superseded_cited


def _hit(doc_id: str, effective: str | None, score: float, key: str = "생활관 운영 규정") -> Hit:
    meta = {"doc_key": key, **({"effective_date": effective} if effective else {})}
    chunk = Chunk(f"{doc_id}#제7조", doc_id, key, "관리비는 …", f"{key} 제7조 ({doc_id})", metadata=meta)
    return Hit(chunk=chunk, score=score)


def test_doc_key_drops_version_words_but_keeps_what_names_the_document():
    assert doc_key_for("한빛대학교 학칙 (2024 개정)") == "한빛대학교 학칙"
    assert doc_key_for("한빛대학교 학칙 2024.3.1 개정") == "한빛대학교 학칙"
    assert doc_key_for("Student Handbook (revised)") == "Student Handbook"
    # a notice for another term is another document, not another version
    assert doc_key_for("2025학년도 1학기 휴학 신청 안내") == "2025학년도 1학기 휴학 신청 안내"
    assert doc_key_for("아무 제목", {"doc_key": "dorm-rules"}) == "dorm-rules"


def test_version_metadata_prefers_the_front_matters_effective_date():
    doc = Document("dorm", "생활관 운영 규정", "…", version="2025.1.10 개정", date="2025-01-10",
                   metadata={"front_matter": {"effective_date": "2025-03-01"}})
    assert version_metadata(doc) == {"doc_key": "생활관 운영 규정", "version": "2025.1.10 개정",
                                     "date": "2025-01-10", "effective_date": "2025-03-01"}
    assert "effective_date" not in version_metadata(Document("x", "제목", "…"))


def test_the_enforcement_date_of_the_addenda_is_the_effective_date():
    from geunkeo.corpus.versions import enforcement_date

    text = "제1조(목적) …\n부칙 <2020. 1. 2.>\n이 규정은 2020. 3. 1.부터 시행한다.\n부칙 <2025. 1. 10.>\n이 규정은 2025년 3월 1일부터 시행한다."
    assert enforcement_date(text) == "2025-03-01"
    assert enforcement_date("This policy takes effect on March 1, 2025.") == "2025-03-01"
    assert enforcement_date("시행 계획을 세운다.") is None
    doc = Document("dorm", "생활관 운영 규정", text, date="2025-01-10")
    assert version_metadata(doc)["effective_date"] == "2025-03-01"


def test_the_version_in_force_comes_first_and_the_old_one_is_marked():
    old, new = _hit("dorm-2024", "2024-03-01", 0.9), _hit("dorm", "2025-03-01", 0.8)
    other = _hit("hakchik", "2025-03-01", 0.7, key="학칙")
    out = prefer_in_force([old, other, new], as_of="2025-06-01")
    assert [h.chunk.doc_id for h in out] == ["hakchik", "dorm", "dorm-2024"]
    status = {h.chunk.doc_id: h.chunk.metadata.get("version_status") for h in out}
    assert status == {"hakchik": None, "dorm": IN_FORCE, "dorm-2024": SUPERSEDED}
    assert superseded_cited(out) == [old.chunk.location]
    assert "version_status" not in old.chunk.metadata  # the input hits are not changed


def test_asked_about_an_earlier_date_the_old_version_is_in_force():
    old, new = _hit("dorm-2024", "2024-03-01", 0.9), _hit("dorm", "2025-03-01", 0.8)
    out = prefer_in_force([new, old], as_of="2024-09-01")
    assert [(h.chunk.doc_id, h.chunk.metadata["version_status"]) for h in out] == [
        ("dorm-2024", IN_FORCE), ("dorm", NOT_YET)]


def test_a_single_version_or_undated_hits_are_left_alone():
    hits = [_hit("dorm", "2025-03-01", 0.9), _hit("notice", None, 0.5, key="공지")]
    assert prefer_in_force(hits, as_of="2025-06-01") == hits


def test_search_as_of_a_date_ranks_that_dates_version_first(tmp_path):
    import geunkeo
    from geunkeo.index.builder import build_index

    body = "제7조(보증금) 보증금은 {fee}으로 하며 퇴사 후 반환한다.\n\n부칙\n이 규정은 {y}년 3월 1일부터 시행한다."
    for name, fee, y in (("dorm-2024", "50,000원", 2024), ("dorm", "100,000원", 2025)):
        (tmp_path / f"{name}.md").write_text("---\ntitle: 생활관 운영 규정\nkind: regulation\n---\n"
                                             + body.format(fee=fee, y=y), encoding="utf-8")
    build_index([tmp_path], tmp_path / "idx", replace=True)
    idx = geunkeo.open_index(tmp_path / "idx")
    now = idx.search("생활관 보증금", k=2)
    then = idx.search("생활관 보증금", k=2, as_of="2024-09-01")
    assert now.hits[0].chunk.doc_id == "dorm" and then.hits[0].chunk.doc_id == "dorm-2024"
    assert then.hits[1].chunk.metadata["version_status"] == "not_yet_in_force"
    ans = geunkeo.ask("생활관 보증금은 얼마야?", idx, as_of="2024-09-01")
    assert "50,000원" in ans.sentences[0].text
