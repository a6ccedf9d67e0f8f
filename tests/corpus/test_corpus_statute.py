"""Korean statute chunking: 장/절 path, 조의2, 항 split, 부칙 anchors, preamble, exact locations."""

from __future__ import annotations

import pytest

from geunkeo.config import CorpusSettings
from geunkeo.corpus import chunk_document, load_paths
from geunkeo.corpus.base import Document
from geunkeo.corpus.chunkers.statute import match_article, paragraph_label, split_inline_paragraphs
from geunkeo.trace import Trace

P1 = "① 학생이 질병이나 그 밖의 부득이한 사유로 3개월 이상 수학할 수 없을 때에는 총장의 허가를 받아 휴학할 수 있다."
P2 = "② 휴학은 학기 단위로 하며, 통산 6학기를 넘을 수 없다. 다만, 군입대휴학 기간은 산입하지 아니한다."
P3 = "③ 휴학을 하려는 학생은 휴학원서에 보호자의 동의서를 붙여 학사지원팀(02-123-4567)에 제출하여야 한다."
REGULATION = f"""---
title: 테스트대학교 학칙
kind: regulation
version: 2024.9.1 개정
date: 2024-09-01
lang: ko
---

# 테스트대학교 학칙

이 학칙은 테스트대학교 이사회의 의결을 거쳐 제정한다.

## 제1장 총칙

제1조(목적) 이 학칙은 테스트대학교의 교육에 필요한 사항을 정함을 목적으로 한다.

제2조(정의) 이 학칙에서 사용하는 용어의 뜻은 다음과 같다.
1. "학생"이란 등록을 마친 사람을 말한다.
2. "휴학"이란 다음 각 목의 것을 말한다.
가. 일반휴학
나. 군입대휴학

## 제2장 학적

### 제1절 휴학

제12조(휴학) {P1}
{P2}
{P3}
제3조에 따른 등록을 하지 아니한 학생은 휴학할 수 없다.

제12조의2(창업휴학) ① 창업을 한 학생은 2학기 이내에서 창업휴학을 할 수 있다.
② 창업휴학은 제12조제2항의 휴학 기간에 산입하지 아니한다.

### 제2절 복학

제13조(복학) 휴학 기간이 끝난 학생은 다음 학기 개시일 전까지 복학하여야 한다.

부칙 <2024. 3. 1.>
제1조(시행일) 이 학칙은 2024년 3월 1일부터 시행한다.
제2조(경과조치) 이 학칙 시행 당시 휴학 중인 학생은 종전의 규정에 따른다.

부칙 <2024. 9. 1.>
제1조(시행일) 이 학칙은 2024년 9월 1일부터 시행한다.
"""


@pytest.fixture()
def doc(tmp_path) -> Document:
    root = tmp_path / "corpus"
    (root / "regulations").mkdir(parents=True)
    (root / "regulations" / "hakchik.md").write_text(REGULATION, encoding="utf-8")
    docs, failures = load_paths([root])
    assert failures == []
    return docs[0]


def by_anchor(chunks):
    return {c.chunk_id.split("#", 1)[1]: c for c in chunks}


def test_front_matter_metadata(doc):
    assert (doc.doc_id, doc.title, doc.kind, doc.version, doc.date, doc.lang) == (
        "regulations/hakchik", "테스트대학교 학칙", "regulation", "2024.9.1 개정", "2024-09-01", "ko")
    # text line 0 ("# 테스트대학교 학칙") is file line 8, after 7 front-matter lines and a blank line
    assert doc.metadata["body_line_offset"] == 8 and doc.text.split("\n")[0] == "# 테스트대학교 학칙"


