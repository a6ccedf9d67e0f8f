"""In a real browser: ask a question, read the cited answer, open a citation, see the quoted sentence marked."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow


def test_ask_and_open_a_citation(live_server, page, screenshot):
    page.goto(live_server.url + "/")
    page.fill("#q", "휴학은 최대 몇 학기까지 할 수 있나요?")
    page.click("form.ask button")
    page.wait_for_selector("#answer")
    assert page.get_attribute("p.state", "data-state") == "answered"
    text = page.inner_text("#answer .text")
    assert "6개 학기" in text
    cite = page.locator("a.cite").first
    n = cite.get_attribute("data-n")
    source = page.locator(f"#src-{n}")
    if source.locator("details").get_attribute("open") is None:  # the first cited source opens by itself
        source.locator("summary").click()
    assert source.locator("mark").first.is_visible()
    # the sentence the answer states is the one marked in the cited article
    assert any("통산 6개 학기" in m for m in source.locator("mark").all_inner_texts())
    screenshot(page, "ask-answered")


def test_a_question_the_documents_cannot_answer_is_withheld_with_sources(live_server, page, screenshot):
    page.goto(live_server.url + "/?lang=en&q=" + "고양이 중성화 수술 비용은 얼마인가요?")
    assert page.get_attribute("p.state", "data-state") == "withheld"
    assert "Withheld" in page.inner_text("p.state")
    page.click("details.how summary")
    assert page.locator("ol.decisions li").count() > 3
    screenshot(page, "ask-withheld-en")


def test_the_api_docs_page_loads_with_no_network(live_server, page):
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(live_server.url + "/docs")
    assert "/api/ask" in page.inner_text("main")
    assert all(u.startswith(live_server.url) for u in requests), requests
