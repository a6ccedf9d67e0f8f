"""A chunk's reading is kept across answers (answer/context.py): numbering and tables stay each answer's own."""

from __future__ import annotations

from geunkeo.answer.context import ContextIndex, clear_context_cache
from geunkeo.corpus.base import Chunk

RULES = Chunk("rules#제3조", "rules", "학사 규정",
              "제3조(수강신청) ① 수강신청은 학사지원팀(02-555-0101)에서 받는다.\n② 변경은 제4조에 따른다.", "학사 규정 제3조")
NOTICE = Chunk("notice#s1", "notice", "장학 안내", "장학금 문의: 장학복지팀 02-555-0202", "장학 안내 > 문의")


def test_a_kept_reading_is_numbered_by_each_answer_and_its_tables_are_that_answers_own():
    clear_context_cache()
    first = ContextIndex([RULES, NOTICE])
    second = ContextIndex([NOTICE, RULES])  # both chunks' readings kept from the first answer
    assert [d.n for d in first.docs] == [1, 2] and [d.n for d in second.docs] == [1, 2]
    assert [d.chunk.chunk_id for d in second.docs] == ["notice#s1", "rules#제3조"]
    assert {n for _, n in first.contacts.values()} == {1, 2}
    assert first.contacts.keys() == second.contacts.keys()
    assert all(second.contacts[k][1] == 3 - first.contacts[k][1] for k in first.contacts)  # the other number
    first.docs[0].pairs[("x", "제9조")] = "added by a check"
    assert ("x", "제9조") not in second.docs[1].pairs  # the same chunk, another answer's table


def test_a_reading_made_afresh_equals_a_kept_one():
    clear_context_cache()
    fresh = ContextIndex([RULES, NOTICE])
    kept = ContextIndex([RULES, NOTICE])
    assert [(d.n, d.names, d.articles, d.paragraphs, d.pairs, d.mentioned) for d in fresh.docs] == \
        [(d.n, d.names, d.articles, d.paragraphs, d.pairs, d.mentioned) for d in kept.docs]
    assert fresh.contacts == kept.contacts and fresh.departments == kept.departments and fresh.texts == kept.texts
