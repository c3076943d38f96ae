"""What the ranking pages read: three queries whatever the number of deals played."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Q, Sum
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scorebook.clubs.models import Membership, Player
from scorebook.clubs.models.club import SCORING_ROLES
from scorebook.evenings.listing import Line
from scorebook.evenings.models import Deal, Evening, Seat

from . import ranking
from .models import Night, NightSession, NightTable, Participant


@dataclass
class NightResults:
    night: Night
    rows: list[ranking.RankRow]
    tables: list[ranking.TableResult]
    final: bool
    sessions_closed: int

    def session_tables(self, number: int) -> list[ranking.TableResult]:
        return [t for t in self.tables if t.session == number]


@dataclass
class Table:
    """One table as its seats keep its evening's figures (``summary.write_seat_figures``, in the
    transaction of every write): a summary's players, with how many deals it played."""

    session: int
    number: int
    is_open: bool
    session_closed: bool
    closed_at: datetime | None  # when its session was closed
    seats: list[dict[str, Any]] = dataclasses.field(default_factory=list)  # player, name, points, took_part, played
    deals: int = 0

    def closed(self, until: datetime | None) -> bool:
        """Its session closed (by ``until``, when given)."""
        return self.session_closed and (until is None or self.closed_at is None or self.closed_at <= until)


@dataclass
class Recent:
    """A deal recorded after ``Read.since`` at a table of a session open then: when, and its stored result's parts."""

    evening: int
    at: datetime
    deltas: dict[str, int] | None
    playing: list[str]
    sitting_out: list[str] | None


@dataclass
class Read:
    """What a night's ranking is made of, read in three queries: who takes part, every table's seats,
    and the deals recorded after ``since`` at the tables of the sessions then open (none when it is None)."""

    participants: list[tuple[int, int, str]]  # (number, roster player id, name)
    tables: dict[int, Table]  # by evening id, in session and table order
    recent: list[Recent]
    # each table's result from its stored figures, once for the rankings made from this read
    stored: dict[int, ranking.TableResult] = dataclasses.field(default_factory=dict)


def open_at(since: datetime, prefix: str = "") -> Q:
    """The night's sessions (through ``prefix``) open at ``since``: open now, or closed after it."""
    return Q(**{f"{prefix}status": NightSession.Status.OPEN}) | Q(**{f"{prefix}closed_at__gt": since})


def read(night: Night, since: datetime | None = None) -> Read:
    participants = list(night.participants.values_list("number", "player_id", "name"))
    at = "evening__night_table__"
    tables: dict[int, Table] = {}
    for session, number, evening, status, session_status, closed_at, player, *figures in (
        Seat.objects.filter(**{f"{at}session__night": night})
        .order_by(f"{at}session__number", f"{at}number", "position")
        .values_list(
            f"{at}session__number",
            f"{at}number",
            "evening_id",
            "evening__status",
            f"{at}session__status",
            f"{at}session__closed_at",
            "player_id",
            "name",
            "points",
            "took_part",
            "played",
            "sat_out",
        )
    ):
        table = tables.get(evening)
        if table is None:
            closed = session_status == NightSession.Status.CLOSED
            table = tables[evening] = Table(session, number, status == "open", closed, closed_at)
        name, points, took_part, played, sat_out = figures
        # every deal at the table is played or sat out by each seat: its deals, as the summary counts them
        table.deals = played + sat_out
        table.seats.append({"player": player, "name": name, "points": points, "took_part": took_part, "played": played})
    recent: list[Recent] = []
    if since is not None:
        later = Deal.objects.filter(open_at(since, f"{at}session__"), **{f"{at}session__night": night})
        for evening, recorded, result in later.filter(recorded_at__gt=since).values_list(
            "evening_id", "recorded_at", "result"
        ):
            result = result or {}
            recent.append(
                Recent(evening, recorded, result.get("deltas"), result.get("playing") or [], result.get("sitting_out"))
            )
    return Read(participants, tables, recent)


def _as_of(table: Table, deals: list[Recent]) -> dict[str, Any]:
    """The table's figures as a summary gives them, without ``deals`` (recorded at it, their results stored)."""
    seats = {seat["name"]: dict(seat) for seat in table.seats}
    played = table.deals
    for deal in deals:
        for name, delta in (deal.deltas or {}).items():
            if name in seats:
                seats[name]["points"] -= int(delta)
        if deal.playing:
            played -= 1
            for name in set(deal.playing) - set(deal.sitting_out or ()):
                if name in seats:
                    seats[name]["played"] -= 1
    for seat in seats.values():  # who has not played one of the deals counted took no part yet
        seat["took_part"] = seat["took_part"] and seat["played"] > 0
    return {"deals": played, "players": list(seats.values())}


