"""How long a person waits for `geunkeo`: whole processes, timed from outside, in one run (issue 12).

    python benchmarks/startup.py --runs 9

Measures, round-robin so every command sees the same machine load:
- floor: `python -c "import kiwipiepy; kiwipiepy.Kiwi()"` — the issue's floor (start Python, construct Kiwi);
- floor + first analysis: the same plus one `tokenize` — Kiwi initialises lazily, so its model loads at the first
  analysis; this is what any Korean search really pays;
- `geunkeo --help`;
- `geunkeo search QUERY -i INDEX` in-process (loads the index, Kiwi, the synonym table and the embedder);
- `geunkeo search QUERY --server URL` against a `geunkeo serve` this script starts on the same index;
- `geunkeo ask` in-process and with --server.
Prints median and p95 per command and the ratio of medians to each floor, then where the in-process search's
time goes (one child process timing its own phases). With `--baseline-src DIR` (an older checkout's src/, e.g.
`git archive <commit> src | tar -x -C /tmp/before`) the same commands also run on that code in the same round,
for before/after figures under the same load. The index is the bundled sample corpus, built under
.bench-cache/startup/ on first use. Children run with their own GEUNKEO_HOME (nothing is queued in yours), and
bytecode is written once by a warm-up run, as on a user's machine (this sandbox sets PYTHONDONTWRITEBYTECODE).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
QUERY = "휴학은 최대 몇 학기까지 할 수 있나요?"

PHASES = r"""
import json, sys, time
t0 = time.perf_counter()
import geunkeo.cli.main  # what every command imports
t1 = time.perf_counter()
import geunkeo.engine, geunkeo.query.pipeline  # the search path's modules (bm25s, numpy, ...)
t2 = time.perf_counter()
from geunkeo.text.kiwi import get_kiwi
get_kiwi().tokenize("")  # Kiwi() and its lazy model load
t3 = time.perf_counter()
from geunkeo.query.pipeline import QueryPipeline
from geunkeo.config import Settings
from geunkeo.index.manifest import read_manifest
from pathlib import Path
m = read_manifest(Path(sys.argv[1]))
QueryPipeline(Settings(), tuned=m.tuned_fusion, index_langs=m.langs)  # synonym table, vocabulary
t4 = time.perf_counter()
idx = geunkeo.open_index(sys.argv[1])  # store (memory-mapped), embedder, pipeline (warm now)
t5 = time.perf_counter()
res = idx.search(sys.argv[2], k=10)
t6 = time.perf_counter()
stages = {s.name: round(s.ms, 1) for s in res.trace.stages}
print(json.dumps({"import CLI": t1 - t0, "import search path": t2 - t1, "Kiwi ready": t3 - t2,
                  "query pipeline (synonyms, vocabulary)": t4 - t3, "open index (store, embedder)": t5 - t4,
                  "first search": t6 - t5, "  of which: embed the query": stages.get("retrieve.embed_query", 0) / 1000,
                  "  of which: BM25": stages.get("retrieve.bm25", 0) / 1000}))
