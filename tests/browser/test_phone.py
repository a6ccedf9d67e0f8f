"""At phone width (390×844): every page fits without sideways scrolling, the nav wraps as whole words, Korean
words are not broken mid-word, and no page logs a console error or asks anything of another host."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser, live_server):
    ctx = browser.new_context(viewport=PHONE, locale="ko-KR", is_mobile=True, has_touch=True)
    pg = ctx.new_page()
    pg.errors, pg.external = [], []
    pg.on("console", lambda m: pg.errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    pg.on("request", lambda r: None if r.url.startswith(live_server.url) else pg.external.append(r.url))
    yield pg
    ctx.close()


def _fits(pg) -> None:
    width = pg.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{pg.url} is {width} px wide"
    wide = pg.evaluate("""[...document.querySelectorAll('main *')].filter(e => {
        const r = e.getBoundingClientRect(); return r.width > 0 && r.right > 391; }).length""")
    assert wide == 0, f"{wide} elements of {pg.url} stick out"


def _nav_words_whole(pg) -> None:
    """Each nav link is one line: its height is about one line, so no link is broken into syllables."""
    heights = pg.eval_on_selector_all("header nav a", "as => as.map(a => [a.textContent, a.getClientRects().length])")
    assert all(rects == 1 for _, rects in heights), heights


@pytest.mark.parametrize("path", ["/", "/?q=휴학 최대 몇 학기까지 할 수 있어?", "/?q=기숙사 나가면 돈 돌려줘?",
                                  "/?lang=en&q=how many semesters of leave?", "/docs", "/runs", "/login"])
def test_pages_fit_a_phone(live_server, phone, screenshot, path):
    phone.goto(live_server.url + path)
    phone.wait_for_load_state("networkidle")
    _fits(phone)
    _nav_words_whole(phone)
    assert phone.evaluate("getComputedStyle(document.body).wordBreak") == "keep-all"
    assert phone.errors == [] and phone.external == []
    if path.startswith("/?q=휴학"):
        screenshot(phone, "phone-ask")


def test_review_fits_a_phone(live_server, phone, screenshot):
    phone.goto(f"{live_server.url}/review/{live_server.run}?status=")
    _fits(phone)
    screenshot(phone, "phone-review-queue")
    phone.locator("#queue a.queue-q").first.click()
    phone.wait_for_selector("#decide")
    _fits(phone)
    _nav_words_whole(phone)
    screenshot(phone, "phone-review-case")
    assert phone.errors == [] and phone.external == []


def test_a_citation_on_a_phone_scrolls_to_its_marked_sentence(live_server, phone):
    phone.goto(live_server.url + "/?q=" + "휴학 최대 몇 학기까지 할 수 있어?")
    cite = phone.locator("a.cite").last
    n = cite.get_attribute("data-n")
    cite.tap()
    mark = phone.locator(f"#src-{n} mark").first
    phone.wait_for_function("m => { const r = m.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }",
                            arg=mark.element_handle())
    assert phone.errors == []
