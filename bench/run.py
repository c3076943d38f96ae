"""``make bench``: how fast Scorebook answers, how it grows, what a phone downloads, and a load test.

Everything runs against a throwaway SQLite file in a temporary folder, with the
production settings (DEBUG off, whitenoise's compressed manifest storage, the pages
gzipped by Django's GZipMiddleware), and everything is removed at the end. One line per
figure, ``name: value``; a figure with a target says ``(target <= X: OK|MISS)``. Must
finish within 5 minutes on 2 cores.

The ratios are medians of an application view over a bare reference view (``bench/views.py``)
through the same middleware. ``first_paint_slow4g_ms`` is Chromium's first contentful paint
of the scoring page served by gunicorn, on an emulated slow 4G phone. When PostgreSQL is
installed (or ``BENCH_POSTGRES_URL`` names a server), the load test also runs against two
gunicorn instances sharing one PostgreSQL database (``two_instances_*``).

    .venv/bin/python bench/run.py              # the whole benchmark
    .venv/bin/python bench/run.py --profile    # also the top costs of the slow requests (cProfile)
    .venv/bin/python bench/run.py --quick      # a smaller club (a smoke run, figures not comparable)
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
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

T0 = time.perf_counter()
ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

# The club: weekly evenings of 80 deals; seasons of 200, 500 and 2,000 of them (the same history).
DEALS = 80
HISTORY = 2000
SMALL_HISTORY = 200  # a second club, for how the player page grows from 200 to 2,000 evenings
SEASON_SIZES = (200, 500, 2000)
LAST_EVENING = date(2026, 6, 25)  # the history's last Thursday; the evenings measured are a week later
TODAY = LAST_EVENING + timedelta(weeks=1)

# The load test.
LOAD_EVENINGS = 8
LOAD_CLIENTS = 8
LOAD_SUBMISSIONS = 400
LOAD_PRELOADED = 30  # deals already in each evening when the load starts
LOAD_REPLAY_EVERY = 10  # every 10th submission of a client repeats its previous one (a double tap)
LOAD_DEADLINE = 120.0  # seconds
READ_YOUR_WRITE_CHECKS = 10  # writes through one instance, each read at once through the other

# The first paint: a slow 4G phone (Chrome DevTools' "Slow 4G" with a 4x slower CPU).
SLOW4G = {"latency": 150, "downloadThroughput": 1_600_000 // 8, "uploadThroughput": 750_000 // 8}
CPU_SLOWDOWN = 4
PAINT_RUNS = 3
CHROMIUM = "/usr/bin/chromium"
POSTGRES_LOCAL = "postgres://postgres:postgres@127.0.0.1:5432"

TARGETS = {
    "record_deal_ratio": 3,
    "scoring_page_ratio": 3,
    "scoring_growth": 2,
    "standings_ratio": 3,
    "standings_growth": 2,
    "player_page_ratio": 3,
    "player_page_growth": 2,
    "first_load_kb": 30,
    "first_load_requests": 4,
    "load_errors": 0,
    "load_lost_deals": 0,
    "load_doubled_deals": 0,
    "two_instances_errors": 0,
    "two_instances_lost_deals": 0,
    "two_instances_doubled_deals": 0,
    "two_instances_read_your_write": "yes",
}


def log(message: str) -> None:
    print(f"[{time.perf_counter() - T0:6.1f}s] {message}", file=sys.stderr, flush=True)


# --- output -----------------------------------------------------------------------------------

LINES: list[str] = []
MISSES: list[str] = []


def figure(name: str, value, fmt: str = "{:.2f}") -> None:
    """Print ``name: value`` (and the target's verdict when the figure has one)."""
    if isinstance(TARGETS.get(name), str):  # a yes/no figure
        ok = value == TARGETS[name]
        line = f"{name}: {value or 'unavailable'} (target: {TARGETS[name]}: {'OK' if ok else 'MISS'})"
        if not ok:
            MISSES.append(name)
    elif value is None or isinstance(value, str):
        text = value or "unavailable"
        line = f"{name}: {text}"
        if name in TARGETS:
            line += f" (target <= {TARGETS[name]}: unavailable)"
    else:
        text = fmt.format(value) if isinstance(value, float) else str(value)
        line = f"{name}: {text}"
        if name in TARGETS:
            ok = value <= TARGETS[name]
            line += f" (target <= {TARGETS[name]}: {'OK' if ok else 'MISS'})"
            if not ok:
                MISSES.append(name)
    LINES.append(line)
    print(line, flush=True)


# --- the environment, before Django starts ----------------------------------------------------


def configure(tmp: Path, database_url: str | None = None) -> None:
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "bench.settings",
            "DATABASE_URL": database_url or f"sqlite:///{tmp / 'bench.sqlite3'}",
            "BENCH_STATIC_ROOT": str(tmp / "static"),
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
            "SECURE_SSL_REDIRECT": "false",  # plain HTTP on loopback; everything else as in production
            "DB_CONN_MAX_AGE": "0",
        }
    )
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    os.chdir(ROOT)


