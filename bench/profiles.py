"""Where the time of each slow path goes (issue 38): a pyinstrument profile of each, its top ten functions.

    .venv/bin/python bench/profiles.py [--out FILE] [--evenings 2000] [--only NAME ...] [--postgres]

Each path is run many times in this process through Django's test client with the production
settings and the whole middleware (sessions, CSRF, htmx, gzip, whitenoise), as ``bench/run.py``
does, on a throwaway database (SQLite in a temporary folder, or PostgreSQL on the local cluster:
``--postgres``). Its shape is named with it (seats, deals, tables, evenings). For each path: the
processor time (this thread's clock, SQLite's included, PostgreSQL's server not) and the clock time
of a request without the profiler, the machine's load average when it ran, then the shares of the
time under the profiler (clock time, sampled: a process preempted by the machine's load is
preempted anywhere alike, so the shares hold; a thread clock would cost more per call than it tells):

- the ten functions with the most **own** time (where the processor is: SQL compiling, template
  nodes, row conversion... a C call counted in the Python function that made it),
- the ten **functions of the site** (``scorebook/``) with the most time spent in them and in what they
  call (a function that calls itself counted once; not the middleware's ``__call__`` nor the
  decorators' wrappers, which every request goes through), and
- a few areas, whoever calls them (templates, SQL, JSON),

each with its share of the path's time. Written as Markdown to ``--out`` (and printed).
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.run import configure, with_postgres  # noqa: E402

INTERVAL = 0.0005  # seconds between two samples (of clock time: a thread clock costs more than it tells)
TODAY = date(2026, 7, 2)
FORM = "application/x-www-form-urlencoded"
ACCEPT_ENCODING = "gzip, deflate"  # as Chromium over plain HTTP: the pages gzipped


@dataclass
class Path_:
    """One path: ``run()`` makes one request (profiled); ``between()`` prepares the next (not profiled)."""

    name: str
    shape: str
    run: Callable[[], Any]
    reps: int
    between: Callable[[], Any] | None = None


@dataclass
class Line:
    share: float  # of the path's time, %
    ms: float  # per request
    where: str


# What the whole path spends in each of these (and below), whoever calls them: (file, class, function).
AREAS = {
    ("django/template/backends/django.py", "Template", "render"): "templates rendered",
    ("django/db/models/sql/compiler.py", "*Compiler", "execute_sql"): "SQL built, run and read",
    ("django/db/models/sql/compiler.py", "*Compiler", "as_sql"): "of which SQL built (as_sql)",
    ("json/decoder.py", "JSONDecoder", "raw_decode"): "JSON decoded",
}


def _key(frame: Any) -> tuple[str, str]:
    return frame.file_path_short or "?", frame.function


WHOSE = {"sqlite": "SQLite's work included", "postgresql": "not PostgreSQL's server"}
WRAPPERS = {"__call__", "wrapped", "inner", "_wrapper_view"}  # middleware and decorators: every request's


def _site(key: tuple[str, str]) -> bool:
    """A function of the site, not one of the middleware or decorators every request goes through."""
    return "scorebook/" in key[0] and "/site-packages/" not in key[0] and key[1] not in WRAPPERS


def _area(frame: Any) -> str | None:
    path = (frame.file_path_short or "").split("/site-packages/", 1)[-1]
    for (file, cls, function), label in AREAS.items():
        same_class = frame.class_name == cls or (cls.startswith("*") and (frame.class_name or "").endswith(cls[1:]))
        if path.endswith(file) and same_class and frame.function == function:
            return label
    return None


def _where(key: tuple[str, str], line: int | None = None) -> str:
    path, function = key
    path = path.split("/site-packages/", 1)[-1].removeprefix(f"{ROOT}/")
    return f"{function} ({path}{f':{line}' if line else ''})"


def top_functions(root: Any, reps: int, n: int = 10) -> tuple[list[Line], list[Line], list[Line]]:
    """(the most own time, the site's functions with the most time in them and below, ``AREAS``), ``n`` each."""
    own: dict[tuple[str, str], float] = {}
    inside: dict[tuple[str, str], float] = {}
    areas: dict[str, float] = dict.fromkeys(AREAS.values(), 0.0)
    lines: dict[tuple[str, str], int] = {}
    total = root.time or 1e-9

    def walk(frame: Any, above: frozenset) -> None:
        if frame.is_synthetic:
            return
        key = _key(frame)
        lines.setdefault(key, frame.line_no)
        own[key] = own.get(key, 0.0) + frame.total_self_time
        if _site(key) and key not in above:
            inside[key] = inside.get(key, 0.0) + frame.time
        area = _area(frame)
        if area is not None and area not in above:
            areas[area] += frame.time
        for child in frame.children:
            walk(child, above | {key, area})

    walk(root, frozenset())

    def best(table: dict[tuple[str, str], float]) -> list[Line]:
        ranked = sorted(table.items(), key=lambda kv: -kv[1])[:n]
        return [Line(t / total * 100, t / reps * 1000, _where(k, lines.get(k))) for k, t in ranked]

    shares = [Line(t / total * 100, t / reps * 1000, label) for label, t in areas.items()]
    return best(own), best(inside), shares


def _timed(path: Path_) -> tuple[float, float]:
    """(processor, clock) ms of one request of ``path``, medians of ``reps`` runs without the profiler."""
    cpu, wall = [], []
    for _ in range(path.reps):
        started, thread = time.perf_counter(), time.thread_time()
        path.run()
        cpu.append((time.thread_time() - thread) * 1000)
        wall.append((time.perf_counter() - started) * 1000)
        if path.between:
            path.between()
    return statistics.median(cpu), statistics.median(wall)


def profile(path: Path_, keep: Path | None = None) -> str:
    """Profile ``path`` (after two unmeasured runs, and its time measured without the profiler), as Markdown."""
    from django.db import connection
    from pyinstrument import Profiler

    for _ in range(2):
        path.run()
        if path.between:
            path.between()
    load = os.getloadavg()
    cpu, wall = _timed(path)
    profiler = Profiler(interval=INTERVAL)
    for _ in range(path.reps):
        profiler.start()
        path.run()
        profiler.stop()
        if path.between:
            path.between()
    if keep is not None:  # the samples, to read again (pyinstrument --load FILE)
        profiler.last_session.save(str(keep / f"{re.sub(r'[^a-z0-9]+', '-', path.name.lower()).strip('-')}.pyisession"))
    root = profiler.last_session.root_frame()
    own, inside, areas = top_functions(root, path.reps)
    out = [
        f"### {path.name}",
        "",
        f"{path.shape}. Without the profiler (medians of {path.reps}): {cpu:.1f} ms of processor time a request "
        f"(this thread's: {WHOSE[connection.vendor]}), {wall:.1f} ms of clock time; load average {load[0]:.1f} / "
        f"{load[1]:.1f} / {load[2]:.1f} (1 / 5 / 15 min, 2 cores). The shares below are of {path.reps} "
        "requests under the profiler.",
        "",
        "| own time | function |",
        "|---:|---|",
        *[f"| {x.share:.1f} % | `{x.where}` |" for x in own],
        "",
        "| in it and below | the site's function |",
        "|---:|---|",
        *[f"| {x.share:.1f} % | `{x.where}` |" for x in inside],
        "",
        "By area: " + "; ".join(f"{x.where} {x.share:.1f} %" for x in areas) + ".",
        "",
    ]
    return "\n".join(out)


def _body(response: Any) -> bytes:
    import gzip

    body = b"".join(response.streaming_content) if response.streaming else response.content
    return gzip.decompress(body) if response.get("Content-Encoding") == "gzip" else body


def record_path(client: Any, user: Any, club: Any) -> Path_:
    """Recording a deal at a table of four, as the scoring page posts it; each request a new deal (kept)."""
    from bench import load
    from bench import synthetic as syn

    four = syn.PLAYERS[:4]
    evening = syn.make_evening(club, user, TODAY, 20, players=four, rng=random.Random(4))
    url = f"/e/{evening.pk}/"
    page = load.ScoringPage(url, _body(client.get(url)).decode())
    rng = random.Random(38)
    keys = iter(range(10**9))

    def record() -> None:
        pairs, headers = page.post(syn.random_deal(page.playing(), rng, allow_pass=False))
        pairs = [(k, f"profile-{next(keys)}" if k == "request_key" else v) for k, v in pairs]
        response = client.post(f"{url}deals/", urllib.parse.urlencode(pairs), FORM, headers=headers)
        assert response.status_code == 200, response.status_code
        page.answered(200, _body(response).decode(), response.headers)

    return Path_("record a deal (table of four)", "4 seats, from deal 23 on, kleurenwiezen, stake", record, 60)


def page_path(client: Any, user: Any, club: Any, deals: int) -> Path_:
    from bench import synthetic as syn

    evening = syn.make_evening(club, user, TODAY, deals, first_dealer=deals % 6, rng=random.Random(deals))
    url = f"/e/{evening.pk}/"

    def get() -> None:
        response = client.get(url)
        assert response.status_code == 200, response.status_code

    return Path_(f"scoring page GET at {deals} deals", f"6 seats, {deals} deals, kleurenwiezen, stake", get, 40)


@dataclass
class HallNight:
    night: Any
    token: str
    tables: list[Any]


def make_hall(user: Any, club_name: str = "Kaartclub", tables: int = 40, deals: int = 4) -> HallNight:
    """A night of ``tables`` tables of four, ``deals`` deals recorded at each table of session 1."""
    from bench import synthetic as syn
    from scorebook.clubs.models import Role
    from scorebook.evenings import services as evenings
    from scorebook.nights import services

    club = syn.make_club(user, name=club_name, slug="kaartclub", players=(), role=Role.ADMIN)
    night = services.create_night(
        club=club,
        user=user,
        name="Kampioenschap",
        date=TODAY,
        ruleset="kleurenwiezen",
        sessions=5,
        deals_per_session=None,  # until the director closes the session: the profile records more deals
        ranking="total",
        place_points=[],
        stake=None,
        currency="EUR",
        players=[f"Speler {n:03d}" for n in range(1, 4 * tables + 1)],
        seed=12,
    )
    token = services.new_ranking_link(night)
    first = list(night.night_sessions.get(number=1).tables.select_related("evening").order_by("number"))
    rng = random.Random(40)
    for table in first:
        for _ in range(deals):
            names = [s.name for s in table.evening.seats.all()]
            evenings.record_deal(table.evening, syn.random_deal(names, rng, allow_pass=False), user)
    return HallNight(night, token, first)


def hall_paths(client: Any, user: Any) -> list[Path_]:
    """The hall's live ranking: its region computed and rendered again; a follower's poll one mark
    behind (the rows that changed); a follower's poll while nothing he sees changed (304)."""
    from types import SimpleNamespace

    from django.template.loader import render_to_string

    from bench import synthetic as syn
    from scorebook.evenings import services as evenings
    from scorebook.evenings.models import Deal
    from scorebook.nights import hall as live
    from scorebook.nights.views import ranking

    night = make_hall(user)
    shape = "40 tables of four (160 players), 5 sessions, session 1 open with 4 deals a table"
    # the hall's clock, moved on by hand: a deal recorded at its time counts from its next mark
    clock = [(time.time() // live.TICK_SECONDS) * live.TICK_SECONDS + 1]
    live.time = SimpleNamespace(time=lambda: clock[0])  # type: ignore[assignment]
    rng = random.Random(41)
    turns = itertools.cycle(night.tables)  # each table in turn: none beyond its 8 deals
    url = f"/r/{night.token}/live/"

    def render() -> None:
        at = live.marks(live.phase())
        _pk, key = live.state({"pk": night.night.pk}, at[0])
        shown = live.Hall(night.night, at).now
        render_to_string("nights/ranking.html#live", ranking.region_context(night.night, shown, key, 0))

    def a_deal(marks: int) -> Callable[[], None]:
        def record() -> None:  # a table records a deal between two polls (not profiled)
            table = next(turns)
            evening = type(table.evening).objects.get(pk=table.evening_id)
            names = [s.name for s in evening.seats.all()]
            recorded = evenings.record_deal(evening, syn.random_deal(names, rng, allow_pass=False), user)
            Deal.objects.filter(pk=recorded.deal.pk).update(recorded_at=datetime.fromtimestamp(clock[0], UTC))
            clock[0] += marks * live.TICK_SECONDS

        return record

    def poll(expect: int) -> Callable[[], None]:
        held: dict[str, str] = {}  # this path's follower: his first poll gets the region

        def get() -> None:
            headers = {"HX-Request": "true"} | ({"If-None-Match": held["etag"]} if "etag" in held else {})
            response = client.get(url, headers=headers)
            assert response.status_code == expect or "etag" not in held, response.status_code
            held["etag"] = response.headers.get("ETag", held.get("etag", ""))

        return get

    def opened() -> None:
        response = client.get(f"/r/{night.token}/")
        assert response.status_code == 200, response.status_code

    return [
        Path_("hall: the live region computed and rendered again", shape, render, 40),
        Path_("hall: the ranking page opened", shape, opened, 40),
        Path_("hall: a follower's poll a mark behind (the rows that changed)", shape, poll(200), 40, a_deal(1)),
        Path_("hall: a follower's poll, a deal he does not see yet (304)", shape, poll(304), 60, a_deal(0)),
    ]


def money_paths(client: Any, user: Any, evenings: int) -> list[Path_]:
    """The player page and the ledger page of a club of ``evenings`` evenings of 80 deals (bench/run.py's club)."""
    from django.urls import reverse

    from bench import synthetic as syn
    from scorebook.clubs.models import Player

    club = syn.make_club(user, name="Club de la Couleur", slug="couleur")
    started = time.perf_counter()
    history = syn.build_history(club, user, evenings=evenings, deals_per_evening=80, last_day=TODAY - timedelta(7))
    syn.yearly_seasons(club, history)
    print(f"  a club of {evenings} evenings in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    player = Player.objects.get(club=club, name=syn.PLAYERS[0])
    shape = f"a club of {evenings} evenings of 80 deals, 6 players, stake, all but the last 2 settled"
    pages = {
        "player page": reverse("club_player", args=[club.slug, player.pk]),
        "ledger page": reverse("club_ledger", args=[club.slug]),
    }
    paths = []
    for name, url in pages.items():

        def get(url: str = url) -> None:
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)

        paths.append(Path_(f"{name} at {evenings} evenings", shape, get, 20))
    return paths


def run(args: argparse.Namespace, database_url: str | None, tmp: Path) -> str:
    configure(tmp, database_url)
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from bench import synthetic as syn

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    user = syn.make_user("bench", first_name="Bench")
    club = syn.make_club(user, name="Club de la Couleur", slug="tables")
    client = Client(headers={"Accept-Encoding": ACCEPT_ENCODING})
    client.force_login(user)
    wanted = set(args.only or ())
    makers: list[tuple[str, Callable[[], list[Path_]]]] = [
        ("record", lambda: [record_path(client, user, club)]),
        ("page", lambda: [page_path(client, user, club, n) for n in (20, 200)]),
        ("hall", lambda: hall_paths(client, user)),
        ("money", lambda: money_paths(client, user, args.evenings)),
    ]
    sections = []
    for name, make in makers:
        if wanted and name not in wanted:
            continue
        for path in make():
            print(f"profiling: {path.name}", file=sys.stderr)
            sections.append(profile(path, Path(args.keep) if args.keep else None))
            print(sections[-1], flush=True)
    return "\n".join(sections)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", help="write the Markdown there too")
    parser.add_argument("--evenings", type=int, default=2000, help="the money pages' club (2,000 evenings)")
    parser.add_argument("--only", nargs="*", choices=("record", "page", "hall", "money"))
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL database (else SQLite)")
    parser.add_argument("--keep", metavar="DIR", help="keep each path's samples there (pyinstrument --load FILE)")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="scorebook-profiles-"))
    database = "PostgreSQL" if args.postgres else "SQLite"
    try:
        if args.postgres:
            with with_postgres("profiles") as (url, problem):
                if url is None:
                    print(f"PostgreSQL unavailable: {problem}", file=sys.stderr)
                    return 1
                text = run(args, url, tmp)
        else:
            text = run(args, None, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.out:
        head = f"Profiles (pyinstrument, {database}, through the test client with the whole middleware)\n\n"
        Path(args.out).write_text(head + text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
