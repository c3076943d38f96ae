"""The seating plan of a club night: who sits at which table in each session.

Plain Python, no Django. Players are numbered (any distinct positive integers; a new
night numbers them 1..N). Each session seats everyone at tables of four, and of five
only where N is not a multiple of four (N = 4t + r gives r tables of five; 6, 7 and 11
players cannot be seated so). Each table is listed in seat order from its first dealer.

What a plan aims at, in this order:

1. nobody sits at a table of five (and so sits out one deal in five) more often than his
   share of the seats at five rounded up, plus one: a rule, before the meetings, for a new
   night (a plan with fewer repeats that seats one player at five every session is not
   fairer); in a redraw from a plan drawn before (a late arrival), the tables kept come first
   and this limit after the meetings, as the spread below;
2. two players never meet (share a table) twice in the night where that is possible,
   otherwise as few repeated meetings as possible, spread out (each pair's meetings cost
   ``m(m-1)/2``, a convex cost whose minimum spreads the unavoidable repeats);
3. who sits at a table of five spreads as evenly as it can (the least sum of squares: the
   counts differ by at most one), wherever the fewest repeated meetings allow it;
4. the first dealers spread evenly (who dealt first least often deals first; then a
   first deal passes to a player of the table who dealt first two times fewer).

Everything is drawn from ``random.Random(seed)``: the same input and seed give the
same plan; the search is bounded by a count of weighed moves, never by the clock.

How. A night of 4g players at tables of four starts from the constructions of design
theory (``designs.py``: the most sessions without a repeated meeting known). Everything
else (tables of five, more sessions than a construction gives, or a plan redrawn from a
session on with the played sessions kept) starts from the construction, the plan drawn
before, or a seeded greedy draw, then goes through a tabu search over swaps of two
  players of one session (I. Dotu and P. Van Hentenryck, "Scheduling social golfers
  locally", CPAIOR 2005): the move is the best swap involving a player who meets someone
  again (or sits at a table of five too often), ties drawn at random, the players just
  swapped may not move back for a few steps unless that gives the best plan yet, and a
  few random swaps when the search stalls. It stops at the least cost possible or after
  a fixed amount of work (``plan_search``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from .designs import constructed, design
from .plan_search import REDRAWN_OVER_LIMIT, Search, Session, Table

MAX_PLAYERS = 400
MAX_SESSIONS = 21  # 64 players meet everyone once in 21 sessions (AG(3, 4))
# players x sessions of a new night (160 players x 5 sessions, 40 x 20): every plan up to
# 400 x 20 is drawn in under 2 s of this machine's time (the slowest measured, 27 players x
# 20 sessions: 0.7 s of processor, 1.7 s on the clock with both cores busy), and a night of
# 800 seats is 200 tables to create in one transaction
MAX_SEATS = 800


class PlanError(ValueError):
    """The night cannot be seated (the message is a sentence for the director)."""


@dataclass(frozen=True)
class Plan:
    sessions: tuple[Session, ...]

    def meetings(self) -> Counter:
        """How often each pair (low, high) shares a table."""
        met: Counter = Counter()
        for session in self.sessions:
            for table in session:
                met.update(combinations(sorted(table), 2))
        return met

    def repeats(self) -> int:
        """Meetings beyond the first of each pair."""
        return sum(n - 1 for n in self.meetings().values())

    def as_dict(self) -> dict:
        return {"sessions": [{"tables": [list(t) for t in s]} for s in self.sessions], "repeats": self.repeats()}


def table_sizes(n: int) -> list[int]:
    """Tables of five first, then of four; PlanError if ``n`` players cannot be seated so."""
    if n < 4:
        raise PlanError(f"A night needs at least 4 players to fill a table; {n} cannot be seated.")
    if n > MAX_PLAYERS:
        raise PlanError(f"A night seats at most {MAX_PLAYERS} players; {n} is too many.")
    tables, fives = divmod(n, 4)
    if fives > tables:
        raise PlanError(f"{n} players cannot be seated at tables of four and five (6, 7 and 11 cannot).")
    return [5] * fives + [4] * (tables - fives)


def repeat_free_sessions(n: int) -> int:
    """How many sessions the constructions seat ``n`` players (a multiple of 4) without a
    repeated meeting (0: none of them applies; the search may still find such a plan)."""
    return len(design(n)) if n % 4 == 0 and n >= 4 else 0


def make_plan(
    players: int | Sequence[int],
    sessions: int,
    seed: int = 0,
    played: Sequence[Session] = (),
    previous: Sequence[Session] = (),
) -> Plan:
    """The plan of a night: ``players`` (a count, numbered 1..N, or the players' numbers),
    ``sessions`` in all; ``played`` sessions are kept as they are and the rest drawn for
    ``players`` (a late arrival, someone gone), counting the meetings already played.
    ``previous``: the plan drawn before for the sessions after ``played``, the start of a
    redraw, so that it changes as few tables as it can."""
    ids = list(range(1, players + 1)) if isinstance(players, int) else list(players)
    if len(set(ids)) != len(ids):
        raise PlanError("Each player needs a number of his own.")
    if not 1 <= sessions <= MAX_SESSIONS:
        raise PlanError(f"A night has between 1 and {MAX_SESSIONS} sessions; {sessions} is not possible.")
    if len(played) > sessions:
        raise PlanError("More sessions are played than the night has.")
    sizes = table_sizes(len(ids))
    rng = random.Random(seed)
    todo = sessions - len(played)
    if todo == 0:
        return Plan(tuple(tuple(tuple(t) for t in s) for s in played))
    search = Search(ids, sizes, [[list(t) for t in s] for s in played], todo, rng)
    if previous:
        previous = list(previous)[:todo]
        search.keep = True
        search.over_limit = REDRAWN_OVER_LIMIT
        places = search.newcomers(previous)
        start = [search.repaired(s, {p: seat[i] for p, seat in places.items()}) for i, s in enumerate(previous)]
    elif not played and sizes[0] == 4:
        start = constructed(ids, todo, rng)
    else:
        start = []
    drawn = search.run(start)
    return Plan(tuple(tuple(tuple(t) for t in s) for s in list(played) + drawn))


def aligned(previous: Sequence[Session], drawn: Sequence[Session]) -> tuple[Session, ...]:
    """``drawn`` (sessions redrawn from a plan drawn before) with each table that keeps its players
    where ``previous`` had it, in its seats (its number and its printed card stay good); the tables
    that changed take the numbers left, and a new table comes last."""
    out = []
    for before, after in zip(previous, drawn, strict=False):
        places: list[Table | None] = [None] * max(len(before), len(after))
        left = []
        kept = {frozenset(t): i for i, t in enumerate(before)}
        for table in after:
            i = kept.pop(frozenset(table), None)
            if i is None:
                left.append(table)
            else:
                places[i] = tuple(before[i])
        free = (i for i, t in enumerate(places) if t is None)
        for table, i in zip(left, free, strict=False):
            places[i] = table
        out.append(tuple(t for t in places if t is not None))
    return tuple(out) + tuple(drawn[len(out) :])
