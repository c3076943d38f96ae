"""``make bench``: how fast Scorebook answers, how it grows, what a phone downloads, and load tests.

Every figure is one line, ``name: value``; a figure with a target says ``(target <= X: OK|MISS)``,
and the last line names every MISS (the exit status is 0 only when every target is met). It runs
against throwaway databases (a SQLite file in a temporary folder; a PostgreSQL database created and
dropped on the local cluster, started when installed) with the production settings (DEBUG off,
whitenoise's compressed manifest storage, the pages gzipped), only on 127.0.0.1, bounded in time
(about 15 minutes on 2 cores, the club night included).

1. Requests in this process through Django's test client (medians of interleaved rounds, so that a
   change of the machine's load falls on all alike), as ratios to two bare reference views through
   the same middleware (``bench/views.py``): recording a deal at 20, 80 and 400 deals, the scoring
   page at 20, 80 and 200 deals, the season and player pages. A write is measured inside a
   transaction rolled back after it (the record, and the reference insert alike), so that every
   round records the same deal on the same evening whatever the evening stores.
2. What a phone downloads on its first visit to the scoring page, and Chromium's first contentful
   paint of it on an emulated slow 4G phone at 20 and 200 deals, served by gunicorn.
3. Load tests against the operating guide's own gunicorn command (read from docs/operating.md), every phone posting
   as the scoring page posts (``bench/load.py``): two phones at one table saving at the same moment
   (conflicts, resolved as the page offers, the time until both deals are stored), then 8 phones
   recording, correcting, deleting and undoing on one evening; on SQLite (one instance), then on
   PostgreSQL (two instances on one database, and a write through one read at once through the other).
4. The hall of a club night (``bench/night.py``): 40 tables, one phone each, a deal every 15 s down to
   every 2 s, and 200 followers of the live ranking, on PostgreSQL then on SQLite.
5. Seating plans: the clock time of drawing the plan of the biggest nights the new-night form
   allows (players x sessions up to ``seating.MAX_SEATS``), the slowest against its 2 s target;
   the plan is drawn before the night's transaction, so this is what the director waits. Then
   the repeated meetings of long nights with tables of five against a short search of our own
   (``bench/seating_search.py``, also runnable alone).
6. The biggest nights written beside another club's phone (``bench/big_night.py``, SQLite behind
   the guide's deployment): that phone's longest save while a 160 x 5 and a 40 x 20 night are
   created, their cards printed, a session closed, a late arrival seated and the night deleted
   (``big_night_phone_wait_max_s``, target 1 s).

    .venv/bin/python bench/run.py              # everything (make bench)
    .venv/bin/python bench/run.py --profile    # also where the time of the slow requests goes (cProfile)
    .venv/bin/python bench/run.py --quick      # a smaller club and shorter runs (a smoke run)
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import gzip
import html.parser
import os
import pstats
import random
import re
import secrets
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

T0 = time.perf_counter()
ROOT = Path(__file__).resolve().parent.parent
CHECKOUT = f"{ROOT}/"  # profile lines name the site's files from the checkout
BIN = Path(sys.executable).parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import deployment, seating_search  # noqa: E402
from bench.deployment import NGINX  # noqa: E402
from bench.report import SHAPES, figure, finish, relay  # noqa: E402

# The club: weekly evenings of 80 deals; seasons of 200, 500 and 2,000 of them (the same history).
DEALS = 80
HISTORY = 2000
SMALL_HISTORY = 200  # a second club, for how the player page grows from 200 to 2,000 evenings
SEASON_SIZES = (200, 500, 2000)
LAST_EVENING = date(2026, 6, 25)  # the history's last Thursday; the evenings measured are a week later
TODAY = LAST_EVENING + timedelta(weeks=1)
RECORD_SIZES = (20, DEALS, 400)  # recording a deal at each of these evening sizes
PAGE_SIZES = (20, DEALS, 200)  # the scoring page at each of these

# The load tests: two phones at one table; 8 phones editing one evening of four players.
PHONES = 8
PAIR_ROUNDS = 20  # two phones at one table: saves at the same moment
EDIT_OPERATIONS = 30  # writes each phone makes in the second run
LOAD_PRELOADED = 20
LOAD_SECONDS = 90.0  # at most, each run (then "aborted: yes", a MISS)
READ_YOUR_WRITE_CHECKS = 10  # writes through one instance, each read at once through the other

# The first paint: a slow 4G phone (Chrome DevTools' "Slow 4G" with a 4x slower CPU).
SLOW4G = {"latency": 150, "downloadThroughput": 1_600_000 // 8, "uploadThroughput": 750_000 // 8}
CPU_SLOWDOWN = 4
PAINT_RUNS = 5
PAINT_SIZES = (20, 200)
CHROMIUM = "/usr/bin/chromium"
POSTGRES_LOCAL = "postgres://postgres:postgres@127.0.0.1:5432"

TARGETS = {
    "record_deal_ratio": 4,  # record_deal_ms <= 4 x insert_reference_ms
    "record_deal_cpu_ms": 8,  # this process's processor time (SQLite's included), on an idle machine
    "record_growth": 1.2,  # recording deal 401 over recording deal 21
    "scoring_page_ratio": 3,
    "scoring_growth": 1.2,  # the page at 200 deals over the page at 20
    "standings_ratio": 3,
    "standings_growth": 2,
    "player_page_ratio": 4,  # 3 is still the goal
    "player_page_growth": 2,
    "first_load_kb": 35,
    "first_load_requests": 3,  # the page (its stylesheet in it), htmx, the page's script
    "first_paint_browser_requests": 3,
    **{f"first_paint_slow4g_ms_at_{n}": 550 for n in PAINT_SIZES},
    "seating_plan_slowest_s": 2,
}
# The nights at the new-night form's limits (players x sessions <= seating.MAX_SEATS): the most
# tables, the most sessions, the most tables of five, and the best-known plans of 32 and 64.
SEATING_NIGHTS = ((160, 5), (400, 2), (40, 20), (38, 21), (27, 20), (57, 14), (99, 8), (32, 10), (64, 12))
PAIR_TARGETS = {"errors": 0, "lost": 0, "doubled": 0}
EDIT_TARGETS = {"errors": 0, "aborted": "no", "lost": 0, "doubled": 0, "summaries_not_equal_to_rebuild": 0}


# The money pages (issue 28), measured as the player page is: against the list reference at 2,000
# evenings, and how they grow from a club of 200 evenings to one of 2,000.
MONEY_PAGES = {"ledger_page": "club_ledger", "settle_up_page": "club_settle_up"}
TARGETS |= {f"{page}_{what}": target for page in MONEY_PAGES for what, target in (("ratio", 4), ("growth", 2))}


# What each figure measured, printed beside it (bench/report.py), by the start of its name.
_SIX = "6 seats, kleurenwiezen, a stake"
SHAPES |= {
    "record_deal_": f"{_SIX}, as the page posts it, each inside the bench's rolled-back transaction "
    "(its savepoint: +2 statements); at 20, 80 and 400 deals",
    "record_deal_queries_at_4_seats": "4 seats, 20 deals: one request as the page posts it, committed, as a phone's",
    "record_answer": f"{_SIX}, 80 deals",
    "record_growth": f"{_SIX}: deal 401 over deal 21",
    "record_deal_ms": f"{_SIX}, 80 deals, inside the bench's rolled-back transaction",
    "record_deal_cpu_ms": f"{_SIX}, 80 deals, inside the bench's rolled-back transaction, processor time",
    "record_deal_ratio": f"{_SIX}, 80 deals, over the insert reference, both rolled back",
    "insert_reference": "one row inserted through the same middleware, rolled back alike",
    "list_reference": "80 rows listed through the same middleware",
    "scoring_page_": f"{_SIX}; at 20, 80 and 200 deals",
    "standings_": "a club of 2,000 evenings of 80 deals, 6 players: seasons of 200, 500 and 2,000",
    "player_page": "a club of 2,000 evenings of 80 deals, 6 players (_small: a club of 200)",
    "ledger_page": "a club of 2,000 evenings of 80 deals, 6 players (_small: a club of 200)",
    "settle_up_page": "a club of 2,000 evenings of 80 deals, 6 players (_small: a club of 200)",
    "first_load_": f"the scoring page, {_SIX}, 80 deals, an empty cache",
    "first_paint_": f"the scoring page, {_SIX}, slow 4G and CPU 4x, an empty cache",
    "sqlite_pair_": "2 phones at one table of 4 seats, one gunicorn on SQLite",
    "postgres_pair_": "2 phones at one table of 4 seats, two gunicorns on one PostgreSQL",
    "sqlite_edits_": f"{PHONES} phones on one evening of 4 seats, one gunicorn on SQLite",
    "postgres_edits_": f"{PHONES} phones on one evening of 4 seats, two gunicorns on one PostgreSQL",
}


def money_pages(data) -> dict[str, tuple[str, list]]:
    """The club pages to time for money: each at 2,000 evenings and at 200 (``_small``)."""
    pages = {}
    for name, route in MONEY_PAGES.items():
        pages[name] = (route, [data.club.slug])
        pages[f"{name}_small"] = (route, [data.small_club.slug])
    return pages


def money_figures(results, ratio) -> None:
    """The money pages' lines: time and queries at both sizes, ratio to the list reference, growth."""
    for name in MONEY_PAGES:
        for size in (f"{name}_small", name):
            m = results.get(size, "unavailable")
            out(f"{size}_ms", m.median_ms if isinstance(m, Measure) else m)
            out(f"{size}_queries", m.queries if isinstance(m, Measure) else m)
        out(f"{name}_ratio", ratio(name, "list_reference"))
        out(f"{name}_growth", ratio(name, f"{name}_small"))


