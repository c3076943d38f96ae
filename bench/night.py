"""A club night under load: 40 tables (160 players) x 5 sessions x 8 deals, every deal recorded
through HTTP by its table's phone (a scoring link, no account) against the operating guide's gunicorn on
127.0.0.1, while 200 followers have the live ranking open.

    .venv/bin/python bench/night.py [--tables 40] [--sessions 5] [--deals 8] [--followers 200] [--sqlite]

- The followers open the ranking page within the first 30 seconds (``night_page_burst_*``), then
  poll it every 4 s as the page does: with the version of the region they show (``If-None-Match``,
  read from the page and from each answer that changes it); 304 while what they show is current,
  the rows that changed (``polls_rows``) or the whole region (``polls_whole``) otherwise.
- **The hall**: each session at its pace, a deal every 15 s a table in session 1, then every 8, 4
  and 2 s (``PACES``; uniform within 40 % of it), each for a window of at most ``--window`` seconds
  (then the director closes the session); figures per pace (``hall_<db>_<pace>_*``) and over the
  night: deals per second, a save's and a poll's p50, p95 and max. Every deal is posted as the
  scoring page posts it (``ScoringPage``); a 409 (the evening moved meanwhile) is recorded again as
  the page offers and counted (``conflicts``).

One post in ten is sent twice, as a phone that lost the answer would. A table's phone stops when
its page says the table has played its deals of the session (the answer to its last deal: the
board without the record form); a page without the form at any other time, or a phone's or a
follower's thread that dies, is an error. Prints the latency of a recorded deal and of a poll at
each pace, ``hall_<db>_errors``, ``hall_<db>_lost`` (a deal answered 200 and not stored),
``hall_<db>_doubled`` (a deal stored twice), the machine's load average at each pace, and how
building the ranking grows from session 1 to the last (it reads the tables' stored figures: it must
not grow with the deals). Every figure names its shape (tables, seats, followers, pace). Bounded:
at most ``--minutes`` in all. PostgreSQL (a throwaway database on the local cluster, as
docs/operating.md deploys it), else SQLite. The targets of issue 38 at a deal every 15 s a table
(save p95 150 ms, poll p95 100 ms, 80 % of the polls 304) are PostgreSQL's.
"""

from __future__ import annotations

import argparse
import html
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.load import Phone, ScoringPage, percentile  # noqa: E402
from bench.report import figure, finish  # noqa: E402
from bench.run import Server, configure, with_postgres  # noqa: E402
from bench.synthetic import random_deal  # noqa: E402

POLL_SECONDS = 4
BURST_SECONDS = 30  # the followers open the page within this
REPLAY_EVERY = 10
PACES = (15.0, 8.0, 4.0, 2.0)  # seconds between two deals of a table, session by session (the last pace after)
TARGETS = {"errors": 0, "lost": 0, "doubled": 0, "save_p95_ms": 300, "poll_p95_ms": 150}
PACE_TARGETS = {"15s_save_p95_ms": 150, "15s_poll_p95_ms": 100}  # issue 38, on PostgreSQL
PACE_AT_LEAST = {"15s_polls_304_pct": 80}
PREFIX = "hall"
SHAPE = ""  # the night's shape: every figure names it
POSTGRES = False
POLLS = re.compile(r'id="live-poll"[^>]*hx-get="([^"]+)"[^>]*hx-headers="[^"]*?\\&quot;([0-9a-f.]+)\\&quot;')


def out(name: str, value: object, fmt: str = "{:.0f}", shape: str = "") -> None:
    """A figure ``hall_<database>_<name>``, with its target and its shape (the night's, and ``shape``)."""
    targets = TARGETS | (PACE_TARGETS if POSTGRES else {})
    at_least = PACE_AT_LEAST.get(name) if POSTGRES else None
    shown = "; ".join(x for x in (SHAPE, shape) if x)
    figure(f"{PREFIX}_{name}", value, fmt, target=targets.get(name), at_least=at_least, shape=shown)


