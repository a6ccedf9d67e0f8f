"""English rules, Markdown notices and plain paragraphs; the content-based chunker choice."""

from __future__ import annotations

from geunkeo.config import CorpusSettings
from geunkeo.corpus import chunk_document
from geunkeo.corpus.base import Document
from geunkeo.corpus.chunkers import choose_chunker

POLICY_EN = """# Hanbit Life General Terms

Chapter 1 General Provisions

Article 1 (Purpose)
These terms set out the rights and duties of the policyholder and the company.

Article 2 (Definitions)
(1) "Insured" means the person whose life is covered.
(2) "Beneficiary" means the person who receives the benefit.
(a) a spouse;
(b) a child.

Chapter 2 Benefits

Article 3. Payment of Benefits
The company pays the hospitalization benefit for each day in hospital.
"""

RULEBOOK = """1 General
1.1 Application
1.1.1 This rulebook applies to every authorised firm.
1.1.2 A firm must keep records for six years.
1.2 Interpretation
1.2.1 Words in italics are defined in the glossary.
"""

NOTICE = """# 2025학년도 1학기 휴학 신청 안내

학생 여러분께 휴학 신청 일정을 안내합니다.

## 신청 기간

2025. 2. 3.(월) ~ 2. 21.(금)

## 신청 방법

포털에서 신청합니다.

서류는 학사지원팀에 제출합니다.

### 문의

학사지원팀 02-123-4567
"""


def ids(chunks):
    return [c.chunk_id.split("#", 1)[1] for c in chunks]


def test_english_articles_paths_and_paragraphs():
    doc = Document(doc_id="policy/life-en", title="Hanbit Life General Terms", text=POLICY_EN, lang="en",
                   kind="policy")
    chunks = chunk_document(doc)
    assert ids(chunks) == ["Article 1", "Article 2", "Article 3"]
    a2 = chunks[1]
    assert a2.location == "Hanbit Life General Terms Article 2 (Definitions) (1)~(2)"
    assert a2.paragraphs == ["(1)", "(2)"]
    assert a2.path == ["Chapter 1 General Provisions"]
    assert a2.text.startswith("Article 2 (Definitions)\n(1)")
    assert a2.text.endswith("(b) a child.")
    assert (chunks[2].article_title, chunks[2].path) == ("Payment of Benefits", ["Chapter 2 Benefits"])
    assert all(c.lang == "en" for c in chunks)


def test_numbered_rules_keep_their_keys_and_parent_titles():
    doc = Document(doc_id="rb", title="Conduct Rulebook", text=RULEBOOK, lang="en")
    chunks = chunk_document(doc)
    assert ids(chunks) == ["1.1.1", "1.1.2", "1.2.1"]
    assert chunks[1].path == ["1 General", "1.1 Application"]
    assert chunks[2].path == ["1 General", "1.2 Interpretation"]
    assert chunks[1].text == "1.1.2 A firm must keep records for six years."
    assert chunks[1].location == "Conduct Rulebook 1.1.2"


def test_notice_sections():
    doc = Document(doc_id="notices/leave", title="2025학년도 1학기 휴학 신청 안내", text=NOTICE, kind="notice")
    chunks = chunk_document(doc)
    assert ids(chunks) == ["s1", "s2", "s3", "s4"]
    assert [c.location for c in chunks] == [
        "2025학년도 1학기 휴학 신청 안내",
        "2025학년도 1학기 휴학 신청 안내 > 신청 기간",
        "2025학년도 1학기 휴학 신청 안내 > 신청 방법",
        "2025학년도 1학기 휴학 신청 안내 > 신청 방법 > 문의",
    ]
    assert chunks[2].text == "신청 방법\n포털에서 신청합니다.\n서류는 학사지원팀에 제출합니다."
    assert chunks[3].path == ["신청 방법", "문의"]
    assert all(c.title == "2025학년도 1학기 휴학 신청 안내" for c in chunks)


def test_long_section_splits_on_paragraphs():
    paras = [f"{i}번째 문단입니다. " + "내용을 설명합니다. " * 6 for i in range(1, 5)]
    text = "# 안내\n\n## 세부 사항\n\n" + "\n\n".join(p.strip() for p in paras)
    doc = Document(doc_id="n", title="안내", text=text)
    chunks = chunk_document(doc, CorpusSettings(max_chunk_chars=150, min_chunk_chars=10))
    assert ids(chunks) == ["s1", "s1~2", "s1~3", "s1~4"]
    assert chunks[1].text == "세부 사항\n" + paras[1].strip()