# --- the data ---------------------------------------------------------------------------------


@dataclass
class Data:
    user: object
    club: object
    seasons: dict[int, object]  # size -> Season
    player: object
    e80: object
    e20: object
    e200: object
    ref: object  # where the insert reference writes its rows
    load: list = field(default_factory=list)
    small_club: object = None  # a club of SMALL_HISTORY evenings (the player page's growth)
    small_player: object = None


def build(history_size: int, season_sizes, small_size: int) -> Data:
    from bench import synthetic as syn
    from scorebook.clubs.models import Player
    from scorebook.evenings import services
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
    elapsed = time.perf_counter() - t
    log(f"history: {history_size} evenings of {DEALS} deals in {elapsed:.1f}s")
    syn.yearly_seasons(club, history)
    seasons = {
        size: syn.add_season(club, f"Last {size} evenings", history.dates[-size], history.last_day)
        for size in season_sizes
    }
    # The bulk path leaves the same rows as create_evening + record_deal: check it on one evening.
    last = Evening.objects.get(pk=history.evening_ids[-1])
    same = syn.make_evening(club, user, last.date, [d.data for d in last.deals.all()], first_dealer=last.first_dealer)
    same.refresh_from_db()
    assert same.rules == last.rules and same.summary == last.summary and same.version == last.version, (
        "the bulk history differs from what create_evening and record_deal write"
    )
    figures = lambda e: list(e.seats.values_list("position", *services.SEAT_FIGURES))  # noqa: E731
    assert figures(same) == figures(last), "the bulk history's seats differ from what the services write"
    same.delete()

    rng = random.Random(7)
    e80 = syn.make_evening(club, user, TODAY, DEALS, first_dealer=2, rng=rng)
    e20 = syn.make_evening(club, user, TODAY, 20, first_dealer=3, rng=rng)
    e200 = syn.make_evening(club, user, TODAY, 200, first_dealer=4, rng=rng)
    ref = syn.make_evening(club, user, TODAY, 0, first_dealer=0, rng=rng)
    load = [
        syn.make_evening(club, user, TODAY, LOAD_PRELOADED, first_dealer=i % 6, rng=rng) for i in range(LOAD_EVENINGS)
    ]
    for e in (e80, e20, e200):
        assert services.scored(e).result is not None
    player = Player.objects.get(club=club, name=syn.PLAYERS[0])
    small_club = syn.make_club(user, name="Club du Petit Chelem", slug="petit")
    small = syn.build_history(
        small_club, user, evenings=small_size, deals_per_evening=DEALS, last_day=LAST_EVENING, seed=2
    )
    syn.yearly_seasons(small_club, small)
    small_player = Player.objects.get(club=small_club, name=syn.PLAYERS[0])
    log(f"a second club of {small_size} evenings")
    return Data(user, club, seasons, player, e80, e20, e200, ref, load, small_club, small_player)


# --- timing -----------------------------------------------------------------------------------


@dataclass
class Measure:
    median_ms: float
    reps: int
    queries: int
    status: int


@dataclass
class Probe:
    """One request to measure: ``request()`` makes it through the test Client, ``after()`` undoes its effect."""

    name: str
    request: object
    after: object = None
    expect: int = 200
    times: list[float] = field(default_factory=list)
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
            t = time.perf_counter()
            probe.request()
            probe.times.append((time.perf_counter() - t) * 1000)
            if probe.after:
                probe.after()
        rounds += 1
    return {p.name: Measure(statistics.median(p.times), len(p.times), p.queries, p.expect) for p in probes}


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
            f"{path.rsplit('/site-packages/', 1)[-1].split('/work/main/', 1)[-1]}:{line}({func})",
        )
        for (path, line, func), (_cc, nc, tt, _ct, _callers) in stats.stats.items()
    ]
    for tt, nc, where in sorted(rows, reverse=True)[:10]:
        print(f"  {tt:8.1f} ms own {nc:8.0f} calls  {where}")


