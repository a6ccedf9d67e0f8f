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
    pa.reload()
    assert "alice" in pa.inner_text("#history") and "agree" in pa.inner_text("#history")
    after = pa.inner_text("#agreement")
    assert after != before or after == "100%"
    screenshot(pa, "review-decided")

    pb.check("input[value=disagree]")
    pb.click("#decide button[type=submit]")
    pb.wait_for_selector("#conflict")
    assert "changed since it was opened" in pb.inner_text("#conflict")
    pb.reload()
    history = pb.inner_text("#history")
    assert "alice" in history and "bob" not in history  # refused, not overwritten
    screenshot(pb, "review-conflict")
    alice.close()
    bob.close()


def test_runs_page_lists_the_run_and_opens_its_report(live_server, page):
    page.goto(live_server.url + "/runs")
    page.click(f"text={live_server.run}")
    page.wait_for_load_state()
    assert "Executive" in page.content() or "executive" in page.content()
