"""The biggest nights the new-night form allows, written while another club's phone saves deals:
how long that phone waits for a save (issue 32: on SQLite a write holds the whole database, and a
160 x 5 night once made that phone wait 12 seconds).

    .venv/bin/python bench/big_night.py [--postgres]

The operating guide's deployment (docs/operating.md) on 127.0.0.1 (its gunicorn command behind its
nginx block, ``Server``) on SQLite (or a throwaway PostgreSQL database): a phone of another club, a table's scoring link
without an account, records a deal after another over HTTP, as fast as it is answered (a pause of
0.1 s between two), while this process, as the director, writes each night of the form's limits
(160 players x 5 sessions: the most tables; 40 x 20: the most sessions) and what a night then
writes in one go: its table cards, a session closed, a late arrival (the sessions left redrawn) and
the night deleted. Prints the phone's longest save during each (``big_night_*_phone_wait_s``) and
the longest of all (``big_night_phone_wait_max_s``, target 1 s), and the director's own waits.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.report import figure, finish  # noqa: E402
from bench.run import Server, configure, with_postgres  # noqa: E402

NIGHTS = ((160, 5), (40, 20))  # players x sessions: the form's limits (seating.MAX_SEATS)
TARGET_S = 1.0
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
DEAL = {"contract": "samen-9", "declarers": ["Bert", "Dina"], "tricks": "9"}


class _Stay(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class OtherPhone(threading.Thread):
    """A table's phone of another club: opens its card's link, then saves deals until stopped.
    ``saves``: (started, seconds) of every save answered; ``errors``: anything else."""

    def __init__(self, base: str, token: str, evening_pk: int):
        super().__init__(daemon=True)
        self.base, self.token, self.evening_pk = base, token, evening_pk
        self.opener = urllib.request.build_opener(_Stay)
        self.cookies: dict[str, str] = {}
        self.saves: list[tuple[float, float]] = []
        self.errors: list[str] = []
        self.stopping = threading.Event()

    def _open(self, path: str, data: dict | None = None, headers: dict | None = None) -> tuple[int, str]:
        headers = dict(headers or {})
        if self.cookies:  # the site's cookies are Secure: sent by hand over plain HTTP on loopback
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = urllib.parse.urlencode(data, doseq=True).encode() if data is not None else None
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            response = self.opener.open(urllib.request.Request(self.base + path, body, headers), timeout=60)
        except urllib.error.HTTPError as answer:
            response = answer
        with response:
            for line in response.headers.get_all("Set-Cookie") or []:
                name, _, rest = line.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
            return response.status, response.read().decode(errors="replace")

    def run(self) -> None:
        status, _ = self._open(f"/t/{self.token}/")
        status, page = self._open(f"/e/{self.evening_pk}/")
        csrf = TOKEN.search(page)
        if status != 200 or csrf is None:
            self.errors.append(f"the scoring page answered {status}")
            return
        n = 0
        while not self.stopping.is_set():
            form = DEAL | {"request_key": f"other-{n}", "csrfmiddlewaretoken": csrf.group(1)}
            headers = {"HX-Request": "true", "Referer": f"{self.base}/e/{self.evening_pk}/"}
            started = time.monotonic()
            try:
                status, _ = self._open(f"/e/{self.evening_pk}/deals/", form, headers)
            except OSError as error:
                self.errors.append(repr(error))
                continue
            took = time.monotonic() - started
            if status == 200:
                self.saves.append((started, took))
            else:
                self.errors.append(f"a save answered {status}")
            n += 1
            self.stopping.wait(0.1)

    def longest(self, since: float, until: float) -> float | None:
        """The longest save that overlapped [since, until], or the first one begun after it."""
        waits = [took for started, took in self.saves if started <= until and started + took >= since]
        after = [took for started, took in self.saves if started > until][:1]
        return max(waits + after, default=None)

    def saved_after(self, moment: float, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not any(started > moment for started, _ in self.saves) and time.monotonic() < deadline:
            time.sleep(0.05)


def measure(tmp: Path) -> None:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from scorebook.clubs.models import Club, Membership, Role
    from scorebook.evenings import creation, links
    from scorebook.nights import services

    call_command("migrate", interactive=False, verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    users = get_user_model().objects
    director, scorer = users.create_user("director"), users.create_user("scorer")
    club, other = Club.objects.create(name="De Troef", slug="de-troef"), Club.objects.create(name="Klaver", slug="k")
    Membership.objects.create(club=club, user=director, role=Role.ADMIN)
    Membership.objects.create(club=other, user=scorer, role=Role.SCORER)
    evening = creation.create_evening(
        ruleset="kleurenwiezen",
        players=["Anne", "Bert", "Carl", "Dina"],
        first_dealer=0,
        stake=None,
        currency="EUR",
        date=date(2026, 3, 14),
        user=scorer,
        club=other,
    )
    server = Server(tmp, "big-night")
    server.start()
    phone = OtherPhone(server.base, links.issue(evening), evening.pk)
    phone.start()
    longest = []
    try:
        phone.saved_after(time.monotonic())
        for players, sessions in NIGHTS:
            label = f"{players}x{sessions}"

            def write(what: str, do, label=label):
                started = time.monotonic()
                result = do()
                ended = time.monotonic()
                phone.saved_after(ended)  # the save under way when the write ended is counted
                waited = phone.longest(started, ended)
                figure(f"big_night_{label}_{what}_phone_wait_s", waited, target=TARGET_S)
                figure(f"big_night_{label}_{what}_director_s", ended - started)
                longest.append(waited)
                return result

            night = write(
                "create",
                lambda players=players, sessions=sessions: services.create_night(
                    club=club,
                    user=director,
                    name=f"Kaartavond {players}",
                    date=date(2026, 3, 14),
                    ruleset="kleurenwiezen",
                    sessions=sessions,
                    deals_per_session=8,
                    ranking="total",
                    place_points=[],
                    stake=None,
                    currency="EUR",
                    players=[f"Speler {n:03d}" for n in range(1, players + 1)],
                    seed=3,
                ),
            )
            write("cards", lambda night=night: services.table_links(night))
            write("close", lambda night=night: services.close_session(night, 1, director))
            write("late", lambda night=night: services.late_arrival(night, "Laatkomer", director))
            write("delete", lambda night=night: services.delete_night(night))
    finally:
        phone.stopping.set()
        phone.join(timeout=60)
        server.stop()
    figure("big_night_phone_errors", len(phone.errors), "{}", target=0)
    measured = [w for w in longest if w is not None]
    figure("big_night_phone_wait_max_s", max(measured) if len(measured) == len(longest) else None, target=TARGET_S)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL database instead of SQLite")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="scorebook-big-night-"))
    try:
        if args.postgres:
            with with_postgres("big_night") as (url, problem):
                if url is None:
                    figure("big_night_phone_wait_max_s", f"unavailable ({problem})", target=TARGET_S)
                    return finish()
                configure(tmp, url)
                measure(tmp)
        else:
            configure(tmp)
            measure(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