def log(message: str) -> None:
    print(f"[{time.perf_counter() - T0:6.1f}s] {message}", file=sys.stderr, flush=True)


def out(name: str, value, fmt: str = "{:.2f}") -> None:
    figure(name, value, fmt, target=TARGETS.get(name))


# --- the environment, before Django starts ----------------------------------------------------


def configure(tmp: Path, database_url: str | None = None) -> None:
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "bench.settings",
            "DATABASE_URL": database_url or f"sqlite:///{tmp / 'bench.sqlite3'}",
            "BENCH_STATIC_ROOT": str(tmp / "static"),
            "DEBUG": "false",
            "SECRET_KEY": os.environ.get("BENCH_SECRET_KEY") or secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
            "SECURE_SSL_REDIRECT": "false",  # plain HTTP on loopback; everything else as in production
            "SIGNUP": "invitation",  # as docs/operating.md sets it
        }
    )
    os.environ["BENCH_SECRET_KEY"] = os.environ["SECRET_KEY"]  # the same in a child process
    os.environ.pop("DB_CONN_MAX_AGE", None)  # the deployment's default connections
    os.chdir(ROOT)


# --- the data ---------------------------------------------------------------------------------


@dataclass
class Data:
    user: object
    club: object
    seasons: dict[int, object]  # size -> Season
    player: object
    evenings: dict[int, object]  # deals -> an open evening of the club with that many deals
    ref: object  # where the insert reference writes its rows
    small_club: object = None  # a club of SMALL_HISTORY evenings (the player page's growth)
    small_player: object = None


def build(history_size: int, season_sizes, small_size: int) -> Data:
    from bench import synthetic as syn
    from scorebook.clubs.models import Player
    from scorebook.evenings import summary
    from scorebook.evenings.models import Evening

    user = syn.make_user("bench", first_name="Bench")
    club = syn.make_club(user, name="Club de la Couleur", slug="couleur")
    t = time.perf_counter()
    history = syn.build_history(
        club,
        user,
        evenings=history_size,
        deals_per_evening=DEALS,
        last_day=LAST_EVENING,
        progress=lambda n: n % 500 == 0 and log(f"  {n} evenings"),
    )
    log(f"history: {history_size} evenings of {DEALS} deals in {time.perf_counter() - t:.1f}s")
    syn.yearly_seasons(club, history)
    seasons = {
        size: syn.add_season(club, f"Last {size} evenings", history.dates[-size], history.last_day)
        for size in season_sizes
    }
    # The bulk history leaves what the many-evening pages read as the services would: check one.
    last = Evening.objects.get(pk=history.evening_ids[-1])
    same = syn.make_evening(club, user, last.date, [d.data for d in last.deals.all()], first_dealer=last.first_dealer)
    same.refresh_from_db()
    assert syn.stored_alike(same, last), "the bulk history differs from what create_evening and record_deal write"
    figures = lambda e: list(e.seats.values_list("position", *summary.SEAT_FIGURES))  # noqa: E731
    assert figures(same) == figures(last), "the bulk history's seats differ from what the services write"
    same.delete()

    rng = random.Random(7)
    sizes = sorted({*RECORD_SIZES, *PAGE_SIZES})
    evenings = {n: syn.make_evening(club, user, TODAY, n, first_dealer=n % 6, rng=rng) for n in sizes}
    ref = syn.make_evening(club, user, TODAY, 0, first_dealer=0, rng=rng)
    player = Player.objects.get(club=club, name=syn.PLAYERS[0])
    small_club = syn.make_club(user, name="Club du Petit Chelem", slug="petit")
    small = syn.build_history(
        small_club, user, evenings=small_size, deals_per_evening=DEALS, last_day=LAST_EVENING, seed=2
    )
    syn.yearly_seasons(small_club, small)
    small_player = Player.objects.get(club=small_club, name=syn.PLAYERS[0])
    log(f"a second club of {small_size} evenings")
    return Data(user, club, seasons, player, evenings, ref, small_club, small_player)


# --- timing -----------------------------------------------------------------------------------


@dataclass
class Measure:
    median_ms: float
    reps: int
    queries: int
    status: int
    cpu_ms: float = 0.0  # the median processor time of this process (SQLite runs in it: its share too)


