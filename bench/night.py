"""A club night under load: 40 tables (160 players) x 5 sessions x 8 deals, every deal recorded
through HTTP by its table's phone (a scoring link, no account) against the README's gunicorn on
127.0.0.1, while 200 followers have the live ranking open.

    .venv/bin/python bench/night.py [--tables 40] [--sessions 5] [--deals 8] [--followers 200] [--sqlite]

- The followers open the ranking page within the first 30 seconds (``night_page_burst_*``), then
  poll it every 4 s with the ETag they were given (304 while nothing changed), as the page does.
- **Real pace** (``night_real_*``): session 1 is played as a hall plays it, a deal every 2 minutes a
  table (each table's first deal at a random moment of the first 2 minutes, then every 90-150 s),
  for a window of ``--window`` seconds (2 minutes: about one deal a table, one every 3 s in the
  hall); the director then closes the session. The window is short to keep the benchmark bounded;
  what it measures (the polls between deals, and a deal among them) does not change after it.
- **A hundred times that pace** (``night_100x_*``): sessions 2 to 5 in full, a deal every 0.6-1.8 s
  a table (1.2 s on average: 2 minutes / 100, some 33 deals a second in the hall), each session
  closed when its tables are done.

One post in ten is sent twice, as a phone that lost the answer would. Prints the latency of a
recorded deal and of a poll (p50, p95) at each pace, ``night_errors``, ``night_lost`` (a deal
answered 200 and not stored), ``night_doubled`` (a deal stored twice), and how building the ranking
grows from session 1 to the last (it reads the tables' stored summaries: it must not grow with the
deals). Bounded: at most ``--minutes`` in all. PostgreSQL (a throwaway database on the local
cluster, as the README deploys it), else SQLite.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.load import Phone, percentile  # noqa: E402
from bench.report import figure, finish  # noqa: E402
from bench.run import Server, configure, with_postgres  # noqa: E402

POLL_SECONDS = 4
BURST_SECONDS = 30  # the followers open the page within this
REPLAY_EVERY = 10
REAL_THINK = (90.0, 150.0)  # seconds between two deals of a table at a real pace (2 minutes on average)
FAST_THINK = (0.6, 1.8)  # a hundred times faster (1.2 s on average)
TARGETS = {
    "night_errors": 0,
    "night_lost": 0,
    "night_doubled": 0,
    "night_100x_poll_p95_ms": 1000,
}


def out(name, value, fmt="{:.0f}"):
    figure(name, value, fmt, target=TARGETS.get(name))


@dataclass
class Stats:
    phase: str = "real"
    errors: list[str] = field(default_factory=list)
    deal_ms: dict[str, list[float]] = field(default_factory=dict)
    poll_ms: dict[str, list[float]] = field(default_factory=dict)
    not_modified: dict[str, int] = field(default_factory=dict)
    page_ms: list[float] = field(default_factory=list)
    accepted: dict[int, set[str]] = field(default_factory=dict)  # evening pk -> request keys answered 200
    lock: threading.Lock = field(default_factory=threading.Lock)

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)

    def add(self, what: dict, ms: float) -> None:
        with self.lock:
            what.setdefault(self.phase, []).append(ms)


def table_phone(base, token, evening_pk, players, deals, think, first_wait, until, seed, stats: Stats):
    """One table's phone: opens its card's link, then records up to ``deals`` deals, ``think``
    seconds apart (the first after ``first_wait``), none after ``until`` (a monotonic time)."""
    rng = random.Random(seed)
    phone = Phone()
    try:
        status, _ = phone.open(f"{base}/t/{token}/")
        if status != 302:
            raise RuntimeError(f"the link answered {status}")
        phone.page(f"{base}/e/{evening_pk}/")
    except Exception as error:  # noqa: BLE001
        stats.error(f"table {evening_pk}: open: {error!r}")
        return
    wait = first_wait
    for sent in range(deals):
        if time.monotonic() + wait > until:
            return
        time.sleep(wait)
        wait = rng.uniform(*think)
        a, b = rng.sample(players, 2)
        key = f"night-{evening_pk}-{sent}-{rng.getrandbits(32):08x}"
        data = {"contract": "samen-8", "declarers": [a, b], "tricks": str(rng.randint(5, 13)), "request_key": key}
        for _attempt in range(2 if rng.randrange(REPLAY_EVERY) == 0 else 1):
            t = time.perf_counter()
            try:
                status, _ = phone.open(f"{base}/e/{evening_pk}/deals/", data, {"HX-Request": "true"})
            except Exception as error:  # noqa: BLE001
                stats.error(f"table {evening_pk}: post: {error!r}")
                continue
            stats.add(stats.deal_ms, (time.perf_counter() - t) * 1000)
            if status != 200:
                stats.error(f"table {evening_pk}: post answered {status}")
                continue
            with stats.lock:
                stats.accepted.setdefault(evening_pk, set()).add(key)


def follower(base, token, stop: threading.Event, seed, stats: Stats):
    """A phone in the hall: opens the ranking page in the first 30 s, then polls it with its ETag."""
    rng = random.Random(seed)
    phone = Phone()
    if stop.wait(rng.uniform(0, BURST_SECONDS)):
        return
    t = time.perf_counter()
    try:
        status, _ = phone.open(f"{base}/r/{token}/")
        stats.page_ms.append((time.perf_counter() - t) * 1000)
        if status != 200:
            stats.error(f"follower: the page answered {status}")
    except Exception as error:  # noqa: BLE001
        stats.error(f"follower: page: {error!r}")
    etag = None
    while not stop.wait(POLL_SECONDS):
        headers = {"HX-Request": "true"} | ({"If-None-Match": etag} if etag else {})
        t = time.perf_counter()
        try:
            status, _ = phone.open(f"{base}/r/{token}/live/", None, headers)
        except Exception as error:  # noqa: BLE001
            stats.error(f"follower: {error!r}")
            continue
        etag = phone.headers.get("ETag") or etag
        stats.add(stats.poll_ms, (time.perf_counter() - t) * 1000)
        if status == 304:
            with stats.lock:
                stats.not_modified[stats.phase] = stats.not_modified.get(stats.phase, 0) + 1
        elif status == 286:  # final: the page stops polling
            return
        elif status != 200:
            stats.error(f"follower: answered {status}")


def build_ms(night, reps=9) -> float:
    """The median time of building the ranking region from the tables' stored summaries (in this
    process, as the server does for a state no follower has asked for yet)."""
    from django.template.loader import render_to_string

    from scorebook.nights.views.ranking import live_context

    times = []
    for _ in range(reps):
        t = time.perf_counter()
        render_to_string("nights/ranking.html#live", live_context(night))
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def play_session(base, tokens, tables, number, deals, think, first_wait, until, stats):
    threads = [
        threading.Thread(
            target=table_phone,
            args=(
                base,
                tokens[pk],
                pk,
                players,
                deals,
                think,
                first_wait(),
                until,
                number * 1000 + i,
                stats,
            ),
            daemon=True,
        )
        for i, (pk, players) in enumerate(tables[number])
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=max(0.0, until - time.monotonic()) + 35)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--sessions", type=int, default=5)
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--followers", type=int, default=200)
    parser.add_argument("--window", type=float, default=120, help="seconds of session 1 at a real pace")
    parser.add_argument("--minutes", type=float, default=8)
    parser.add_argument("--sqlite", action="store_true", help="SQLite instead of a throwaway PostgreSQL database")
    args = parser.parse_args()
    started = time.monotonic()
    deadline = started + args.minutes * 60
    tmp = Path(tempfile.mkdtemp(prefix="scorebook-night-"))
    try:
        with with_postgres("night") as (url, problem):
            if args.sqlite or url is None:
                url = None
                out("night_database", f"SQLite{f' ({problem})' if problem else ''}")
            else:
                out("night_database", "PostgreSQL")
            return night(args, tmp, url, started, deadline)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def night(args, tmp, database_url, started, deadline) -> int:
    configure(tmp, database_url)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    call_command("migrate", verbosity=0)
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
    out("night_created_s", time.perf_counter() - t, "{:.1f}")
    out("night_tables", f"{args.tables} x {args.sessions} sessions x {args.deals} deals, {args.followers} followers")
    tokens = services.table_links(night)
    ranking_token = services.new_ranking_link(night)  # the hall's link, as the director makes it
    tables = {
        s.number: [(t.evening_id, [seat.name for seat in t.evening.seats.all()]) for t in s.tables.order_by("number")]
        for s in night.night_sessions.prefetch_related("tables__evening__seats")
    }
    connections.close_all()
    server = Server(tmp, "gunicorn-night")
    out("night_deployment", server.described)
    stats = Stats()
    stop = threading.Event()
    growth = {}
    fast_started = fast_ended = None
    try:
        server.start()
        base = server.base
        followers = [
            threading.Thread(target=follower, args=(base, ranking_token, stop, i, stats), daemon=True)
            for i in range(args.followers)
        ]
        for f in followers:
            f.start()
        # session 1 at a real pace, for a window
        rng = random.Random(5)
        window = min(args.window, max(10.0, deadline - time.monotonic() - 60))
        play_session(
            base,
            tokens,
            tables,
            1,
            args.deals,
            REAL_THINK,
            lambda: rng.uniform(0, 120),  # each table's first deal somewhere in the first 2 minutes
            time.monotonic() + window,
            stats,
        )
        growth[1] = build_ms(night)
        services.close_session(night, 1, director)
        out("night_session_1_done_s", time.monotonic() - started)
        # the other sessions at a hundred times that pace
        stats.phase = "100x"
        fast_started = time.monotonic()
        for number in range(2, args.sessions + 1):
            if time.monotonic() > deadline:
                stats.error(f"session {number}: the benchmark's time is up")
                break
            play_session(
                base, tokens, tables, number, args.deals, FAST_THINK, lambda: rng.uniform(0, 1.2), deadline, stats
            )
            if number == args.sessions:
                growth[number] = build_ms(night)
            services.close_session(night, number, director)
            out(f"night_session_{number}_done_s", time.monotonic() - started)
        fast_ended = time.monotonic()
        stop.wait(POLL_SECONDS + 1)  # the followers see the final ranking
        stop.set()
        for f in followers:
            f.join(timeout=35)
    finally:
        stop.set()
        server.stop()
    stored = {}
    for pk, key in Deal.objects.filter(evening__night_table__session__night=night).values_list(
        "evening_id", "request_key"
    ):
        stored.setdefault(pk, []).append(key)
    lost = sum(len(keys - set(stored.get(pk, []))) for pk, keys in stats.accepted.items())
    doubled = sum(len(keys) - len(set(keys)) for keys in stored.values())
    by_phase = {"real": 0, "100x": 0}
    session_of = {pk: number for number, rows in tables.items() for pk, _ in rows}
    for pk, keys in stored.items():
        by_phase["real" if session_of[pk] == 1 else "100x"] += len(keys)
    out("night_real_deals", by_phase["real"])
    out("night_100x_deals", by_phase["100x"])
    if fast_started and fast_ended:
        out("night_100x_deals_per_s", by_phase["100x"] / max(0.001, fast_ended - fast_started), "{:.1f}")
    for phase in ("real", "100x"):
        deals, polls = stats.deal_ms.get(phase, []), stats.poll_ms.get(phase, [])
        for what, values in (("deal", deals), ("poll", polls)):
            out(f"night_{phase}_{what}_p50_ms", percentile(values, 50) if values else "unavailable (none)")
            out(f"night_{phase}_{what}_p95_ms", percentile(values, 95) if values else "unavailable (none)")
        out(f"night_{phase}_polls", len(polls))
        out(f"night_{phase}_polls_not_modified", stats.not_modified.get(phase, 0))
    out("night_page_burst_p50_ms", percentile(stats.page_ms, 50) if stats.page_ms else "unavailable (none)")
    out("night_page_burst_p95_ms", percentile(stats.page_ms, 95) if stats.page_ms else "unavailable (none)")
    out("night_page_burst_pages", len(stats.page_ms))
    out("night_errors", len(stats.errors))
    for e in stats.errors[:8]:
        out("night_error_sample", e[:200])
    out("night_lost", lost)
    out("night_doubled", doubled)
    first, last = growth.get(1), growth.get(args.sessions)
    out("night_ranking_build_ms", f"after session 1 {first or 0:.1f}, after session {args.sessions} {last or 0:.1f}")
    out("night_ranking_growth", last / first if first and last else None, "{:.2f}")
    out("night_seconds", time.monotonic() - started)
    connections.close_all()
    return finish()


if __name__ == "__main__":
    sys.exit(main())