def test_article_chunks_paths_and_locations(doc):
    trace = Trace()
    chunks = chunk_document(doc, CorpusSettings(), trace)
    assert trace.decisions[0]["chunker"] == "statute"
    assert [c.chunk_id.split("#")[1] for c in chunks] == [
        "s0", "제1조", "제2조", "제12조", "제12조의2", "제13조", "부칙제1조", "부칙제2조", "부칙제1조_2"]
    a = by_anchor(chunks)
    assert a["s0"].text == "이 학칙은 테스트대학교 이사회의 의결을 거쳐 제정한다."
    assert a["s0"].location == "테스트대학교 학칙"
    assert a["제1조"].path == ["제1장 총칙"]
    assert a["제12조"].path == ["제2장 학적", "제1절 휴학"]
    assert a["제13조"].path == ["제2장 학적", "제2절 복학"]
    assert a["제12조"].location == "테스트대학교 학칙 제12조(휴학) 제1항~제3항"
    assert a["제12조"].paragraphs == ["제1항", "제2항", "제3항"]
    assert a["제12조의2"].location == "테스트대학교 학칙 제12조의2(창업휴학) 제1항~제2항"
    assert (a["제12조의2"].article, a["제12조의2"].article_title) == ("제12조의2", "창업휴학")
    assert a["제13조"].location == "테스트대학교 학칙 제13조(복학)"
    assert a["제13조"].paragraphs == []
    # 호 and 목 stay inside their article
    assert a["제2조"].text.endswith("가. 일반휴학\n나. 군입대휴학")
    assert a["제2조"].metadata["items"] == 2 and a["제2조"].metadata["subitems"] == 2
    # A line starting with a reference to 제3조 is text of 제12조, not a new article.
    assert a["제12조"].text.endswith("제3조에 따른 등록을 하지 아니한 학생은 휴학할 수 없다.")
    assert all(c.title == "테스트대학교 학칙" and c.lang == "ko" for c in chunks)


def test_supplementary_provisions_do_not_collide(doc):
    a = by_anchor(chunk_document(doc))
    assert a["부칙제1조"].location == "테스트대학교 학칙 부칙 제1조(시행일)"
    assert a["부칙제1조"].path == ["부칙 <2024. 3. 1.>"]
    assert a["부칙제1조"].article == "제1조"
    assert a["부칙제1조_2"].path == ["부칙 <2024. 9. 1.>"]
    assert a["부칙제1조_2"].text == "제1조(시행일) 이 학칙은 2024년 9월 1일부터 시행한다."
    assert a["제1조"].text.startswith("제1조(목적)")


def test_long_article_split_at_paragraph_boundaries(doc):
    # 제12조 is ~230 characters (항 of 74, 58 and 95); with a 130-character limit it must split between 항, never inside one.
    chunks = chunk_document(doc, CorpusSettings(max_chunk_chars=130, min_chunk_chars=10))
    a = by_anchor(chunks)
    parts = [c for c in chunks if c.article == "제12조"]
    assert [c.chunk_id.split("#")[1] for c in parts] == ["제12조", "제12조~2", "제12조~3"]
    assert a["제12조"].text == f"제12조(휴학) {P1}"
    assert a["제12조"].location == "테스트대학교 학칙 제12조(휴학) 제1항"
    # continuation parts repeat the article heading so they read on their own
    assert a["제12조~2"].text == f"제12조(휴학)\n{P2}"
    assert a["제12조~2"].location == "테스트대학교 학칙 제12조(휴학) 제2항"
    assert a["제12조~3"].text == f"제12조(휴학)\n{P3}\n제3조에 따른 등록을 하지 아니한 학생은 휴학할 수 없다."
    assert a["제12조~3"].paragraphs == ["제3항"]
    assert a["제12조~3"].metadata["part"] == "3/3"
    assert all(len(c.text) <= 130 for c in chunks)


def test_duplicate_articles_get_suffixes():
    text = "제1조(목적) 가.\n제2조(정의) 나.\n제1조(목적) 다시 쓴 조문."
    doc = Document(doc_id="d", title="규정", text=text, kind="regulation")
    ids = [c.chunk_id for c in chunk_document(doc)]
    assert ids == ["d#제1조", "d#제2조", "d#제1조_2"]


def test_heading_recognition():
    assert match_article("제12조의2(창업휴학) ① 학생은") == ("제12조의2", "창업휴학", "① 학생은")
    assert match_article("제 5 조 (정의)") == ("제5조", "정의", "")
    assert match_article("제7조 삭제 <2020. 3. 1.>") == ("제7조", None, "삭제 <2020. 3. 1.>")
    assert match_article("제3조에 따라 등록한다.") is None
    assert match_article("제3조(정의)에 따른 학생") is None
    assert paragraph_label("⑫ 내용") == "제12항"
    assert paragraph_label("제2항 내용") == "제2항"
    assert paragraph_label("제2항에 따른") is None


