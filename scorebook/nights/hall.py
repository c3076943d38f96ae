"""The hall's live ranking: what a follower sees, the version of it that his page holds, and what
changed since.

The hall's screen and the players' phones poll the ranking every ``POLL_SECONDS``. Each page is
shown the night's ranking counting, at the tables of the open sessions, the deals recorded until
its last mark, and every deal of a closed session. A page's marks are ``TICK_SECONDS`` apart from
when it was opened (its ``phase``): opened, it shows every deal recorded until then; then its
ranking moves at most once in half a minute however fast the tables play, and the pages of the hall
move at their own moments, so that the server answers their changes one by one rather than all in
the same seconds. A closed session, a corrected or deleted deal show at once. Nothing is kept for
it: each poll reads the tables' stored figures (their seats', written with every deal in its
transaction) and the few deals recorded since the mark before last (``results.read``).

The version a follower holds (the ETag his page sends back as ``If-None-Match``) is made of two
parts. The second is a fingerprint of what he sees, in his language: each row as shown (rank,
number, name, each session's figure, the total), the status line and the columns; it does not
change with a deal he cannot see yet, nor with a write that changes nothing shown. The first is a
key of what that was computed from (``state``: the night's own version, its tables, the deals
counted at the mark and their versions, the closed sessions' evenings' versions), read in two
aggregate queries. A follower whose key is the night's now gets 304 at that cost (most polls: the
key changes once a mark at most); one whose fingerprint is the ranking's now gets 304 too (nothing
he sees changed); one whose fingerprint is the ranking of the mark before (he was shown it) gets the
rows that changed since; anyone else the whole region.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property

from django.db.models import Count, Q, Sum
from django.template.defaultfilters import floatformat
from django.utils import translation

from scorebook.core.formatting import signed_points
from scorebook.evenings.models import Deal

from . import results
from .models import Night, NightSession

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
    ranking at the mark ``at`` is made of, in the active language. Two aggregate queries, no figure
    read: the night's version (its sessions opened and closed, who takes part, the plan), its tables,
    the sum of the evenings' versions of the closed sessions (any change of a deal raises its
    evening's, in the write's transaction), and the deals recorded until ``at`` at the open ones
    (how many, the sum of their versions, raised by a correction, and of their ids). A deal recorded
    after ``at`` leaves it as it is."""
    closed = Q(night_sessions__status=NightSession.Status.CLOSED)
    night = (
        Night.objects.filter(**lookup)
        .annotate(
            tables=Count("night_sessions__tables"),
            versions=Sum("night_sessions__tables__evening__version", filter=closed),
        )
        .values_list("pk", "version", "tables", "versions")
        .first()
    )
    if night is None:
        return None
    deals = Deal.objects.filter(
        evening__night_table__session__night=night[0],
        evening__night_table__session__status=NightSession.Status.OPEN,
        recorded_at__lte=at,
    ).aggregate(n=Count("pk"), versions=Sum("version"), ids=Sum("pk"))
    return night[0], _digest(translation.get_language(), night, *deals.values())


def _points(value) -> str:
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

    def __init__(self, night: Night, at: tuple[datetime, datetime] | None = None):
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
