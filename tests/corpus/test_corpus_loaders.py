"""Every loader on fixtures generated here; encodings; corrupt files reported while the others load."""

from __future__ import annotations

import json
import struct
import zipfile
import zlib

import docx
import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen import canvas

from geunkeo.corpus import chunk_document, load_paths
from geunkeo.corpus.encoding import decode_bytes
from geunkeo.corpus.loaders.hwp import HwpLoader
from geunkeo.errors import IngestError

KO = "제1조(목적) 이 규정은 휴학에 관한 사항을 정한다."


def load_one(path):
    docs, failures = load_paths([path])
    assert failures == [], failures
    assert len(docs) == 1
    return docs[0]


# --- text formats ---------------------------------------------------------------------------------------------

def test_markdown_without_front_matter_takes_first_heading(tmp_path):
    p = tmp_path / "guide.md"
    p.write_text("intro line\n\n# Exchange Student Guide\n\nEffective: March 1, 2025\n\nText.", encoding="utf-8")
    d = load_one(p)
    assert (d.doc_id, d.title, d.lang, d.date, d.version) == (
        "guide", "Exchange Student Guide", "en", "2025-03-01", "2025.3.1 effective")


def test_txt_cp949_is_decoded(tmp_path):
    body = "휴학 신청 안내\n2025. 3. 1. 개정\n" + KO + "\n"
    (tmp_path / "notice.txt").write_bytes(body.encode("cp949"))
    d = load_one(tmp_path / "notice.txt")
    assert d.text == body
    assert (d.title, d.version, d.date, d.lang) == ("휴학 신청 안내", "2025.3.1 개정", "2025-03-01", "ko")
    assert d.metadata["encoding"] == "cp949"


def test_txt_with_front_matter_in_euc_kr(tmp_path):
    body = "---\ntitle: 장학금 공지\nkind: notice\ndate: 2025-02-10\n---\n장학금 신청은 2월 말까지입니다.\n"
    (tmp_path / "n.txt").write_bytes(body.encode("euc-kr"))
    d = load_one(tmp_path / "n.txt")
    assert (d.title, d.kind, d.date, d.text) == ("장학금 공지", "notice", "2025-02-10", "장학금 신청은 2월 말까지입니다.")


def test_utf8_bom_and_neither_encoding():
    assert decode_bytes("\ufeff학칙".encode()) == ("학칙", "utf-8-sig")
    with pytest.raises(IngestError, match="neither UTF-8 nor CP949"):
        decode_bytes("Grüße aus Köln, café".encode("latin-1") * 3)
    with pytest.raises(IngestError, match="binary"):
        decode_bytes(b"\x00\x01\x02abc")


def test_html(tmp_path):
    html = """<html><head><title>학사 공지</title><script>var x = '숨김';</script><style>p{}</style></head>
    <body><nav>메뉴 홈 공지</nav><h1>휴학 안내</h1><p>신청은 <b>포털</b>에서 합니다.</p>
    <h2>문의</h2><table><tr><th>부서</th><th>전화</th></tr><tr><td>학사지원팀</td><td>02-123-4567</td></tr></table>
    </body></html>"""
    (tmp_path / "page.html").write_text(html, encoding="utf-8")
    d = load_one(tmp_path / "page.html")
    assert d.title == "학사 공지"
    assert d.text == "# 휴학 안내\n\n신청은 포털에서 합니다.\n\n## 문의\n\n부서 | 전화\n학사지원팀 | 02-123-4567"
    assert "숨김" not in d.text and "메뉴" not in d.text
    assert [c.location for c in chunk_document(d)] == ["학사 공지 > 휴학 안내", "학사 공지 > 휴학 안내 > 문의"]