def _median_ms(fn, reps: int = 9) -> float:
    fn()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def breakdown(data: Data, results) -> None:
    """Without the profiler: the parts of the slow requests timed alone (medians, ms)."""
    from django.db import transaction

    from scorebook.evenings import display, services
    from scorebook.evenings.models import Evening
    from scorebook.rules import registry
    from scorebook.rules.scoring import score

    print("\n===== breakdown (each part timed alone, no profiler) =====")

    def part(name, fn):
        try:
            figure(f"breakdown.{name}_ms", _median_ms(fn))
        except Exception as error:  # noqa: BLE001 - internals another engineer may be changing
            figure(f"breakdown.{name}_ms", f"unavailable ({type(error).__name__}: {str(error)[:60]})")

    for label, e in (("scoring_80", data.e80), ("scoring_200", data.e200)):
        e = Evening.objects.get(pk=e.pk)
        s = services.scored(e)
        part(f"{label}.services_scored", lambda e=e: services.scored(e))
        part(f"{label}.rules_resolve", lambda e=e: registry.resolve(e.ruleset, e.rules))
        part(f"{label}.engine_score_only", lambda s=s: score(s.engine))
        part(f"{label}.services_summarize", lambda e=e, s=s: services.summarize(e, s))
        part(f"{label}.display_deal_rows_20", lambda s=s: display.deal_rows(s.result, s.engine.rules, 20, s.deals))

    e = Evening.objects.get(pk=data.e80.pk)
    s = services.scored(e)

    def record_rolled_back():
        nxt = s.result.next
        from bench import synthetic as syn

        deal = syn.random_deal(nxt.playing, random.Random(1), allow_pass=False)
        with transaction.atomic():
            services.record_deal(Evening.objects.get(pk=e.pk), deal, data.user)
            transaction.set_rollback(True)

    part("record_80.services_record_deal", record_rolled_back)

    try:  # the season page's internals, which another engineer may be changing
        from scorebook.league import standings as st
        from scorebook.league.views import seasons

        names = seasons.player_names(data.club)
        for label, season in data.seasons.items():
            season.club = data.club
            part(f"standings_{label}.read_summaries", lambda se=season: seasons.summaries(seasons.season_evenings(se)))
            rows = seasons.summaries(seasons.season_evenings(season))
            part(
                f"standings_{label}.standings_compute",
                lambda se=season, r=rows: st.standings(seasons.rules_of(se), r, names),
            )
    except Exception as error:  # noqa: BLE001
        figure("breakdown.clubs", f"unavailable ({type(error).__name__}: {str(error)[:80]})")


def measure_requests(data: Data, want_profile: bool, budget: float) -> dict[str, Measure | str]:
    from django.test import Client, override_settings
    from django.urls import reverse

    from bench import synthetic as syn
    from scorebook.evenings import services
    from scorebook.evenings.models import Deal, Evening

    results: dict[str, Measure | str] = {}
    FORM = "application/x-www-form-urlencoded"
    client = Client(headers={"Accept-Encoding": ACCEPT_ENCODING})  # as a browser: the pages are gzipped
    client.force_login(data.user)
    htmx = {"HX-Request": "true"}

    with override_settings(ROOT_URLCONF="bench.urls"):
        # record a deal at an evening of 80 deals, then put the evening back as it was
        e80 = Evening.objects.get(pk=data.e80.pk)
        snapshot = (e80.version, e80.summary, e80.updated_at)
        nxt = services.scored(e80).result.next
        deal = syn.random_deal(nxt.playing, random.Random(80), allow_pass=False)
        keys = iter(range(10**9))
        record_url = reverse("deal_record", args=[e80.pk])

        def record():
            post = syn.form_data(deal, request_key=f"bench-record-{next(keys)}")
            # encoded as htmx sends a form (the test client would send multipart)
            response = client.post(record_url, urllib.parse.urlencode(post, doseq=True), FORM, headers=htmx)
            # a recorded deal is answered with the board partial, in place (no HX-Retarget)
            body = gzip.decompress(response.content) if response.get("Content-Encoding") == "gzip" else response.content
            assert (
                response.status_code == 200
                and b'id="board"' in body
                and f'id="deal-{DEALS + 1}"'.encode() in body
                and "HX-Retarget" not in response.headers
            ), (response.status_code, dict(response.headers), body[:300])
            return response

        def put_back():
            """The evening exactly as it was (version, summary, time of the last change)."""
            Deal.objects.filter(evening_id=e80.pk, number__gt=DEALS).delete()
            Evening.objects.filter(pk=e80.pk).update(version=snapshot[0], summary=snapshot[1], updated_at=snapshot[2])

        def get(url):
            def request():
                response = client.get(url)
                assert response.status_code == 200, (url, response.status_code)
                return response

            return request

        insert_url = reverse("bench_insert", args=[data.ref.pk])

        def insert():
            response = client.post(insert_url, "", FORM, headers=htmx)
            assert response.status_code == 200, response.status_code
            return response

        probes = [
            Probe("record_deal", record, put_back),
            Probe("insert_reference", insert),
            Probe("scoring_page", get(reverse("evening", args=[data.e80.pk]))),
            Probe("scoring_page_20", get(reverse("evening", args=[data.e20.pk]))),
            Probe("scoring_page_200", get(reverse("evening", args=[data.e200.pk]))),
            Probe("list_reference", get(reverse("bench_rows", args=[data.e80.pk]))),
        ]

        # pages another engineer is writing: "unavailable" while they answer 404 (or fail)
        club_pages = {f"standings_{label}": ("season", [data.club.slug, s.pk]) for label, s in data.seasons.items()}
        club_pages["player_page"] = ("club_player", [data.club.slug, data.player.pk])  # 2,000 evenings
        club_pages["player_page_small"] = ("club_player", [data.small_club.slug, data.small_player.pk])
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
        if Deal.objects.filter(evening_id=e80.pk).count() != DEALS:
            raise AssertionError("the evening of 80 deals was not put back")

        if want_profile:
            for probe in probes:
                if probe.name in (
                    "record_deal",
                    "scoring_page",
                    "scoring_page_200",
                    "standings_500",
                    "standings_2000",
                    "standings_2000_uncached",
                    "player_page",
                ):
                    profile(probe.name, probe.request, after=probe.after)
    return results


