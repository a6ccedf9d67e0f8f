"""One writer per index: a second writer fails with a clear message or queues; concurrent runs lose nothing."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import geunkeo
from geunkeo.index.builder import build_index, delete_documents
from geunkeo.index.lock import IndexBusy, writer_lock

DOC_A = "# 휴학 안내\n\n휴학은 학기 개시일부터 30일 이내에 신청하여야 한다.\n"
DOC_B = "# 복학 안내\n\n복학 신청은 학사지원팀에 한다.\n"


def _corpus(root: Path, name: str, text: str) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / f"{name}.md").write_text(text, encoding="utf-8")
    return root


def test_a_second_writer_is_refused_with_who_holds_the_index(tmp_path):
    index = tmp_path / "idx"
    corpus = _corpus(tmp_path / "a", "a", DOC_A)
    with writer_lock(index), pytest.raises(IndexBusy, match=r"being written by another process \(pid \d+\).*--wait"):
        build_index([corpus], index)
    assert not (index / "CURRENT").exists()  # nothing half-written


@pytest.mark.slow
def test_a_waiting_writer_builds_on_what_the_first_published(tmp_path):
    index = tmp_path / "idx"
    build_index([_corpus(tmp_path / "a", "a", DOC_A)], index)
    told: list[str] = []
    release = threading.Event()

    def hold() -> None:
        with writer_lock(index):
            release.wait(5)

    holder = threading.Thread(target=hold)
    holder.start()
    time.sleep(0.2)
    threading.Timer(0.5, release.set).start()
    report = build_index([_corpus(tmp_path / "b", "b", DOC_B)], index, wait=True, on_wait=told.append)
    holder.join()
    assert told and "waiting for it to finish" in told[0]
    assert report.documents == 2  # a's document survived b's run


@pytest.mark.slow
def test_two_concurrent_index_runs_keep_every_document(tmp_path):
    index = tmp_path / "idx"
    runs = [subprocess.Popen([sys.executable, "-m", "geunkeo.cli.main", "index", str(_corpus(tmp_path / n, n, t)),
                              "--index", str(index), "--wait", "--json"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for n, t in (("a", DOC_A), ("b", DOC_B))]
    for p in runs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    chunks = geunkeo.open_index(index).store.chunks()
    assert {c.doc_id for c in chunks} == {"a", "b"}


def test_delete_of_a_missing_index_leaves_no_lock_file_behind(tmp_path):
    with pytest.raises(Exception, match="idx"):
        delete_documents(tmp_path / "idx", ["a"])
    assert not (tmp_path / "idx").exists()

