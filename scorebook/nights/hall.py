"""The hall's live ranking: what a follower sees, the version of it that his page holds, and what
changed since.

The hall's screen and the players' phones poll the ranking every ``POLL_SECONDS``. Each page is
shown the night as it stood at its last mark: the sessions closed by then, and the deals recorded
by then at the others' tables, each as it is now (a corrected or deleted deal shows at once); once
every session is closed, all of it at once (the final ranking). A page's marks are ``TICK_SECONDS``
apart from when it was opened (its ``phase``): opened, it shows the night as it is; then its
ranking moves at most once in half a minute however fast the tables play, and the pages of the hall
move at their own moments, so that the server answers their changes one by one rather than all in
the same seconds (a closed session included). Nothing is kept for it: each poll reads the tables'
stored figures (their seats', written with every deal in its transaction) and the few deals
recorded since the mark before last (``results.read``).

The version a follower's page holds (the ETag it sends back as ``If-None-Match``) is made of two
parts. The second is a fingerprint of what it shows, in its language: each row as shown (rank,
number, name, each session's figure, the total), the status line and the columns; it does not
change with a deal not shown yet, nor with a write that changes nothing shown. The first is a key
of what that was computed from (``state``, read in two small queries). A page whose key is the
night's at its mark gets 304 at that cost (most polls: the key moves once a mark at most); one whose
fingerprint is the ranking's now gets 304 too (nothing it shows changed); one whose fingerprint is
the ranking of its mark before (it was shown it) gets the rows that changed since; any other the
whole region.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from functools import cached_property

from django.db.models import Count, OuterRef, Q, Subquery, Sum
from django.template.defaultfilters import floatformat
from django.utils import translation

from scorebook.core.formatting import signed_points
from scorebook.evenings.models import Deal

from . import results
from .models import Night, NightSession, Participant

POLL_SECONDS = 4  # the page's poll
TICK_SECONDS = 30  # the hall's ranking counts the deals recorded until the last such mark


@dataclass(frozen=True)
class Row:
    """A line of the ranking as the page writes it."""

    position: int  # 1..n, its place in the table
    rank: int
    number: int
    name: str
    cells: tuple[str, ...]  # each session's figure ("" at a table he has not played)
    total: str
    tie: str  # under place points, the points that tell equal place points apart ("" otherwise)


@dataclass(frozen=True)
class Shown:
    """The live region as a follower sees it."""

    final: bool
    closed: int  # sessions closed
    sessions: int
    places: bool
    rows: tuple[Row, ...]

    @cached_property
    def fingerprint(self) -> str:
        """What is shown, in the active language, in 16 hexadecimal digits."""
        return _digest(translation.get_language(), self.final, self.closed, self.sessions, self.places, self.rows)


def _digest(*parts: object) -> str:
    return hashlib.blake2b(repr(parts).encode(), digest_size=8).hexdigest()


def state(lookup: dict, at: datetime) -> tuple[int, str] | None:
    """(pk, key) of the night found by ``lookup`` (``pk=`` or ``ranking_hash=``): a key of what its
    ranking at the mark ``at`` is made of, in the active language, read in two small queries and no
    figure: its sessions (which were closed by ``at``; whether every one is closed now: the final
    ranking shows at once), how many take part (a substitute, a late arrival and his tables: one
    more), and the deals it counts (recorded by ``at``, or at a table of a session closed by then:
    how many, the sum of their versions, raised by a correction, and of their ids). A deal recorded
    or a session closed after ``at`` leaves it as it is."""
    people = Participant.objects.filter(night=OuterRef("night")).order_by().values("night")
    sessions = list(
        NightSession.objects.filter(**{f"night__{k}": v for k, v in lookup.items()})
        .annotate(people=Subquery(people.annotate(n=Count("pk")).values("n")[:1]))
        .values_list("night_id", "number", "status", "closed_at", "people")
    )
    if not sessions:
        return None
    pk, people_count = sessions[0][0], sessions[0][4]
    closed = [
        n for _pk, n, status, when, _people in sessions if status == NightSession.Status.CLOSED and (when or at) <= at
    ]
    final = all(status == NightSession.Status.CLOSED for _pk, _n, status, _when, _people in sessions)
    counted = Q(recorded_at__lte=at) | Q(evening__night_table__session__number__in=closed)
    deals = Deal.objects.filter(counted, evening__night_table__session__night=pk).aggregate(
        n=Count("pk"), versions=Sum("version"), ids=Sum("pk")
    )
    made_of = (closed, final, people_count, *deals.values())
    return pk, _digest(translation.get_language(), *made_of)


def _points(value: Decimal | int | None) -> str:
    return floatformat(value, "-2")


def shown(found: results.NightResults) -> Shown:
    """The region of ``found`` as the page writes it (its figures as text, in the active language)."""
    night = found.night
    places = night.ranking == Night.Ranking.PLACES
    sessions = range(1, night.sessions + 1)
    rows = []
    for position, row in enumerate(found.rows, start=1):
        lines = [row.lines.get(s) for s in sessions]
        if places:
            cells = tuple("" if line is None else _points(line.place_points) for line in lines)
            total, tie = _points(row.place_points), signed_points(row.points)
        else:
            cells = tuple("" if line is None else signed_points(line.points) for line in lines)
            total, tie = signed_points(row.points), ""
        rows.append(Row(position, row.rank, row.number, row.name, cells, total, tie))
    return Shown(found.final, found.sessions_closed, night.sessions, places, tuple(rows))


def phase() -> int:
    """The marks of a page opened now: every ``TICK_SECONDS`` from now (its first mark is now)."""
    return int(time.time()) % TICK_SECONDS


def mark(now: float, phase: int = 0, before: int = 0) -> datetime:
    """The last of the marks ``phase`` seconds past each ``TICK_SECONDS`` at ``now`` (a Unix
    time), or ``before`` marks earlier."""
    return datetime.fromtimestamp(((now - phase) // TICK_SECONDS - before) * TICK_SECONDS + phase, UTC)


def marks(phase: int = 0) -> tuple[datetime, datetime]:
    """The last mark of ``phase`` now, and the one before."""
    now = time.time()
    return mark(now, phase), mark(now, phase, before=1)


class Hall:
    """The night's live region at the mark ``at[0]`` (``now``) and at the mark before, ``at[1]``
    (``before``: as it was shown then), from one read (``results.read``: three queries)."""

    def __init__(self, night: Night, at: tuple[datetime, datetime] | None = None) -> None:
        self.night = night
        self.marks = at or marks()
        self.found = results.read(night, since=self.marks[1])

    @cached_property
    def now(self) -> Shown:
        return shown(results.ranked(self.night, self.found, until=self.marks[0]))

    @cached_property
    def before(self) -> Shown:
        return shown(results.ranked(self.night, self.found, until=self.marks[1]))


def changed(before: Shown, after: Shown) -> list[Row] | None:
    """The rows of ``after`` that differ from ``before``'s at their place; None when the region
    changes as a whole (its columns, its number of rows, or the ranking became final)."""
    same_frame = (before.sessions, before.places, len(before.rows)) == (after.sessions, after.places, len(after.rows))
    if not same_frame or after.final:
        return None
    return [row for row, was in zip(after.rows, before.rows, strict=True) if row != was]
