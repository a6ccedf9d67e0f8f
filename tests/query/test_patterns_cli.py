"""`geunkeo patterns pending | add | test` through the real Typer app."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from geunkeo.cli.main import app

runner = CliRunner()


def test_test_pending_add_cycle(tmp_path, monkeypatch):
    monkeypatch.setenv("GEUNKEO_HOME", str(tmp_path))
    out = runner.invoke(app, ["patterns", "test", "복학 신청은?", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["formality"] == "colloquial" and data["rewritten"] == "복학 신청은?"
    assert any("queued" in w for w in data["warnings"])

    out = runner.invoke(app, ["patterns", "pending", "--json"])
    entries = json.loads(out.output)["entries"]
    assert [(e["query"], e["count"]) for e in entries] == [("복학 신청은?", 1)]

    out = runner.invoke(app, ["patterns", "add", "신청은?", "신청 방법", "--context", "procedure"])
    assert out.exit_code == 0 and "added '신청은?' → '신청 방법' (procedure)" in out.output
    saved = json.loads((tmp_path / "colloquial_mappings.json").read_text())
    assert saved["mappings"] == [{"pattern": "신청은?", "formal": "신청 방법", "context": "procedure"}]

    data = json.loads(runner.invoke(app, ["patterns", "test", "복학 신청은?", "--json"]).output)
    assert data["rewritten"] == "복학 신청 방법" and data["contexts"] == ["procedure"]


def test_human_output_and_errors(tmp_path, monkeypatch):
    monkeypatch.setenv("GEUNKEO_HOME", str(tmp_path))
    out = runner.invoke(app, ["patterns", "test", "휴학 어떻게 해?"])
    assert out.exit_code == 0
    assert "휴학 방법" in out.output and "dense 0.40 / BM25 0.60" in out.output
    out = runner.invoke(app, ["patterns", "test", "  "])
    assert out.exit_code == 2 and "empty" in out.output
    assert "no pending patterns" in runner.invoke(app, ["patterns", "pending"]).output
