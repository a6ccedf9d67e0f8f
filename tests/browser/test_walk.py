"""The tasks of the web app's three people, walked in a real browser at desktop (1280×900) and phone (390×844) size:

- a student reads what the home page covers, asks, opens a cited source, reads the badge and "how this was
  found", and gets a withheld answer with its reason in Korean;
- a reviewer opens a case from the queue, is told a key is needed without losing what was typed, logs in, saves,
  sees the confirmation and goes on to the next case;
- a manager opens a run's report and compares two runs.

On every page: no console error, no request to any host but the test server, and no axe-core violation of impact
"critical" or "serious" (axe.min.js fetched by `make install` into .ci/cache/, see scripts/install_axe.sh).
Every step's screenshot is saved as `walk-<size>-<person>-<n>-<step>.png` under .ci/artifacts/screens/.
"""

from __future__ import annotations

import re
from urllib.parse import quote, urlsplit

import pytest

pytestmark = pytest.mark.slow

SIZES = {"desktop": {"viewport": {"width": 1280, "height": 900}},
         "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}}
HANGUL = re.compile("[가-힣]")

# axe's results for the impacts that fail the walk: rule, impact, and where (at most 5 nodes each). Colour contrast,
# most of axe's time, is checked at desktop size only: the phone stylesheet changes layout, not colours.
AXE_RUN = """async (contrast) => {
  const r = await axe.run(document, {resultTypes: ["violations"], rules: {"color-contrast": {enabled: contrast}}});
  return r.violations.filter(v => v.impact === "critical" || v.impact === "serious").map(v => ({
    rule: v.id, impact: v.impact, help: v.help, count: v.nodes.length,
    nodes: v.nodes.slice(0, 5).map(n => n.target.join(" ") + " :: " + (n.failureSummary || "").split("\\n")[1])}));
}"""


class Walk:
    """One person's walk at one size: a fresh browser context (own cookies), and what every page must satisfy
    gathered as it goes, so one failing run names every problem at once."""

    def __init__(self, browser, base: str, size: str, person: str, axe: str, screenshot) -> None:
        self.ctx = browser.new_context(locale="ko-KR", **SIZES[size])
        self.page, self.base, self.axe, self.shot = self.ctx.new_page(), base, axe, screenshot
        self.size, self.name, self.step = size, f"walk-{size}-{person}", 0
        self.errors: list[str] = []
        self.external: list[str] = []
        self.violations: list[str] = []
        self.page.on("console", lambda m: self.errors.append(f"{self.page.url}: {m.text}") if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"{self.page.url}: {e}"))
        self.page.on("requestfailed", lambda r: self.errors.append(f"failed {r.url}"))
        self.page.on("request", lambda r: None if r.url.startswith(base + "/") else self.external.append(r.url))

    def goto(self, path: str) -> None:
        self.page.goto(self.base + path)

    def path(self) -> str:
        return urlsplit(self.page.url).path

    def check(self, step: str, axe: bool = True, full_page: bool = True) -> None:
        """A screenshot of the page as it is now, and axe-core's serious and critical violations recorded (once
        per page: a step that only opens a part of it is checked with the page's last step)."""
        self.step += 1
        if axe and not self.page.evaluate("typeof window.axe !== 'undefined'"):
            self.page.add_script_tag(content=self.axe)
        for v in self.page.evaluate(AXE_RUN, self.size == "desktop") if axe else []:
            self.violations.append(f"{self.path()} [{step}] {v['impact']} {v['rule']}: {v['help']} "
                                   f"({v['count']} elements) {v['nodes']}")
        self.shot(self.page, f"{self.name}-{self.step}-{step}", full_page=full_page)

    def refused(self, status: int) -> None:
        """The page was just refused with `status` on purpose (a save without a reviewer key): Chromium logs any
        such response as a console error, and this one, exactly once, is expected."""
        logged = [e for e in self.errors if f"status of {status}" in e]
        assert len(logged) == 1, self.errors
        self.errors.remove(logged[0])

    def finish(self) -> None:
        self.ctx.close()
        assert self.violations == [], "\n".join(self.violations)
        assert self.errors == [], self.errors
        assert self.external == [], self.external


@pytest.fixture
def walk(axe_source, browser, live_server, screenshot):
    walks: list[Walk] = []

    def start(size: str, person: str) -> Walk:
        walks.append(Walk(browser, live_server.url, size, person, axe_source, screenshot))
        return walks[-1]

    yield start
    for w in walks:
        w.ctx.close()


def _in_view(page, locator) -> None:
    page.wait_for_function("m => { const r = m.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }",
                           arg=locator.element_handle())