def ranked(night: Night, found: Read, until: datetime | None = None) -> NightResults:
    """The night's ranking from ``found``: every deal and session counted, or with ``until``, as it
    stood then (the hall's ranking: ``hall.py``): the sessions closed by then, and the deals recorded
    by then at the others (those of ``found.recent`` recorded after it are taken off), each as it is
    now. Once every session is closed, all of it (the final ranking). A deal without a stored result
    (its evening to be rebuilt) stays counted."""
    final = all(t.session_closed for t in found.tables.values())
    until = None if final else until
    later: dict[int, list[Recent]] = {}
    for deal in found.recent:
        if until is not None and deal.at > until and deal.deltas is not None:
            later.setdefault(deal.evening, []).append(deal)
    numbers = {player: (number, name) for number, player, name in found.participants}
    tables = []
    for evening, table in found.tables.items():
        taken_off = evening in later and not table.closed(until)
        if not taken_off and evening in found.stored:
            tables.append(found.stored[evening])
            continue
        summary = _as_of(table, later[evening]) if taken_off else {"deals": table.deals, "players": table.seats}
        result = ranking.table_result(table.session, table.number, summary, table.is_open, numbers, night.place_value)
        tables.append(result)
        if not taken_off:
            found.stored[evening] = result
    closed = len({t.session for t in found.tables.values() if t.closed(until)})
    places = night.ranking == Night.Ranking.PLACES
    return NightResults(night, ranking.rank(found.participants, tables, places), tables, final, closed)


def results(night: Night) -> NightResults:
    """The night's ranking, every deal counted."""
    return ranked(night, read(night))


def version(**night: Any) -> tuple[int, str] | None:
    """(pk, version) of the night found by ``night`` (``pk=`` or ``ranking_hash=``): what changes
    whenever its ranking may change, read in one aggregate query and no summary. The night's own
    version (its sessions, participants, plan), its tables, and the sum of their evenings' versions:
    every write of an evening raises its version in the write's own transaction, so no write has to
    touch the night's row (nor wait for it behind a director's change)."""
    row = (
        Night.objects.filter(**night)
        .annotate(
            tables=Count("night_sessions__tables"),
            versions=Sum("night_sessions__tables__evening__version"),
        )
        .values_list("pk", "version", "tables", "versions")
        .first()
    )
    return None if row is None else (row[0], "-".join(str(x) for x in row[1:]))


def fingerprint(night_pk: int) -> str | None:
    """The night's version (above) by its id."""
    found = version(pk=night_pk)
    return found and found[1]


def one_result(summaries: list[dict]) -> dict:
    """A night's tables (their evenings' summaries) as ONE evening's summary, for the season's
    standings: each player's points, money and deals over the night added up (one entry per
    player), the deals of every table counted. Plain dicts in, a plain dict out."""
    players: dict = {}
    deals = 0
    for summary in summaries:
        deals += int(summary.get("deals") or 0)
        for entry in summary.get("players") or ():
            key = entry.get("player") or f"name:{entry.get('name')}"
            mine = players.get(key)
            if mine is None:
                players[key] = {**entry, "declared": dict(entry.get("declared") or {})}
                continue
            mine["points"] = int(mine.get("points") or 0) + int(entry.get("points") or 0)
            if entry.get("money") is not None:
                mine["money"] = str(Decimal(mine.get("money") or 0) + Decimal(entry["money"]))
            mine["took_part"] = bool(mine.get("took_part", True)) or bool(entry.get("took_part", True))
            for field in ("played", "sat_out"):
                mine[field] = int(mine.get(field) or 0) + int(entry.get(field) or 0)
            for field, pick in (("best", max), ("worst", min)):
                values = [v for v in (mine.get(field), entry.get(field)) if v is not None]
                mine[field] = pick(values) if values else None
            for contract, (count, made) in (entry.get("declared") or {}).items():
                was = mine["declared"].get(contract, [0, 0])
                mine["declared"][contract] = [was[0] + count, was[1] + made]
    return {"deals": deals, "players": list(players.values()), "transfers": [], "night": True}


@dataclass
class Outcome:
    """A night as a season sees it: ONE evening (docs/rules/club-nights.md). ``summary`` is its tables' summaries
    added up per player (``one_result``), each entry with ``night_place``, the player's place in
    the night's final ranking among the players who took part (None: he did not)."""

    pk: int
    name: str
    date: date
    ruleset: str
    currency: str
    created_at: datetime
    summary: dict[str, Any]
    evenings: list[tuple[int, int, int, str]]  # (session, table, evening id, status), in order
    numbers: dict[int, int]  # roster player id -> his number at the night

    @property
    def evening(self) -> int:
        """The evening that stands for the night in lists of evenings (its first table's)."""
        return min(e[2] for e in self.evenings)


