"""Browser tests: Chromium driven by Playwright against pytest-django's live server, or, for
what matters at the table (offline above all), against the site served as docs/operating.md deploys it
(``deployed_site``: DEBUG=false, collectstatic with the manifest storage, gunicorn with
docs/operating.md's command; tests/deployed_site.py).

A phone-sized page (390x844, touch) is the scorer's device. Every tap goes through
``Phone.tap`` so that a test can count how many taps a deal costs.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import time
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace

import pytest

from deployed_site import DeployedSite
from scorebook.rules.evening_file import score_file


def _root_conftest_password() -> str:
    """tests/conftest.PASSWORD (tests/ is not a package: read it from its file)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_scorebook_root_conftest", Path(__file__).parents[1] / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.PASSWORD


PASSWORD = _root_conftest_password()

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "browser"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 640}
TIMEOUT_MS = 8_000
TAPS_FILE = ARTIFACTS / "taps.json"
IN_VIEW_JS = """el => {
  const r = el.getBoundingClientRect();
  const bar = document.getElementById('bar');
  if (bar && bar.contains(el)) return r.top >= 0 && r.bottom <= innerHeight + 0.5;
  const barTop = bar ? bar.getBoundingClientRect().top : innerHeight;
  const totals = document.getElementById('totals');
  const top = totals && totals.contains(el) ? 0 : (totals ? Math.max(0, totals.getBoundingClientRect().bottom) : 0);
  return r.top >= top - 0.5 && r.bottom <= Math.min(barTop, innerHeight) + 0.5 && r.left >= 0 && r.right <= innerWidth + 0.5;
}"""


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def artifacts(request):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def new_context(browser):
    """new_context(width=390) -> a fresh phone context (own cookies); all closed after the test."""
    contexts = []

    def make(width: int = PHONE["width"], height: int = PHONE["height"]):
        context = browser.new_context(
            viewport={"width": width, "height": height},
            has_touch=True,
            is_mobile=False,
            locale="en-GB",
            timezone_id="Europe/Brussels",
        )
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


