"""Properties that must hold for any input (hypothesis): the number parser, the analyzer, the chunker."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from geunkeo.text.numbers import find_quantities, parse_number

FAST = settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
KOREANISH = st.text(alphabet=st.sampled_from(list("휴학신청기간은일개월원만천백억조,. 0123456789%제조항abc!?\n")), max_size=80)


@FAST
@given(st.integers(min_value=1, max_value=9), st.integers(min_value=1, max_value=9), st.integers(min_value=1, max_value=9))
def test_compound_korean_numerals_are_read_by_place_value(a, b, c):
    # "2천5백만원" = 25,000,000: 천 and 백 count inside the 만 group
    assert parse_number(f"{a}천{b}백만원") == (a * 1000 + b * 100) * 10_000
    assert parse_number(f"{a}억 {b}천만원") == a * 100_000_000 + b * 10_000_000
    assert parse_number(f"{c}백원") == c * 100


@FAST
@given(st.integers(min_value=0, max_value=10**12))
def test_plain_and_grouped_digits_read_the_same(n):
    assert parse_number(f"{n:,}원") == n == parse_number(f"{n}원")


@FAST
@given(KOREANISH)
def test_quantities_never_overlap_and_point_into_the_text(text):
    found = find_quantities(text)
    for q in found:
        assert text[q.start:q.end] == q.text
    for a, b in zip(found, found[1:], strict=False):
        assert a.end <= b.start


@pytest.mark.slow
@FAST
@given(KOREANISH)
def test_analyzer_terms_are_deterministic_and_never_empty(text):
    from geunkeo.text.analyzer import get_analyzer

    an = get_analyzer()
    first = an.terms(text)
    assert first == an.terms(text)
    assert all(t.strip() for t in first)


@pytest.mark.slow
@FAST
@given(st.lists(st.text(alphabet=st.sampled_from(list("휴학은 학기 이내로 한다.학생신청abc 12")), min_size=1, max_size=60),
                min_size=1, max_size=12))
def test_every_character_of_a_regulation_lands_in_a_chunk(paragraphs):
    from geunkeo.config import CorpusSettings
    from geunkeo.corpus import chunk_document
    from geunkeo.corpus.base import Document

    body = "\n".join(f"제{i + 1}조(조항) {p}" for i, p in enumerate(paragraphs))
    doc = Document("d", "규정", body, kind="regulation")
    chunks = chunk_document(doc, CorpusSettings(max_chunk_chars=200, min_chunk_chars=10))
    kept = "".join("".join(c.text.split()) for c in chunks)
    for p in paragraphs:
        assert "".join(p.split()) in kept