def test_jsonl_and_beir_records(tmp_path):
    rows = [{"_id": "doc1", "title": "Leave", "text": "Students may take leave."},
            {"id": "doc2", "content": "휴학은 학기 단위로 한다."},
            {"doc_id": "doc3", "title": "only title", "body": "Body text.", "extra": 1}]
    (tmp_path / "corpus.jsonl").write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n\n",
                                           encoding="utf-8")
    docs, failures = load_paths([tmp_path])
    assert failures == []
    assert [(d.doc_id, d.title, d.text, d.lang) for d in docs] == [
        ("doc1", "Leave", "Students may take leave.", "en"), ("doc2", "", "휴학은 학기 단위로 한다.", "ko"),
        ("doc3", "only title", "Body text.", "en")]
    assert docs[2].metadata["fields"] == {"extra": 1}
    assert [(c.chunk_id, c.location) for c in chunk_document(docs[0])] == [("doc1#s1", "Leave")]
    assert chunk_document(docs[1])[0].location == "doc2"  # untitled records are located by their id


def test_jsonl_bad_line_names_the_line(tmp_path):
    (tmp_path / "bad.jsonl").write_text('{"_id": "a", "text": "ok"}\n{"_id": "b", "text": \n', encoding="utf-8")
    docs, failures = load_paths([tmp_path])
    assert docs == [] and len(failures) == 1
    assert "bad.jsonl:2: invalid JSON" in failures[0].reason


# --- binary formats -------------------------------------------------------------------------------------------

def make_pdf(path):
    pdfmetrics.registerFont(UnicodeCIDFont("HYSMyeongJo-Medium"))
    c = canvas.Canvas(str(path))
    c.setTitle("휴학 규정")
    c.setFont("HYSMyeongJo-Medium", 12)
    c.drawString(72, 750, KO)
    c.drawString(72, 730, "제2조(신청) 휴학은 학기 단위로 신청한다.")
    c.showPage()
    c.setFont("Helvetica", 12)
    c.drawString(72, 750, "Article 3 (Appeal) Students may appeal.")
    c.showPage()
    c.save()


def test_pdf_pages_and_korean_cid_font(tmp_path):
    # reportlab's CID font HYSMyeongJo-Medium does extract with pypdf 7.1 here (checked by this test).
    make_pdf(tmp_path / "rules.pdf")
    d = load_one(tmp_path / "rules.pdf")
    assert d.title == "휴학 규정"
    assert d.metadata["pages"] == 2
    assert KO in d.text and "Article 3 (Appeal)" in d.text
    chunks = chunk_document(d)
    assert [(c.chunk_id, c.metadata["page"]) for c in chunks] == [("rules#제1조", 1), ("rules#제2조", 1)]
    assert chunks[1].text.endswith("Article 3 (Appeal) Students may appeal.")


def test_docx_paragraphs_tables_and_headings(tmp_path):
    document = docx.Document()
    document.add_heading("장학금 지급 규정", level=0)
    document.add_heading("제1장 총칙", level=1)
    document.add_paragraph(KO)
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "구분", "금액"
    table.cell(1, 0).text, table.cell(1, 1).text = "성적우수", "100만원"
    document.add_paragraph("제2조(종류) 장학금은 교내와 교외로 나눈다.")
    document.save(tmp_path / "scholarship.docx")
    d = load_one(tmp_path / "scholarship.docx")
    assert d.title == "장학금 지급 규정"
    assert d.text == (f"# 장학금 지급 규정\n\n# 제1장 총칙\n\n{KO}\n\n구분 | 금액\n성적우수 | 100만원\n\n"
                      "제2조(종류) 장학금은 교내와 교외로 나눈다.")
    chunks = chunk_document(d)
    assert [(c.chunk_id, c.path) for c in chunks] == [("scholarship#제1조", ["제1장 총칙"]),
                                                      ("scholarship#제2조", ["제1장 총칙"])]
    assert chunks[0].text == f"{KO}\n구분 | 금액\n성적우수 | 100만원"


HP = "http://www.hancom.co.kr/hwpml/2011/paragraph"