class Phone:
    """One page of one browser context, with a tap counter and named screenshots."""

    def __init__(self, page, base_url: str, test_name: str, site: DeployedSite | None = None):
        self.page = page
        self.base_url = base_url.rstrip("/")
        self.test_name = test_name
        self.site = site  # the deployed site, whose database is read through its control process
        self.taps = 0
        self.scrolls = 0
        self.errors: list[str] = []
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    # --- moving around ---------------------------------------------------------------
    def url(self, path: str) -> str:
        return self.base_url + path

    def goto(self, path: str):
        response = self.page.goto(self.url(path))
        assert response is not None and response.ok, f"GET {path}: {response and response.status}"
        return response

    def tap(self, target) -> None:
        """A finger tap on a locator (or a CSS selector); counted. When the target is not in
        view (off the screen, or under the sticky totals or the bar at the bottom), the finger
        first scrolls it into view: a scroll, counted too."""
        locator = self.page.locator(target) if isinstance(target, str) else target
        locator.wait_for(state="visible")
        if not self.in_view(locator):
            self.scrolls += 1
            locator.evaluate("el => el.scrollIntoView({block: 'center'})")
        locator.tap()
        self.taps += 1

    def in_view(self, locator) -> bool:
        """The element is wholly on the screen and not under a fixed or sticky bar."""
        return locator.evaluate(IN_VIEW_JS)

    def shot(self, step: str) -> Path:
        path = ARTIFACTS / f"{self.test_name}-{step}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path

    def wait_until_kept(self, path: str | None = None, timeout_s: float = 20) -> None:
        """Wait until the service worker controls this page and keeps ``path`` (this page's by
        default) for use with no network. (A loop: ``wait_for_function`` does not wait for a
        promise, it takes it as a true value at once.)"""
        self.page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null")
        deadline = time.monotonic() + timeout_s
        check = "path => caches.match(path || location.pathname).then(r => Boolean(r))"
        while not self.page.evaluate(check, path):
            assert time.monotonic() < deadline, f"{path or self.page.url} was not kept within {timeout_s} s"
            self.page.wait_for_timeout(100)

    def wait_for_promise(self, script: str, arg=None, timeout_s: float = 20) -> None:
        """Wait until the promise that ``script`` (a function of ``arg``) returns is true."""
        deadline = time.monotonic() + timeout_s
        while not self.page.evaluate(script, arg):
            assert time.monotonic() < deadline, f"not true within {timeout_s} s: {script}"
            self.page.wait_for_timeout(100)

    def login(self, username: str, password: str = PASSWORD, next_path: str = "/evenings/") -> None:
        """The login form, as a person fills it."""
        self.goto(f"/accounts/login/?next={next_path}")
        self.submit_login(username, password)

    def submit_login(self, username: str, password: str = PASSWORD) -> None:
        """The login form on the page, filled and sent as a person does."""
        self.page.fill('input[name="username"]', username)
        self.page.fill('input[name="password"]', password)
        with self.page.expect_navigation():
            self.page.locator('form button[type="submit"]', has_text="Log in").tap()
        assert "/accounts/login/" not in self.page.url, "the login failed"

    # --- the scoring page ------------------------------------------------------------
    def board_text(self, selector: str) -> str:
        return " ".join(self.page.locator(selector).inner_text().split())

    def chips(self) -> dict[str, int]:
        """The running totals shown in the chips at the top of the scoring page."""
        return self.page.eval_on_selector_all(
            "#board .totals .chip:not(.pot)",
            """chips => Object.fromEntries(chips.map(c => [
                 (c.querySelector('.chip-name').getAttribute('aria-label') || c.querySelector('.chip-name').lastChild.textContent).trim(),
                 parseInt(c.querySelector('.chip-total').textContent.replace('\\u2212', '-'), 10)]))""",
        )

    def pot(self) -> int:
        return int(self.page.locator("#board .totals .chip.pot .chip-total").inner_text())

    def next_deal_number(self) -> int:
        return int(re.search(r"\d+", self.page.locator("#board .next .deal-no").inner_text()).group(0))

    def save_and_wait(self, button) -> None:
        """Tap a submit button of the board; wait until the board shows the next deal number."""
        before = self.next_deal_number()
        self.tap(button)
        self.page.wait_for_function(
            "n => { const el = document.querySelector('#board .next .deal-no');"
            " return el && parseInt(el.textContent.match(/\\d+/)[0], 10) === n; }",
            arg=before + 1,
        )
        self.page.wait_for_load_state()

    def _steps(self, scope, delta: int) -> None:
        button = scope.locator('button[data-step="1"]' if delta > 0 else 'button[data-step="-1"]')
        for _ in range(abs(delta)):
            self.tap(button)

    def go_offline(self) -> None:
        """The network drops, and the page knows it (before a tap could still post)."""
        self.page.context.set_offline(True)
        self.page.wait_for_function("() => !navigator.onLine")

    def go_online(self) -> None:
        """The network is back, and the page is told at once (as the browser's own event would)."""
        self.page.context.set_offline(False)
        self.page.evaluate("() => window.dispatchEvent(new Event('online'))")

    def tap_deal(self, contract: str, declarers: list[str]) -> None:
        """A deal as the scorer taps it (the contract, its declarers, Save), online or not: nothing
        is awaited (``record_contract`` waits for the deal to be saved)."""
        form = self.page.locator("#record")
        self.tap(form.locator(f'label.tap:has(input[value="{contract}"])'))
        for name in declarers:
            self.tap(form.locator(f'.declarers label.tap:has(input[value="{name}"])'))
        self.tap(self.save_button())

    def save_button(self):
        return self.page.locator("#save-deal")

    def record_contract(self, key: str, declarers, tricks=None) -> int:
        """Record a contract deal as the scorer taps it; returns the number of taps it took.

        ``tricks``: the declaring side's tricks (int), or per declarer (dict) for misère
        and piccolo; None leaves what the page preset (the contract's need). A contract
        among the "other contracts" costs one more tap (opening them).
        """
        from playwright.sync_api import expect

        start = self.taps
        form = self.page.locator("#record")
        radio = self.page.locator(f'input[name="contract"][value="{key}"]')  # relative, for has=
        needs = int(form.locator(radio).get_attribute("data-needs"))
        label = form.locator("label.tap", has=radio)
        if not label.is_visible():
            self.tap(form.locator(".more-contracts > summary"))
        self.tap(label)
        expect(form.locator(radio)).to_be_checked()
        for name in declarers:
            box = self.page.locator(f'input[name="declarers"][value="{name}"]')
            self.tap(form.locator(".declarers label.tap", has=box))
            expect(form.locator(box)).to_be_checked()
        if isinstance(tricks, dict):
            for name, value in tricks.items():
                row = form.locator(f'.tricks-each .each[data-player="{name}"]')
                self._steps(row, value - needs)
                expect(row.locator("input")).to_have_value(str(value))
        else:
            target = needs if tricks is None else tricks
            self._steps(form.locator(".tricks-side"), target - needs)
            expect(form.locator('.tricks-side input[name="tricks"]')).to_have_value(str(target))
        self.save_and_wait(self.save_button())
        return self.taps - start

    def record_classic(self, tricks: int, honours: str | None = None) -> int:
        """A classic deal: the first team's tricks on the keypad (0-13), an honours button
        ("0-3" = 3 honours to the first team ...); returns the taps it took."""
        from playwright.sync_api import expect

        start = self.taps
        form = self.page.locator("#record")
        key = form.locator(f'.keypad input[name="tricks"][value="{tricks}"]')
        self.tap(form.locator(".keypad label.tap", has=self.page.locator(f'input[value="{tricks}"]')))
        expect(key).to_be_checked()
        expect(form.locator("#other-tricks")).to_have_text(str(13 - tricks))
        if honours is not None:
            radio = self.page.locator(f'input[name="honours"][value="{honours}"]')
            self.tap(form.locator(".honours label.tap", has=radio))
            expect(form.locator(radio)).to_be_checked()
        self.save_and_wait(self.save_button())
        return self.taps - start

    def record_pass(self) -> int:
        """All pass: its button among the contracts, then Save."""
        start = self.taps
        self.tap(self.page.locator('#record label.tap:has(input[name="contract"][value="pass"])'))
        self.save_and_wait(self.save_button())
        return self.taps - start

    def open_menu(self) -> None:
        """The evening's tools: the menu in the bar at the bottom."""
        menu = self.page.locator("#bar details.tools")
        if menu.get_attribute("open") is None:
            self.tap(menu.locator("summary"))

    def delete_deal(self, number: int) -> None:
        """Delete, then confirm in place."""
        row = self.page.locator(f"#deal-{number}")
        self.tap(row.locator("details.confirm > summary"))
        self.tap(row.locator(".confirm-panel button", has_text=f"Delete deal {number}"))

    def deal_rows(self) -> dict[int, dict[str, int | None]]:
        """The deal list: number -> {player: delta, None when he sat out}."""
        return {
            int(number): {name: (None if value == "–" else int(value.replace("\u2212", "-"))) for name, value in cells}
            for number, cells in self.page.eval_on_selector_all(
                "#board .deal-list li.deal",
                """items => items.map(li => [li.querySelector('.num').textContent.trim(),
                     Array.from(li.querySelectorAll('.deltas .delta:not(.pot)')).map(d => [
                       d.querySelector('.who').textContent.trim(),
                       d.lastChild.textContent.trim()])])""",
            )
        }

    def settlement_lines(self) -> dict[str, tuple[int, Decimal | None]]:
        """Name -> (points, money) from the settlement page's standings."""
        rows = {}
        for row in self.page.locator(".standings .standing").all():
            name = row.locator(".standing-name").inner_text().strip()
            points = parse_points(row.locator(".standing-points .figure").inner_text())
            money = row.locator(".standing-money")
            rows[name] = (points, parse_money(money.inner_text()) if money.count() else None)
        return rows

    def deals_stored(self, pk: int) -> int:
        if self.site:
            return len(self.site.call("deals", evening=pk))
        from scorebook.evenings.models import Deal

        return Deal.objects.filter(evening_id=pk).count()

    @staticmethod
    def log_taps(kind: str, taps: int) -> None:
        """Keep the measured tap counts in artifacts/browser/taps.json (for the report)."""
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        data = json.loads(TAPS_FILE.read_text()) if TAPS_FILE.exists() else {}
        data[kind] = taps
        TAPS_FILE.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")

    def export_report(self, pk: int) -> dict:
        """The evening file from the export link (with this context's session), scored by the engine."""
        response = self.page.request.get(self.url(f"/e/{pk}/export/"))
        assert response.ok, response.status
        text = response.text()
        json.loads(text)
        return score_file(text)