@dataclass
class Probe:
    """One request to measure: ``request()`` makes it through the test Client, ``after()`` undoes its effect."""

    name: str
    request: object
    after: object = None
    expect: int = 200
    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)  # this process's processor time, ms
    queries: int = 0

    def call(self):
        response = self.request()
        if self.after:
            self.after()
        return response


def run_rounds(
    probes: list[Probe], *, warmup: int = 3, min_rounds: int = 10, max_rounds: int = 40, budget: float = 75.0
):
    """Time every probe once per round, round after round, so that a change of the machine's load
    (other people's tests on the same 2 cores) falls on all of them alike; medians of the rounds."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for probe in probes:
        for _ in range(warmup):
            probe.call()
        with CaptureQueriesContext(connection) as captured:
            probe.request()
        probe.queries = len(captured.captured_queries)
        if probe.after:
            probe.after()
    start = time.perf_counter()
    rounds = 0
    while rounds < max_rounds and (rounds < min_rounds or time.perf_counter() - start < budget):
        for probe in probes:
            t, cpu = time.perf_counter(), time.process_time()
            probe.request()
            probe.times.append((time.perf_counter() - t) * 1000)
            probe.cpu.append((time.process_time() - cpu) * 1000)
            if probe.after:
                probe.after()
        rounds += 1
    return {
        p.name: Measure(statistics.median(p.times), len(p.times), p.queries, p.expect, statistics.median(p.cpu))
        for p in probes
    }


CATEGORIES = (  # where a function's own time goes, by the file it is in (first match)
    ("engine (scorebook/rules)", ("/scorebook/rules/",)),
    ("templates (django/template, template tags)", ("/django/template/", "/templatetags/", "/django/templatetags/")),
    ("database (queries, row conversion)", ("/django/db/", "sqlite3", "SQLiteCursorWrapper")),
    ("JSON decoding", ("/json/", "raw_decode")),
    ("forms and widgets", ("/django/forms/",)),
    ("URL reversing", ("/django/urls/",)),
    (
        "i18n and formats (dates, numbers)",
        (
            "/django/utils/translation/",
            "gettext",
            "/django/utils/formats",
            "/django/utils/dateformat",
            "/django/utils/numberformat",
        ),
    ),
    (
        "HTML escaping, lazy and safe strings",
        ("/django/utils/html", "/django/utils/safestring", "/django/utils/functional", "/django/utils/text"),
    ),
    ("application code (scorebook)", ("/scorebook/",)),
    (
        "middleware, sessions, auth, CSRF",
        ("/django/middleware/", "/django/contrib/", "/django/core/handlers/", "/whitenoise/", "/django_htmx/"),
    ),
)


def _category(path: str, name: str) -> str:
    for label, needles in CATEGORIES:
        if any(n in path or n in name for n in needles):
            return label
    return "other (Python built-ins, Django utils)"


def profile(name: str, request, *, after=None, reps: int = 5, top: int = 16) -> None:
    """cProfile ``reps`` requests: own time by area, then the application's functions by cumulative time."""
    profiler = cProfile.Profile()
    wall = 0.0
    for _ in range(reps):
        t = time.perf_counter()
        profiler.enable()
        request()
        profiler.disable()
        wall += time.perf_counter() - t
        if after:
            after()
    stats = pstats.Stats(profiler)
    areas: dict[str, float] = {}
    total = 0.0
    for (path, _line, func), (_cc, _nc, tottime, _ct, callers) in stats.stats.items():
        total += tottime
        if path == "~" and callers:  # a built-in (isinstance, getattr, ...): its callers' area
            for (cpath, _cl, cfunc), caller in callers.items():
                label = _category(cpath, cfunc)
                areas[label] = areas.get(label, 0.0) + caller[2]
            continue
        label = _category(path, func)
        areas[label] = areas.get(label, 0.0) + tottime
    print(f"\n===== profile: {name}: {reps} requests, {wall / reps * 1000:.0f} ms each under the profiler =====")
    print("  own time by area (built-ins counted with their callers; the profiler inflates many small calls):")
    for label, t in sorted(areas.items(), key=lambda kv: -kv[1]):
        print(f"  {t / total * 100:5.1f}%  {label}")
    print("  --- the application's functions, cumulative ms per request ---")
    rows = [
        (ct / reps * 1000, tt / reps * 1000, nc / reps, f"{path.split('/scorebook/', 1)[-1]}:{line}({func})")
        for (path, line, func), (_cc, nc, tt, ct, _callers) in stats.stats.items()
        if "/scorebook/" in path and "/.venv/" not in path
    ]
    for ct, tt, nc, where in sorted(rows, reverse=True)[:top]:
        print(f"  {ct:8.1f} ms cum {tt:7.1f} ms own {nc:8.0f} calls  {where}")
    print("  --- the most expensive functions by own time, ms per request ---")
    rows = [
        (
            tt / reps * 1000,
            nc / reps,
            f"{path.rsplit('/site-packages/', 1)[-1].removeprefix(CHECKOUT)}:{line}({func})",
        )
        for (path, line, func), (_cc, nc, tt, _ct, _callers) in stats.stats.items()
    ]
    for tt, nc, where in sorted(rows, reverse=True)[:10]:
        print(f"  {tt:8.1f} ms own {nc:8.0f} calls  {where}")


def _body(response) -> bytes:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return gzip.decompress(body) if response.get("Content-Encoding") == "gzip" else body