def hwpx_section(paragraphs: str) -> str:
    return (f'<?xml version="1.0" encoding="UTF-8"?><hs:sec xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section"'
            f' xmlns:hp="{HP}">{paragraphs}</hs:sec>')


def test_hwpx(tmp_path):
    s0 = hwpx_section(
        f'<hp:p><hp:run><hp:t>{KO}</hp:t></hp:run></hp:p>'
        '<hp:p><hp:run><hp:t>① 휴학은 </hp:t></hp:run><hp:run><hp:t>학기 단위로<hp:tab/>한다.</hp:t></hp:run></hp:p>'
        '<hp:p><hp:run><hp:tbl><hp:tr><hp:tc><hp:subList><hp:p><hp:run><hp:t>셀 내용</hp:t></hp:run></hp:p>'
        '</hp:subList></hp:tc></hp:tr></hp:tbl></hp:run></hp:p>')
    s1 = hwpx_section('<hp:p><hp:run><hp:t>제2조(신청) 신청서를 낸다.</hp:t></hp:run></hp:p>')
    hpf = ('<?xml version="1.0"?><opf:package xmlns:opf="http://www.idpf.org/2007/opf/"><opf:metadata>'
           '<opf:title>휴학 규정</opf:title></opf:metadata></opf:package>')
    with zipfile.ZipFile(tmp_path / "leave.hwpx", "w") as zf:
        zf.writestr("mimetype", "application/hwp+zip")
        zf.writestr("Contents/content.hpf", hpf)
        zf.writestr("Contents/section1.xml", s1)
        zf.writestr("Contents/section0.xml", s0)
    d = load_one(tmp_path / "leave.hwpx")
    assert d.title == "휴학 규정"
    assert d.text == f"{KO}\n① 휴학은 학기 단위로\t한다.\n셀 내용\n제2조(신청) 신청서를 낸다."
    assert [c.chunk_id for c in chunk_document(d)] == ["leave#제1조", "leave#제2조"]


# --- HWP 5: a minimal OLE compound file written here (olefile only reads) --------------------------------------

def _hwp_record(tag: int, payload: bytes, level: int = 0) -> bytes:
    if len(payload) >= 0xFFF:
        return struct.pack("<II", tag | (level << 10) | (0xFFF << 20), len(payload)) + payload
    return struct.pack("<I", tag | (level << 10) | (len(payload) << 20)) + payload


def _para_text(text: str, controls: bytes = b"") -> bytes:
    return _hwp_record(67, controls + text.encode("utf-16-le") + b"\r\x00", level=1)