"""


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def _free_port(preferred: int) -> int:
    for port in range(preferred, preferred + 19):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise SystemExit(f"no free port in {preferred}-{preferred + 18}")


def _ensure_index(path: Path, env: dict) -> Path:
    if (path / "CURRENT").is_file():
        return path
    print(f"building the sample index at {path} (first run only) …", flush=True)
    subprocess.run([str(BIN / "geunkeo"), "index", str(ROOT / "sample" / "corpus"), "--index", str(path)],
                   env=env, check=True, stdout=subprocess.DEVNULL)
    return path


def _start_server(index: Path, port: int, env: dict) -> subprocess.Popen:
    import httpx

    proc = subprocess.Popen([str(BIN / "geunkeo"), "serve", "--index", str(index), "--port", str(port)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"geunkeo serve exited: {proc.stderr.read().decode()[-2000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                # the first request loads Kiwi and the embedder; warm them outside the timings
                r = httpx.post(f"http://127.0.0.1:{port}/api/search", json={"query": QUERY, "k": 10}, timeout=120)
                if r.status_code == 404:
                    _stop(proc)
                    raise SystemExit("the server has no /api/search (geunkeo serve's JSON API is missing)")
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    _stop(proc)
    raise SystemExit("geunkeo serve did not come up within 120 s")


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _time(cmd: list[str], env: dict, pythonpath: str | None = None) -> float:
    if pythonpath:
        env = {**env, "PYTHONPATH": pythonpath}
    t = time.perf_counter()
    proc = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - t
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.decode()[-1500:]}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=9, help="timed runs per command (after one warm-up)")
    ap.add_argument("--index", type=Path, default=ROOT / ".bench-cache" / "startup" / "index")
    ap.add_argument("--query", default=QUERY)
    ap.add_argument("--port", type=int, default=8741)
    ap.add_argument("--no-server", action="store_true", help="skip the --server measurements")
    ap.add_argument("--baseline-src", type=Path, help="an older checkout's src/ to time the same commands on")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args(argv)

    home = Path(tempfile.mkdtemp(prefix="geunkeo-startup-"))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "GEUNKEO_SERVER")}
    env["GEUNKEO_HOME"] = str(home)
    env["GEUNKEO_QUERY__PENDING_QUEUE"] = str(home / "pending.jsonl")
    index = _ensure_index(args.index, env)
    py, gk = str(BIN / "python"), str(BIN / "geunkeo")
    commands: dict[str, list[str]] = {
        "python -c pass": [py, "-c", "pass"],
        "floor: Kiwi()": [py, "-c", "import kiwipiepy; kiwipiepy.Kiwi()"],
        "floor: Kiwi() + first analysis": [py, "-c", "import kiwipiepy; kiwipiepy.Kiwi(num_workers=2).tokenize('휴학')"],
        "geunkeo --help": [gk, "--help"],
        "geunkeo search (in-process)": [gk, "search", args.query, "-i", str(index)],
        "geunkeo ask (in-process)": [gk, "ask", args.query, "-i", str(index)],
    }
    baseline: dict[str, str] = {}  # command name -> PYTHONPATH
    if args.baseline_src:
        gk_module = [py, "-m", "geunkeo.cli.main"]  # the console script would import this checkout's code too
        for name in ("geunkeo --help", "geunkeo search (in-process)", "geunkeo ask (in-process)"):
            before = f"before: {name}"
            commands[before] = gk_module + commands[name][1:]
            baseline[before] = str(args.baseline_src.resolve())
    server = None
    if not args.no_server:
        url = f"http://127.0.0.1:{_free_port(args.port)}"
        server = _start_server(index, int(url.rsplit(":", 1)[1]), env)
        commands["geunkeo search --server"] = [gk, "search", args.query, "--server", url]
        commands["geunkeo ask --server"] = [gk, "ask", args.query, "--server", url]
    load_before = os.getloadavg()
    times: dict[str, list[float]] = {name: [] for name in commands}
    try:
        proc = subprocess.run([py, "-c", PHASES, str(index), args.query], env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"the phase timing child failed: {proc.stderr[-1500:]}")
        phases = json.loads(proc.stdout.strip().splitlines()[-1])
        for name, cmd in commands.items():  # warm-up: page cache, bytecode
            _time(cmd, env, baseline.get(name))
        for _ in range(args.runs):
            for name, cmd in commands.items():
                times[name].append(_time(cmd, env, baseline.get(name)))
    finally:
        if server is not None:
            _stop(server)
        shutil.rmtree(home, ignore_errors=True)
    load_after = os.getloadavg()

    floor = statistics.median(times["floor: Kiwi()"])
    floor_ready = statistics.median(times["floor: Kiwi() + first analysis"])
    print(f"\n{args.runs} runs each, whole processes; load average {load_before[0]:.2f} before, "
          f"{load_after[0]:.2f} after ({os.cpu_count()} cores)")
    print(f"{'command':34s} {'median':>8s} {'p95':>8s} {'÷ Kiwi()':>9s} {'÷ Kiwi ready':>12s}")
    rows = {}
    for name, xs in times.items():
        med, p95 = statistics.median(xs), _pct(xs, 0.95)
        rows[name] = {"median_s": round(med, 3), "p95_s": round(p95, 3), "ratio_floor": round(med / floor, 2),
                      "ratio_floor_ready": round(med / floor_ready, 2)}
        print(f"{name:34s} {med:7.2f}s {p95:7.2f}s {med / floor:8.2f}× {med / floor_ready:11.2f}×")
    print("\nin-process search, by phase (one process):")
    for name, sec in phases.items():
        print(f"  {name:40s} {sec:6.3f}s")
    if args.json:
        args.json.write_text(json.dumps({"runs": args.runs, "load": [load_before, load_after], "commands": rows,
                                         "phases": phases}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
