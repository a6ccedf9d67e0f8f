"""`geunkeo corpus inspect|chunks` through Typer's CliRunner."""

from __future__ import annotations

import json

import typer
from typer.testing import CliRunner

from geunkeo.cli import corpus_cmds


def make_app() -> typer.Typer:
    app = typer.Typer()
    corpus_cmds.register(app)

    @app.callback()
    def _root() -> None:  # keeps `corpus` a sub-command even with one group registered
        pass

    return app


def test_inspect_and_chunks_json(tmp_path):
    (tmp_path / "regs").mkdir()
    (tmp_path / "regs" / "leave.md").write_text(
        "---\ntitle: 휴학 규정\nkind: regulation\n---\n제1조(목적) 목적을 정한다.\n제2조(휴학) ① 휴학할 수 있다.\n② 학기 단위로 한다.\n",
        encoding="utf-8")
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4 truncated")
    runner = CliRunner()
    res = runner.invoke(make_app(), ["corpus", "inspect", str(tmp_path), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["chunks"] == 2
    assert [(d["doc_id"], d["chunker"], d["chunks"]) for d in out["documents"]] == [("regs/leave", "statute", 2)]
    assert [f["path"].rsplit("/", 1)[-1] for f in out["failures"]] == ["broken.pdf"]

    res = runner.invoke(make_app(), ["corpus", "chunks", str(tmp_path / "regs"), "--json"])
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in res.output.splitlines() if line.startswith("{")]
    assert [(r["chunk_id"], r["location"]) for r in rows] == [
        ("leave#제1조", "휴학 규정 제1조(목적)"), ("leave#제2조", "휴학 규정 제2조(휴학) 제1항~제2항")]
