"""A club night under load: 40 tables (160 players) x 5 sessions x 8 deals, every deal recorded
through HTTP by its table's phone (a scoring link, no account) against gunicorn on 127.0.0.1,
while 200 followers poll the live ranking.

    .venv/bin/python bench/night.py [--tables 40] [--sessions 5] [--deals 8] [--followers 200]

Each session: the 40 table clients open their card's link and record their deals (htmx posts with
request keys, a deal every 0.5-2 s per table, about a hundred times a real table's pace; one post
in ten is sent twice, as a phone that lost the answer would);
then the director closes the session. The followers poll every 4 s with the ETag they were given
(304 while nothing changed), as the page does. Bounded: at most ``--minutes`` in all.

Prints ``night_errors``, ``night_lost_deals`` (a deal answered 200 and not stored),
``night_doubled_deals`` (a deal stored twice), the p95 latency of a recorded deal and of a ranking
poll, and ``night_ranking_growth``: building the ranking after session 5 over building it after
session 1 (medians; it reads the tables' stored summaries, so it must not grow with the deals);
a poll is then served the render of that state kept in the cache (settings.CACHES, in the database).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.run import Server, _postgres_url, configure  # noqa: E402  (the load test's gunicorn and environment)

POLL_SECONDS = 4
REPLAY_EVERY = 10
# Seconds between two deals of a table: a real table takes 2-4 minutes a deal; the benchmark plays
# about a hundred times faster (some 30 deals a second in the hall) to stay within minutes.
THINK = (0.5, 2.0)


@dataclass
class Stats:
    errors: list[str] = field(default_factory=list)
    deal_ms: list[float] = field(default_factory=list)
    poll_ms: list[float] = field(default_factory=list)
    accepted: dict[int, set[str]] = field(default_factory=dict)  # evening pk -> request keys answered 200
    lock: threading.Lock = field(default_factory=threading.Lock)

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Phone:
    """A browser's cookies, sent by hand: the site's cookies are Secure (production settings) and
    the benchmark speaks plain HTTP on loopback, where a cookie jar would keep them back."""

    def __init__(self):
        self.opener = urllib.request.build_opener(_NoRedirect)
        self.cookies: dict[str, str] = {}

    def open(self, url: str, data: bytes | None = None, headers: dict | None = None):
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            response = self.opener.open(urllib.request.Request(url, data, headers), timeout=30)
        except urllib.error.HTTPError as answer:
            response = answer
        for line in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = line.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return response


def table_client(base, token, evening_pk, players, deals, seed, deadline, stats: Stats):
    """One table's phone: opens its card's link, then records ``deals`` deals."""
    rng = random.Random(seed)
    browser = Phone()
    try:
        opened = browser.open(f"{base}/t/{token}/")
        if opened.status != 302:
            raise RuntimeError(f"the link answered {opened.status}")
        page = browser.open(f"{base}/e/{evening_pk}/").read().decode()
        form_token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    except Exception as error:  # noqa: BLE001
        stats.error(f"table {evening_pk}: open: {error!r}")
        return
    sent = 0
    while sent < deals:
        if time.monotonic() > deadline:
            stats.error(f"table {evening_pk}: time is up")
            return
        a, b = rng.sample(players, 2)
        key = f"night-{evening_pk}-{sent}-{rng.getrandbits(32):08x}"
        data = {"contract": "samen-8", "declarers": [a, b], "tricks": str(rng.randint(5, 13)), "request_key": key}
        body = urllib.parse.urlencode(data | {"csrfmiddlewaretoken": form_token}, doseq=True).encode()
        for _attempt in range(2 if rng.randrange(REPLAY_EVERY) == 0 else 1):
            headers = {"HX-Request": "true", "Referer": f"{base}/e/{evening_pk}/"}
            t = time.perf_counter()
            try:
                with browser.open(f"{base}/e/{evening_pk}/deals/", body, headers) as r:
                    status = r.status
                    r.read()
            except Exception as error:  # noqa: BLE001
                stats.error(f"table {evening_pk}: post: {error!r}")
                continue
            with stats.lock:
                stats.deal_ms.append((time.perf_counter() - t) * 1000)
            if status != 200:
                stats.error(f"table {evening_pk}: post answered {status}")
                continue
            with stats.lock:
                stats.accepted.setdefault(evening_pk, set()).add(key)
        sent += 1
        time.sleep(rng.uniform(*THINK))  # the table plays the next deal


def follower(base, token, stop: threading.Event, seed, stats: Stats):
    """A phone in the hall with the ranking open: polls with the ETag it was given."""
    rng = random.Random(seed)
    browser = Phone()
    etag = None
    stop.wait(rng.uniform(0, POLL_SECONDS))
    while not stop.is_set():
        headers = {"HX-Request": "true"} | ({"If-None-Match": etag} if etag else {})
        t = time.perf_counter()
        try:
            with browser.open(f"{base}/r/{token}/live/", None, headers) as r:
                status = r.status
                r.read()
                etag = r.headers.get("ETag") or etag
        except Exception as error:  # noqa: BLE001
            stats.error(f"follower: {error!r}")
            stop.wait(POLL_SECONDS)
            continue
        with stats.lock:
            stats.poll_ms.append((time.perf_counter() - t) * 1000)
        if status == 286:  # final: the page stops polling
            return
        if status not in (200, 304):
            stats.error(f"follower: answered {status}")
        stop.wait(POLL_SECONDS)


def ranking_ms(base, token, reps=15) -> float:
    """The median time of a full ranking answer (no ETag: built from the summaries)."""
    browser = Phone()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        with browser.open(f"{base}/r/{token}/live/") as r:
            r.read()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def build_ms(night, reps=9) -> float:
    """The median time of building the ranking region from the tables' summaries (in this process,
    as the server does on a poll that misses its snapshot): what could grow with the deals."""
    from django.template.loader import render_to_string

    from scorebook.nights.views.ranking import _context

    times = []
    for _ in range(reps):
        t = time.perf_counter()
        render_to_string("nights/ranking.html#live", _context(night))
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def p95(values) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) >= 2 else (values[0] if values else 0.0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--sessions", type=int, default=5)
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--followers", type=int, default=200)
    parser.add_argument("--minutes", type=float, default=8)
    parser.add_argument("--sqlite", action="store_true", help="SQLite instead of a throwaway PostgreSQL database")
    args = parser.parse_args()
    deadline = time.monotonic() + args.minutes * 60
    tmp = Path(tempfile.mkdtemp(prefix="scorebook-night-"))
    database_url, dropped = None, None
    if not args.sqlite:
        server_url, problem = _postgres_url()
        if server_url:
            import psycopg

            name = f"scorebook_night_{os.getpid()}"
            with psycopg.connect(server_url + "/postgres", autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{name}"')
            database_url, dropped = f"{server_url}/{name}", (server_url, name)
        else:
            print(f"night_database: SQLite ({problem})")
    configure(tmp, database_url)
    print(f"night_database: {'PostgreSQL' if database_url else 'SQLite'}, gunicorn 2 workers x 4 threads")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", run_syncdb=True, verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    from bench import synthetic as syn
    from scorebook.clubs.models import Role
    from scorebook.evenings.models import Deal
    from scorebook.nights import services

    director = syn.make_user("director")
    club = syn.make_club(director, name="Kaartclub", slug="kaartclub", players=(), role=Role.ADMIN)
    names = [f"Speler {n:03d}" for n in range(1, 4 * args.tables + 1)]
    t = time.perf_counter()
    night = services.create_night(
        club=club,
        user=director,
        name="Kampioenschap",
        date=date(2026, 11, 21),
        ruleset="kleurenwiezen",
        sessions=args.sessions,
        deals_per_session=args.deals,
        ranking="total",
        place_points=[],
        stake=None,
        currency="EUR",
        players=names,
        seed=12,
    )
    print(f"night_created_s: {time.perf_counter() - t:.1f}", flush=True)
    tokens = services.table_links(night)
    tables = {
        s.number: [(t.evening_id, [seat.name for seat in t.evening.seats.all()]) for t in s.tables.order_by("number")]
        for s in night.night_sessions.prefetch_related("tables__evening__seats")
    }
    server = Server(tmp, "gunicorn-night")
    # run.py's gunicorn (2 workers), each with 4 threads: 240 phones are many more connections than workers
    os.environ["GUNICORN_CMD_ARGS"] = "--threads 4 --worker-class gthread --backlog 512"
    stats = Stats()
    stop = threading.Event()
    growth = {}
    try:
        server.start()
        base = server.base
        followers = [
            threading.Thread(target=follower, args=(base, night.ranking_token, stop, i, stats), daemon=True)
            for i in range(args.followers)
        ]
        for f in followers:
            f.start()
        for number in range(1, args.sessions + 1):
            clients = [
                threading.Thread(
                    target=table_client,
                    args=(base, tokens[pk], pk, players, args.deals, number * 1000 + i, deadline, stats),
                )
                for i, (pk, players) in enumerate(tables[number])
            ]
            for c in clients:
                c.start()
            for c in clients:
                c.join()
            if number in (1, args.sessions):
                growth[number] = (build_ms(night), ranking_ms(base, night.ranking_token))
            services.close_session(night, number, director)
            print(f"night_session_{number}_done_s: {time.monotonic() - (deadline - args.minutes * 60):.1f}", flush=True)
        stop.wait(POLL_SECONDS + 1)  # the followers see the final ranking
        stop.set()
        for f in followers:
            f.join(timeout=35)
    finally:
        stop.set()
        server.stop()
        os.environ.pop("GUNICORN_CMD_ARGS", None)
    stored = {}
    for pk, key in Deal.objects.filter(evening__night_table__session__night=night).values_list(
        "evening_id", "request_key"
    ):
        stored.setdefault(pk, []).append(key)
    lost = sum(len(keys - set(stored.get(pk, []))) for pk, keys in stats.accepted.items())
    doubled = sum(len(keys) - len(set(keys)) for keys in stored.values())
    expected = args.tables * args.sessions * args.deals
    print(f"night_deals: {sum(len(k) for k in stored.values())} of {expected}")
    print(f"night_errors: {len(stats.errors)}")
    for e in stats.errors[:10]:
        print(f"  {e}")
    print(f"night_lost_deals: {lost}")
    print(f"night_doubled_deals: {doubled}")
    for name, values, what in (("deal", stats.deal_ms, "posts"), ("poll", stats.poll_ms, "polls")):
        median = statistics.median(values or [0])
        print(f"night_{name}_p95_ms: {p95(values):.0f} (median {median:.0f}, {len(values)} {what})")
    (first, served1), (last, served5) = growth.get(1, (0.0, 0.0)), growth.get(args.sessions, (0.0, 0.0))
    print(f"night_ranking_build_ms: after session 1 {first:.1f}, after session {args.sessions} {last:.1f}")
    print(f"night_ranking_served_ms: after session 1 {served1:.1f}, after session {args.sessions} {served5:.1f}")
    print(f"night_ranking_growth: {last / first if first else 0:.2f}")
    from django.db import connections

    connections.close_all()
    if dropped:
        import psycopg

        with psycopg.connect(dropped[0] + "/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{dropped[1]}" WITH (FORCE)')
    return 0 if not stats.errors and not lost and not doubled else 1


if __name__ == "__main__":
    sys.exit(main())