@dataclass
class Stats:
    phase: str = "15s"
    errors: list[str] = field(default_factory=list)
    deal_ms: dict[str, list[float]] = field(default_factory=dict)
    poll_ms: dict[str, list[float]] = field(default_factory=dict)
    not_modified: dict[str, int] = field(default_factory=dict)
    answers: dict[str, list[int]] = field(default_factory=dict)  # "rows" or "whole": the answers' sizes, bytes
    load: dict[str, float] = field(default_factory=dict)  # each pace's load average (1 min) at its end
    cpu: dict[str, float] = field(default_factory=dict)  # each pace's server processor seconds
    done: int = 0  # tables whose phone saw their deals of the session done
    page_ms: list[float] = field(default_factory=list)
    conflicts: int = 0
    seconds: dict[str, float] = field(default_factory=dict)  # each pace's time
    accepted: dict[int, set[str]] = field(default_factory=dict)  # evening pk -> request keys answered 200
    lock: threading.Lock = field(default_factory=threading.Lock)

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)

    def add(self, what: dict, ms: float) -> None:
        with self.lock:
            what.setdefault(self.phase, []).append(ms)


def _cpu_seconds(pid: int) -> float:
    """The processor time a process has used (user and system), in seconds; 0 when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_cpu(master: int, database: str | None) -> float:
    """The processor seconds used so far by the site's server: gunicorn's processes (``master`` and
    its workers) and, on PostgreSQL, the backends serving ``database`` (their titles name it); not
    nginx, not the benchmark's phones. Read from /proc: what the other processes on the machine do
    adds nothing to it (their load slows it, and takes its share of the cores)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            title = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if int(entry.name) == master or parent == master or (database and f" {database} " in f"{title} "):
            total += _cpu_seconds(int(entry.name))
    return total


def guarded(name: str, target: Callable[..., None], *args: Any) -> None:
    """``target(*args)`` in a thread: if it dies, that is an error of the night (``stats`` is the last argument)."""
    try:
        target(*args)
    except Exception as error:  # noqa: BLE001 - a thread that dies is counted, never silent
        args[-1].error(f"{name}: the thread died: {error!r}")


def table_phone(
    base: str,
    token: str,
    evening_pk: int,
    deals: int,
    think: tuple[float, float],
    first_wait: float,
    until: float,
    seed: int,
    stats: Stats,
) -> None:
    """One table's phone: opens its card's link, then records up to ``deals`` deals, ``think``
    seconds apart (the first after ``first_wait``), none after ``until`` (a monotonic time), each
    posted as the scoring page posts it (``ScoringPage``: the form read from the page, the version
    it shows). A deal refused because the evening moved meanwhile (409: its director or a repeated
    post) is recorded again as the page offers, as the next deal. The answer to the table's last
    deal of the session is its board without the record form ("the deals are done"): the phone
    stops there; a page without the form at any other time is an error."""
    rng = random.Random(seed)
    phone = Phone()
    url = f"{base}/e/{evening_pk}/"
    try:
        status, _ = phone.open(f"{base}/t/{token}/")
        if status != 302:
            raise RuntimeError(f"the link answered {status}")
        page = ScoringPage(url, phone.page(url))
    except Exception as error:  # noqa: BLE001
        stats.error(f"table {evening_pk}: open: {error!r}")
        return
    wait = first_wait
    for sent in range(deals):
        if time.monotonic() + wait > until:
            return
        time.sleep(wait)
        wait = rng.uniform(*think)
        if not _record(phone, page, base, evening_pk, random_deal(page.playing(), rng, allow_pass=False), rng, stats):
            continue
        if not page.recording:
            if not page.deals_done:
                stats.error(f"table {evening_pk}: the page shows no record form after {sent + 1} deals")
            else:
                with stats.lock:
                    stats.done += 1
            return


