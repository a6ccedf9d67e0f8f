"""A live `geunkeo serve` (uvicorn in a thread, on a free port) and a headless Debian Chromium driven by Playwright.

Chromium comes from Debian (`make install` installs the package `chromium`); Playwright never downloads a
browser. Without /usr/bin/chromium these tests are skipped with the reason. Screenshots go to
`.pytest_cache/screens/` for a person to look at.
"""

from __future__ import annotations

import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SCREENS = Path(__file__).resolve().parents[2] / ".pytest_cache" / "screens"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """A running server over an index of the project's sample corpus, with one evaluation run (12 gold cases)
    under its runs folder and two reviewer keys and a reader key: `.url`, `.keys`, `.run`."""
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
    yield SimpleNamespace(url=f"http://127.0.0.1:{port}", keys=keys, run="r1")
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser():
    """Per module: Playwright's sync API keeps an event loop running in this thread while it is open, and the
    asyncio tests that run after the browser tests need the thread free."""
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (make install installs it as root)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1200, "height": 1400}, locale="ko-KR")
    pg = ctx.new_page()
    yield pg
    ctx.close()


@pytest.fixture
def screenshot():
    """`screenshot(page, name)` saves a full-page PNG under .pytest_cache/screens/."""
    def take(page, name: str) -> Path:
        SCREENS.mkdir(parents=True, exist_ok=True)
        path = SCREENS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
