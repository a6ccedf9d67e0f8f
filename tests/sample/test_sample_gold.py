"""The sample corpus and its gold set stay consistent with each other and with the chunker.

The gold set names chunks by id (`regulations/hakchik#제15조`), so any change to the corpus files or to the
chunker's anchors that breaks a reference must fail here rather than silently lower the demo's metrics.
"""

from __future__ import annotations

import csv
import json
import re
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from geunkeo.corpus import chunk_document, load_paths
from geunkeo.corpus.base import Chunk, Document
from geunkeo.text.patterns import detect_lang

ROOT = Path(__file__).resolve().parents[2] / "sample"
CORPUS = ROOT / "corpus"
GOLD = ROOT / "gold"
CP949_NOTICE = CORPUS / "notices" / "academic-warning-counseling-2025-1.txt"

# The balance the gold set was written to (issue 2, item 11).
MIN_STYLES = {"formal": 25, "colloquial": 25, "fragment": 10, "english": 12, "crosslingual": 15}


@pytest.fixture(scope="module")
def docs() -> list[Document]:
    loaded, failures = load_paths([CORPUS])
    assert failures == []
    return loaded


@pytest.fixture(scope="module")
def chunks(docs: list[Document]) -> dict[str, Chunk]:
    out: dict[str, Chunk] = {}
    for doc in docs:
        for c in chunk_document(doc):
            assert c.chunk_id not in out, f"duplicate chunk id {c.chunk_id}"
            out[c.chunk_id] = c
    return out


@pytest.fixture(scope="module")
def queries() -> list[dict]:
    with open(GOLD / "queries.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


@pytest.fixture(scope="module")
def qrels() -> dict[str, list[str]]:
    with open(GOLD / "qrels" / "test.tsv", encoding="utf-8", newline="") as f:
        header = f.readline().rstrip("\n")
        assert header == "query-id\tcorpus-id\tscore"
        rel: dict[str, list[str]] = defaultdict(list)
        for row in csv.reader(f, delimiter="\t"):
            qid, cid, score = row
            assert score == "1"
            rel[qid].append(cid)
    return rel


def test_every_qrel_names_a_chunk_the_chunker_produces(chunks, qrels):
    missing = sorted({cid for cids in qrels.values() for cid in cids} - chunks.keys())
    assert missing == []


def test_every_query_has_an_answer_and_a_qrel(queries, qrels):
    ids = [q["_id"] for q in queries]
    assert len(ids) == len(set(ids))
    assert set(qrels) == set(ids)
    for q in queries:
        assert q["text"].strip() and q["answer"].strip(), q["_id"]
        assert q["task"] in ("qa", "summary")
        assert len(set(qrels[q["_id"]])) == len(qrels[q["_id"]]), f"{q['_id']} lists a chunk twice"


def test_every_case_says_how_complex_it_is(queries):
    # review sampling stratifies by language × task × complexity (evaluate/review.py)
    assert {q.get("complexity") for q in queries} == {"simple", "multi_hop"}


def test_summary_cases_cover_both_languages(queries):
    summaries = [q for q in queries if q["task"] == "summary"]
    assert len(summaries) >= 20
    assert {q["lang"] for q in summaries} == {"ko", "en"}


def test_style_balance(queries):
    counts = Counter(q["style"] for q in queries if q["task"] == "qa")
    assert set(counts) == set(MIN_STYLES)
    for style, minimum in MIN_STYLES.items():
        assert counts[style] >= minimum, f"{style}: {counts[style]} < {minimum}"
    assert len([q for q in queries if q["task"] == "qa"]) >= 90


def test_languages_match_styles(queries, chunks, qrels):
    for q in queries:
        langs = {chunks[c].lang for c in qrels[q["_id"]]}
        if q["style"] in ("formal", "colloquial", "fragment"):
            assert q["lang"] == "ko" and langs == {"ko"}, q["_id"]
        elif q["style"] == "english":
            assert q["lang"] == "en" and langs == {"en"}, q["_id"]
            assert all(c.startswith("policy/") for c in qrels[q["_id"]]), q["_id"]
        else:  # crosslingual: some relevant chunk is in the other language
            assert langs - {q["lang"]}, q["_id"]
        # The reference answer is written in the question's language (a quoted Korean name is fine).
        assert detect_lang(q["answer"]) == q["lang"], q["_id"]
        assert detect_lang(q["text"]) == q["lang"], q["_id"]


def test_parallel_ids_pair_one_korean_and_one_english_question(queries):
    pairs: dict[str, list[str]] = defaultdict(list)
    for q in queries:
        if "parallel_id" in q:
            pairs[q["parallel_id"]].append(q["lang"])
    assert len(pairs) >= 10
    for pid, langs in pairs.items():
        assert sorted(langs) == ["en", "ko"], pid


def test_numbers_in_reference_answers_appear_in_the_relevant_chunks(queries, chunks, qrels):
    # Grounding: every figure an answer cites (amounts, days, credits, phone parts) is in its gold chunks.
    for q in queries:
        context = " ".join(chunks[c].text for c in qrels[q["_id"]]).replace(",", "")
        for n in re.findall(r"\d+(?:\.\d+)?", q["answer"].replace(",", "")):
            assert n in context, f"{q['_id']}: {n} not in {qrels[q['_id']]}"


def test_corpus_size_and_shape(docs, chunks):
    kinds = Counter(d.kind for d in docs)
    assert kinds["notice"] >= 15
    articles = [c for c in chunks.values() if c.metadata.get("kind") == "regulation" and c.article
                and "~" not in c.chunk_id and not c.metadata.get("supplementary")]
    assert len(articles) >= 60
    # 제N조의2 articles and at least one article long enough to be split at 항 boundaries.
    assert "regulations/hakchik#제15조의2" in chunks
    assert "regulations/hakchik#제13조~2" in chunks
    assert chunks["regulations/hakchik#제15조"].path == ["제4장 학적", "제1절 휴학 및 복학"]
    assert {d.lang for d in docs if d.kind == "policy"} == {"ko", "en"}


def test_contact_details_for_the_hallucination_filter(docs):
    text = "\n".join(d.text for d in docs)
    for prefix in ("02-", "031-", "1588-"):
        assert re.search(rf"(?<!\d){prefix}\d{{3,4}}-?\d{{0,4}}", text), prefix
    assert len(set(re.findall(r"[\w.-]+@[\w-]+(?:\.[\w-]+)+", text))) >= 5
    for dept in ("학사지원팀", "학생지원센터", "장학복지팀", "생활관 행정실", "국제교류처"):
        assert dept in text, dept


def test_cp949_notice_is_really_cp949_and_decodes(docs):
    raw = CP949_NOTICE.read_bytes()
    with pytest.raises(UnicodeDecodeError):
        raw.decode("utf-8")
    assert raw.decode("cp949").startswith("---\ntitle: 2024학년도 2학기 학사경고자 학업 상담 안내")
    doc = next(d for d in docs if d.doc_id == "notices/academic-warning-counseling-2025-1")
    assert doc.metadata["encoding"] == "cp949"
    assert doc.title == "2024학년도 2학기 학사경고자 학업 상담 안내"
    assert "평점평균이 1.75 미만" in doc.text
