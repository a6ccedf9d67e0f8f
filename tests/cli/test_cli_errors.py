"""One error path for every command: a user error is one `error: …` line and exit 2; an internal error exits 1
with a hint to rerun with --verbose (which shows the traceback)."""

from typer.testing import CliRunner

from geunkeo.cli.main import app

runner = CliRunner()


def _one_error_line(output: str) -> str:
    lines = [ln for ln in output.splitlines() if ln.strip()]
    errors = [ln for ln in lines if ln.startswith("error:")]
    assert len(errors) == 1, output
    assert "Traceback" not in output
    return errors[0]


def test_missing_index_is_a_user_error(tmp_path):
    res = runner.invoke(app, ["search", "휴학 방법", "--index", str(tmp_path / "nope")])
    assert res.exit_code == 2
    assert "not a geunkeo index" in _one_error_line(res.output)
    res = runner.invoke(app, ["info", "--index", str(tmp_path / "nope")])
    assert res.exit_code == 2
    _one_error_line(res.output)


def test_search_without_index_or_server_names_both():
    res = runner.invoke(app, ["search", "휴학 방법"], env={"GEUNKEO_SERVER": ""})
    assert res.exit_code == 2
    assert "--index" in res.output and "--server" in res.output


def test_an_invalid_setting_names_the_variable(tmp_path):
    res = runner.invoke(app, ["search", "휴학", "--index", str(tmp_path)], env={"GEUNKEO_QUERY__SYNONYMS": "maybe"})
    assert res.exit_code == 2
    line = _one_error_line(res.output)
    assert "query.synonyms" in line and "GEUNKEO_QUERY__SYNONYMS" in line and "'maybe'" in line


def test_bad_option_values_exit_2(tmp_path):
    for args in (["search", "x", "--index", str(tmp_path), "-k", "0"],
                 ["search", "x", "--index", str(tmp_path), "-k", "-1"],
                 ["ask", "x", "--index", str(tmp_path), "-k", "21"],
                 ["search", "x", "--index", str(tmp_path), "--mode", "fuzzy"],
                 ["index", str(tmp_path), "--index", str(tmp_path / "i"), "--progress-every", "-1"]):
        res = runner.invoke(app, args)
        assert res.exit_code == 2, (args, res.output)


def test_unknown_chunker_lists_the_choices(tmp_path):
    (tmp_path / "a.md").write_text("# 제목\n\n본문입니다.\n", encoding="utf-8")
    res = runner.invoke(app, ["corpus", "chunks", str(tmp_path), "--chunker", "nope"])
    assert res.exit_code == 2
    line = _one_error_line(res.output)
    assert "nope" in line and "statute" in line


def test_missing_file_is_a_user_error(tmp_path):
    res = runner.invoke(app, ["verify", "--answer", str(tmp_path / "none.txt"), "--context", str(tmp_path / "c.txt")])
    assert res.exit_code == 2
    assert "none.txt" in _one_error_line(res.output)


def test_internal_error_exits_1_with_a_verbose_hint(tmp_path, monkeypatch):
    import geunkeo.index.manifest as manifest

    def broken(path):
        raise RuntimeError("the manifest reader broke")

    monkeypatch.setattr(manifest, "read_manifest", broken)
    res = runner.invoke(app, ["info", "--index", str(tmp_path)])
    assert res.exit_code == 1
    line = _one_error_line(res.output)
    assert "internal error: RuntimeError: the manifest reader broke" in line and "--verbose" in line

    res = runner.invoke(app, ["--verbose", "info", "--index", str(tmp_path)])
    assert res.exit_code == 1
    assert "Traceback" in res.output and "the manifest reader broke" in res.output


def test_indexing_a_missing_path_exits_2_and_creates_nothing(tmp_path):
    res = runner.invoke(app, ["index", str(tmp_path / "no" / "such" / "path"), "--index", str(tmp_path / "idx")])
    assert res.exit_code == 2, res.output
    assert "no such file or folder" in _one_error_line(res.output) and "path" in res.output
    assert not (tmp_path / "idx").exists()


def test_indexing_a_folder_without_documents_exits_2_and_creates_nothing(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "notes.xyz").write_text("not a supported type", encoding="utf-8")
    res = runner.invoke(app, ["index", str(tmp_path / "docs"), "--index", str(tmp_path / "idx")])
    assert res.exit_code == 2, res.output
    assert "no documents to index" in _one_error_line(res.output) and "notes.xyz" in res.output
    assert not (tmp_path / "idx").exists()
