"""Milvus store (Milvus Lite here): same scores as the embedded store, generations, incremental updates."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pymilvus")
pytest.importorskip("milvus_lite")

import geunkeo  # noqa: E402
from geunkeo.config import Settings  # noqa: E402
from geunkeo.corpus.base import Chunk  # noqa: E402
from geunkeo.index.builder import build_index, delete_documents  # noqa: E402
from geunkeo.index.manifest import current_generation, read_manifest  # noqa: E402
from geunkeo.index.stores.embedded import EmbeddedStore  # noqa: E402
from geunkeo.index.stores.milvus import MilvusStore, bm25_doc_weights  # noqa: E402

pytestmark = pytest.mark.slow

TERMS = [["휴학", "신청", "학기"], ["휴학", "기간", "통산", "학기", "학기"], ["등록금", "납부", "기간"], [],
         ["복학", "신청"]]


def _chunks() -> list[Chunk]:
    return [Chunk(chunk_id=f"d{i // 2}#s{i}", doc_id=f"d{i // 2}", text=" ".join(t) or "빈 조문", title=f"문서 {i // 2}",
                  location=f"문서 {i // 2} s{i}", lang="ko") for i, t in enumerate(TERMS)]


def _vectors(n: int, dim: int = 8) -> np.ndarray:
    v = np.random.default_rng(7).normal(size=(n, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def test_bm25_weights_match_bm25s_scores(tmp_path):
    """Inner product of query weights and stored doc weights = bm25s' (Lucene) BM25 score, per chunk."""
    emb = EmbeddedStore(8)
    emb.upsert(_chunks(), TERMS, _vectors(len(TERMS)))
    vocab, docs = bm25_doc_weights(TERMS)
    weights = {"휴학": 1.0, "학기": 0.5, "기간": 0.2}
    ours = np.array([sum(w * d.get(vocab[t][0], 0.0) for t, w in weights.items()) for d in docs])
    assert np.allclose(ours, emb.sparse_scores(list(weights), weights), atol=1e-5)
    assert ours[1] > ours[0] > 0 and ours[4] == 0


def test_store_round_trip_matches_embedded(tmp_path):
    idx_dir = tmp_path / "idx"
    chunks, vecs = _chunks(), _vectors(len(TERMS))
    emb = EmbeddedStore(8)
    emb.upsert(chunks, TERMS, vecs)
    mil = MilvusStore(8)
    mil.upsert(chunks, TERMS, vecs)
    mil.set_titles({"d0": "문서 0", "d1": "문서 1"}, vecs[:2])
    gen = idx_dir / "gen-000001"
    mil.save(gen)
    again = MilvusStore.load(gen)
    assert again.stats().chunks == 5 and again.stats().documents == 3 and again.stats().extra["langs"] == {"ko": 5}
    w = {"휴학": 1.0, "기간": 0.5}
    got = again.search_sparse(list(w), 5, w)
    want = emb.search_sparse(list(w), 5, w)
    assert [s.chunk_id for s in got] == [s.chunk_id for s in want]
    assert np.allclose([s.score for s in got], [s.score for s in want], atol=1e-4)
    assert [s.chunk_id for s in again.search_dense(vecs[2], 3)] == [s.chunk_id for s in emb.search_dense(vecs[2], 3)]
    assert np.allclose(again.dense_scores(vecs[2]), emb.dense_scores(vecs[2]), atol=1e-5)
    assert again.search_titles(vecs[1], 1)[0][0] == "d1"
    assert again.get("d1#s2").text == "등록금 납부 기간" and again.chunk_terms("d1#s2") == TERMS[2]
    assert again.search_sparse(["없는말"], 5) == []
    # both stores tell the answer stage how rare a term is, alike
    terms = ["휴학", "기간", "없는말"]
    assert again.term_rarity(terms) == pytest.approx(emb.term_rarity(terms))


REG = """---
title: 시험대학교 학칙
kind: regulation
---
## 제2장 학적
제7조(휴학) ① 학생은 질병이나 군 입대로 휴학할 수 있다.
② 휴학 기간은 통산 3년을 넘을 수 없다.
제8조(복학) 휴학 기간이 끝난 학생은 다음 학기 개시 전에 복학원을 제출하여야 한다.
"""
NOTICE = "# 2025학년도 1학기 등록금 납부 안내\n\n2025년 2월 20일부터 2월 26일까지 등록금을 납부한다.\n"


def test_build_search_update_delete_through_the_index(tmp_path, monkeypatch):
    monkeypatch.setenv("GEUNKEO_HOME", str(tmp_path / "home"))
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "hakchik.md").write_text(REG, encoding="utf-8")
    (docs / "notice.md").write_text(NOTICE, encoding="utf-8")
    idx = tmp_path / "idx"
    settings = Settings(index={"store": "milvus"})
    build_index([docs], idx, settings, replace=True)
    assert read_manifest(idx).store == "milvus" and (idx / "milvus.db").exists()
    # opened with default settings: the manifest says which store wrote the index
    res = geunkeo.open_index(idx).search("휴학 기간은 얼마나 돼?", k=3)
    assert res.hits[0].chunk_id == "hakchik#제7조" and "bm25" in res.hits[0].ranks and "dense" in res.hits[0].ranks

    (docs / "hakchik.md").write_text(REG.replace("통산 3년", "통산 4년"), encoding="utf-8")
    rep = build_index([docs], idx)
    assert rep.added_or_updated == ["hakchik"] and rep.chunks == read_manifest(idx).chunks
    store = MilvusStore.load(current_generation(idx))
    assert "통산 4년" in store.get("hakchik#제7조").text
    assert delete_documents(idx, ["notice"]) == 1
    store = MilvusStore.load(current_generation(idx))
    assert {c.doc_id for c in store.chunks()} == {"hakchik"}
    # the live and the previous generation keep their collections; older ones go at the next build
    first = sorted((idx / "milvus-collections.txt").read_text(encoding="utf-8").split())
    assert len(first) == 6 and store._state["collection"] in first
    assert delete_documents(idx, ["no-such-doc"]) == 0
    owned = set((idx / "milvus-collections.txt").read_text(encoding="utf-8").split())
    assert len(owned) == 6 and len(set(first) - owned) == 2
    assert not any(store._db.has_collection(name) for name in set(first) - owned)


def test_killed_build_leaves_previous_milvus_index_searchable(tmp_path, monkeypatch):
    import os
    import subprocess
    import sys

    from geunkeo.index.stores.milvus import close_clients

    monkeypatch.setenv("GEUNKEO_HOME", str(tmp_path / "home"))
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "hakchik.md").write_text(REG, encoding="utf-8")
    idx = tmp_path / "idx"
    build_index([docs], idx, Settings(index={"store": "milvus"}), replace=True)
    close_clients()  # the Milvus Lite file is handed to the child process
    (docs / "notice.md").write_text(NOTICE, encoding="utf-8")
    code = f"from geunkeo.index.builder import build_index; build_index([{str(docs)!r}], {str(idx)!r})"
    env = dict(os.environ, GEUNKEO_FAULT="after_store_save")
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, timeout=300)
    assert proc.returncode == -9, proc.stderr.decode()[-2000:]
    assert read_manifest(idx).documents == 1
    res = geunkeo.open_index(idx).search("휴학 기간", k=3)
    assert [h.chunk.doc_id for h in res.hits] == ["hakchik", "hakchik"]
    rep = build_index([docs], idx)  # the next build publishes and drops the killed build's collections
    assert rep.documents == 2
    owned = (idx / "milvus-collections.txt").read_text(encoding="utf-8").split()
    assert len(owned) == 4