def parse_money(text: str) -> Decimal:
    """ "+€0.80", "−€1.20", "€0.00" -> Decimal."""
    cleaned = text.replace("\u2212", "-").replace("\u00a0", "").replace("€", "").replace(",", "").replace("+", "")
    return Decimal(cleaned.strip())


def parse_points(text: str) -> int:
    return int(text.replace("\u2212", "-").replace("+", "").strip())


@pytest.fixture
def phone(new_context, live_server, artifacts, request):
    """phone(width=390, name=None) -> a Phone on a new context of the live server."""

    def make(width: int = PHONE["width"], name: str | None = None, height: int | None = None) -> Phone:
        if height is None:
            height = PHONE["height"] if width == PHONE["width"] else SMALL_PHONE["height"]
        page = new_context(width=width, height=height).new_page()
        return Phone(page, live_server.url, name or request.node.name.removeprefix("test_"))

    return make


# --- the deployed site ------------------------------------------------------------------------


@pytest.fixture(scope="session")
def deployed_site(tmp_path_factory):
    """The site as docs/operating.md deploys it, started once for the session (tests/deployed_site.py);
    on PostgreSQL when DATABASE_URL names it (a database of its own, dropped at the end)."""
    site = DeployedSite(tmp_path_factory.mktemp("deployed"), os.environ.get("DATABASE_URL"))
    try:
        site.start()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        timings = {key: round(value, 2) for key, value in site.timings.items()}
        (ARTIFACTS / "deployed-site-startup.json").write_text(json.dumps(timings, indent=2) + "\n")
        yield site
    finally:
        site.stop()


