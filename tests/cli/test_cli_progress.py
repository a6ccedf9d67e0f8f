"""`geunkeo index` progress: log lines off a terminal (documents, chunks, embeddings/s, ETA), a bar on one."""

import io
import re

import pytest
from rich.console import Console
from typer.testing import CliRunner

from geunkeo.cli.main import app
from geunkeo.cli.progress import IndexProgress


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _non_terminal_console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, force_terminal=False, width=200), buf


def test_log_lines_every_few_seconds_with_counts_rate_and_eta():
    console, buf = _non_terminal_console()
    clock = FakeClock()
    with IndexProgress(console, every=5.0, clock=clock) as progress:
        assert not progress.terminal
        for n in range(1, 11):  # 10 documents chunked at once
            progress("chunk", n, 10)
        progress("analyze", 0, 400)
        progress("analyze", 400, 400)
        progress("embed", 0, 400)  # build_index reports each stage's start
        for done in [*range(32, 400, 32), 400]:  # 400 chunks in batches of 32, at 16 per second
            clock.now += (done - (done - 1) // 32 * 32) / 16.0
            progress("embed", done, 400)
    lines = buf.getvalue().splitlines()
    embed = [ln for ln in lines if "embedding chunks" in ln]
    # a line when embedding starts, then one every 5 s of the 26 s it took (not one per batch)
    assert 4 <= len(embed) <= 7, lines
    assert all("10 documents, 400 chunks" in ln for ln in embed)
    rates = [float(m.group(1)) for ln in embed if (m := re.search(r"([\d.]+) embeddings/s", ln))]
    assert rates and all(abs(r - 16.0) < 0.5 for r in rates)
    mid = next(ln for ln in embed if "ETA" in ln)
    done, total = map(int, re.search(r"(\d+)/(\d+)", mid).groups())
    eta = int(re.search(r"ETA (\d+)s", mid).group(1))
    assert abs(eta - (total - done) / 16.0) <= 1
    assert embed[-1].startswith("indexing: embedding chunks 400/400")  # the end of a long stage is logged
    assert len([ln for ln in lines if "chunking documents" in ln]) == 1  # a fast stage: one line, not ten


def test_a_terminal_gets_a_bar_not_log_lines():
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=120)
    with IndexProgress(console, every=0.0) as progress:
        assert progress.terminal
        progress("embed", 10, 20)
    assert "indexing: embedding" not in buf.getvalue()


@pytest.mark.slow
def test_index_command_logs_progress_when_output_is_not_a_terminal(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(3):
        (docs / f"notice{i}.md").write_text(f"---\ntitle: 안내 {i}\n---\n## 신청\n휴학 신청은 {i + 1}월에 한다.\n",
                                           encoding="utf-8")
    res = CliRunner().invoke(app, ["index", str(docs), "--index", str(tmp_path / "idx"), "--progress-every", "0"],
                             env={"GEUNKEO_HOME": str(tmp_path / "home")})
    assert res.exit_code == 0, res.output
    lines = [ln for ln in res.output.splitlines() if ln.startswith("indexing:")]
    assert any("embedding chunks 3/3" in ln and "3 documents, 3 chunks" in ln for ln in lines), res.output
    assert any("embeddings/s" in ln for ln in lines)
