"""A live `geunkeo serve` (uvicorn in a thread, on a free port) and a headless Debian Chromium driven by Playwright.

Chromium comes from Debian (`make install` installs the packages `chromium` and `fonts-noto-cjk`); Playwright
never downloads a browser. Without /usr/bin/chromium these tests are skipped with the reason, except in CI (`CI`
set, as `.ci/run` does), where they fail with it. Screenshots go to `.ci/artifacts/screens/` (git-ignored) for a
person to look at; `.ci/run` prints where.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
AXE = Path(__file__).resolve().parents[2] / ".ci" / "cache" / "axe-core" / "axe.min.js"
SCREENS = Path(__file__).resolve().parents[2] / ".ci" / "artifacts" / "screens"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def missing(reason: str) -> None:
    """A tool the browser tests need is absent: outside CI they are skipped, in CI that is a failure."""
    if in_ci():
        pytest.fail(f"{reason} (CI is set, so this fails instead of skipping)", pytrace=False)
    pytest.skip(reason)


def korean_fonts() -> bool:
    """A font with Hangul, so the screenshots show Korean rather than empty boxes."""
    import subprocess

    try:
        out = subprocess.run(["fc-list", ":lang=ko"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return bool(out.strip())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """A running server over an index of the project's sample corpus, with one evaluation run (12 gold cases)
    under its runs folder, a copy of its records as an earlier run to compare it with (`.baseline`, no review
    queue), and two reviewer keys and a reader key: `.url`, `.keys`, `.run`, `.baseline`."""
    from types import SimpleNamespace

    import uvicorn
    from typer.testing import CliRunner

    from geunkeo.cli.main import app
    from geunkeo.config import Settings
    from geunkeo.index.builder import build_index
    from geunkeo.server.app import create_app
    from geunkeo.server.auth import KeyStore

    root = Path(__file__).resolve().parents[2]
    work = tmp_path_factory.mktemp("browser")
    idx, runs = work / "idx", work / "runs"
    build_index([root / "sample" / "corpus"], idx, replace=True)
    # in this process: a subprocess loaded the models and compiled ranx's numba functions again (~10-30 s)
    res = CliRunner().invoke(app, ["eval", "--dataset", str(root / "sample" / "gold"), "--index", str(idx),
                                   "--out", str(runs / "r1"), "--limit", "12"])
    assert res.exit_code == 0, res.output
    (runs / "r0").mkdir()
    for name in ("summary.json", "cases.jsonl"):
        shutil.copy2(runs / "r1" / name, runs / "r0" / name)
    settings = Settings(server={"db_path": str(work / "server.db")})
    store = KeyStore(work / "server.db")
    keys = {"alice": store.create("alice", "reviewer"), "bob": store.create("bob", "reviewer"),
            "carol": store.create("carol", "reader")}
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(idx, settings, runs_dir=runs), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    yield SimpleNamespace(url=f"http://127.0.0.1:{port}", keys=keys, run="r1", baseline="r0")
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser():
    """Per module: Playwright's sync API keeps an event loop running in this thread while it is open, and the
    asyncio tests that run after the browser tests need the thread free."""
    if not Path(CHROMIUM).exists():
        missing("Debian's chromium is not installed (make install installs it as root with apt)")
    if not korean_fonts():
        missing("no Korean font: fonts-noto-cjk is not installed (make install installs it as root with apt)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core's axe.min.js, to inject into a page (fetched by `make install`: scripts/install_axe.sh)."""
    if not AXE.is_file():
        missing(f"axe-core is not installed at {AXE} (make install fetches it with npm: scripts/install_axe.sh)")
    return AXE.read_text(encoding="utf-8")


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1200, "height": 1400}, locale="ko-KR")
    pg = ctx.new_page()
    yield pg
    ctx.close()


@pytest.fixture
def screenshot():
    """`screenshot(page, name)` saves a full-page PNG (or only the window's, `full_page=False`) under
    .ci/artifacts/screens/."""
    def take(page, name: str, full_page: bool = True) -> Path:
        SCREENS.mkdir(parents=True, exist_ok=True)
        path = SCREENS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return take
