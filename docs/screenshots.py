"""make screenshots: the pictures of the guides (docs/guides/ and their translations), taken from a demo
club at 390x844, in each language the guides are written in.

For each language it builds the demo club (``manage.py seed_demo_club --language LANG``: what its
members typed is in that language too) in a throwaway SQLite database, serves it with ``runserver`` on
a free port of 127.0.0.1, and walks through the site in that language as the scorer, the secretary,
the treasurer and the night director do, in Debian's Chromium (Playwright, never its own browser).
Pages are reached by their URL names (``reverse``) and the demo's own records, and what is tapped is
found by its role and its label, as a person finds it, in the language's words (the site's own
catalogues say them): when the pages change, the script keeps working as long as the messages on the
buttons do. Each picture is written to the language's folder (docs/img/, docs/fr/img/, docs/nl/img/)
as a palette PNG (256 colours), a few tens of kilobytes.

    .venv/bin/python docs/screenshots.py                       # every picture, in every language
    .venv/bin/python docs/screenshots.py --language fr scorer  # the French pictures of one guide
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only for the types: Django is set up, and Playwright started, once the demo site runs
    from django.db.models import QuerySet
    from playwright.sync_api import Browser, Locator, Page

    from scorebook.clubs.models import Club
    from scorebook.evenings.models import Evening
    from scorebook.nights.models import Night

ROOT = Path(__file__).resolve().parent.parent
# each language: its browser's locale, and the folder of its pictures (where its guides show them from)
LANGUAGES = {
    "en": ("en-GB", ROOT / "docs" / "img"),
    "fr": ("fr-BE", ROOT / "docs" / "fr" / "img"),
    "nl": ("nl-BE", ROOT / "docs" / "nl" / "img"),
}
PHONE = {"width": 390, "height": 844}
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
PASSWORD = "demo-scorebook"  # the demo user's, published (seed_demo)
TIMEOUT_MS = 15_000


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def demo_site(folder: Path, language: str) -> Iterator[str]:
    """The demo club in ``folder``'s database, its notes in ``language``, served on 127.0.0.1; yields the
    site's address."""
    env = os.environ | {
        "DATABASE_URL": f"sqlite:///{folder / 'demo.sqlite3'}",
        "DEBUG": "true",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SETTINGS_MODULE": "scorebook.settings",
    }
    # this process reads the same database (the demo's ids), beside Playwright's event loop
    os.environ.update(env | {"DJANGO_ALLOW_ASYNC_UNSAFE": "true"})
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "-v", "0"], env=env, check=True, cwd=ROOT)
    seed = [*manage, "seed_demo_club", "--language", language]
    subprocess.run(seed, env=env, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    port = free_port()
    log = (folder / "server.log").open("w")
    server = subprocess.Popen(
        [*manage, "runserver", "--noreload", f"127.0.0.1:{port}"], env=env, cwd=ROOT, stdout=log, stderr=log
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(base + "/accounts/login/", timeout=2)  # our own server
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit(f"the demo site did not start: see {folder / 'server.log'}") from None
                time.sleep(0.3)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()


class Tour:
    """One browser, a phone-sized context per person, and the pictures, in one language."""

    def __init__(self, browser: Browser, base: str, language: str) -> None:
        import django

        django.setup()
        self.browser, self.base, self.language = browser, base, language
        self.locale, self.img = LANGUAGES[language]
        self.taken: list[Path] = []

    def said(self, message: str, **values: object) -> str:
        """A message of the site as its pages say it in the tour's language (its catalogues)."""
        from django.utils import translation

        translate = translation.gettext  # the site's own messages: nothing here for makemessages to collect
        with translation.override(self.language):
            text = translate(message)
        return text % values if values else text

    def contract_name(self, ruleset: str, key: str) -> str:
        from scorebook.rules import registry

        return registry.get(ruleset).contract(key).names.get(self.language)

    # --- the demo's records ------------------------------------------------------------------------
    def url(self, name: str, *args: object) -> str:
        from django.urls import reverse

        return self.base + reverse(name, args=args)

    @property
    def club(self) -> Club:
        from scorebook.clubs.models import Club

        return Club.objects.get(slug="de-troef")

    def evenings(self) -> QuerySet[Evening]:
        return self.club.evenings.filter(night_table__isnull=True).order_by("date")

    def night(self) -> Night:
        return self.club.nights.get()

    # --- phones ------------------------------------------------------------------------------------
    def phone(self, *, logged_in: bool = True) -> Page:
        context = self.browser.new_context(
            viewport=PHONE, has_touch=True, locale=self.locale, timezone_id="Europe/Brussels", color_scheme="light"
        )
        context.set_default_timeout(TIMEOUT_MS)
        context.add_cookies([{"name": "django_language", "value": self.language, "url": self.base}])
        page = context.new_page()
        if logged_in:
            page.goto(self.base + "/accounts/login/")
            page.get_by_label(self.said("User name")).fill("demo")
            page.get_by_label(self.said("Password"), exact=True).fill(PASSWORD)
            page.get_by_role("button", name=self.said("Log in")).click()
            page.wait_for_url(lambda url: "/accounts/login/" not in url)
        return page

    def shot(
        self, page: Page, name: str, *, at: Locator | None = None, block: str = "start", full: bool = False
    ) -> None:
        """The screen as the phone shows it (``at``: first scrolled to that element, at the top of the
        screen or, with ``block="center"``, in its middle)."""
        page.wait_for_load_state("load")
        if at is not None:
            at.first.evaluate("(el, block) => el.scrollIntoView({block})", block)
            if block == "start":
                page.evaluate("window.scrollBy(0, -8)")
        page.wait_for_timeout(150)  # transitions and fonts settle
        path = self.img / f"{name}.png"
        page.screenshot(path=str(path), full_page=full, animations="disabled", caret="hide")
        self.taken.append(path)

    # --- the guides --------------------------------------------------------------------------------
    def scorer(self) -> None:
        tonight = self.evenings().last()
        assert tonight is not None, "the demo club has evenings"
        page = self.phone()
        page.goto(self.url("evening_list"))
        self.shot(page, "scorer-evenings")
        page.goto(self.url("evening_new"))
        self.shot(page, "scorer-new-evening")

        page.goto(self.url("evening", tonight.pk))
        self.shot(page, "scorer-scoring")
        record = page.locator("#record")
        contracts, declarers = (
            record.get_by_role("group", name=self.said("Contract")),
            record.get_by_role("group", name=self.said("Declarers")),
        )
        contracts.get_by_role("radio", name=self.contract_name("kleurenwiezen", "samen-8")).check()
        for name in self.playing(tonight)[:2]:
            declarers.get_by_role("checkbox", name=name).check()
        self.shot(page, "scorer-record", at=record)
        self.save(page, tonight)

        # offline: the deal waits on the phone; another phone records meanwhile; back online, a conflict
        self.wait_until_kept(page)
        other = self.phone()
        other.goto(self.url("evening", tonight.pk))
        page.context.set_offline(True)
        all_pass = self.said("All pass")
        contracts.get_by_role("radio", name=all_pass).check()
        page.get_by_role("button", name=self.said("Save the deal")).click()
        page.locator(".waiting-badge").first.wait_for()
        self.shot(page, "scorer-waiting")
        other_contracts = other.locator("#record").get_by_role("group", name=self.said("Contract"))
        other_contracts.get_by_role("radio", name=all_pass).check()
        self.save(other, tonight)
        page.context.set_offline(False)
        discard = page.get_by_role("button", name=self.said("Discard")).first
        discard.wait_for()
        page.wait_for_load_state("networkidle")  # the page settles after the queue's answers (else it may scroll back)
        self.shot(page, "scorer-conflict", at=page.locator("li", has=discard), block="center")
        discard.click()

        last = tonight.deals.order_by("number").last()
        page.goto(self.url("deal_edit", tonight.pk, last.number))
        self.shot(page, "scorer-correct")
        page.goto(self.url("settlement", tonight.pk))
        self.shot(page, "scorer-settle")
        page.goto(self.url("evening_rules", tonight.pk))
        self.shot(page, "scorer-rules", at=page.locator("#how-title"))
        other.context.close()
        page.context.close()

    def playing(self, evening: Evening) -> list[str]:
        """Who plays the next deal (the engine says), in seat order."""
        from scorebook.evenings import stored

        return list(stored.scored(evening).result.next.playing)

    def save(self, page: Page, evening: Evening) -> None:
        """Save the deal on the form and wait until the page shows the next one."""
        following = evening.deals.count() + 2
        page.get_by_role("button", name=self.said("Save the deal")).click()
        page.locator("#board").get_by_text(self.said("Deal %(n)s", n=following)).first.wait_for()

    def wait_until_kept(self, page: Page) -> None:
        """The service worker controls the page and keeps it for use with no network."""
        page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null")
        deadline = time.monotonic() + 20
        while not page.evaluate("() => caches.match(location.pathname).then(Boolean)"):
            if time.monotonic() > deadline:
                raise SystemExit("the scoring page was not kept for use offline")
            page.wait_for_timeout(100)

    def secretary(self) -> None:
        club = self.club
        page = self.phone()
        page.goto(self.url("club", club.slug))
        self.shot(page, "secretary-club")
        self.shot(page, "secretary-backup", at=page.get_by_text(self.said("Keep a copy of the club")))
        page.goto(self.url("club_members", club.slug))
        self.shot(page, "secretary-members")
        # a member restored without a password: the link to choose one, shown once
        page.get_by_role("button", name=self.said("Make a link to choose a password")).first.click()
        page.wait_for_load_state("load")
        self.shot(page, "secretary-password-link", at=page.locator(".member-password").first, block="center")
        page.goto(self.url("club_players", club.slug))
        self.shot(page, "secretary-roster")
        page.goto(self.url("club_rules_edit", club.slug, "kleurenwiezen") + "?open=troel")
        self.shot(page, "secretary-house-rules", at=page.locator("#c-troel"))
        page.goto(self.url("season_new", club.slug))
        self.shot(page, "secretary-new-season")
        page.goto(self.url("season", club.slug, club.seasons.get(ruleset="kleurenwiezen").pk))
        self.shot(page, "secretary-standings")
        page.context.close()

    def treasurer(self) -> None:
        club = self.club
        second = self.evenings()[1]  # settled in part
        page = self.phone()
        page.goto(self.url("settlement", second.pk))
        self.shot(page, "treasurer-settlement")
        self.shot(page, "treasurer-payments", at=page.get_by_role("heading", name=self.said("Who pays whom")))
        page.goto(self.url("club_ledger", club.slug))
        self.shot(page, "treasurer-ledger")
        page.goto(self.url("club_settle_up", club.slug))
        self.shot(page, "treasurer-settle-up")
        anne = club.players.get(name="Anne")
        page.goto(self.url("club_player", club.slug, anne.pk))
        self.shot(page, "treasurer-player")
        # the kitty: its figures and fees, money into it, the records; a season's prizes; settling up with it
        page.goto(self.url("club_kitty", club.slug))
        self.shot(page, "treasurer-kitty")
        fees = self.said("Record a player's fees paid, or a prize handed over (%(currency)s)", currency="EUR")
        page.get_by_text(fees).click()
        into = page.get_by_role("heading", name=self.said("Money into or out of the kitty"))
        self.shot(page, "treasurer-kitty-payment", at=into)
        page.goto(self.url("club_kitty", club.slug))
        records = page.get_by_role("heading", name=self.said("Expenses and prizes"))
        self.shot(page, "treasurer-kitty-records", at=records)
        page.goto(self.url("season", club.slug, club.seasons.get(ruleset="liege").pk))
        prizes = page.get_by_role("heading", name=self.said("Prizes from the club's kitty"))
        self.shot(page, "treasurer-prizes", at=prizes)
        page.goto(self.url("club_settle_up", club.slug) + "?kitty=1")
        self.shot(page, "treasurer-settle-up-kitty")
        page.context.close()

    def director(self) -> None:
        club, night = self.club, self.night()
        page = self.phone()
        page.goto(self.url("night_new", club.slug))
        self.shot(page, "director-new-night")
        page.goto(self.url("night", night.pk))
        self.shot(page, "director-night")
        changes = page.get_by_role("heading", name=self.said("Changes of players"))
        changes.click()  # the folded part opens
        page.get_by_label(self.said("Late arrival")).fill("Quinten")
        self.shot(page, "director-late", at=changes)
        page.get_by_role("button", name=self.said("Add the late arrival")).click()
        page.wait_for_load_state("load")
        self.shot(page, "director-reprint")
        page.goto(self.url("night_plan", night.pk))
        self.shot(page, "director-plan")
        page.goto(self.url("night", night.pk))
        page.get_by_role("link", name=self.said("Live ranking")).first.click()
        page.wait_for_load_state("load")
        self.shot(page, "director-ranking")
        page.goto(self.url("night", night.pk))
        page.get_by_role("button", name=self.said("Make the link")).click()
        page.wait_for_load_state("load")
        self.shot(page, "director-ranking-link")
        page.goto(self.url("night", night.pk))
        which = page.get_by_label(self.said("Which cards"))
        which.select_option(label=self.said("session %(n)s", n=2))  # the session being played
        page.get_by_role("button", name=self.said("Print table cards")).click()
        page.wait_for_load_state("load")
        self.shot(page, "director-cards")
        card = page.locator("a[href*='/t/']").first.get_attribute("href") or ""
        table = self.phone(logged_in=False)
        table.goto(card if card.startswith("http") else self.base + card)
        self.shot(table, "director-table")
        table.context.close()
        page.context.close()


GUIDES: dict[str, Callable[[Tour], None]] = {
    "scorer": Tour.scorer,
    "secretary": Tour.secretary,
    "treasurer": Tour.treasurer,
    "director": Tour.director,
}


def optimise(path: Path) -> None:
    """A palette PNG: the pictures are flat colours and text, 256 colours keep them sharp."""
    from PIL import Image

    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    small.save(path, optimize=True)


def shoot(language: str, names: list[str]) -> None:
    """The pictures of ``names`` (every guide if empty) in ``language``, from a demo club of its own."""
    from playwright.sync_api import sync_playwright

    img = LANGUAGES[language][1]
    img.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix=f"scorebook-screenshots-{language}-"))
    start = time.monotonic()
    try:
        with demo_site(folder, language) as base, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            tour = Tour(browser, base, language)
            for name in names or GUIDES:
                GUIDES[name](tour)
            browser.close()
        for path in tour.taken:
            optimise(path)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    total = sum(p.stat().st_size for p in img.glob("*.png"))
    where = img.relative_to(ROOT)
    print(f"{len(tour.taken)} pictures in {where}/ ({total / 1024:.0f} KB in all), {time.monotonic() - start:.0f} s")  # noqa: T201


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="docs/screenshots.py", description="The guides' pictures.")
    parser.add_argument("--language", choices=sorted(LANGUAGES), action="append", help="only this language")
    parser.add_argument("guides", nargs="*", metavar="GUIDE", help=", ".join(GUIDES))
    args = parser.parse_args(argv)
    unknown = set(args.guides) - set(GUIDES)
    if unknown:
        raise SystemExit(f"unknown guide {', '.join(sorted(unknown))}: choose among {', '.join(GUIDES)}")
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"{CHROMIUM} is missing: make chromium")
    languages = args.language or list(LANGUAGES)
    if len(languages) == 1:
        shoot(languages[0], args.guides)
        return
    # one process per language: each serves and reads its own demo database (Django is set up once a process)
    for language in languages:
        subprocess.run([sys.executable, __file__, "--language", language, *args.guides], check=True, cwd=ROOT)


if __name__ == "__main__":
    main(sys.argv[1:])
