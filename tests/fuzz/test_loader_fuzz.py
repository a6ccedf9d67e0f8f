"""A fuzz corpus the test writes itself: truncated, garbled and hostile PDF, DOCX, HWPX, HWP and HTML files.

Every file must end as a document or as a clear, named failure (an IngestError's message, never "unexpected …"),
within a time bound: no crash, no hang, no memory blow-up (zip bombs are refused from the zip directory,
XML entities are not expanded)."""

from __future__ import annotations

import random
import signal
import struct
import sys
import zipfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "corpus"))
from test_corpus_loaders import hwpx_section, make_hwp, make_pdf  # noqa: E402  (the loaders' own fixtures)

from geunkeo.corpus import load_paths  # noqa: E402

pytestmark = pytest.mark.slow
SECONDS = 20


def _docx(path: Path) -> None:
    import docx

    d = docx.Document()
    d.add_heading("휴학 규정", 1)
    d.add_paragraph("제1조(목적) 이 규정은 휴학에 관한 사항을 정한다. " * 20)
    d.save(str(path))


def _hwpx(path: Path) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("mimetype", "application/hwp+zip")
        zf.writestr("Contents/section0.xml", hwpx_section("<hp:p><hp:run><hp:t>제1조(목적) 휴학 규정.</hp:t></hp:run></hp:p>"))


def _mutations(data: bytes, rng: random.Random) -> list[bytes]:
    n = len(data)
    flipped = bytearray(data)
    for _ in range(max(1, n // 50)):
        flipped[rng.randrange(n)] = rng.randrange(256)
    return [data[: n // 2], data[: n // 10], data[:7], bytes(flipped), data[: n // 2] + bytes(rng.randrange(256)
                                                                                             for _ in range(200))]


def _zip_bomb(path: Path) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("mimetype", "application/hwp+zip")
        zf.writestr("Contents/section0.xml", b"<" + b"a" * (300 * 2**20))  # 300 MB of one byte: ~300 KB zipped


def _billion_laughs() -> str:
    ents = ['<!ENTITY l0 "ha">'] + [f'<!ENTITY l{i} "{"&l" + str(i - 1) + ";" * 1}' * 1 + "&l" + str(i - 1) + ';">'
                                    for i in range(1, 10)]
    return f'<?xml version="1.0"?><!DOCTYPE r [{"".join(ents)}]><r>&l9;</r>'


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("fuzz")
    rng = random.Random(7)
    make_pdf(root / "base.pdf")
    _docx(root / "base.docx")
    _hwpx(root / "base.hwpx")
    make_hwp(root / "base.hwp", [b"\x00" * 40])
    (root / "base.html").write_text("<html><body><h1>휴학</h1><p>학생은 휴학할 수 있다.</p></body></html>", encoding="utf-8")
    for base in sorted(root.iterdir()):
        for i, data in enumerate(_mutations(base.read_bytes(), rng)):
            (root / f"{base.stem}-m{i}{base.suffix}").write_bytes(data)
    _zip_bomb(root / "bomb.hwpx")
    (root / "bomb.docx").write_bytes((root / "bomb.hwpx").read_bytes())
    laughs = _billion_laughs()
    (root / "laughs.html").write_text(laughs, encoding="utf-8")
    with zipfile.ZipFile(root / "laughs.hwpx", "w") as zf:
        zf.writestr("Contents/section0.xml", laughs)
    (root / "empty.pdf").write_bytes(b"")
    (root / "text-as.docx").write_text("이건 워드 파일이 아니다", encoding="utf-8")
    (root / "ole-header.hwp").write_bytes(bytes.fromhex("d0cf11e0a1b11ae1") + b"\0" * 504)
    (root / "deep.html").write_text("<div>" * 5000 + "끝" + "</div>" * 5000, encoding="utf-8")
    (root / "huge-record.hwp").write_bytes(bytes.fromhex("d0cf11e0a1b11ae1") + struct.pack("<I", 0xFFFFFFFF) * 200)
    return root


def _alarm(signum, frame):
    raise TimeoutError(f"a loader ran longer than {SECONDS} s")


def test_every_fuzzed_file_loads_or_fails_with_a_named_reason(corpus):
    files = sorted(p for p in corpus.iterdir() if p.is_file())
    assert len(files) >= 30
    problems = []
    old = signal.signal(signal.SIGALRM, _alarm)
    try:
        for f in files:
            signal.alarm(SECONDS)
            try:
                docs, failures = load_paths([f])
            finally:
                signal.alarm(0)
            for fail in failures:
                if fail.reason.startswith("unexpected") or not fail.reason.strip():
                    problems.append(f"{f.name}: {fail.reason[:160]}")
            if not docs and not failures:
                problems.append(f"{f.name}: neither loaded nor reported")
    finally:
        signal.signal(signal.SIGALRM, old)
    assert problems == []


def test_a_zip_bomb_is_refused_before_it_is_inflated(corpus):
    _, failures = load_paths([corpus / "bomb.hwpx", corpus / "bomb.docx"])
    assert len(failures) == 2 and all("zip bomb" in f.reason for f in failures)


def test_xml_entities_are_not_expanded(corpus):
    docs, failures = load_paths([corpus / "laughs.html", corpus / "laughs.hwpx"])
    for d in docs:
        assert "hahaha" not in d.text