def _ole(streams: dict[str, bytes]) -> bytes:
    """A CFB v3 file holding FileHeader and BodyText/SectionN; every stream is padded to >= 4096 bytes so it
    lives in regular sectors (no mini stream needed)."""
    sector = 512
    names = list(streams)
    data = b""
    starts, sizes = {}, {}
    for name in names:
        body = streams[name].ljust(max(4096, len(streams[name])), b"\0")
        sizes[name] = len(body)
        body = body.ljust(-(-len(body) // sector) * sector, b"\0")
        starts[name] = (len(data) // sector, len(body) // sector)
        data += body
    n_data = len(data) // sector
    # directory: root, FileHeader, BodyText storage, sections (right-sibling chains)
    sections = [n for n in names if n.startswith("BodyText/")]
    entries = []

    def entry(name, kind, left=0xFFFFFFFF, right=0xFFFFFFFF, child=0xFFFFFFFF, start=0xFFFFFFFE, size=0):
        raw = name.encode("utf-16-le") + b"\0\0"
        return (raw.ljust(64, b"\0") + struct.pack("<HBB", len(raw), kind, 1) + struct.pack("<III", left, right, child)
                + b"\0" * 36 + struct.pack("<IQ", start, size))

    entries.append(entry("Root Entry", 5, child=1))
    entries.append(entry("FileHeader", 2, right=2, start=starts["FileHeader"][0], size=sizes["FileHeader"]))
    entries.append(entry("BodyText", 1, child=3))
    for k, name in enumerate(sections):
        right = 4 + k if k + 1 < len(sections) else 0xFFFFFFFF
        entries.append(entry(name.split("/")[1], 2, right=right, start=starts[name][0], size=sizes[name]))
    while len(entries) % 4:
        entries.append(b"\0" * 64 + struct.pack("<HBB", 0, 0, 0) + struct.pack("<III", *[0xFFFFFFFF] * 3)
                       + b"\0" * 36 + struct.pack("<IQ", 0, 0))
    directory = b"".join(entries)
    n_dir = len(directory) // sector
    n_fat = 1
    while (n_data + n_dir + n_fat) > n_fat * 128:
        n_fat += 1
    fat = []
    for name in names:
        first, count = starts[name]
        fat += [first + i + 1 for i in range(count - 1)] + [0xFFFFFFFE]
    fat += [n_data + i + 1 for i in range(n_dir - 1)] + [0xFFFFFFFE]
    fat += [0xFFFFFFFD] * n_fat
    fat += [0xFFFFFFFF] * (n_fat * 128 - len(fat))
    difat = [n_data + n_dir + i for i in range(n_fat)] + [0xFFFFFFFF] * (109 - n_fat)
    header = (bytes.fromhex("D0CF11E0A1B11AE1") + b"\0" * 16 + struct.pack("<HHHHH", 0x3E, 3, 0xFFFE, 9, 6)
              + b"\0" * 6 + struct.pack("<IIIIIIIII", 0, n_fat, n_data, 0, 4096, 0xFFFFFFFE, 0, 0xFFFFFFFE, 0)
              + struct.pack("<109I", *difat))
    return header + data + directory + struct.pack(f"<{len(fat)}I", *fat)


def make_hwp(path, sections: list[bytes], flags: int = 1) -> None:
    header = b"HWP Document File".ljust(32, b"\0") + struct.pack("<II", 0x05000300, flags)
    streams = {"FileHeader": header.ljust(256, b"\0")}
    for i, sec in enumerate(sections):
        if flags & 1:
            co = zlib.compressobj(wbits=-15)
            sec = co.compress(sec) + co.flush()
        streams[f"BodyText/Section{i}"] = sec
    path.write_bytes(_ole(streams))


def test_hwp5_text_records(tmp_path):
    tab = struct.pack("<8H", 9, 0, 0, 0, 0, 0, 0, 9)  # inline control: a tab, 8 UTF-16 units
    table_ctrl = struct.pack("<8H", 11, 0x6c74, 0x2062, 0, 0, 0, 0, 11)  # extended control (table), skipped
    long_par = "② " + "가" * 2100 + "."  # > 4095 bytes: the long-record size form
    sec0 = (_hwp_record(66, b"\0" * 22) + _para_text(KO) + _para_text("학기 단위로 한다.", tab + "①".encode("utf-16-le"))
            + _para_text("", table_ctrl) + _para_text(long_par))
    sec1 = _para_text("제2조(신청) 신청서를 낸다.")
    make_hwp(tmp_path / "leave.hwp", [sec0, sec1])
    d = load_one(tmp_path / "leave.hwp")
    assert d.text == f"{KO}\n①학기 단위로 한다.\n{long_par}\n제2조(신청) 신청서를 낸다."
    assert d.metadata["sections"] == 2
    make_hwp(tmp_path / "plain.hwp", [sec1], flags=0)  # uncompressed sections
    assert load_one(tmp_path / "plain.hwp").text == "제2조(신청) 신청서를 낸다."


def test_hwp_refusals_say_save_as_hwpx(tmp_path):
    make_hwp(tmp_path / "locked.hwp", [_para_text(KO)], flags=1 | 2)
    (tmp_path / "old.hwp").write_bytes(b"HWP Document File V3.00 \x1a\x01\x02")
    make_hwp(tmp_path / "whole.hwp", [_para_text(KO)])
    (tmp_path / "cut.hwp").write_bytes((tmp_path / "whole.hwp").read_bytes()[:2000])
    for name, reason in [("locked.hwp", "password-protected"), ("old.hwp", "not an HWP 5 file"),
                         ("cut.hwp", "unreadable HWP")]:
        with pytest.raises(IngestError, match=reason) as e:
            list(HwpLoader().load(tmp_path / name))
        assert "save it as HWPX" in str(e.value)


# --- failures and ids -----------------------------------------------------------------------------------------

def test_corrupt_files_are_reported_while_others_load(tmp_path):
    root = tmp_path / "corpus"
    (root / "notices").mkdir(parents=True)
    (root / "notices" / "good.md").write_text("# 공지\n\n내용", encoding="utf-8")
    document = docx.Document()
    document.add_paragraph(KO)
    document.save(root / "full.docx")
    (root / "broken.docx").write_bytes((root / "full.docx").read_bytes()[:300])
    make_pdf(root / "whole.pdf")
    (root / "cut.pdf").write_bytes((root / "whole.pdf").read_bytes()[:400])
    (root / "latin.txt").write_bytes("Grüße café".encode("latin-1") * 3)
    (root / "image.png").write_bytes(b"\x89PNG")  # unknown suffix: not indexed, and said so
    (root / ".hidden").mkdir()
    (root / ".hidden" / "x.md").write_text("# hidden", encoding="utf-8")
    docs, failures = load_paths([root, tmp_path / "missing"])
    assert [d.doc_id for d in docs] == ["full", "notices/good", "whole"]
    reasons = {f.path.rsplit("/", 1)[-1]: f.reason for f in failures}
    assert set(reasons) == {"broken.docx", "cut.pdf", "latin.txt", "missing", "image.png"}
    assert reasons["image.png"].startswith("unsupported file type .png")
    assert "unreadable DOCX" in reasons["broken.docx"]
    assert reasons["cut.pdf"].startswith(str(root / "cut.pdf"))
    assert reasons["missing"] == "no such file or folder"


def test_doc_ids_are_stable_and_unique(tmp_path):
    root = tmp_path / "c"
    (root / "regulations").mkdir(parents=True)
    (root / "regulations" / "hakchik.md").write_text("# 학칙\n\n본문", encoding="utf-8")
    first = [d.doc_id for d in load_paths([root])[0]]
    again = [d.doc_id for d in load_paths([str(root), root / "regulations" / "hakchik.md"])[0]]
    assert first == again == ["regulations/hakchik"]
    # a file given directly is rooted at its own folder
    assert load_paths([root / "regulations" / "hakchik.md"])[0][0].doc_id == "hakchik"
    (root / "dup.jsonl").write_text('{"_id": "x", "text": "a"}\n{"_id": "x", "text": "b"}\n', encoding="utf-8")
    docs, failures = load_paths([root])
    assert [d.doc_id for d in docs] == ["x", "regulations/hakchik"]
    assert "duplicate doc_id 'x'" in failures[0].reason


def test_pdf_running_headers_and_page_numbers_dropped(tmp_path):
    pdfmetrics.registerFont(UnicodeCIDFont("HYSMyeongJo-Medium"))
    c = canvas.Canvas(str(tmp_path / "long.pdf"))
    for n in range(1, 4):
        c.setFont("HYSMyeongJo-Medium", 10)
        c.drawString(72, 800, "한빛대학교 규정집")
        c.drawString(72, 750, f"제{n}조(조문{n}) 내용 {n}.")
        c.drawString(280, 40, f"- {n} -")
        c.showPage()
    c.save()
    d = load_one(tmp_path / "long.pdf")
    assert d.text == "제1조(조문1) 내용 1.\n\n제2조(조문2) 내용 2.\n\n제3조(조문3) 내용 3."
    assert [c.metadata["page"] for c in chunk_document(d)] == [1, 2, 3]
