"""The type checker checks everything: pyproject.toml may not exempt a module from mypy (issue 27)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _mypy_config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]


def test_no_module_is_exempt_from_the_type_checker():
    cfg = _mypy_config()
    exempt = [o.get("module") for o in cfg.get("overrides", []) if o.get("ignore_errors")]
    assert not cfg.get("ignore_errors") and not exempt, (
        f"mypy must check all of src; fix these modules' errors instead of exempting them: {exempt}")


def test_mypy_warns_about_config_that_names_nothing():
    # an override for a module that was renamed or deleted would otherwise sit in the file unnoticed
    assert _mypy_config().get("warn_unused_configs") is True


def test_every_type_ignore_in_src_names_its_error_code():
    bare = [f"{p.relative_to(ROOT)}:{n}" for p in sorted((ROOT / "src").rglob("*.py"))
            for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
            if re.search(r"#\s*type:\s*ignore(?!\[)", line)]
    assert not bare, f"`# type: ignore` without an error code (and a reason) at {bare}"