def test_plain_paragraphs_packed_into_blocks():
    paras = ["가" * 60, "나" * 60, "다" * 60]
    doc = Document(doc_id="p", title="메모", text="\n\n".join(paras))
    chunks = chunk_document(doc, CorpusSettings(max_chunk_chars=130, min_chunk_chars=10))
    assert [(c.chunk_id, c.text) for c in chunks] == [
        ("p#s1", paras[0] + "\n" + paras[1]), ("p#s2", paras[2])]
    assert chunks[1].location == "메모 [2/2]"


def test_over_long_paragraph_split_by_sentence():
    sent = "이 문장은 스무 글자 남짓입니다."
    doc = Document(doc_id="p", title="t", text=" ".join([sent] * 10))
    chunks = chunk_document(doc, CorpusSettings(max_chunk_chars=100, min_chunk_chars=10))
    assert all(len(c.text) <= 100 for c in chunks)
    assert " ".join(c.text for c in chunks) == doc.text


def test_chooser():
    s = CorpusSettings()
    assert choose_chunker(Document("a", "t", "제1조(목적) 가\n제2조(정의) 나"), s)[0] == "statute"
    assert choose_chunker(Document("a", "t", POLICY_EN), s)[0] == "english-rules"
    assert choose_chunker(Document("a", "t", NOTICE), s)[0] == "markdown-sections"
    assert choose_chunker(Document("a", "t", "그냥 글입니다."), s)[0] == "paragraphs"
    short = Document("a", "t", "제1조(목적) 가\n제2조(정의) 나", metadata={"format": "jsonl"})
    assert choose_chunker(short, s)[0] == "paragraphs"


def test_plain_text_notice_with_numbered_titles():
    text = ("장학금 신청 안내\n\n게시일: 2025-02-01\n\n1. 신청 기간\n2025년 3월 4일부터 3월 8일까지\n\n"
            "2. 신청 방법\n가. 포털에서 신청합니다.\n나. 서류는 장학복지팀에 냅니다.\n\n[문의]\n장학복지팀 02-123-4567")
    doc = Document(doc_id="notices/s", title="장학금 신청 안내", text=text, kind="notice")
    assert choose_chunker(doc, CorpusSettings())[0] == "text-sections"
    chunks = chunk_document(doc)
    assert [(c.chunk_id, c.location) for c in chunks] == [
        ("notices/s#s1", "장학금 신청 안내"),
        ("notices/s#s2", "장학금 신청 안내 > 1. 신청 기간"),
        ("notices/s#s3", "장학금 신청 안내 > 2. 신청 방법"),
        ("notices/s#s4", "장학금 신청 안내 > [문의]"),
    ]
    assert chunks[0].text == "게시일: 2025-02-01"
    assert chunks[2].text == "2. 신청 방법\n가. 포털에서 신청합니다.\n나. 서류는 장학복지팀에 냅니다."
    # numbered sentences, ○ bullets and numbers from tables are not titles
    items = Document(doc_id="x", title="t", text="1. 신청서를 냅니다.\n내용\n○ 기간 안내\n내용\n6.2\n3.5\n12.1")
    assert choose_chunker(items, CorpusSettings())[0] == "paragraphs"
    table = Document(doc_id="y", title="t", text="155.7 18:2 129.8\n3.5 (23.1 3.5\n2.0 2.0")
    assert choose_chunker(table, CorpusSettings())[0] == "paragraphs"


def test_english_inline_paragraph_on_heading_line_and_split():
    text = ("Terms\nArticle 5 (Exclusions) (1) The Company does not pay when the insured acts intentionally.\n"
            "(2) The Company does not pay for losses caused by war.\n(3) Nor for nuclear events.")
    doc = Document(doc_id="t", title="Terms", text=text, lang="en", kind="policy")
    chunks = chunk_document(doc, CorpusSettings(max_chunk_chars=110, min_chunk_chars=5))
    assert [(c.chunk_id, c.location) for c in chunks] == [
        ("t#Article 5", "Terms Article 5 (Exclusions) (1)"),
        ("t#Article 5~2", "Terms Article 5 (Exclusions) (2)~(3)"),
    ]
    assert chunks[1].text == ("Article 5 (Exclusions)\n(2) The Company does not pay for losses caused by war.\n"
                              "(3) Nor for nuclear events.")


def test_sections_and_parts():
    text = "Part I Scope\nSection 1. Application\nThese rules apply to members.\nSection 2\nMembers must comply."
    doc = Document(doc_id="b", title="Bylaws", text=text, lang="en")
    chunks = chunk_document(doc)
    assert [(c.chunk_id, c.location, c.path) for c in chunks] == [
        ("b#Section 1", "Bylaws Section 1 (Application)", ["Part I Scope"]),
        ("b#Section 2", "Bylaws Section 2", ["Part I Scope"]),
    ]