# --- what a phone downloads -----------------------------------------------------------------------


class _Refs(html.parser.HTMLParser):
    """The URLs an HTML page makes the browser fetch at once (stylesheets, icons, scripts, images)."""

    def __init__(self):
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "link" and a.get("href"):
            rel = set((a.get("rel") or "").lower().split())
            if rel & {"stylesheet", "icon", "shortcut", "apple-touch-icon", "preload", "modulepreload", "manifest"}:
                self.urls.append(a["href"])
        elif (tag in ("script", "img", "source", "audio", "video", "iframe") and a.get("src")) or (
            tag == "input" and (a.get("type") or "").lower() == "image" and a.get("src")
        ):
            self.urls.append(a["src"])


CSS_URL = re.compile(r"""url\(\s*(['"]?)([^'")]+)\1\s*\)|@import\s+(['"])([^'"]+)\3""")


ACCEPT_ENCODING = "gzip, deflate"  # what Chromium sends over plain HTTP: gzip, no brotli


def _served(client, url: str, *, follow_css: bool = True):
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
    page_url = reverse("evening", args=[data.e80.pk])
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
    figure("first_load_html_raw_kb", len(raw) / 1000, "{:.1f}")
    figure("first_load_html_sent_kb", len(html_sent) / 1000, "{:.1f}")
    encodings = [f"html={html_encoding}"]
    for url, (size, encoding) in seen.items():
        name = re.sub(r"\.[0-9a-f]{12}(\.\w+)$", r"\1", url.split("/static/", 1)[-1])
        figure(f"first_load_asset[{name}]_kb", size / 1000, "{:.1f}")
        encodings.append(f"{name}={encoding}")
    figure("first_load_content_encodings", " ".join(encodings))
    if missing:
        figure("first_load_missing", " ".join(missing))
    figure("first_load_requests", 1 + len(seen))
    figure("first_load_kb", total / 1000, "{:.1f}")


# --- the load test ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """gunicorn, 2 workers on 127.0.0.1, with the benchmark's environment; always stopped."""

    def __init__(self, tmp: Path, name: str = "gunicorn"):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = tmp / f"{name}.log"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        logfile = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        self._log = logfile
        self.proc = subprocess.Popen(
            [
                str(BIN / "gunicorn"),
                "scorebook.wsgi:application",
                "--workers",
                "2",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--no-control-socket",
                "--timeout",
                "60",
                "--graceful-timeout",
                "5",
                "--chdir",
                str(ROOT),
            ],
            cwd=ROOT,
            env=os.environ.copy(),
            stdout=logfile,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: stopped as a whole below
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {self.log_path.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.base + "/accounts/login/", timeout=2) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            time.sleep(0.2)
        raise RuntimeError("gunicorn did not answer within 30 s")

    def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)  # the group of the process started here
                self.proc.wait(timeout=10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=5)
        self._log.close()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def new_session(user) -> str:
    """A logged-in session of ``user``, stored in the database the servers read."""
    from django.test import Client

    c = Client()
    c.force_login(user)
    return c.cookies["sessionid"].value