def measure_requests(data: Data, want_profile: bool, budget: float) -> dict[str, Measure | str]:
    from django.db import transaction
    from django.test import Client, override_settings
    from django.urls import reverse

    from bench import load
    from bench import synthetic as syn
    from scorebook.evenings.models import Deal

    results: dict[str, Measure | str] = {}
    FORM = "application/x-www-form-urlencoded"
    client = Client(headers={"Accept-Encoding": ACCEPT_ENCODING})  # as a browser: the pages are gzipped
    client.force_login(data.user)
    htmx = {"HX-Request": "true"}
    keys = iter(range(10**9))

    def rolled_back(request):
        """The write, inside a transaction rolled back after it: the next round finds the same evening."""

        def write():
            with transaction.atomic():
                response = request()
                transaction.set_rollback(True)
            return response

        return write

    def record_at(size: int):
        evening = data.evenings[size]
        url = reverse("deal_record", args=[evening.pk])
        # as the scoring page posts (bench/load.py ScoringPage): its record form read from the page,
        # htmx's headers and the version of the evening the page shows (the page is up to date, so
        # the answer is the small one: what changed, out of band); a new request key each time
        page_url = reverse("evening", args=[evening.pk])
        page = load.ScoringPage(page_url, _body(client.get(page_url)).decode())
        pairs, headers = page.post(syn.random_deal(page.playing(), random.Random(size), allow_pass=False))

        def record():
            key = f"bench-record-{next(keys)}"
            post = [(name, key if name == "request_key" else value) for name, value in pairs]
            # encoded as htmx sends a form (the test client would send multipart)
            response = client.post(url, urllib.parse.urlencode(post), FORM, headers=headers)
            assert response.status_code == 200, (response.status_code, _body(response)[:300])
            return response

        # once, committed-less, to check that it records the deal
        with transaction.atomic():
            response = record()
            assert Deal.objects.filter(evening=evening).count() == size + 1, "the deal was not recorded"
            if size == DEALS:
                results["record_answer"] = (len(_body(response)), len(response.content))
            transaction.set_rollback(True)
        return rolled_back(record)

    def get(url):
        def request():
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
            return response

        return request

    with override_settings(ROOT_URLCONF="bench.urls"):
        insert_url = reverse("bench_insert", args=[data.ref.pk])

        def insert():
            response = client.post(insert_url, "", FORM, headers=htmx)
            assert response.status_code == 200, response.status_code
            return response

        probes = [Probe(f"record_deal_{n}", record_at(n)) for n in RECORD_SIZES]
        probes.append(Probe("insert_reference", rolled_back(insert)))
        probes += [Probe(f"scoring_page_{n}", get(reverse("evening", args=[data.evenings[n].pk]))) for n in PAGE_SIZES]
        probes.append(Probe("list_reference", get(reverse("bench_rows", args=[data.evenings[DEALS].pk]))))

        # pages another engineer may be changing: "unavailable" while they answer otherwise than 200
        club_pages = {f"standings_{label}": ("season", [data.club.slug, s.pk]) for label, s in data.seasons.items()}
        club_pages["player_page"] = ("club_player", [data.club.slug, data.player.pk])  # 2,000 evenings
        club_pages["player_page_small"] = ("club_player", [data.small_club.slug, data.small_player.pk])
        club_pages |= money_pages(data)
        for name, (route, args) in club_pages.items():
            try:
                url = reverse(route, args=args)
                status = client.get(url).status_code
            except Exception as error:  # noqa: BLE001 - a page being written may fail in any way
                results[name] = f"unavailable ({type(error).__name__}: {str(error)[:80]})"
                continue
            if status != 200:
                results[name] = f"unavailable ({status})"
                continue
            probes.append(Probe(name, get(url)))
        if any(p.name == "standings_2000" for p in probes):
            # the season page keeps its table in Django's cache until an evening changes: the figures
            # above are of the kept table; this one is of a table computed again (the first view after a change)
            from django.core.cache import cache

            warm = [p.request for p in probes if p.name.startswith("standings_")]

            def standings_uncached():
                cache.clear()
                return warm[-1]()

            probes.append(Probe("standings_2000_uncached", standings_uncached, lambda: [w() for w in warm]))

        results |= run_rounds(probes, budget=budget)
        results["record_deal_queries_at_4_seats"] = record_queries_at_four(client, data)
        # the list of the user's evenings (2,000 and more in the club): the service worker fetches
        # it after a first visit; timed once (it may take long)
        started = time.perf_counter()
        status = client.get(reverse("evening_list")).status_code
        results["evening_list"] = f"{(time.perf_counter() - started) * 1000:.0f} (HTTP {status}, once)"
        for n in RECORD_SIZES:
            assert Deal.objects.filter(evening=data.evenings[n]).count() == n, "a measured write was kept"

        if want_profile:
            for probe in probes:
                if probe.name in (
                    "record_deal_400",
                    f"record_deal_{DEALS}",
                    f"scoring_page_{DEALS}",
                    "scoring_page_200",
                    "standings_2000_uncached",
                    "player_page",
                ):
                    profile(probe.name, probe.request, after=probe.after)
    return results