def _record(
    phone: Phone, page: ScoringPage, base: str, evening_pk: int, deal: dict, rng: random.Random, stats: Stats
) -> bool:
    """Post ``deal`` as the page posts it (twice, one time in ``REPLAY_EVERY``: an answer lost); the
    page brought up to date from the first answer. False when no answer came."""
    answered = False
    for attempt in range(2 if rng.randrange(REPLAY_EVERY) == 0 else 1):
        pairs, headers = page.post(deal)
        key = dict(pairs)["request_key"]
        t = time.perf_counter()
        try:
            status, body = phone.open(f"{base}/e/{evening_pk}/deals/", pairs, headers)
        except Exception as error:  # noqa: BLE001
            stats.error(f"table {evening_pk}: post: {error!r}")
            continue
        answered = True
        stats.add(stats.deal_ms, (time.perf_counter() - t) * 1000)
        if attempt == 0:
            page.answered(status, body.decode(errors="replace"), phone.headers)
        if status == 409:  # the evening moved: the deal again, as the next one (the page's choice)
            with stats.lock:
                stats.conflicts += 1
            continue
        if status != 200:
            stats.error(f"table {evening_pk}: post answered {status}")
            continue
        with stats.lock:
            stats.accepted.setdefault(evening_pk, set()).add(key)
    return answered


def follower(base: str, token: str, stop: threading.Event, seed: int, stats: Stats) -> None:
    """A phone in the hall: opens the ranking page in the first 30 s, then polls it as the page does:
    the page's address for it (its marks) with the version of the region it shows, both read from
    the page, then from each answer that changes them."""
    rng = random.Random(seed)
    phone = Phone()
    if stop.wait(rng.uniform(0, BURST_SECONDS)):
        return
    t = time.perf_counter()
    polls = None
    try:
        status, body = phone.open(f"{base}/r/{token}/")
        stats.page_ms.append((time.perf_counter() - t) * 1000)
        if status != 200:
            stats.error(f"follower: the page answered {status}")
        polls = _polls(body)
    except Exception as error:  # noqa: BLE001
        stats.error(f"follower: page: {error!r}")
    while polls is not None and not stop.wait(POLL_SECONDS):
        url, version = polls
        t = time.perf_counter()
        try:
            status, body = phone.open(f"{base}/r/{token}/{url}", None, {"HX-Request": "true", "If-None-Match": version})
        except Exception as error:  # noqa: BLE001
            stats.error(f"follower: {error!r}")
            continue
        stats.add(stats.poll_ms, (time.perf_counter() - t) * 1000)
        if status == 304:
            with stats.lock:
                stats.not_modified[stats.phase] = stats.not_modified.get(stats.phase, 0) + 1
            continue
        if status not in (200, 286):
            stats.error(f"follower: answered {status}")
            continue
        kind = "rows" if phone.headers.get("HX-Reswap") == "none" else "whole"
        with stats.lock:
            stats.answers.setdefault(kind, []).append(len(body))
        if status == 286:  # final: the page stops polling
            return
        polls = _polls(body)
        if polls is None:
            stats.error("follower: an answer without the region's next version")


def _polls(body: bytes) -> tuple[str, str] | None:
    """What the page polls with (``#live-poll``): its address and the version it sends back
    (``If-None-Match``); None when it does not poll."""
    found = POLLS.search(body.decode(errors="replace"))
    return (html.unescape(found.group(1)), f'"{found.group(2)}"') if found else None


def build_ms(night: Any, reps: int = 9) -> tuple[float, float]:
    """The median clock and processor (this thread's) ms of computing and rendering the whole ranking
    region from the tables' stored figures, its version's key included (in this process, as the
    server does for a page, and for a follower it cannot send the changed rows)."""
    from django.template.loader import render_to_string

    from scorebook.nights import hall
    from scorebook.nights.views.ranking import region_context

    times, cpu = [], []
    for _ in range(reps):
        t, thread = time.perf_counter(), time.thread_time()
        at = hall.marks(hall.phase())
        _pk, key = hall.state({"pk": night.pk}, at[0])
        render_to_string("nights/ranking.html#live", region_context(night, hall.Hall(night, at).now, key, 0))
        times.append((time.perf_counter() - t) * 1000)
        cpu.append((time.thread_time() - thread) * 1000)
    return statistics.median(times), statistics.median(cpu)