def open_page(opener, base: str, session: str, evening_pk: int) -> tuple[str, str, str]:
    """GET the scoring page: (its HTML, the CSRF cookie, the form's CSRF token)."""
    request = urllib.request.Request(f"{base}/e/{evening_pk}/", headers={"Cookie": f"sessionid={session}"})
    with opener.open(request, timeout=30) as r:
        page = r.read().decode()
        cookies = r.headers.get_all("Set-Cookie") or []
    csrf_cookie = next(c.split(";")[0].split("=", 1)[1] for c in cookies if c.startswith("csrftoken="))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    return page, csrf_cookie, token


def post_deal(opener, base: str, session: str, csrf: tuple[str, str], evening_pk: int, deal: dict, key: str):
    """An htmx post of the record form: (status, body)."""
    csrf_cookie, token = csrf
    headers = {
        "Cookie": f"sessionid={session}; csrftoken={csrf_cookie}",
        "HX-Request": "true",
        "Content-Type": "application/x-www-form-urlencoded",
    }
    from bench import synthetic as syn

    body = urllib.parse.urlencode(syn.form_data(deal, request_key=key) | {"csrfmiddlewaretoken": token}, doseq=True)
    request = urllib.request.Request(f"{base}/e/{evening_pk}/deals/", body.encode(), headers)
    try:
        with opener.open(request, timeout=30) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


@dataclass
class ClientReport:
    accepted: list[str] = field(default_factory=list)  # request keys of new deals answered 200
    replays: int = 0
    errors: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)


def load_client(bases, session, evening_pk, table, submissions, seed, deadline, report):
    """One phone: opens the scoring page, then records ``submissions`` deals with htmx posts.
    With several servers (``bases``), its requests go to each in turn."""
    from bench import synthetic as syn

    opener = urllib.request.build_opener(_NoRedirect)
    rng = random.Random(seed)
    turn = seed  # which server the next request goes to
    try:
        _page, *csrf = open_page(opener, bases[turn % len(bases)], session, evening_pk)
    except Exception as error:  # noqa: BLE001
        report.errors.append(f"page: {error!r}")
        return
    previous: tuple[dict, str] | None = None
    for i in range(submissions):
        if time.monotonic() > deadline:
            report.errors.append("aborted: the load test's time is up")
            return
        replay = previous is not None and (i + 1) % LOAD_REPLAY_EVERY == 0
        if replay:
            deal, key = previous
        else:
            deal = syn.random_deal(table.playing, rng)
            key = f"load-{evening_pk}-{i}-{rng.getrandbits(32):08x}"
        turn += 1
        t = time.perf_counter()
        try:
            status, content = post_deal(opener, bases[turn % len(bases)], session, csrf, evening_pk, deal, key)
        except Exception as error:  # noqa: BLE001
            report.errors.append(f"post {i}: {error!r}")
            continue
        report.latencies.append((time.perf_counter() - t) * 1000)
        # a recorded deal, and a repeated key, are answered with the board partial
        if status != 200 or b'id="board"' not in content:
            report.errors.append(f"post {i}: HTTP {status} {content[:200]!r}")
            continue
        if replay:
            report.replays += 1
        else:
            report.accepted.append(key)
            table.play(deal)
            previous = (deal, key)


@dataclass
class Load:
    reports: list[ClientReport]
    elapsed: float
    aborted: bool


def run_load(servers: list[Server], data_user, evenings: list) -> Load:
    """LOAD_CLIENTS phones (LOAD_SUBMISSIONS posts in all) on ``evenings``, against ``servers``
    (their requests alternating between them when there are several)."""
    from django.db import connections

    from bench import synthetic as syn
    from scorebook.evenings import services

    sessions = [new_session(data_user) for _ in range(LOAD_CLIENTS)]
    tables = []
    for e in evenings:
        nxt = services.scored(e).result.next
        tables.append(syn.Table(syn.PLAYERS, syn.PLAYERS.index(nxt.dealer)))
    connections.close_all()
    bases = [s.base for s in servers]
    reports = [ClientReport() for _ in range(LOAD_CLIENTS)]
    per_client = [LOAD_SUBMISSIONS // LOAD_CLIENTS + (i < LOAD_SUBMISSIONS % LOAD_CLIENTS) for i in range(LOAD_CLIENTS)]
    log(f"load test: {LOAD_SUBMISSIONS} submissions from {LOAD_CLIENTS} clients to {' and '.join(bases)}")
    deadline = time.monotonic() + LOAD_DEADLINE
    threads = [
        threading.Thread(
            target=load_client,
            args=(
                bases,
                sessions[i],
                evenings[i % len(evenings)].pk,
                tables[i % len(evenings)],
                per_client[i],
                1000 + i,
                deadline,
                reports[i],
            ),
            daemon=True,
        )
        for i in range(LOAD_CLIENTS)
    ]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=max(0.0, deadline - time.monotonic()) + 35)
    elapsed = time.perf_counter() - start
    aborted = any(t.is_alive() for t in threads) or any(e.startswith("aborted") for r in reports for e in r.errors)
    return Load(reports, elapsed, aborted)