def record_queries_at_four(client, data: Data) -> int:
    """The queries of one deal recorded at a table of four as the page posts it, committed (outside
    the rolled-back transaction the timed records run in): what a phone's deal costs the database."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from bench import load
    from bench import synthetic as syn

    rng = random.Random(4)
    evening = syn.make_evening(data.club, data.user, TODAY, 20, players=syn.PLAYERS[:4], rng=rng)
    url = reverse("evening", args=[evening.pk])
    page = load.ScoringPage(url, _body(client.get(url)).decode())
    pairs, headers = page.post(syn.random_deal(page.playing(), rng, allow_pass=False))
    body = urllib.parse.urlencode(pairs)
    with CaptureQueriesContext(connection) as captured:
        response = client.post(
            reverse("deal_record", args=[evening.pk]), body, "application/x-www-form-urlencoded", headers=headers
        )
    assert response.status_code == 200 and response["HX-Reswap"] == "none", response.status_code  # the small answer
    return len(captured.captured_queries)


# --- what a phone downloads -----------------------------------------------------------------------


class _Refs(html.parser.HTMLParser):
    """The URLs an HTML page makes the browser fetch at once (stylesheets, icons, scripts, images),
    and apart (``install``) those fetched only to install the site as an app (the manifest, the
    home-screen icon): a browser does not fetch them for showing the page."""

    def __init__(self):
        super().__init__()
        self.urls: list[str] = []
        self.install: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "link" and a.get("href"):
            rel = set((a.get("rel") or "").lower().split())
            if rel & {"stylesheet", "icon", "shortcut", "preload", "modulepreload"}:
                self.urls.append(a["href"])
            elif rel & {"apple-touch-icon", "manifest"}:
                self.install.append(a["href"])
        elif (tag in ("script", "img", "source", "audio", "video", "iframe") and a.get("src")) or (
            tag == "input" and (a.get("type") or "").lower() == "image" and a.get("src")
        ):
            self.urls.append(a["src"])


CSS_URL = re.compile(r"""url\(\s*(['"]?)([^'")]+)\1\s*\)|@import\s+(['"])([^'"]+)\3""")


ACCEPT_ENCODING = "gzip, deflate"  # what Chromium sends over plain HTTP: gzip, no brotli


def _served(client, url: str):
    """GET ``url`` as a browser accepting gzip: (bytes of the body as sent, its Content-Encoding)."""
    response = client.get(url, headers={"Accept-Encoding": ACCEPT_ENCODING})
    if response.status_code != 200:
        return None, None
    body = b"".join(response.streaming_content) if response.streaming else response.content
    length = response.get("Content-Length")
    assert length is None or int(length) == len(body), (url, length, len(body))
    return body, response.get("Content-Encoding", "identity")


def first_load(data: Data) -> None:
    """What a phone downloads on its first visit to the scoring page: the page and every file it
    makes the browser fetch at once, each counted as served (the page gzipped by GZipMiddleware,
    the static files as WhiteNoise sends them: its precompressed .gz)."""
    from django.test import Client
    from django.urls import reverse

    client = Client()
    client.force_login(data.user)
    page_url = reverse("evening", args=[data.evenings[DEALS].pk])
    raw = client.get(page_url).content  # the same page, uncompressed: for its links and its raw size
    html_sent, html_encoding = _served(client, page_url)
    assert html_sent is not None
    parser = _Refs()
    parser.feed(raw.decode())
    todo = [urllib.parse.urljoin(page_url, u) for u in parser.urls]
    seen: dict[str, tuple[int, str]] = {}
    missing: list[str] = []
    while todo:
        url = urllib.parse.urldefrag(todo.pop(0))[0]
        if url in seen or url.startswith("data:"):
            continue  # a data: URI is in the page already: no request
        body, encoding = _served(client, url)
        if body is None:
            missing.append(url)
            continue
        seen[url] = (len(body), encoding)
        if url.split("?")[0].endswith(".css"):
            text = b"".join(client.get(url).streaming_content).decode(errors="replace")
            for m in CSS_URL.finditer(text):
                ref = m.group(2) or m.group(4)
                if ref and not ref.startswith(("data:", "#")):
                    todo.append(urllib.parse.urljoin(url, ref))
    total = len(html_sent) + sum(size for size, _ in seen.values())
    out("first_load_html_raw_kb", len(raw) / 1000, "{:.1f}")
    out("first_load_html_sent_kb", len(html_sent) / 1000, "{:.1f}")
    encodings = [f"html={html_encoding}"]
    for url, (size, encoding) in seen.items():
        name = re.sub(r"\.[0-9a-f]{12}(\.\w+)$", r"\1", url.split("/static/", 1)[-1])
        out(f"first_load_asset[{name}]_kb", size / 1000, "{:.1f}")
        encodings.append(f"{name}={encoding}")
    out("first_load_content_encodings", " ".join(encodings))
    if missing:
        out("first_load_missing", " ".join(missing))
    out("first_load_requests", 1 + len(seen))
    out("first_load_kb", total / 1000, "{:.1f}")
    installing = [(url, _served(client, urllib.parse.urljoin(page_url, url))[0]) for url in parser.install]
    out("first_load_for_installing", " ".join(f"{u}={len(b or b'') / 1000:.1f}kB" for u, b in installing))


# --- gunicorn as the operating guide runs it (docs/operating.md) ---------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def deployed_gunicorn() -> list[str]:
    """The operating guide's gunicorn command (docs/operating.md), as written."""
    if os.environ.get("BENCH_GUNICORN"):  # another command, to compare (an experiment, not the figures)
        return shlex.split(os.environ["BENCH_GUNICORN"])
    return deployment.gunicorn_line()


def deployed_nginx(port: int, upstream: int, folder: Path) -> str:
    """The guide's nginx server block on ``port`` without TLS, proxying to ``upstream``."""
    return deployment.nginx_config(port, upstream, folder, connections=4096, backlog=2048)


class Server:
    """The guide's deployment on 127.0.0.1: its gunicorn command behind its nginx server block
    (without TLS; straight to gunicorn when nginx is not installed, which a line says), with the
    benchmark's environment; always stopped. ``base`` is what a phone reaches."""

    def __init__(self, tmp: Path, name: str = "gunicorn"):
        self.upstream = free_port()
        self.proxied = Path(NGINX).exists()
        self.port = free_port() if self.proxied else self.upstream
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = tmp / f"{name}.log"
        self.folder = tmp / f"{name}-nginx"
        self.procs: list[subprocess.Popen] = []

    @property
    def command(self) -> list[str]:
        args = deployed_gunicorn()
        args[0] = str(BIN / "gunicorn")
        args = [f"127.0.0.1:{self.upstream}" if re.fullmatch(r"127\.0\.0\.1:\d+", a) else a for a in args]
        return [*args, "--graceful-timeout", "5", "--chdir", str(ROOT)]

    @property
    def described(self) -> str:
        gunicorn = " ".join(deployed_gunicorn()[1:])
        return f"nginx (operating.md) in front of: {gunicorn}" if self.proxied else f"{gunicorn} (no nginx: straight)"

    def start(self) -> None:
        self._log = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        commands = [self.command]
        if self.proxied:
            self.folder.mkdir(exist_ok=True)
            (self.folder / "nginx.conf").write_text(deployed_nginx(self.port, self.upstream, self.folder))
            commands.append([NGINX, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf")])
        for command in commands:
            self.procs.append(
                subprocess.Popen(
                    command,
                    cwd=ROOT,
                    env=os.environ.copy(),
                    stdout=self._log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,  # its own process group: stopped as a whole below
                )
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if any(p.poll() is not None for p in self.procs):
                raise RuntimeError(f"gunicorn or nginx exited: {self.tail()}")
            try:
                with urllib.request.urlopen(self.base + "/accounts/login/", timeout=2) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            time.sleep(0.2)
        raise RuntimeError("the site did not answer within 30 s")

    def stop(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)  # the group of the process started here
                    proc.wait(timeout=10)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait(timeout=5)
        self.procs = []
        if hasattr(self, "_log"):
            self._log.close()

    def tail(self) -> str:
        return self.log_path.read_text(errors="replace")[-3000:] if self.log_path.exists() else ""


def new_session(user) -> str:
    """A logged-in session of ``user``, stored in the database the servers read."""
    from django.test import Client

    c = Client()
    c.force_login(user)
    return c.cookies["sessionid"].value


# --- the first paint on a slow phone --------------------------------------------------------------

PAINT_TIMES = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const css = performance.getEntriesByType('resource').filter(r => r.initiatorType === 'link');
  return {
    paint: performance.getEntriesByName('first-contentful-paint')[0].startTime,
    html: nav.responseEnd,
    css: css.length ? Math.max(...css.map(r => r.responseEnd)) : 0,
  };
}"""


def first_paint(tmp: Path, data: Data) -> None:
    """First contentful paint of the scoring page at 20 and 200 deals, served by gunicorn, in Chromium
    on an emulated slow 4G phone (latency, bandwidth, CPU 4x slower), with an empty cache each time;
    also when the page's HTML and its stylesheet had arrived (medians)."""
    names = [f"first_paint_slow4g_ms_at_{n}" for n in PAINT_SIZES]
    if not Path(CHROMIUM).exists():
        for name in names:
            out(name, f"unavailable ({CHROMIUM} is not installed: make chromium)")
        return
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        for name in names:
            out(name, "unavailable (playwright is not installed)")
        return
    from django.db import connections

    session = new_session(data.user)
    connections.close_all()
    server = Server(tmp, "gunicorn-paint")
    times: dict[int, list[dict]] = {n: [] for n in PAINT_SIZES}
    requests: list[int] = []
    after_load: list[str] = []
    try:
        server.start()
        for n in PAINT_SIZES:  # every worker warm (templates loaded): the figure is the phone's, not a cold start
            for _ in range(4):
                url = f"{server.base}/e/{data.evenings[n].pk}/"
                with urllib.request.urlopen(
                    urllib.request.Request(url, headers={"Cookie": f"sessionid={session}"})
                ) as r:
                    r.read()
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM,
                headless=True,
                args=[
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--no-first-run",
                    "--disable-quic",
                ],
            )
            try:
                for run in range(PAINT_RUNS):
                    for n in PAINT_SIZES:  # interleaved: a change of the machine's load falls on both
                        last = run == PAINT_RUNS - 1 and n == PAINT_SIZES[0]
                        # a service worker installing after a load fetches more pages (the evening
                        # list...), which would still be served during the next run: only the last
                        # run lets it, to list what it fetches
                        context = browser.new_context(
                            viewport={"width": 390, "height": 844},
                            is_mobile=True,
                            has_touch=True,
                            service_workers="allow" if last else "block",
                        )
                        context.add_cookies([{"name": "sessionid", "value": session, "url": server.base}])
                        page = context.new_page()
                        seen: list[str] = []
                        page.on("request", lambda r, seen=seen: seen.append(r.url))
                        everything: list = []  # the context's: a service worker's own requests too
                        context.on("request", lambda r, everything=everything: everything.append(r))
                        cdp = context.new_cdp_session(page)
                        cdp.send("Network.enable")
                        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
                        cdp.send("Network.emulateNetworkConditions", {"offline": False, **SLOW4G})
                        cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
                        response = page.goto(
                            f"{server.base}/e/{data.evenings[n].pk}/", wait_until="load", timeout=60_000
                        )
                        assert response is not None and response.status == 200, response and response.status
                        page.wait_for_function(
                            "performance.getEntriesByName('first-contentful-paint').length > 0", timeout=30_000
                        )
                        times[n].append(page.evaluate(PAINT_TIMES))
                        requests.append(len(seen))
                        if last:
                            # what the first visit fetches after its load: a service worker installing
                            # (its script, what it keeps), the manifest...; up to 10 s for the worker
                            page.evaluate(
                                "() => Promise.race([navigator.serviceWorker ? navigator.serviceWorker.ready"
                                " : Promise.resolve(), new Promise(r => setTimeout(r, 10000))])"
                            )
                            page.wait_for_timeout(1500)
                            after_load = [r.url for r in everything if r.url not in seen]
                        context.close()
            finally:
                browser.close()
    except Exception as error:  # noqa: BLE001 - a browser that cannot start is reported, not fatal
        for name in names:
            out(name, f"unavailable ({type(error).__name__}: {str(error)[:120]})")
        return
    finally:
        server.stop()
    for n in PAINT_SIZES:
        paints = [t["paint"] for t in times[n]]
        out(f"first_paint_slow4g_ms_at_{n}", statistics.median(paints), "{:.0f}")
        out(f"first_paint_slow4g_runs_ms_at_{n}", " ".join(f"{p:.0f}" for p in paints))
        out(f"first_paint_html_arrived_ms_at_{n}", statistics.median(t["html"] for t in times[n]), "{:.0f}")
        out(f"first_paint_css_arrived_ms_at_{n}", statistics.median(t["css"] for t in times[n]), "{:.0f}")
    out("first_paint_browser_requests", max(requests))
    out("first_visit_requests_after_load", len(after_load))  # no target: not before the first paint
    if after_load:
        out("first_visit_after_load", " ".join(sorted({urllib.parse.urlsplit(u).path for u in after_load})))


# --- the load tests -------------------------------------------------------------------------------


def load_evening(club, user, rng):
    """An open evening of four players with LOAD_PRELOADED deals: (evening, its request keys)."""
    from bench import synthetic as syn
    from scorebook.evenings.models import Deal

    evening = syn.make_evening(club, user, TODAY, LOAD_PRELOADED, players=syn.PLAYERS[:4], rng=rng)
    return evening, set(Deal.objects.filter(evening=evening).values_list("request_key", flat=True))


def load_tests(prefix: str, servers: list[Server], user, club, seconds: float, scale: float = 1.0) -> None:
    """Two phones at one table saving at the same moment, then 8 phones recording, correcting,
    deleting and undoing on one evening, against ``servers`` (their requests going to each in turn)."""
    from bench import load
    from bench import synthetic as syn

    rng = random.Random(prefix)
    bases = [s.base for s in servers]
    evening, preloaded = load_evening(club, user, rng)
    rounds = max(5, int(PAIR_ROUNDS * scale))
    log(f"{prefix} pair: two phones at one table, {rounds} saves at the same moment, to {' and '.join(bases)}")
    report = load.PairReport()
    started = time.perf_counter()
    from django.db import connections

    connections.close_all()
    load.two_phones(
        bases, [new_session(user) for _ in range(2)], evening.pk, rounds, 7, time.monotonic() + seconds, report
    )
    connections.close_all()
    run = load.Run([report], time.perf_counter() - started, any(e.startswith("aborted") for e in report.errors))
    books = load.accounting(evening.pk, run.reports, preloaded)

    def pair(name, value, fmt="{:.1f}"):
        figure(f"{prefix}_pair_{name}", value, fmt, target=PAIR_TARGETS.get(name))

    pair("rounds", len(report.both_stored_ms))
    pair("saves", len(report.latencies))
    pair("conflicts", report.conflicts)
    pair("resolved", report.resolved)
    for p in (50, 95):
        pair(f"both_stored_p{p}_ms", load.percentile(report.both_stored_ms, p))
    pair("both_stored_max_ms", max(report.both_stored_ms, default=0.0))
    pair("errors", len(report.errors))
    for error in report.errors[:3]:
        figure(f"{prefix}_pair_error_sample", error[:220])
    pair("lost", books["lost"])
    pair("doubled", books["doubled"])

    evening, preloaded = load_evening(club, user, rng)
    per_phone = max(8, int(EDIT_OPERATIONS * scale))
    sessions = [new_session(user) for _ in range(PHONES)]
    log(f"{prefix} edits: {PHONES} phones on one evening, {per_phone} writes each, to {' and '.join(bases)}")
    run = load.run_phones(load.editor, bases, sessions, evening.pk, syn.PLAYERS[:4], per_phone, 1000, seconds)
    load.figures(figure, f"{prefix}_edits", run, evening.pk, user, preloaded, EDIT_TARGETS)
    if any(r.errors for r in run.reports):
        for server in servers:
            log(f"{server.log_path.name} ends with:\n{server.tail()}")


def sqlite_load(tmp: Path, data: Data, seconds: float, scale: float) -> None:
    """The load tests against the guide's gunicorn on the benchmark's SQLite file."""
    from django.db import connections

    connections.close_all()
    server = Server(tmp, "gunicorn-sqlite")
    try:
        server.start()
        load_tests("sqlite", [server], data.user, data.club, seconds, scale)
    except Exception as error:  # noqa: BLE001
        figure("sqlite_load", f"unavailable ({type(error).__name__}: {str(error)[:160]})", target="done")
    finally:
        server.stop()
        log("SQLite load tests: gunicorn stopped")


# --- PostgreSQL: two instances on one database ----------------------------------------------------


def _postgres_url() -> tuple[str | None, str]:
    """A PostgreSQL server to create a throwaway database on: BENCH_POSTGRES_URL, else the local
    cluster (started when installed and stopped; given the password CI gives it when it refuses it)."""
    import psycopg

    url = os.environ.get("BENCH_POSTGRES_URL", POSTGRES_LOCAL).rstrip("/")

    def reachable() -> str | None:
        try:
            psycopg.connect(url + "/postgres", connect_timeout=3).close()
            return None
        except psycopg.OperationalError as error:
            return str(error).strip().splitlines()[-1] if str(error).strip() else type(error).__name__

    problem = reachable()
    if problem is None or "BENCH_POSTGRES_URL" in os.environ:
        return (url, "") if problem is None else (None, problem)
    clusters = (
        shutil.which("pg_lsclusters")
        and subprocess.run(["pg_lsclusters", "--no-header"], capture_output=True, text=True, check=False).stdout.split()
    )
    if not clusters:
        return None, "PostgreSQL is not installed"
    version, name, status = clusters[0], clusters[1], clusters[3]
    if status != "online":
        log(f"starting PostgreSQL {version}/{name} (pg_ctlcluster; left running, as CI leaves it)")
        subprocess.run(["pg_ctlcluster", version, name, "start"], capture_output=True, check=False)
        for _ in range(30):
            if subprocess.run(["runuser", "-u", "postgres", "--", "pg_isready", "-q"], check=False).returncode == 0:
                break
            time.sleep(1)
    problem = reachable()
    if problem and "password" in problem and os.geteuid() == 0:
        log("giving the postgres user the password CI gives it (.ci/run)")
        subprocess.run(
            ["runuser", "-u", "postgres", "--", "psql", "-q", "-c", "ALTER USER postgres PASSWORD 'postgres'"],
            capture_output=True,
            check=False,
        )
        problem = reachable()
    return (url, "") if problem is None else (None, problem)


def with_postgres(name: str):
    """A throwaway PostgreSQL database: its URL (dropped on leaving), or None and the reason."""
    try:
        server_url, problem = _postgres_url()
    except ImportError:
        server_url, problem = None, "psycopg is not installed"

    @contextlib.contextmanager
    def database():
        if server_url is None:
            yield None, problem
            return
        import psycopg

        db = f"scorebook_{name}_{os.getpid()}_{secrets.token_hex(3)}"
        with psycopg.connect(server_url + "/postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{db}"')
        try:
            yield f"{server_url}/{db}", ""
        finally:
            with psycopg.connect(server_url + "/postgres", autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')

    return database()


def postgres_load(tmp: Path, seconds: float, scale: float) -> None:
    """The load tests against two gunicorn instances sharing one PostgreSQL database, in a child
    process (this one is bound to the SQLite file): the site keeps no state in its processes."""
    with with_postgres("bench") as (url, problem):
        if url is None:
            figure("postgres_load", f"unavailable ({problem})", target="done")
            return
        env = os.environ | {"DATABASE_URL": url, "BENCH_ELAPSED": str(time.perf_counter() - T0)}
        args = [sys.executable, str(Path(__file__).resolve()), "--postgres-child", str(tmp), "--scale", str(scale)]
        try:
            child = subprocess.run(
                [*args, "--seconds", str(seconds)],
                env=env,
                stdout=subprocess.PIPE,
                text=True,
                timeout=2 * seconds + 240,
                check=False,
            )
        except subprocess.TimeoutExpired:
            figure("postgres_load", "unavailable (the child process took too long)", target="done")
            return
        relay(child.stdout)
        if child.returncode != 0:
            figure("postgres_load", f"unavailable (the child process exited with {child.returncode})", target="done")


def postgres_child(tmp: Path, seconds: float, scale: float) -> int:
    """In the child process: DATABASE_URL is the new PostgreSQL database; the static files are the
    parent's (``tmp``)."""
    global T0
    T0 -= float(os.environ.get("BENCH_ELAPSED", "0"))  # the parent's clock, for the log
    configure(tmp, database_url=os.environ["DATABASE_URL"])
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    from bench import load
    from bench import synthetic as syn
    from scorebook.evenings.models import Deal

    call_command("migrate", interactive=False, verbosity=0)
    user = syn.make_user("bench", first_name="Bench")
    club = syn.make_club(user, name="Club de la Couleur", slug="couleur")
    log("PostgreSQL: a database for the load tests, two gunicorn instances")
    servers = [Server(tmp, "gunicorn-pg-a"), Server(tmp, "gunicorn-pg-b")]
    fresh_reads = 0
    try:
        for server in servers:
            server.start()
        load_tests("postgres", servers, user, club, seconds, scale)
        # read your write: a deal recorded through one instance, the page read at once through the other
        rng = random.Random(11)
        evening, _keys = load_evening(club, user, rng)
        phone = load.Phone(new_session(user))
        connections.close_all()
        for k in range(READ_YOUR_WRITE_CHECKS):
            writer, reader = servers[k % 2].base, servers[(k + 1) % 2].base
            page = load.ScoringPage(f"{writer}/e/{evening.pk}/", phone.page(f"{writer}/e/{evening.pk}/"))
            status, _body = phone.open(
                f"{writer}/e/{evening.pk}/deals/", *page.post(syn.random_deal(page.playing(), rng, allow_pass=False))
            )
            number = Deal.objects.filter(evening=evening).count()
            page = phone.page(f"{reader}/e/{evening.pk}/")
            if status == 200 and f'id="deal-{number}"' in page and f'id="deal-{number + 1}"' not in page:
                fresh_reads += 1
    finally:
        for server in servers:
            server.stop()
        log("PostgreSQL: both gunicorns stopped")
    figure(
        "postgres_read_your_write",
        "yes"
        if fresh_reads == READ_YOUR_WRITE_CHECKS
        else f"no ({fresh_reads} of {READ_YOUR_WRITE_CHECKS} reads showed the write)",
        target="yes",
    )
    connections.close_all()
    return 0


# --- the club night ---------------------------------------------------------------------------------


def club_night(quick: bool) -> None:
    """The hall (``bench/night.py``) in a child process, on PostgreSQL then on SQLite (each its own
    database), its figures relayed."""
    for database in ([], ["--sqlite"]):
        args = [sys.executable, str(ROOT / "bench" / "night.py"), *database]
        if quick:
            args += ["--tables", "10", "--followers", "50", "--sessions", "2", "--window", "20"]
        try:
            child = subprocess.run(args, stdout=subprocess.PIPE, text=True, timeout=10 * 60, check=False)
        except subprocess.TimeoutExpired:
            took = f"bench/night.py {' '.join(database)} took more than 10 minutes"
            figure("hall", f"unavailable ({took})", target="done")
            continue
        relay(child.stdout)


def big_night() -> None:
    """``bench/big_night.py`` in a child process (its own SQLite database behind the guide's
    deployment): another club's phone's longest save while the biggest nights are written."""
    args = [sys.executable, str(ROOT / "bench" / "big_night.py")]
    try:
        child = subprocess.run(args, stdout=subprocess.PIPE, text=True, timeout=10 * 60, check=False)
    except subprocess.TimeoutExpired:
        figure("big_night_phone_wait_max_s", "unavailable (bench/big_night.py took more than 10 minutes)", target=1)
        return
    relay(child.stdout)


def seating_plans() -> None:
    """How long the director waits for the plan of the biggest nights the form allows."""
    from scorebook.nights import seating

    slowest = slowest_cpu = 0.0
    for players, sessions in SEATING_NIGHTS:
        assert players * sessions <= seating.MAX_SEATS and sessions <= seating.MAX_SESSIONS
        started, cpu = time.perf_counter(), time.process_time()
        plan = seating.make_plan(players, sessions, seed=1)
        took = time.perf_counter() - started
        slowest, slowest_cpu = max(slowest, took), max(slowest_cpu, time.process_time() - cpu)
        out(f"seating_plan_{players}x{sessions}_s", took)
        out(f"seating_plan_{players}x{sessions}_repeats", plan.repeats())
    out("seating_plan_slowest_cpu_s", slowest_cpu)  # the processor's time: what the machine's load does not add
    out("seating_plan_slowest_s", slowest)
    # the long nights with tables of five, beside a short search of our own (its figure the target)
    seating_search.figures()


# --- main -----------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--profile", action="store_true", help="print cProfile's top costs of the slow requests")
    parser.add_argument("--quick", action="store_true", help="a club of 200 evenings, shorter runs (smoke run)")
    parser.add_argument("--no-load", action="store_true", help="skip the load tests")
    parser.add_argument("--no-browser", action="store_true", help="skip the first paint in Chromium")
    parser.add_argument("--no-night", action="store_true", help="skip the club night")
    parser.add_argument("--load-only", action="store_true", help="only the load tests (SQLite, PostgreSQL)")
    parser.add_argument(
        "--first-visit-only", action="store_true", help="only the first visit and the first paint (no history built)"
    )
    parser.add_argument("--postgres-child", metavar="TMP", help=argparse.SUPPRESS)  # run by postgres_load()
    parser.add_argument("--seconds", type=float, default=LOAD_SECONDS, help=argparse.SUPPRESS)
    parser.add_argument("--scale", type=float, default=1.0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so that the finally blocks stop gunicorn
    if args.postgres_child:
        return postgres_child(Path(args.postgres_child), args.seconds, args.scale)
    history_size = 200 if args.quick else HISTORY
    season_sizes = (50, 100, 200) if args.quick else SEASON_SIZES
    sizes = dict(zip((200, 500, 2000), season_sizes, strict=True))
    scale = 0.4 if args.quick else 1.0

    tmp = Path(tempfile.mkdtemp(prefix="scorebook-bench-"))
    try:
        configure(tmp)
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", interactive=False, verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        log("schema created, static files collected (CompressedManifestStaticFilesStorage)")
        if args.load_only:
            from bench import synthetic as syn

            user = syn.make_user("bench", first_name="Bench")
            data = Data(user, syn.make_club(user, name="Club de la Couleur", slug="couleur"), {}, None, {}, None)
            out("deployment", Server(tmp).described)
            sqlite_load(tmp, data, args.seconds, scale)
            postgres_load(tmp, args.seconds, scale)
            return finish()
        if args.first_visit_only:
            from bench import synthetic as syn

            user = syn.make_user("bench", first_name="Bench")
            club = syn.make_club(user, name="Club de la Couleur", slug="couleur")
            rng = random.Random(7)
            sizes = sorted({DEALS, *PAINT_SIZES})
            evenings = {n: syn.make_evening(club, user, TODAY, n, first_dealer=n % 6, rng=rng) for n in sizes}
            data = Data(user, club, {}, None, evenings, None)
            out("machine_load_1min", os.getloadavg()[0])
            first_load(data)
            if not args.no_browser:
                first_paint(tmp, data)
            return finish()
        data = build(history_size, sorted(set(season_sizes)), 20 if args.quick else SMALL_HISTORY)
        data.seasons = {label: data.seasons[size] for label, size in sizes.items()}
        log("measuring requests")
        out("machine_load_1min", os.getloadavg()[0])
        out("deployment", Server(tmp).described)
        results = measure_requests(data, args.profile, budget=25.0 if args.quick else 75.0)

        def ms(name):
            m = results.get(name)
            return m.median_ms if isinstance(m, Measure) else None

        def ratio(a, b):
            x, y = ms(a), ms(b)
            return x / y if x is not None and y else None

        print()
        names = [f"record_deal_{n}" for n in RECORD_SIZES] + ["insert_reference"]
        names += [f"scoring_page_{n}" for n in PAGE_SIZES] + ["list_reference"]
        names += ["standings_200", "standings_500", "standings_2000", "standings_2000_uncached"]
        names += ["player_page_small", "player_page"]
        for name in names:
            m = results.get(name, "unavailable")
            out(f"{name}_ms", m.median_ms if isinstance(m, Measure) else m)
            out(f"{name}_queries", m.queries if isinstance(m, Measure) else m)
        out("record_deal_queries_at_4_seats", results.get("record_deal_queries_at_4_seats", "unavailable"))
        out("record_deal_ms", ms(f"record_deal_{DEALS}"))  # at an evening of 80 deals
        record = results.get(f"record_deal_{DEALS}")
        out("record_deal_cpu_ms", record.cpu_ms if isinstance(record, Measure) else record)
        raw, sent = results.get("record_answer", (None, None))
        out("record_answer_kb", raw / 1000 if raw else None, "{:.1f}")
        out("record_answer_sent_kb", sent / 1000 if sent else None, "{:.1f}")
        out("scoring_page_ms", ms(f"scoring_page_{DEALS}"))
        out("record_deal_ratio", ratio(f"record_deal_{DEALS}", "insert_reference"))
        out("record_growth", ratio("record_deal_400", "record_deal_20"))
        out("scoring_page_ratio", ratio(f"scoring_page_{DEALS}", "list_reference"))
        out("scoring_growth", ratio("scoring_page_200", "scoring_page_20"))
        out("standings_ratio", ratio("standings_500", "list_reference"))
        out("standings_growth", ratio("standings_2000", "standings_200"))
        out("player_page_ratio", ratio("player_page", "list_reference"))  # the club of 2,000 evenings
        out("player_page_growth", ratio("player_page", "player_page_small"))  # 2,000 over 200 evenings
        money_figures(results, ratio)
        out("evening_list_ms", results.get("evening_list"))
        out("rounds", next((m.reps for m in results.values() if isinstance(m, Measure)), 0))
        log("first load")
        first_load(data)
        if not args.no_browser:
            log("first paint in Chromium (slow 4G)")
            first_paint(tmp, data)
        if not args.no_load:
            seconds = args.seconds / 2 if args.quick else args.seconds
            sqlite_load(tmp, data, seconds, scale)
            postgres_load(tmp, seconds, scale)
    finally:
        try:
            from django.db import connections

            connections.close_all()
        except Exception as error:  # noqa: BLE001 - Django may not have started
            log(f"closing the connections: {error!r}")
        shutil.rmtree(tmp, ignore_errors=True)
    log("seating plans")
    seating_plans()
    log("the biggest nights written beside another club's phone (bench/big_night.py)")
    big_night()
    if not args.no_night:
        log("the club night (bench/night.py)")
        club_night(args.quick)
    out("elapsed_s", time.perf_counter() - T0, "{:.1f}")
    return finish()


if __name__ == "__main__":
    sys.exit(main())
