"""The pages as HTML: the ask page's badge, reasons, fact line and sources in the page's language; the home page's
documents and examples; error pages; the review pages' form kept on refusal, confirmation and next case."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from geunkeo.answer.gate import REASON_CODES
from geunkeo.config import Settings
from geunkeo.evaluate.base import QACase
from geunkeo.evaluate.queue_records import ReviewPayload
from geunkeo.evaluate.review import ReviewQueue, Selection
from geunkeo.server.app import create_app
from geunkeo.server.auth import KeyStore
from geunkeo.server.home import candidate_questions, covered_documents
from geunkeo.server.strings import GATE_REASONS, LANGS, UI, flag_text, reason_text
from geunkeo.server.views import highlighted

pytestmark = pytest.mark.slow
HTML = {"accept": "text/html"}


@pytest.fixture(scope="module")
def client(server_index, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("pages")
    settings = Settings(server={"db_path": str(tmp / "server.db")})
    return TestClient(create_app(server_index, settings))


def _visible(html: str) -> str:
    """The page's text without the developer toggle (the raw trace) and tags."""
    html = re.sub(r'<details class="dev".*?</details>\s*</details>', "", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


def test_every_gate_reason_code_has_a_plain_sentence_in_both_languages():
    # the gate writes each reason as f"{GateReason.X}: …" (or through NOT_ANSWERED): never a bare "code: …"
    source = (Path(__file__).parents[2] / "src/geunkeo/answer/gate.py").read_text(encoding="utf-8")
    assert not re.search(r'(?:reasons\.append\(|GateDecision\([\w.]+, \[)f?"[a-z_]+:', source)
    written = set(re.findall(r"\{GateReason\.(\w+)\}", source))
    assert written and written <= {c.name for c in REASON_CODES}
    for code in REASON_CODES:
        assert set(GATE_REASONS[code]) == set(LANGS), code
    assert reason_text("not_answered: the top documents do not mention 고양이", "ko") == \
        "찾은 문서에 질문한 내용이 나와 있지 않습니다."
    assert set(UI["ko"]) == set(UI["en"])


def test_flag_codes_read_as_words():
    assert flag_text("P0-1_CONTEXT_RECALL_BELOW_THRESHOLD", "ko") == "검색 재현율 기준 미달"
    assert flag_text("HALLUCINATED_CLAIM_DETECTED", "en") == "claim not in the documents"
    # every code the flagging writes (evaluate/codes.py) has its words, in both languages
    from geunkeo.evaluate.codes import FlagReason, MetricSuffix
    from geunkeo.server.strings import FLAG_REASONS

    assert set(FLAG_REASONS) == set(FlagReason) and all(set(w) == set(LANGS) for w in FLAG_REASONS.values())
    assert all(flag_text("P1_NOISE_SENSITIVITY" + s, "en").startswith("noise sensitivity ") for s in MetricSuffix)


def test_an_answered_question_leads_with_its_fact_and_a_korean_badge(client):
    html = client.get("/", params={"q": "일반휴학은 최대 몇 학기까지 할 수 있나요?"}).text
    assert re.search(r'data-state="answered">\s*<strong>확인된 답변</strong>', html)
    fact = re.search(r'<div class="fact" id="fact">(.*?)</div>', html, re.S).group(1)
    assert "6개 학기" in fact and 'href="#src-' in fact
    assert not fact.lstrip().startswith("②")  # the source's paragraph mark is not the answer's first word
    assert 'id="hl-hint"' in html and "<mark>" in html
    assert re.search(r'<li id="src-\d" class="cited">\s*<details open>', html)


def test_a_withheld_answer_says_why_in_plain_words_and_shows_no_highlight_hint(client):
    for lang, badge in (("ko", "문서에서 확인되지 않아 답변을 보류합니다"),
                        ("en", "Not found in the documents, so no answer is given")):
        html = client.get("/", params={"q": "고양이 중성화 수술 비용은 얼마인가요?", "lang": lang}).text
        shown = _visible(html)
        reasons = re.search(r'<ul class="reasons"[^>]*>(.*?)</ul>', html, re.S).group(1)
        assert badge in shown and re.findall(r"<li>(.*?)</li>", reasons)
        assert set(re.findall(r"<li>(.*?)</li>", reasons)) <= {v[lang] for v in GATE_REASONS.values()}
        assert not re.search(r"\b[a-z]+_[a-z_]+:", shown) and "hl-hint" not in html
        assert "<code>retrieval_low_confidence: " in html  # the raw reason stays behind the developer toggle


def test_how_this_was_found_is_plain_with_the_raw_trace_behind_a_toggle(client):
    html = client.get("/", params={"q": "휴학 최대 몇 학기까지 할 수 있어?"}).text
    how = re.search(r'<details class="how" id="how">(.*?)<details class="dev"', html, re.S).group(1)
    assert "2개 문서를 검색해 가장 가까운 구절" in how and "시험대학교 학칙" in how
    assert "질문을 검색하기 좋게 바꿔 찾았습니다" in how or "질문을 그대로 검색했습니다" in how
    assert "=" not in re.sub(r"<[^>]+>", "", how)  # no key=value dumps
    assert '<ol class="decisions">' in html.split('<details class="dev"', 1)[1]


def test_the_home_page_names_the_documents_and_configured_examples(server_index, tmp_path):
    settings = Settings(server={"db_path": str(tmp_path / "s.db"),
                                "example_questions": ["휴학은 몇 학기까지?", "성적장학금 기준은?", "지급 시기는?"]})
    html = TestClient(create_app(server_index, settings)).get("/").text
    assert "시험대학교 학칙" in html and "시험대학교 장학금 규정" in html and "문서 2개" in html
    links = re.findall(r'<ul class="examples" id="examples">(.*?)</ul>', html, re.S)[0]
    assert links.count("<li>") == 3 and "성적장학금 기준은?" in links


def test_examples_come_from_the_index_own_headings(server_index):
    import geunkeo

    chunks = geunkeo.open_index(server_index).store.chunks()
    assert sorted(candidate_questions(chunks, "ko")) == ["성적장학금에 대해 알려 주세요", "휴학에 대해 알려 주세요"]
    docs = covered_documents(chunks)
    assert docs["documents"] == 2 and [d["title"] for d in docs["groups"]["regulation"]]


def test_a_quote_joining_a_paragraph_and_its_items_marks_each():
    text = "② 관리비는 다음 각 호에 따라 환불한다.\n1. 입사 전 취소: 관리비 전액\n2. 60일 후 퇴사: 환불하지 아니함"
    marked = [p for p, hl in highlighted(text, ["② 관리비는 다음 각 호에 따라 환불한다: (1) 입사 전 취소: 관리비 전액; "
                                                "(2) 60일 후 퇴사: 환불하지 아니함"]) if hl]
    assert marked == ["관리비는 다음 각 호에 따라 환불한다", "입사 전 취소: 관리비 전액", "60일 후 퇴사: 환불하지 아니함"]


def test_favicon_is_local(client):
    html = client.get("/").text
    assert '<link rel="icon" type="image/svg+xml" href="/static/favicon.svg">' in html
    r = client.get("/static/favicon.svg")
    assert r.status_code == 200 and r.text.startswith("<svg")


def test_page_errors_are_pages_and_api_errors_stay_json(client):
    page = client.get("/review/none", headers=HTML)
    assert page.status_code == 404 and 'id="error"' in page.text and "찾는 페이지가 없습니다" in page.text
    assert client.get("/api/review/none").json()["detail"]


@pytest.fixture
def review(server_index, tmp_path):
    run = tmp_path / "runs" / "r1"
    run.mkdir(parents=True)
    with ReviewQueue(run / "review.db") as q:
        for qid, text in (("q1", "휴학은 몇 학기?"), ("q2", "장학금은 언제?")):
            q.enqueue("e1", qid, Selection("FULL_REVIEW", 1, "ko/qa/simple"), "CRITICAL",
                      ["HALLUCINATED_CLAIM_DETECTED"], QACase(qid, text, reference_answer="6개 학기"),
                      ReviewPayload(answer="8개 학기 [1]."))
    (run / "summary.json").write_text('{"eval_id": "e1", "cases": 2}', encoding="utf-8")
    store = KeyStore(tmp_path / "server.db")
    keys = {"rev": store.create("alice", "reviewer"), "reader": store.create("carol", "reader")}
    settings = Settings(server={"db_path": str(tmp_path / "server.db")})
    return TestClient(create_app(server_index, settings, runs_dir=tmp_path / "runs")), keys


def test_the_queue_shows_questions_and_words_in_one_language(review):
    client, _ = review
    html = client.get("/review/r1").text
    assert "휴학은 몇 학기?</a>" in html and "문서에 없는 내용" in html
    case = client.get("/review/r1/q1").text
    assert "자동 판정(CRITICAL)이 맞다" in case and "자동 판정(CRITICAL)이 틀렸다" in case
    for english in ("Save decision", "Claims", "supporting chunks", "History", "root cause", ">agree<"):
        assert english not in case, english
    en = client.get("/review/r1/q1", params={"lang": "en"}).text
    assert "The automatic flag (CRITICAL) is right" in en and "결정 저장" not in en
    # the review home goes straight to the one run with a queue, in the language it was asked in
    moved = client.get("/review", params={"lang": "en"}, follow_redirects=False)
    assert moved.status_code == 303 and moved.headers["location"] == "/review/r1?lang=en"


def test_a_refused_save_keeps_the_form(review):
    client, keys = review
    form = {"decision": "partial", "based_on": "0", "notes": "반만 맞음", "corrected_answer": "6개 학기"}
    r = client.post("/review/r1/q1", data=form)
    assert r.status_code == 401 and "검토자 키가 필요합니다" in r.text and 'href="/login?next=' in r.text
    assert ">반만 맞음</textarea>" in r.text and 'value="partial" required checked' in r.text
    r = client.post("/review/r1/q1", data={**form, "key": keys["reader"]})
    assert r.status_code == 403 and ">반만 맞음</textarea>" in r.text
    ok = client.post("/review/r1/q1", data={**form, "key": keys["rev"]}, follow_redirects=False)
    assert ok.status_code == 303 and "saved=1" in ok.headers["location"]
    stale = client.post("/review/r1/q1", data={**form, "notes": "늦은 메모"},
                        headers={"Authorization": f"Bearer {keys['rev']}"})
    assert stale.status_code == 409 and ">늦은 메모</textarea>" in stale.text


def test_a_saved_decision_is_confirmed_with_the_next_case(review):
    client, keys = review
    r = client.post("/review/r1/q1", data={"decision": "agree", "based_on": "0", "key": keys["rev"]})
    assert r.status_code == 200 and 'id="saved"' in r.text and "저장했습니다" in r.text
    assert 'id="next-case" href="/review/r1/q2?lang=ko"' in r.text
