"""A damaged index is refused on open with the file named (CLI exit 2), never searched with other results; the
manifest records each file's size and sha256 at write; an index written before that still opens."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from typer.testing import CliRunner

import geunkeo
from geunkeo.cli.main import app
from geunkeo.config import Settings
from geunkeo.errors import IndexError_
from geunkeo.index.builder import build_index
from geunkeo.index.manifest import _sha256, current_generation, read_manifest

pytestmark = pytest.mark.slow
runner = CliRunner()

DOCS = {
    "leave.md": "---\ntitle: 시험대학교 학칙\nkind: regulation\n---\n"
                "제12조(휴학) ① 학생은 질병으로 휴학할 수 있다.\n② 일반휴학은 통산 6개 학기를 넘을 수 없다.\n"
                "제13조(복학) 휴학 기간이 끝나면 복학원을 제출한다.\n",
    "money.md": "---\ntitle: 시험대학교 장학금 규정\nkind: regulation\n---\n"
                "제3조(성적장학금) 평점평균 3.5 이상인 학생에게 지급한다.\n제4조(지급) 학기 개시 후 30일 이내에 지급한다.\n",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("integrity")
    for name, text in DOCS.items():
        (root / "docs").mkdir(exist_ok=True)
        (root / "docs" / name).write_text(text, encoding="utf-8")
    build_index([root / "docs"], root / "idx", replace=True)
    return root / "idx"


@pytest.fixture
def idx(built, tmp_path):
    copy = tmp_path / "idx"
    shutil.copytree(built, copy)
    return copy


def _search_exit(idx, settings_env=None):
    res = runner.invoke(app, ["search", "휴학", "--index", str(idx)], env=settings_env or {})
    return res.exit_code, " ".join(res.output.split())


def _forget_file_records(idx):
    """Make the index look written before the manifest recorded its files."""
    path = current_generation(idx) / "manifest.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["files"]
    path.write_text(json.dumps(data), encoding="utf-8")


def test_the_manifest_records_every_file_with_size_and_sha256(built):
    m, gen = read_manifest(built), current_generation(built)
    assert {"vectors.npy", "chunks.jsonl", "titles.json", "title_vectors.npy", "bm25/params.index.json"} <= set(m.files)
    rec = m.files["vectors.npy"]
    assert rec == {"bytes": (gen / "vectors.npy").stat().st_size, "sha256": _sha256(gen / "vectors.npy")}


@pytest.mark.parametrize("old", [False, True], ids=["checked", "written-before-checksums"])
def test_vectors_with_fewer_rows_than_the_manifest_exit_2_naming_the_file(idx, old):
    if old:
        _forget_file_records(idx)
    vec = current_generation(idx) / "vectors.npy"
    np.save(vec, np.load(vec)[:-1])
    code, out = _search_exit(idx)
    assert code == 2 and "vectors.npy" in out and "rebuild" in out, out
    assert ("rows for" in out) if old else ("bytes" in out)


@pytest.mark.parametrize("old", [False, True], ids=["checked", "written-before-checksums"])
@pytest.mark.parametrize("name", ["chunks.jsonl", "bm25/data.csc.index.npy", "bm25/vocab.index.json"])
def test_a_truncated_file_exits_2_naming_it(idx, name, old):
    if old:
        _forget_file_records(idx)
    path = current_generation(idx) / name
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    code, out = _search_exit(idx)
    assert code == 2 and name.split("/")[0] in out and "this is a bug" not in out, out


def test_a_file_changed_in_place_is_caught_by_its_sha256_unless_turned_off(idx):
    vec = current_generation(idx) / "vectors.npy"
    data = bytearray(vec.read_bytes())
    data[-4:] = b"\x00\x00\x80\x7f"  # the last float becomes +inf; same size
    vec.write_bytes(bytes(data))
    with pytest.raises(IndexError_, match="vectors.npy differs .*sha256"):
        geunkeo.open_index(idx)
    geunkeo.open_index(idx, Settings(index={"verify_checksums": False}))  # sizes and rows still agree


def test_an_index_written_before_checksums_opens_and_searches(idx):
    _forget_file_records(idx)
    assert read_manifest(idx).files == {}
    hits = geunkeo.open_index(idx).search("휴학은 몇 학기까지?", k=1).hits
    assert hits[0].chunk.doc_id == "leave"


def test_an_incremental_build_refuses_to_carry_a_damaged_index_forward(idx, tmp_path):
    vec = current_generation(idx) / "vectors.npy"
    np.save(vec, np.load(vec)[:-1])
    (tmp_path / "more").mkdir()
    (tmp_path / "more" / "new.md").write_text("---\ntitle: 새 규정\n---\n제1조(목적) 새 규정이다.\n", encoding="utf-8")
    with pytest.raises(IndexError_, match="vectors.npy"):
        build_index([tmp_path / "more"], idx)
