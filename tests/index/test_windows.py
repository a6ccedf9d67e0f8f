import numpy as np
import pytest

from geunkeo.corpus.base import Chunk
from geunkeo.errors import IndexError_
from geunkeo.index.stores.embedded import EmbeddedStore
from geunkeo.index.windows import chunk_windows, mean_vectors, split_windows


def _vec(*hot, dim=8):
    v = np.zeros(dim, dtype=np.float32)
    v[list(hot)] = 1.0
    return v / np.linalg.norm(v)


def _chunk(doc, n, text):
    return Chunk(chunk_id=f"{doc}#{n}", doc_id=doc, title=f"{doc} 규정", text=text, location=f"제{n}조")


def test_short_text_is_one_window_and_long_text_is_packed_whole_sentences():
    assert split_windows("휴학은 2년까지 가능하다.", 300) == ["휴학은 2년까지 가능하다."]
    text = " ".join(f"제{i}항의 내용은 이러하다." for i in range(40))
    windows = split_windows(text, 60)
    assert len(windows) > 5 and all(len(w) <= 60 for w in windows)
    assert all(w.endswith("이러하다.") for w in windows)
    assert " ".join(windows) == text


def test_a_sentence_longer_than_a_window_is_cut_not_lost():
    text = "가" * 50 + " " + "나" * 200
    windows = split_windows(text, 80)
    assert all(len(w) <= 80 for w in windows)
    assert "".join(windows).replace(" ", "") == text.replace(" ", "")


def test_windows_after_the_first_carry_the_chunks_heading():
    chunk = _chunk("학칙", 1, "첫 문장이다. " * 30 + "마지막 문장에 등록금 환불 기준이 있다.")
    windows = chunk_windows(chunk, 100)
    assert windows[0].startswith("학칙 규정")
    assert all(w.startswith("학칙 규정") for w in windows[1:])
    assert "등록금 환불" in windows[-1]


def test_mean_vectors_averages_each_chunks_windows():
    vecs = np.stack([_vec(0), _vec(1), _vec(2)])
    out = mean_vectors(vecs, [0, 0, 1], 2)
    assert np.allclose(out[0], _vec(0, 1)) and np.allclose(out[1], _vec(2))


def _store_with_windows():
    s = EmbeddedStore(8)
    chunks = [_chunk("a", 1, "x"), _chunk("a", 2, "y"), _chunk("b", 1, "z")]
    s.upsert(chunks, [["x"], ["y"], ["z"]], np.stack([_vec(0), _vec(1), _vec(2)]))
    # a#1's own vector points at 0, but one of its windows at 5: it is found by that window
    s.upsert_windows(["a#2", "a#1", "a#1", "b#1"], np.stack([_vec(1), _vec(0), _vec(5), _vec(2)]))
    return s


def test_a_chunk_scores_by_its_best_window():
    s = _store_with_windows()
    assert s.search_dense(_vec(5), 1)[0].chunk_id == "a#1"
    assert np.allclose(s.dense_scores(_vec(1)), [0.0, 1.0, 0.0])


def test_a_chunk_without_windows_scores_by_its_own_vector():
    s = EmbeddedStore(8)
    s.upsert([_chunk("a", 1, "x"), _chunk("b", 1, "z")], [["x"], ["z"]], np.stack([_vec(0), _vec(2)]))
    assert np.allclose(s.dense_scores(_vec(2)), [0.0, 1.0])  # no windows at all
    s.upsert_windows(["a#1"], np.stack([_vec(5)]))
    assert np.allclose(s.dense_scores(_vec(5)), [1.0, 0.0])  # a#1 by its window
    assert np.allclose(s.dense_scores(_vec(2)), [0.0, 1.0])  # b#1, without windows, by its own vector
    with pytest.raises(ValueError, match="not in the store"):
        s.upsert_windows(["c#1"], np.stack([_vec(1)]))


def test_windows_follow_replaced_and_deleted_documents_and_survive_save_and_load(tmp_path):
    s = _store_with_windows()
    s.upsert([_chunk("a", 3, "w")], [["w"]], np.stack([_vec(3)]))
    assert s.dense_scores(_vec(5)).max() == 0.0  # a's windows went with a's chunks
    assert np.allclose(s.dense_scores(_vec(3)), [0.0, 1.0])  # a#3 (after b#1), no window yet: its own vector
    s.upsert_windows(["a#3"], np.stack([_vec(6)]))
    s.save(tmp_path / "g")
    t = EmbeddedStore.load(tmp_path / "g")
    assert t.search_dense(_vec(6), 1)[0].chunk_id == "a#3"
    assert t.delete_documents(["a"]) == 1
    assert np.allclose(t.dense_scores(_vec(2)), [1.0])


def test_a_window_file_that_does_not_match_its_owners_is_an_index_error(tmp_path):
    s = _store_with_windows()
    s.save(tmp_path / "g")
    np.save(tmp_path / "g" / "window_vectors.npy", np.stack([_vec(1)]))
    with pytest.raises(IndexError_, match="window"):
        EmbeddedStore.load(tmp_path / "g")


def test_window_vectors_of_another_width_are_an_index_error(tmp_path):
    s = _store_with_windows()
    s.save(tmp_path / "g")
    np.save(tmp_path / "g" / "window_vectors.npy", np.zeros((4, 5), dtype=np.float32))
    with pytest.raises(IndexError_, match="wide"):
        EmbeddedStore.load(tmp_path / "g")


def test_a_window_too_small_to_hold_a_sentence_is_refused():
    from pydantic import ValidationError

    from geunkeo.config import Settings

    assert Settings(index={"dense_window_chars": 0}).index.dense_window_chars == 0
    with pytest.raises(ValidationError, match="at least 50"):
        Settings(index={"dense_window_chars": 1})
