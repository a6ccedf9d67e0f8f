import numpy as np
import pytest

from geunkeo.corpus.base import Chunk
from geunkeo.errors import IndexError_
from geunkeo.index.stores.embedded import EmbeddedStore


def _chunk(doc, n, text):
    return Chunk(chunk_id=f"{doc}#제{n}조", doc_id=doc, title=doc, text=text, location=f"{doc} 제{n}조")


def _vec(i, dim=8):
    v = np.zeros(dim, dtype=np.float32)
    v[i % dim] = 1.0
    return v


def _store():
    s = EmbeddedStore(8)
    chunks = [_chunk("a", 1, "휴학"), _chunk("a", 2, "복학"), _chunk("b", 1, "장학금")]
    s.upsert(chunks, [["휴학", "신청"], ["복학"], ["장학금", "신청"]], np.stack([_vec(0), _vec(1), _vec(2)]))
    s.set_titles({"a": "학칙", "b": "장학 규정"}, np.stack([_vec(3), _vec(4)]))
    return s


def test_sparse_dense_and_title_search():
    s = _store()
    assert [r.chunk_id for r in s.search_sparse(["휴학"], 5)] == ["a#제1조"]
    assert {r.chunk_id for r in s.search_sparse(["신청"], 5)} == {"a#제1조", "b#제1조"}
    assert s.search_dense(_vec(1), 1)[0].chunk_id == "a#제2조"
    assert s.search_titles(_vec(4), 1)[0][0] == "b"


def test_weighted_terms_change_ranking():
    s = _store()
    down = s.search_sparse(["휴학", "장학금"], 5, {"휴학": 0.1, "장학금": 1.0})
    assert down[0].chunk_id == "b#제1조"
    up = s.search_sparse(["휴학", "장학금"], 5, {"휴학": 1.0, "장학금": 0.1})
    assert up[0].chunk_id == "a#제1조"


def test_upsert_replaces_document_and_delete_removes(tmp_path):
    s = _store()
    s.upsert([_chunk("a", 9, "졸업")], [["졸업"]], np.stack([_vec(5)]))
    assert sorted(c.chunk_id for c in s.chunks()) == ["a#제9조", "b#제1조"]
    assert s.delete_documents(["b"]) == 1
    assert s.search_sparse(["장학금"], 5) == []
    assert s.stats().documents == 1


def test_save_load_round_trip(tmp_path):
    s = _store()
    s.save(tmp_path / "g")
    t = EmbeddedStore.load(tmp_path / "g")
    assert [c.chunk_id for c in t.chunks()] == [c.chunk_id for c in s.chunks()]
    assert t.search_sparse(["복학"], 3)[0].chunk_id == "a#제2조"
    assert t.search_dense(_vec(2), 1)[0].chunk_id == "b#제1조"
    assert t.get("a#제1조").text == "휴학"
    with pytest.raises(IndexError_):
        t.get("nope")


class _CountingEmbedder:
    name, dim, version = "count", 2, "count-1"

    def __init__(self):
        self.seen = []

    def embed_passages(self, texts):
        self.seen.extend(texts)
        return np.asarray([[len(t), 1.0] for t in texts], dtype=np.float32)

    embed_queries = embed_passages


def test_embedding_cache_embeds_repeated_texts_once(tmp_path):
    from geunkeo.index.embed_cache import CachedEmbedder

    inner = _CountingEmbedder()
    emb = CachedEmbedder(inner, str(tmp_path / "c.sqlite"))
    v = emb.embed_passages(["규정", "규정", "학칙", "규정"])
    assert inner.seen == ["규정", "학칙"]
    assert v[:, 0].tolist() == [2.0, 2.0, 2.0, 2.0] and emb.misses == 4
    emb.embed_passages(["학칙"])
    assert inner.seen == ["규정", "학칙"] and emb.hits == 1


def test_term_rarity_is_bm25_idf_scaled_to_a_term_no_chunk_holds():
    s = _store()
    rarity = s.term_rarity(["휴학", "신청", "없는말"])
    assert rarity["없는말"] == 1.0
    assert 0.0 < rarity["신청"] < rarity["휴학"] < 1.0  # in two chunks of three, in one
    assert EmbeddedStore(8).term_rarity(["휴학"]) == {}  # an empty store cannot tell