@pytest.fixture
def deployed(deployed_site):
    """The deployed site for one test, which fails if the site logged a server error meanwhile."""
    start = len(deployed_site.log())
    yield deployed_site
    errors = deployed_site.server_errors(since=start)
    assert not errors, "the deployed site logged server errors:\n" + deployed_site.log()[start:][-4000:]


_people = itertools.count(1)


@pytest.fixture
def deployed_scorer(deployed):
    """Marie keeps the score, on the deployed site (an account of her own for each test)."""
    username = f"marie-{os.getpid()}-{next(_people)}"
    pk = deployed.call("user", username=username, password=PASSWORD, first_name="Marie")
    return SimpleNamespace(pk=pk, username=username)


@pytest.fixture
def deployed_evening(deployed, deployed_scorer):
    """deployed_evening("kleurenwiezen", ["Anne", ...], stake=None, deals=[...]): Marie's evening,
    made on the deployed site through the real services."""

    def make(ruleset="kleurenwiezen", players=("Anne", "Bert", "Carl", "Dina"), stake="0.10", **extra):
        pk = deployed.call(
            "evening", username=deployed_scorer.username, ruleset=ruleset, players=list(players), stake=stake, **extra
        )
        return SimpleNamespace(pk=pk)

    return make


@pytest.fixture
def deployed_phone(new_context, deployed, artifacts, request):
    """deployed_phone(width=390, name=None) -> a Phone on a new context of the deployed site."""

    def make(width: int = PHONE["width"], name: str | None = None, height: int | None = None) -> Phone:
        if height is None:
            height = PHONE["height"] if width == PHONE["width"] else SMALL_PHONE["height"]
        page = new_context(width=width, height=height).new_page()
        return Phone(page, deployed.url, name or request.node.name.removeprefix("test_"), site=deployed)

    return make