@pytest.mark.parametrize("size", SIZES)
def test_student_asks_reads_a_source_and_is_told_why_an_answer_is_withheld(walk, size):
    w = walk(size, "student")
    pg = w.page
    w.goto("/")
    assert "한빛대학교 학칙" in pg.inner_text("#home ul.docs")  # the documents it answers from, by title
    assert 3 <= pg.locator("#examples a").count() <= 5
    w.check("home")

    pg.fill("#q", "휴학은 최대 몇 학기까지 할 수 있나요?")
    pg.click("form.ask button")
    pg.wait_for_selector("#answer")
    assert pg.get_attribute("p.state", "data-state") == "answered"
    assert pg.inner_text("p.state").strip() == "확인된 답변"  # the badge, in words
    w.check("answer", axe=False)

    cite = pg.locator("#answer a.cite").first
    n = cite.get_attribute("data-n")
    cite.click()
    source = pg.locator(f"#src-{n}")
    assert source.locator("details").get_attribute("open") is not None
    assert source.locator(".badge.ok").inner_text().strip() == "인용"
    _in_view(pg, source.locator("mark").first)
    w.check("source", axe=False)

    pg.click("details.how > summary")
    how = pg.locator("details.how")
    assert how.locator("ul.found-docs li").count() >= 1
    assert "개 문서를 검색해" in how.inner_text() and "문서의 문장을 그대로" in how.inner_text()
    assert not pg.locator("ol.decisions").is_visible()  # the raw trace stays behind the developer toggle
    w.check("how-found")

    w.goto("/?q=" + quote("고양이 중성화 수술 비용은 얼마인가요?"))
    assert pg.get_attribute("p.state", "data-state") == "withheld"
    assert pg.inner_text("p.state").strip() == "문서에서 확인되지 않아 답변을 보류합니다"
    reasons = pg.locator("#answer ul.reasons li").all_inner_texts()
    assert reasons and all(HANGUL.search(r) and "_" not in r for r in reasons), reasons  # sentences, not codes
    w.check("withheld")
    w.finish()


@pytest.mark.parametrize(("size", "reviewer"), [("desktop", "alice"), ("phone", "bob")])
def test_reviewer_is_asked_for_a_key_logs_in_saves_and_goes_on(walk, live_server, size, reviewer):
    w = walk(size, "reviewer")
    pg = w.page
    w.goto("/review")  # the one run with a queue opens at once
    assert w.path() == f"/review/{live_server.run}"
    w.check("queue")

    pg.locator("#queue a.queue-q").first.click()
    pg.wait_for_selector("#decide")
    case = w.path()
    w.check("case", axe=False)

    notes = f"{reviewer} read the cited article"
    pg.check("input[name=decision][value=partial]")
    pg.fill("textarea[name=notes]", notes)
    pg.click("#decide button[type=submit]")
    pg.wait_for_selector("#conflict")
    assert "검토자 키가 필요합니다" in pg.inner_text("#conflict")
    w.refused(401)
    assert pg.input_value("textarea[name=notes]") == notes and pg.is_checked("input[value=partial]")
    w.check("needs-key")

    pg.click("header #login-link")
    pg.wait_for_url("**/login?**")
    w.check("login")
    pg.fill("#key", live_server.keys[reviewer])
    pg.click("main form button[type=submit]")
    pg.wait_for_selector("#decide")
    assert w.path() == case and reviewer in pg.inner_text("header .account")

    pg.check("input[name=decision][value=partial]")
    pg.fill("textarea[name=notes]", notes)
    pg.click("#decide button[type=submit]")
    pg.wait_for_selector("#saved")
    assert pg.inner_text("#saved").startswith("저장했습니다.")
    assert notes in pg.inner_text("#history")
    w.check("saved")

    pg.click("#next-case")
    pg.wait_for_selector("#decide")
    assert w.path() != case and w.path().startswith(f"/review/{live_server.run}/")
    w.check("next-case", axe=False)
    w.finish()


@pytest.mark.parametrize("size", SIZES)
def test_manager_opens_a_report_and_compares_two_runs(walk, live_server, size):
    w = walk(size, "manager")
    pg = w.page
    run, baseline = live_server.run, live_server.baseline
    w.goto("/runs")
    assert pg.locator(f"a[href^='/runs/{run}?']").count() == 1
    assert pg.locator(f"a[href^='/runs/{baseline}?']").count() == 1
    w.check("runs")

    pg.click(f"a[href^='/runs/{run}?']")
    pg.wait_for_selector("#executive .plotly-graph-div .main-svg", timeout=15000)
    assert pg.locator("#compliance").count() == 1
    w.check("report", full_page=False)  # the report is many screens long: its first one

    pg.go_back()
    pg.select_option("select[name=a]", baseline)
    pg.select_option("select[name=b]", run)
    pg.click("form[action='/runs/compare'] button")
    pg.wait_for_selector("#compare-title")
    assert pg.inner_text("#compare-title") == f"A {baseline} · B {run} 비교"
    # the baseline holds the same records: nothing got worse or better, and no flag changed
    assert pg.inner_text("#changed-summary").endswith("0개 악화 · 0개 개선")
    assert pg.locator("#flag-changes td.muted").inner_text() == "없음"
    w.check("compare")
    w.finish()