def check_load(prefix: str, load: Load, evenings: list) -> None:
    """The database after the load: every evening numbered 1..n, n = preloaded + accepted, each key once."""
    from scorebook.evenings import services
    from scorebook.evenings.models import Deal, Evening

    reports = load.reports
    accepted = {e.pk: [] for e in evenings}
    for i, r in enumerate(reports):
        accepted[evenings[i % len(evenings)].pk] += r.accepted
    lost = doubled = gaps = summary_wrong = 0
    for e in evenings:
        numbers = list(Deal.objects.filter(evening=e).order_by("number").values_list("number", flat=True))
        if numbers != list(range(1, len(numbers) + 1)):
            gaps += 1
        keys = list(
            Deal.objects.filter(evening=e, request_key__startswith="load-").values_list("request_key", flat=True)
        )
        doubled += len(keys) - len(set(keys))
        sent = set(accepted[e.pk])
        lost += len(sent - set(keys))
        doubled += len(set(keys) - sent)  # a deal stored that no accepted post accounts for
        expected = LOAD_PRELOADED + len(accepted[e.pk])
        if len(numbers) != expected:
            lost += max(0, expected - len(numbers))
            doubled += max(0, len(numbers) - expected)
        fresh = Evening.objects.get(pk=e.pk)
        if fresh.summary != services.summarize(fresh, services.scored(fresh)) or fresh.version != len(numbers):
            summary_wrong += 1
    errors = [err for r in reports for err in r.errors]
    latencies = sorted(x for r in reports for x in r.latencies)
    new_deals = sum(len(r.accepted) for r in reports)
    replays = sum(r.replays for r in reports)
    elapsed = load.elapsed
    figure(f"{prefix}_submissions", new_deals + replays + len(errors))
    figure(f"{prefix}_accepted_deals", new_deals)
    figure(f"{prefix}_double_taps_answered", replays)
    figure(f"{prefix}_errors", len(errors))
    for err in errors[:5]:
        figure(f"{prefix}_error_sample", err[:200])
    figure(f"{prefix}_aborted", "yes" if load.aborted else "no")
    figure(f"{prefix}_lost_deals", lost)
    figure(f"{prefix}_doubled_deals", doubled)
    figure(f"{prefix}_evenings_with_gaps", gaps)
    figure(f"{prefix}_evenings_with_stale_summary", summary_wrong)
    figure(f"{prefix}_seconds", elapsed)
    figure(f"{prefix}_throughput_deals_per_s", new_deals / elapsed if elapsed else 0.0, "{:.1f}")
    figure(f"{prefix}_requests_per_s", (new_deals + replays) / elapsed if elapsed else 0.0, "{:.1f}")
    if latencies:
        figure(f"{prefix}_latency_p50_ms", latencies[len(latencies) // 2], "{:.1f}")
        figure(f"{prefix}_latency_p95_ms", latencies[int(len(latencies) * 0.95) - 1], "{:.1f}")


def _server_logs(servers: list[Server], load: Load | None) -> None:
    if load is None or any(r.errors for r in load.reports):
        for server in servers:
            if server.log_path.exists():
                log(f"{server.log_path.name} ends with:\n" + server.log_path.read_text(errors="replace")[-3000:])


def load_test(tmp: Path, data: Data) -> None:
    """The load test against one gunicorn (2 workers) on the benchmark's SQLite file."""
    server = Server(tmp)
    load = None
    try:
        server.start()
        load = run_load([server], data.user, data.load)
    finally:
        server.stop()
        log("load test: gunicorn stopped")
        _server_logs([server], load)
    check_load("load", load, data.load)


# --- the first paint on a slow phone --------------------------------------------------------------


def first_paint(tmp: Path, data: Data) -> None:
    """First contentful paint of the scoring page of a 20-deal evening, served by gunicorn, in Chromium
    on an emulated slow 4G phone (latency, bandwidth, CPU 4x slower), with an empty cache each time."""
    if not Path(CHROMIUM).exists():
        figure("first_paint_slow4g_ms", f"unavailable ({CHROMIUM} is not installed: make chromium)")
        return
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        figure("first_paint_slow4g_ms", "unavailable (playwright is not installed)")
        return
    from django.db import connections

    session = new_session(data.user)
    connections.close_all()
    server = Server(tmp, "gunicorn-paint")
    paints: list[float] = []
    requests: list[int] = []
    after_load: list[str] = []
    try:
        server.start()
        url = f"{server.base}/e/{data.e20.pk}/"
        for _ in range(4):  # both workers warm (templates loaded): the figure is the phone's, not a cold start
            with urllib.request.urlopen(urllib.request.Request(url, headers={"Cookie": f"sessionid={session}"})) as r:
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
                    context = browser.new_context(
                        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
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
                    response = page.goto(url, wait_until="load", timeout=60_000)
                    assert response is not None and response.status == 200, response and response.status
                    page.wait_for_function(
                        "performance.getEntriesByName('first-contentful-paint').length > 0", timeout=30_000
                    )
                    paints.append(page.evaluate("performance.getEntriesByName('first-contentful-paint')[0].startTime"))
                    requests.append(len(seen))
                    if run == PAINT_RUNS - 1:
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
        figure("first_paint_slow4g_ms", f"unavailable ({type(error).__name__}: {str(error)[:120]})")
        return
    finally:
        server.stop()
    figure("first_paint_slow4g_ms", statistics.median(paints), "{:.0f}")
    figure("first_paint_slow4g_runs_ms", " ".join(f"{p:.0f}" for p in paints))
    figure("first_paint_browser_requests", max(requests))
    figure("first_visit_requests_after_load", len(after_load))  # no target: not before the first paint
    if after_load:
        figure("first_visit_after_load", " ".join(sorted({urllib.parse.urlsplit(u).path for u in after_load})))


# --- two instances on one PostgreSQL database ----------------------------------------------------------


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


def two_instances(tmp: Path) -> None:
    """The load test against two gunicorn instances sharing one PostgreSQL database, in a child
    process (this one is bound to the SQLite file): the site keeps no state in its processes."""
    try:
        server_url, problem = _postgres_url()
    except ImportError:
        server_url, problem = None, "psycopg is not installed"
    if server_url is None:
        figure("two_instances", f"unavailable ({problem})")
        return
    import psycopg

    name = f"scorebook_bench_{os.getpid()}_{secrets.token_hex(3)}"
    with psycopg.connect(server_url + "/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        env = os.environ | {"DATABASE_URL": f"{server_url}/{name}", "BENCH_ELAPSED": str(time.perf_counter() - T0)}
        child = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--two-instances-child", str(tmp)],
            env=env,
            stdout=subprocess.PIPE,
            text=True,
            timeout=LOAD_DEADLINE + 120,
            check=False,
        )
        for line in child.stdout.splitlines():
            name_, _, value = line.partition(": ")
            if name_ and value:
                LINES.append(line)
                print(line, flush=True)
                if value.endswith(": MISS)"):
                    MISSES.append(name_)
        if child.returncode != 0:
            figure("two_instances", f"unavailable (the child process exited with {child.returncode})")
    finally:
        with psycopg.connect(server_url + "/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def two_instances_child(tmp: Path) -> int:
    """In the child process: DATABASE_URL is the new PostgreSQL database; the static files are the
    parent's (``tmp``)."""
    global T0
    T0 -= float(os.environ.get("BENCH_ELAPSED", "0"))  # the parent's clock, for the log
    configure(tmp, database_url=os.environ["DATABASE_URL"])
    import django

    django.setup()
    from django.core.management import call_command

    from bench import synthetic as syn
    from scorebook.evenings import services
    from scorebook.evenings.models import Deal

    call_command("migrate", run_syncdb=True, interactive=False, verbosity=0)
    user = syn.make_user("bench", first_name="Bench")
    club = syn.make_club(user, name="Club de la Couleur", slug="couleur")
    rng = random.Random(11)
    evenings = [
        syn.make_evening(club, user, TODAY, LOAD_PRELOADED, first_dealer=i % 6, rng=rng) for i in range(LOAD_EVENINGS)
    ]
    log("two instances: a PostgreSQL database with the load test's evenings")
    servers = [Server(tmp, "gunicorn-a"), Server(tmp, "gunicorn-b")]
    load = None
    fresh_reads = 0
    try:
        for server in servers:
            server.start()
        load = run_load(servers, user, evenings)
        check_load("two_instances", load, evenings)  # before the writes below, which are not the load's
        # read your write: a deal recorded through one instance, the page read at once through the other
        opener = urllib.request.build_opener(_NoRedirect)
        session = new_session(user)
        for k in range(READ_YOUR_WRITE_CHECKS):
            writer, reader = servers[k % 2].base, servers[(k + 1) % 2].base
            e = evenings[k % len(evenings)]
            deal = syn.random_deal(services.scored(e).result.next.playing, rng, allow_pass=False)
            _page, *csrf = open_page(opener, writer, session, e.pk)
            status, _body = post_deal(opener, writer, session, csrf, e.pk, deal, f"ryw-{k}-{rng.getrandbits(32):08x}")
            number = Deal.objects.filter(evening=e).count()
            page, *_ = open_page(opener, reader, session, e.pk)
            if status == 200 and f'id="deal-{number}"' in page and f'id="deal-{number + 1}"' not in page:
                fresh_reads += 1
    finally:
        for server in servers:
            server.stop()
        log("two instances: both gunicorns stopped")
        _server_logs(servers, load)
    figure(
        "two_instances_read_your_write",
        "yes"
        if fresh_reads == READ_YOUR_WRITE_CHECKS
        else f"no ({fresh_reads} of {READ_YOUR_WRITE_CHECKS} reads showed the write)",
    )
    from django.db import connections

    connections.close_all()
    return 0


# --- main -----------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--profile", action="store_true", help="print cProfile's top costs of the slow requests")
    parser.add_argument("--quick", action="store_true", help="a club of 200 evenings (smoke run)")
    parser.add_argument("--no-load", action="store_true", help="skip the load tests")
    parser.add_argument("--no-browser", action="store_true", help="skip the first paint in Chromium")
    parser.add_argument("--two-instances-child", metavar="TMP", help=argparse.SUPPRESS)  # run by two_instances()
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so that the finally blocks stop gunicorn
    if args.two_instances_child:
        return two_instances_child(Path(args.two_instances_child))
    history_size = 200 if args.quick else HISTORY
    season_sizes = (50, 100, 200) if args.quick else SEASON_SIZES
    sizes = dict(zip((200, 500, 2000), season_sizes, strict=True))

    tmp = Path(tempfile.mkdtemp(prefix="scorebook-bench-"))
    try:
        configure(tmp)
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", run_syncdb=True, interactive=False, verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        log("schema created, static files collected (CompressedManifestStaticFilesStorage)")
        data = build(history_size, sorted(set(season_sizes)), 20 if args.quick else SMALL_HISTORY)
        data.seasons = {label: data.seasons[size] for label, size in sizes.items()}
        log("measuring requests")
        figure("machine_load_1min", os.getloadavg()[0])
        results = measure_requests(data, args.profile, budget=25.0 if args.quick else 75.0)

        def ms(name):
            m = results.get(name)
            return m.median_ms if isinstance(m, Measure) else None

        def ratio(a, b):
            x, y = ms(a), ms(b)
            return x / y if x is not None and y else None

        print()
        for name in (
            "record_deal",
            "insert_reference",
            "scoring_page",
            "scoring_page_20",
            "scoring_page_200",
            "list_reference",
            "standings_200",
            "standings_500",
            "standings_2000",
            "standings_2000_uncached",
            "player_page_small",
            "player_page",
        ):
            m = results.get(name, "unavailable")
            if isinstance(m, Measure):
                figure(f"{name}_ms", m.median_ms)
                figure(f"{name}_queries", m.queries)
            else:
                figure(f"{name}_ms", m)
                figure(f"{name}_queries", m)
        s500 = results["standings_500"]
        figure("standings_ms", s500.median_ms if isinstance(s500, Measure) else s500)
        figure("standings_queries", s500.queries if isinstance(s500, Measure) else s500)
        figure("record_deal_ratio", ratio("record_deal", "insert_reference"))
        figure("scoring_page_ratio", ratio("scoring_page", "list_reference"))
        figure("scoring_growth", ratio("scoring_page_200", "scoring_page_20"))
        figure("standings_ratio", ratio("standings_500", "list_reference"))
        figure("standings_growth", ratio("standings_2000", "standings_200"))
        figure("player_page_ratio", ratio("player_page", "list_reference"))  # the club of 2,000 evenings
        figure("player_page_growth", ratio("player_page", "player_page_small"))  # 2,000 over 200 evenings
        figure("rounds", next((m.reps for m in results.values() if isinstance(m, Measure)), 0))
        log("first load")
        first_load(data)
        if args.profile:
            breakdown(data, results)
        if not args.no_browser:
            log("first paint in Chromium (slow 4G)")
            first_paint(tmp, data)
        if not args.no_load:
            load_test(tmp, data)
            two_instances(tmp)
    finally:
        try:
            from django.db import connections

            connections.close_all()
        except Exception as error:  # noqa: BLE001 - Django may not have started
            log(f"closing the connections: {error!r}")
        shutil.rmtree(tmp, ignore_errors=True)
    print()
    if MISSES:
        figure("misses", " ".join(MISSES))
    else:
        figure("misses", "none")
    figure("elapsed_s", time.perf_counter() - T0, "{:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
