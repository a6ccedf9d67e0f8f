"""In a real browser: a reviewer logs in, decides a CRITICAL case, reloads and sees it kept and the agreement rate
moved; a second reviewer who opened the case before is refused, not allowed to overwrite."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow


def _login(page, base: str, key: str, target: str) -> None:
    page.goto(f"{base}/login?next={target}")
    page.fill("#key", key)
    page.click("form button[type=submit]")


def test_decide_reload_and_a_stale_second_decision(live_server, browser, screenshot):
    base = live_server.url
    alice = browser.new_context(viewport={"width": 1200, "height": 1600})
    bob = browser.new_context(viewport={"width": 1200, "height": 1600})
    pa, pb = alice.new_page(), bob.new_page()
    pa.goto(f"{base}/review/{live_server.run}?level=CRITICAL&status=")
    rows = pa.locator("#queue tr.critical a")
    if rows.count() == 0:
        pa.goto(f"{base}/review/{live_server.run}?status=")
        rows = pa.locator("#queue tr td a")
    case_url = rows.first.get_attribute("href").split("?")[0]
    before = pa.inner_text("#agreement")

    # unauthenticated writes are refused
    assert pa.request.post(f"{base}/api{case_url}", data={"decision": "agree", "based_on": 0}).status == 401

    _login(pa, base, live_server.keys["alice"], case_url)
    _login(pb, base, live_server.keys["bob"], case_url)  # bob opens the same case, same version
    pa.wait_for_selector("#decide")
    pb.wait_for_selector("#decide")
    pa.keyboard.press("a")  # keyboard shortcut: agree
    pa.fill("textarea[name=notes]", "checked against the regulation")
    pa.click("#decide button[type=submit]")
    pa.wait_for_selector("#history li b")
    assert pa.locator("#saved").is_visible()
    pa.reload()
    assert "alice" in pa.inner_text("#history") and "이 맞다" in pa.inner_text("#history")
    after = pa.inner_text("#agreement")
    assert after != before or after == "100%"
    screenshot(pa, "review-decided")

    assert pa.locator("#saved").is_visible()  # a confirmation, and the next case one click away
    pb.check("input[value=disagree]")
    pb.fill("textarea[name=notes]", "bob's reading")
    pb.click("#decide button[type=submit]")
    pb.wait_for_selector("#conflict")
    assert "다른 검토자가 먼저 저장해" in pb.inner_text("#conflict")
    assert pb.input_value("textarea[name=notes]") == "bob's reading"  # what bob typed is kept
    assert pb.is_checked("input[value=disagree]")
    pb.reload()
    history = pb.inner_text("#history")
    assert "alice" in history and "bob" not in history  # refused, not overwritten
    screenshot(pb, "review-conflict")
    alice.close()
    bob.close()


def test_runs_page_lists_the_run_and_opens_its_report(live_server, page, screenshot):
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.goto(live_server.url + "/runs")
    page.click(f"text={live_server.run}")
    page.wait_for_load_state()
    # the report speaks the app's language (Korean unless ?lang=en)
    assert page.locator("#executive h2").inner_text().startswith("요약")
    assert page.get_attribute("html", "lang") == "ko" and page.inner_text("nav a.back >> nth=0") == "← 평가 결과"
    # the figures are drawn as they come near the screen, once the deferred plotly.js has loaded
    page.wait_for_selector("#executive .plotly-graph-div .main-svg", timeout=15000)
    page.locator("#debug").scroll_into_view_if_needed()
    page.wait_for_selector("#debug .plotly-graph-div .main-svg", timeout=15000)
    screenshot(page, "run-report")
    assert errors == []
    page.click("nav a.back >> nth=0")  # the way back to the runs
    page.wait_for_load_state()
    assert page.url.split("?")[0].endswith("/runs")


def test_saving_without_a_key_keeps_the_form_and_a_typed_key_saves_it(live_server, browser, screenshot):
    base = live_server.url
    ctx = browser.new_context(viewport={"width": 1200, "height": 1600})
    pg = ctx.new_page()
    pg.goto(f"{base}/review/{live_server.run}?status=pending")
    first = pg.locator("#queue a.queue-q").first
    assert first.inner_text().strip() and not first.inner_text().strip().startswith("q0")  # the question, not an id
    first.click()
    pg.check("input[value=partial]")
    pg.fill("textarea[name=notes]", "only the first half is right")
    pg.click("#decide button[type=submit]")
    pg.wait_for_selector("#conflict")
    assert "검토자 키가 필요합니다" in pg.inner_text("#conflict")
    assert pg.locator("#conflict a[href^='/login']").count() == 1
    assert pg.input_value("textarea[name=notes]") == "only the first half is right"
    assert pg.is_checked("input[value=partial]")
    screenshot(pg, "review-needs-key")
    pg.fill("#key", live_server.keys["carol"])  # a reader key cannot save either
    pg.click("#decide button[type=submit]")
    pg.wait_for_selector("#conflict")
    assert "읽기 전용" in pg.inner_text("#conflict")
    pg.fill("#key", live_server.keys["bob"])
    pg.click("#decide button[type=submit]")
    pg.wait_for_selector("#saved")
    assert "only the first half is right" in pg.inner_text("#history")
    nxt = pg.locator("#next-case")
    if nxt.count():
        here = pg.url.split("?")[0]
        nxt.click()
        pg.wait_for_selector("#decide")
        assert pg.url.split("?")[0] != here
    ctx.close()


def test_a_page_error_is_a_page_with_a_login_link(live_server, page):
    page.goto(f"{live_server.url}/review/{live_server.run}/export.jsonl")
    assert page.locator("#error").is_visible()
    assert page.locator("#login-link").get_attribute("href").startswith("/login?next=")
