"""Ingestion names everything it does not index; deep HTML and doubtful decodings are not lost silently."""

from __future__ import annotations

import codecs

import pytest

from geunkeo.corpus import discover, load_paths
from geunkeo.corpus.encoding import decode_bytes
from geunkeo.errors import IngestError


def test_files_not_indexed_are_reported_with_a_reason(tmp_path):
    (tmp_path / "rules.md").write_text("제1조(목적) 이 규정은 휴학에 관한 사항을 정한다.", encoding="utf-8")
    (tmp_path / "README").write_text("no extension", encoding="utf-8")
    (tmp_path / "scan.png").write_bytes(b"\x89PNG")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "gone.md").symlink_to(tmp_path / "missing.md")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config").write_text("hidden folders are not documents", encoding="utf-8")
    files, failures = discover([tmp_path])
    assert [f.name for f, _ in files] == ["rules.md"]
    reasons = {f.path.rsplit("/", 1)[-1]: f.reason for f in failures}
    assert set(reasons) == {"README", "scan.png", "gone.md"}
    assert reasons["README"].startswith("no file extension")
    assert reasons["scan.png"].startswith("unsupported file type .png")
    assert reasons["gone.md"].startswith("dangling symbolic link")


def test_a_dangling_link_given_directly_is_reported(tmp_path):
    (tmp_path / "gone.md").symlink_to(tmp_path / "missing.md")
    _, failures = discover([tmp_path / "gone.md"])
    assert failures[0].reason.startswith("dangling symbolic link")


def test_html_nested_a_thousand_levels_keeps_its_deepest_text(tmp_path):
    page = "<html><body>" + "<div>" * 1000 + "<p>가장 깊은 곳의 문장입니다.</p>" + "</div>" * 1000 + "<p>끝 문장</p></body></html>"
    (tmp_path / "deep.html").write_text(page, encoding="utf-8")
    docs, failures = load_paths([tmp_path])
    assert failures == []
    assert "가장 깊은 곳의 문장입니다." in docs[0].text and docs[0].text.rstrip().endswith("끝 문장")


def test_a_utf16_mark_on_bytes_that_are_not_utf16_is_refused_not_mojibake():
    with pytest.raises(IngestError, match="decoding doubtful"):
        decode_bytes(codecs.BOM_UTF16_LE + b"plain ascii text that is not utf-16 at all", "x.txt")
    text, enc = decode_bytes(codecs.BOM_UTF16_LE + "휴학 규정: 학생은 휴학할 수 있다".encode("utf-16-le"), "y.txt")
    assert enc == "utf-16" and text.startswith("휴학 규정")