def test_insurance_parts_and_gwan():
    text = "\n".join([
        "## 보통약관", "제1관 목적 및 용어의 정의", "제1조(목적) 이 약관은 보험계약에 관한 사항을 정한다.",
        "제2관 보험금의 지급", "제3조(보험금의 지급사유) 회사는 피보험자가 상해를 입은 경우 보험금을 지급한다.",
        "## 상해입원 특별약관", "제1조(보상하는 손해) 회사는 상해로 입원한 경우 입원일당을 지급한다.",
    ])
    doc = Document(doc_id="policy/terms", title="한빛생명 보통약관", text=text, kind="policy")
    chunks = chunk_document(doc)
    assert [(c.chunk_id, c.path) for c in chunks] == [
        ("policy/terms#제1조", ["보통약관", "제1관 목적 및 용어의 정의"]),
        ("policy/terms#제3조", ["보통약관", "제2관 보험금의 지급"]),
        ("policy/terms#제1조_2", ["상해입원 특별약관"]),
    ]


def test_annex_and_word_style_paragraphs():
    text = "\n".join([
        "제5조(장학금의 종류) 제1항 장학금은 교내장학금과 교외장학금으로 나눈다.",
        "제2항 교내장학금의 지급 기준은 별표 1과 같다.",
        "부칙",
        "이 규정은 2025년 3월 1일부터 시행한다.",
        "[별표 1] 교내장학금 지급 기준",
        "성적우수 | 등록금 전액",
        "가계곤란 | 등록금 반액",
    ])
    doc = Document(doc_id="regs/s", title="장학금 규정", text=text, kind="regulation")
    chunks = chunk_document(doc)
    assert [(c.chunk_id, c.location) for c in chunks] == [
        ("regs/s#제5조", "장학금 규정 제5조(장학금의 종류) 제1항~제2항"),
        ("regs/s#부칙", "장학금 규정 부칙"),
        ("regs/s#별표1", "장학금 규정 [별표 1] 교내장학금 지급 기준"),
    ]
    assert chunks[1].text == "부칙\n이 규정은 2025년 3월 1일부터 시행한다."
    assert chunks[2].text.endswith("가계곤란 | 등록금 반액")


def test_version_and_date_from_lines_near_the_top(tmp_path):
    text = "생활관 운영 규정\n제정 2010. 3. 1.\n전부개정 2024. 12. 20.\n시행 2025-01-01\n\n제1조(목적) 목적을 정한다.\n제2조(정의) 뜻을 정한다.\n"
    (tmp_path / "dorm.txt").write_text(text, encoding="utf-8")
    (doc,), _ = load_paths([tmp_path / "dorm.txt"])
    assert (doc.title, doc.version, doc.date) == ("생활관 운영 규정", "2025.1.1 시행", "2025-01-01")
    chunks = chunk_document(doc)
    assert [c.chunk_id for c in chunks] == ["dorm#s0", "dorm#제1조", "dorm#제2조"]
    # the dated lines form the preamble; the title line is not repeated in it
    assert chunks[0].text == "제정 2010. 3. 1.\n전부개정 2024. 12. 20.\n시행 2025-01-01"


def test_pyeon_resets_lower_levels():
    text = "\n".join([
        "제1편 총칙", "제1장 목적", "제1조(목적) 목적을 정한다.",
        "제2편 학사", "제2조(학기) 학기를 정한다.", "제1장 수업", "제1절 출석", "제3조(출석) 출석을 정한다.",
    ])
    doc = Document(doc_id="r", title="규정", text=text)
    assert [c.path for c in chunk_document(doc)] == [
        ["제1편 총칙", "제1장 목적"], ["제2편 학사"], ["제2편 학사", "제1장 수업", "제1절 출석"]]


def test_paragraphs_run_together_on_one_line():
    text = ("제3조(학기) ① 학년도는 3월 1일에 시작한다. ② 학기는 2개로 하며 ①의 기간에 따른다. ③ 계절학기를 둘 수 있다.\n"
            "제4조(수업) ① 수업은 주간에 한다.\n② 야간 수업을 둘 수 있다. ③ 원격 수업도 가능하다.")
    doc = Document(doc_id="r", title="규정", text=text, kind="regulation")
    c3, c4 = chunk_document(doc)
    assert c3.paragraphs == ["제1항", "제2항", "제3항"]
    assert c3.text == ("제3조(학기) ① 학년도는 3월 1일에 시작한다.\n② 학기는 2개로 하며 ①의 기간에 따른다.\n"
                       "③ 계절학기를 둘 수 있다.")
    assert c4.location == "규정 제4조(수업) 제1항~제3항"
    assert split_inline_paragraphs("② 제1항 ①의 경우 ④ 없다", 3) == ["② 제1항 ①의 경우 ④ 없다"]