def outcomes(night_ids: Iterable[int]) -> dict[int, Outcome]:
    """The nights ``night_ids`` as one result each (three queries whatever their number)."""
    ids = set(night_ids)
    if not ids:
        return {}
    nights = {n.pk: n for n in Night.objects.filter(pk__in=ids).defer("plan", "rules")}
    found = {
        pk: Outcome(pk, n.name, n.date, n.ruleset, n.currency, n.created_at, {}, [], {}) for pk, n in nights.items()
    }
    people: dict[int, list[tuple[int, int, str]]] = {}
    for night, number, player, name in Participant.objects.filter(night__in=ids).values_list(
        "night_id", "number", "player_id", "name"
    ):
        people.setdefault(night, []).append((number, player, name))
        found[night].numbers[player] = number
    tables: dict[int, list] = {}
    for night, session, table, evening, summary, status in (
        NightTable.objects.filter(session__night__in=ids)
        .order_by("session__night_id", "session__number", "number")
        .values_list(
            "session__night_id", "session__number", "number", "evening_id", "evening__summary", "evening__status"
        )
    ):
        found[night].evenings.append((session, table, evening, status))
        tables.setdefault(night, []).append((session, table, summary or {}, status))
    for pk, outcome in found.items():
        rows = tables.get(pk, [])
        # a table where no deal was played gives nobody a part in the night (docs/rules/money.md and club-nights.md)
        played = [summary for _s, _t, summary, _status in rows if int(summary.get("deals") or 0)]
        outcome.summary = one_result(played)
        outcome.summary["night_id"] = pk
        taking = {e.get("player") for e in outcome.summary["players"] if e.get("took_part", True)}
        numbers = {player: (number, name) for number, player, name in people.get(pk, [])}
        results = [
            ranking.table_result(s, t, summary, status == "open", numbers, nights[pk].place_value)
            for s, t, summary, status in rows
        ]
        ranked = ranking.rank(
            [p for p in people.get(pk, []) if p[1] in taking], results, nights[pk].ranking == Night.Ranking.PLACES
        )
        place = {row.number: row.rank for row in ranked}
        for entry in outcome.summary["players"]:
            seat_number = outcome.numbers.get(entry.get("player"))
            taken = entry.get("player") in taking
            entry["night_place"] = place.get(seat_number) if taken and seat_number is not None else None
    return found


def nights_of(player: Player) -> list[dict[str, Any]]:
    """The club nights a roster player took part in, newest first (one query), with the number he
    had: the player page links each one to his night line on the night's ranking (the members' way in)."""
    rows = (
        Participant.objects.filter(player=player)
        .order_by("-night__date", "-night_id")
        .values_list("number", "night__name", "night__date", "night_id")
    )
    return [{"number": n, "name": name, "date": day, "pk": pk} for n, name, day, pk in rows]


def table_heading(evening: Evening) -> str | None:
    """The heading of a club night's table: "Lenteavond · Table 2 · session 1" (one query)."""
    found = (
        NightTable.objects.filter(evening_id=evening.pk)
        .values_list("number", "session__number", "session__night__name")
        .first()
    )
    if found is None:
        return None
    table, session, name = found
    return _("%(night)s · Table %(t)s · session %(s)s") % {"night": name, "t": table, "s": session}


def evening_lines(evenings: Iterable[Evening], user: User | AnonymousUser) -> dict[int, Line]:
    """The line a night shows in a list of evenings (``evenings.listing``), for the tables of
    ``evenings``: its name, its tables, open until its last session is closed; its page for who
    directs it, its ranking for the others (the members' own address, no link needed). Three queries
    whatever their number."""
    night_of = dict(
        NightTable.objects.filter(evening__in=[e.pk for e in evenings]).values_list("evening_id", "session__night_id")
    )
    nights = {
        n.pk: n
        for n in Night.objects.filter(pk__in=set(night_of.values()))
        .only("pk", "name", "club_id")
        .annotate(
            table_count=Count("night_sessions__tables", distinct=True),
            open_sessions=Count(
                "night_sessions", filter=Q(night_sessions__status=NightSession.Status.OPEN), distinct=True
            ),
        )
    }
    if getattr(user, "is_staff", False):
        directed = {n.club_id for n in nights.values()}
    elif isinstance(user, User):  # (signed in)
        directed = set(
            Membership.objects.filter(
                user=user, club__in={n.club_id for n in nights.values()}, role__in=SCORING_ROLES
            ).values_list("club_id", flat=True)
        )
    else:
        directed = set()
    lines = {}
    for evening, pk in night_of.items():
        night = nights[pk]
        url = reverse("night" if night.club_id in directed else "night_results", args=[pk])
        detail = ngettext("club night of %(counter)s table", "club night of %(counter)s tables", night.table_count) % {
            "counter": night.table_count
        }
        lines[evening] = Line(night.name, url, detail, open=night.open_sessions > 0)
    return lines