def play_session(
    base: str,
    tokens: dict[int, str],
    tables: dict[int, list[tuple[int, list[str]]]],
    number: int,
    deals: int,
    think: tuple[float, float],
    first_wait: Callable[[], float],
    until: float,
    stats: Stats,
) -> None:
    threads = [
        threading.Thread(
            target=guarded,
            args=(
                f"table {pk}",
                table_phone,
                base,
                tokens[pk],
                pk,
                deals,
                think,
                first_wait(),
                until,
                number * 1000 + i,
                stats,
            ),
            daemon=True,
        )
        for i, (pk, _players) in enumerate(tables[number])
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=max(0.0, until - time.monotonic()) + 35)
    for t in threads:
        if t.is_alive():
            stats.error(f"session {number}: a table's phone still running 35 s after the session's window")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--sessions", type=int, default=5)
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--followers", type=int, default=200)
    parser.add_argument("--window", type=float, default=30, help="seconds of each session at most")
    parser.add_argument("--minutes", type=float, default=8)
    parser.add_argument("--sqlite", action="store_true", help="SQLite instead of a throwaway PostgreSQL database")
    args = parser.parse_args()
    started = time.monotonic()
    deadline = started + args.minutes * 60
    tmp = Path(tempfile.mkdtemp(prefix="scorebook-night-"))
    global PREFIX, POSTGRES
    try:
        with with_postgres("night") as (url, problem):
            if args.sqlite or url is None:
                url = None
                PREFIX = "hall_sqlite"
                out("database", f"SQLite{f' ({problem})' if problem else ''}")
            else:
                PREFIX, POSTGRES = "hall_postgres", True
                out("database", "PostgreSQL")
            return night(args, tmp, url, started, deadline)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def night(args: argparse.Namespace, tmp: Path, database_url: str | None, started: float, deadline: float) -> int:
    configure(tmp, database_url)
    database = database_url.rsplit("/", 1)[1] if database_url else None
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
    out("created_s", time.perf_counter() - t, "{:.1f}")
    out("night", f"{args.tables} x {args.sessions} sessions x {args.deals} deals, {args.followers} followers")
    global SHAPE
    SHAPE = f"{args.tables} tables of 4 seats, {args.followers} followers"
    tokens = services.table_links(night)
    ranking_token = services.new_ranking_link(night)  # the hall's link, as the director makes it
    tables = {
        s.number: [(t.evening_id, [seat.name for seat in t.evening.seats.all()]) for t in s.tables.order_by("number")]
        for s in night.night_sessions.prefetch_related("tables__evening__seats")
    }
    connections.close_all()
    server = Server(tmp, "gunicorn-night")
    out("deployment", server.described)
    stats = Stats()
    stop = threading.Event()
    growth = {}
    hall_seconds = 0.0
    try:
        server.start()
        base = server.base
        followers = [
            threading.Thread(
                target=guarded, args=("follower", follower, base, ranking_token, stop, i, stats), daemon=True
            )
            for i in range(args.followers)
        ]
        for f in followers:
            f.start()
        rng = random.Random(5)
        hall_started = time.monotonic()
        for number in range(1, args.sessions + 1):
            if time.monotonic() > deadline:
                stats.error(f"session {number}: the benchmark's time is up")
                break
            pace = PACES[min(number, len(PACES)) - 1]
            stats.phase = f"{pace:.0f}s"
            began, cpu = time.monotonic(), server_cpu(server.procs[0].pid, database)
            play_session(
                base,
                tokens,
                tables,
                number,
                args.deals,
                (pace * 0.6, pace * 1.4),
                lambda pace=pace: rng.uniform(0, pace),  # each table's first deal within one pace
                min(deadline, began + args.window),
                stats,
            )
            stats.seconds[stats.phase] = stats.seconds.get(stats.phase, 0.0) + time.monotonic() - began
            stats.load[stats.phase] = os.getloadavg()[0]
            stats.cpu[stats.phase] = stats.cpu.get(stats.phase, 0.0) + server_cpu(server.procs[0].pid, database) - cpu
            if number in (1, args.sessions):
                growth[number] = build_ms(night)
            services.close_session(night, number, director)
            out(f"session_{number}_done_s", time.monotonic() - started)
        hall_seconds = time.monotonic() - hall_started
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
    session_of = {pk: number for number, rows in tables.items() for pk, _ in rows}
    paces = [f"{PACES[min(n, len(PACES)) - 1]:.0f}s" for n in range(1, args.sessions + 1)]
    by_phase = dict.fromkeys(paces, 0)
    for pk, keys in stored.items():
        by_phase[paces[session_of[pk] - 1]] += len(keys)
    for phase in dict.fromkeys(paces):
        deals, polls = stats.deal_ms.get(phase, []), stats.poll_ms.get(phase, [])
        each = f"a deal every {phase} a table"
        out(f"{phase}_deals", by_phase[phase], shape=each)
        out(f"{phase}_deals_per_s", by_phase[phase] / max(0.001, stats.seconds.get(phase, 0.0)), "{:.1f}", each)
        out(f"{phase}_load_1min", stats.load.get(phase), "{:.1f}", f"{each}: the machine's load average at its end")
        seconds = max(0.001, stats.seconds.get(phase, 0.0))
        served = f"{each}: gunicorn and its database's processor time, per second of the pace, in % of one core"
        out(f"{phase}_server_cpu_pct", 100 * stats.cpu.get(phase, 0.0) / seconds, "{:.0f}", served)
        for what, values in (("save", deals), ("poll", polls)):
            for p in (50, 95):
                out(f"{phase}_{what}_p{p}_ms", percentile(values, p) if values else "unavailable (none)", shape=each)
            out(f"{phase}_{what}_max_ms", max(values) if values else "unavailable (none)", shape=each)
        not_modified = stats.not_modified.get(phase, 0)
        out(f"{phase}_polls", len(polls), shape=each)
        out(f"{phase}_polls_304_pct", 100 * not_modified / len(polls) if polls else None, "{:.1f}", each)
    saves = [x for values in stats.deal_ms.values() for x in values]
    polls = [x for values in stats.poll_ms.values() for x in values]
    out("deals", sum(by_phase.values()), shape="every pace")
    out("deals_per_s", sum(by_phase.values()) / max(0.001, hall_seconds), "{:.1f}", "every pace")
    for what, values in (("save", saves), ("poll", polls)):
        for p in (50, 95):
            out(f"{what}_p{p}_ms", percentile(values, p) if values else "unavailable (none)", shape="every pace")
        out(f"{what}_max_ms", max(values) if values else "unavailable (none)", shape="every pace")
    out("polls", len(polls), shape="every pace")
    out("polls_not_modified", sum(stats.not_modified.values()), shape="every pace: 304")
    for kind, words in (("rows", "the rows that changed, out of band"), ("whole", "the whole region")):
        sizes = stats.answers.get(kind, [])
        out(f"polls_{kind}", len(sizes), shape=f"every pace: {words}")
        out(
            f"polls_{kind}_kb_p50",
            percentile([float(x) for x in sizes], 50) / 1000 if sizes else None,
            "{:.1f}",
            f"{words}, raw",
        )
    out("tables_done", stats.done, shape="tables whose phone saw its deals of the session done")
    out("conflicts", stats.conflicts)
    out("page_burst_p50_ms", percentile(stats.page_ms, 50) if stats.page_ms else "unavailable (none)")
    out("page_burst_p95_ms", percentile(stats.page_ms, 95) if stats.page_ms else "unavailable (none)")
    out("page_burst_pages", len(stats.page_ms))
    out("errors", len(stats.errors))
    for e in stats.errors[:8]:
        out("error_sample", e[:200])
    out("lost", lost)
    out("doubled", doubled)
    first, last = growth.get(1, (0.0, 0.0)), growth.get(args.sessions, (0.0, 0.0))
    whole = "the whole region, computed and rendered in the benchmark's process"
    out("ranking_build_ms", f"after session 1 {first[0]:.1f}, after session {args.sessions} {last[0]:.1f}", shape=whole)
    out(
        "ranking_build_cpu_ms",
        f"after session 1 {first[1]:.1f}, after session {args.sessions} {last[1]:.1f}",
        shape=whole,
    )
    out("ranking_growth", last[1] / first[1] if first[1] and last[1] else None, "{:.2f}", whole + ", processor time")
    out("seconds", time.monotonic() - started)
    connections.close_all()
    return finish()


if __name__ == "__main__":
    sys.exit(main())
