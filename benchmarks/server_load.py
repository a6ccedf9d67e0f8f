"""Load on loopback: N clients for a bounded time on /api/search and /api/ask, with the LLM healthy, hung or down.

    .venv/bin/python benchmarks/server_load.py [--clients 50] [--seconds 30] [--index DIR]

Starts `geunkeo serve` in a subprocess per scenario (the sample corpus index unless --index), and for "hung" and
"down" an OpenAI-compatible peer that never answers / a closed port. Each client loops: POST a question from a
fixed list, wait for the reply, repeat, until the time is up; a probe GETs /health every 0.5 s meanwhile.
Prints per scenario and endpoint: requests, error rate (non-2xx or transport error; 503 shed counted apart),
p50/p95 latency, and /health p50/max. Stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = ["휴학은 최대 몇 학기까지 할 수 있나요?", "장학금 언제 줘?", "기숙사 관리비 얼마야?", "재수강하면 성적 최고 몇 점?",
             "How long can I take a leave of absence?", "등록금 분할납부 가능해?", "졸업 외국어 기준이 뭐야?"]


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _hung_peer() -> tuple[str, ThreadingHTTPServer]:
    class Hang(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            time.sleep(120)

        def log_message(self, *a):
            pass

    srv = ThreadingHTTPServer(("127.0.0.1", _port()), Hang)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{srv.server_address[1]}/v1", srv


def _start_server(index: Path, env: dict[str, str]) -> tuple[subprocess.Popen, str]:
    port = _port()
    proc = subprocess.Popen([sys.executable, "-m", "geunkeo.cli.main", "serve", "--index", str(index), "--port",
                             str(port)], env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if httpx.get(url + "/health", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("server did not start")


async def _load(url: str, path: str, clients: int, seconds: float) -> dict:
    lat: list[float] = []
    errors = shed = 0
    health: list[float] = []
    stop = time.monotonic() + seconds
    limits = httpx.Limits(max_connections=clients + 2)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        async def worker(i: int) -> None:
            nonlocal errors, shed
            n = i
            while time.monotonic() < stop:
                body = {"query": QUESTIONS[n % len(QUESTIONS)], "k": 5}
                n += 1
                t0 = time.perf_counter()
                try:
                    r = await client.post(url + path, json=body)
                    if r.status_code == 503:
                        shed += 1
                        await asyncio.sleep(float(r.headers.get("retry-after", "1")))
                        continue
                    if r.status_code >= 300:
                        errors += 1
                except httpx.HTTPError:
                    errors += 1
                lat.append(time.perf_counter() - t0)

        async def probe() -> None:
            while time.monotonic() < stop:
                t0 = time.perf_counter()
                try:
                    await client.get(url + "/health", timeout=10)
                    health.append(time.perf_counter() - t0)
                except httpx.HTTPError:
                    health.append(10.0)
                await asyncio.sleep(0.5)

        await asyncio.gather(probe(), *(worker(i) for i in range(clients)))
    q = statistics.quantiles(lat, n=20) if len(lat) >= 20 else [max(lat or [0])] * 19
    done = len(lat)
    return {"requests": done, "shed_503": shed, "error_rate": errors / done if done else None,
            "p50_s": statistics.median(lat) if lat else None, "p95_s": q[18], "max_s": max(lat or [0]),
            "health_p50_s": statistics.median(health) if health else None, "health_max_s": max(health or [0])}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--index", type=Path)
    ap.add_argument("--scenarios", default="healthy,hung,down")
    ap.add_argument("--max-inflight", type=int, help="server.max_inflight for the served app (default: its own)")
    args = ap.parse_args()
    index = args.index
    if index is None:
        from geunkeo.index.builder import build_index

        index = Path(tempfile.mkdtemp(prefix="geunkeo-load-")) / "idx"
        build_index([ROOT / "sample" / "corpus"], index, replace=True)
    hung_url, hung_srv = _hung_peer()
    llm = {"healthy": {}, "hung": {"GEUNKEO_LLM__PROVIDER": "openai-compatible", "GEUNKEO_LLM__BASE_URL": hung_url},
           "down": {"GEUNKEO_LLM__PROVIDER": "openai-compatible",
                    "GEUNKEO_LLM__BASE_URL": f"http://127.0.0.1:{_port()}/v1"}}
    base_env = {"GEUNKEO_LLM__MODEL": "m", "GEUNKEO_LLM__CACHE": "false", "GEUNKEO_LLM__MAX_RETRIES": "0",
                "GEUNKEO_SERVER__ASK_DEADLINE_S": "15"}
    if args.max_inflight:
        base_env["GEUNKEO_SERVER__MAX_INFLIGHT"] = str(args.max_inflight)
    print(f"{args.clients} clients × {args.seconds:g} s per endpoint; load average {os.getloadavg()[0]:.1f}")
    for name in args.scenarios.split(","):
        proc, url = _start_server(index, {**base_env, **llm[name]})
        try:
            for path in ("/api/search", "/api/ask"):
                if name != "healthy" and path == "/api/search":
                    continue  # search never calls the LLM
                r = asyncio.run(_load(url, path, args.clients, args.seconds))
                print(f"{name:8} {path:12} requests {r['requests']:5}  shed {r['shed_503']:4}  "
                      f"errors {r['error_rate'] or 0:.3f}  p50 {r['p50_s'] or 0:.2f} s  p95 {r['p95_s'] or 0:.2f} s  "
                      f"max {r['max_s']:.2f} s  "
                      f"health p50 {r['health_p50_s'] or 0:.3f} s max {r['health_max_s']:.3f} s")
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    hung_srv.shutdown()


if __name__ == "__main__":
    main()
