"""Index directory layout and manifest.

    DIR/CURRENT              name of the live generation (replaced atomically with os.replace)
    DIR/gen-000003/          one complete, immutable build: manifest.json + store files
    DIR/manifest.json        a copy of the live manifest, for people and tools

A build writes a new generation in a temporary folder, renames it, then swaps CURRENT. A crash or kill at any
point leaves CURRENT naming the previous complete generation.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from geunkeo.errors import IndexError_

FORMAT_VERSION = 1


@dataclass
class Manifest:
    format_version: int
    created_at: str
    analyzer_version: str
    embedder: str
    embedder_version: str
    dim: int
    store: str
    documents: int
    chunks: int
    langs: dict[str, int]
    config_hash: str
    doc_hashes: dict[str, str] = field(default_factory=dict)
    doc_titles: dict[str, str] = field(default_factory=dict)
    tuned_fusion: dict[str, Any] | None = None
    build: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Manifest:
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in d.items() if k in known})


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def current_generation(index_dir: Path) -> Path:
    """The live generation folder, or IndexError_ with what to do."""
    cur = index_dir / "CURRENT"
    if not cur.is_file():
        raise IndexError_(f"{index_dir} is not a geunkeo index (no CURRENT file); build one with `geunkeo index`")
    gen = index_dir / cur.read_text(encoding="utf-8").strip()
    if not (gen / "manifest.json").is_file():
        raise IndexError_(f"{gen} has no manifest.json; the index is damaged — rebuild it with `geunkeo index`")
    return gen


def read_manifest(index_dir: Path) -> Manifest:
    gen = current_generation(index_dir)
    try:
        return Manifest.from_dict(json.loads((gen / "manifest.json").read_text(encoding="utf-8")))
    except (ValueError, TypeError) as exc:
        raise IndexError_(f"manifest in {gen} is unreadable ({exc}); rebuild the index") from exc


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        pass


def write_json_atomic(path: Path, data: Any) -> None:
    tmp = path.with_name(path.name + f".tmp-{os.getpid()}")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=2)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def new_generation_dir(index_dir: Path) -> Path:
    """A fresh temporary folder for a build (renamed by `publish_generation`)."""
    index_dir.mkdir(parents=True, exist_ok=True)
    for stale in index_dir.glob("tmp-*"):  # left by a crashed build
        shutil.rmtree(stale, ignore_errors=True)
    tmp = index_dir / f"tmp-{os.getpid()}-{datetime.now(UTC).strftime('%H%M%S%f')}"
    tmp.mkdir()
    return tmp


def publish_generation(index_dir: Path, tmp: Path, manifest: Manifest) -> Path:
    """Write the manifest, move the build into place and switch CURRENT to it atomically."""
    write_json_atomic(tmp / "manifest.json", manifest.to_dict())
    _fsync_dir(tmp)
    numbers = [int(p.name.split("-")[1]) for p in index_dir.glob("gen-*") if p.name.split("-")[1].isdigit()]
    gen = index_dir / f"gen-{(max(numbers) + 1) if numbers else 1:06d}"
    os.rename(tmp, gen)
    _fsync_dir(index_dir)
    old = None
    if (index_dir / "CURRENT").is_file():
        old = (index_dir / "CURRENT").read_text(encoding="utf-8").strip()
    cur_tmp = index_dir / f"CURRENT.tmp-{os.getpid()}"
    cur_tmp.write_text(gen.name, encoding="utf-8")
    os.replace(cur_tmp, index_dir / "CURRENT")
    _fsync_dir(index_dir)
    write_json_atomic(index_dir / "manifest.json", manifest.to_dict())
    for p in index_dir.glob("gen-*"):
        if p.name not in (gen.name, old):  # keep the previous generation until the next build (open readers)
            shutil.rmtree(p, ignore_errors=True)
    return gen


def update_manifest(index_dir: Path, **changes: Any) -> Manifest:
    """Change manifest fields of the live generation in place (e.g. tuned fusion), atomically."""
    gen = current_generation(index_dir)
    m = read_manifest(index_dir)
    for k, v in changes.items():
        setattr(m, k, v)
    write_json_atomic(gen / "manifest.json", m.to_dict())
    write_json_atomic(index_dir / "manifest.json", m.to_dict())
    return m
