"""Season standings and player statistics, from the evenings' summaries only.

No query and no deal: every number here comes from ``Evening.summary``
(see ``scorebook.evenings.summary.summarize``), so a season of thousands of evenings
is ranked without scoring a single deal again.

``standings(rules, evenings)`` ranks the players of a season; ``player_stats(evenings, key)``
gathers one player's figures. ``evenings`` is a list of :class:`EveningSummary` (the
evening's date and its summary); the order of the list does not matter, evenings are
taken by date (and, on the same date, in the order given).

The rules, in words (the view states them on the page):

* An evening without any deal played does not count.
* An evening in which a player took no part (docs/rules/money.md: he sat out every deal and received
  no adjustment; the summary's ``took_part``, from the engine) is not one of his evenings: no
  place, no points, no league points, not counted towards averages, minimums, drops, tie-breaks
  or the movement ("did not play", never 0). Places are among the players who took part.
* ``total``: the points of the season's evenings added up. ``average``: those points
  divided by the number of evenings; players with fewer than ``min_evenings`` evenings
  are listed apart, without a rank. ``league``: each evening gives points by place
  (``league_points[0]`` to the winner, …, 0 beyond the list); players tied in an evening
  share the better place and each get its points.
* ``drop_worst``: each player's N worst evenings (by the ranking's measure) are left
  out, but at least one evening always counts.
* Equal scores are ordered by the tie-break (most evenings won, most points in all,
  or fewer evenings played). Players the tie-break cannot separate share the place
  ("2.", "2.", then "4."); within a shared place they are listed by name.
* A club night is one evening (docs/rules/club-nights.md): its summary adds up each player's tables and gives
  each one his place in the night's final ranking (``night_place``), which places, league
  points and wins take as they are (a shared first place is a win for each). It counts once its
  last session is closed: until then the view gives it no result (its ranking is provisional).
* The movement compares each rank with the standings before the last date played.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date as date_cls
from decimal import Decimal
from fractions import Fraction
from itertools import pairwise
from typing import Any

from scorebook.clubs.models import Ranking, TieBreak  # the season's ranking and tie-break keys, declared once
from scorebook.core.collation import sort_key
from scorebook.ledger.winnings import add_money, money_of  # the season's money column is the ledger's

Key = int | str  # a Player id, or "name:<seat name>" when the summary has none


# --- input ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    """A season's ranking parameters (the fields of ``Season``)."""

    ranking: str = Ranking.TOTAL
    min_evenings: int = 0
    league_points: tuple[int, ...] = ()
    drop_worst: int = 0
    tie_break: str = TieBreak.EVENINGS_WON

    def __post_init__(self) -> None:
        if self.ranking not in Ranking.values:
            raise ValueError(f"unknown ranking {self.ranking!r}")
        if self.tie_break not in TieBreak.values:
            raise ValueError(f"unknown tie break {self.tie_break!r}")
        object.__setattr__(self, "league_points", tuple(int(p) for p in self.league_points))

    def points_for_place(self, place: int) -> int:
        return self.league_points[place - 1] if 0 < place <= len(self.league_points) else 0


@dataclass(frozen=True)
class EveningSummary:
    """One evening as the standings see it: its date and its ``Evening.summary``."""

    date: date_cls
    summary: Mapping[str, Any]
    id: int | None = None
    ruleset: str = ""
    currency: str = ""

    @property
    def players(self) -> list[Mapping[str, Any]]:
        return list(self.summary.get("players") or ())

    @property
    def deals(self) -> int:
        return int(self.summary.get("deals") or 0)

    @property
    def participants(self) -> list[Mapping[str, Any]]:
        """The seats of the players who took part (see ``took_part``)."""
        return [p for p in self.players if took_part(p)]

    @property
    def counts(self) -> bool:
        """Evenings without a deal played are left out of standings and statistics."""
        return self.deals > 0 and any(took_part(p) for p in self.players)

    def entry(self, key: Key) -> Mapping[str, Any] | None:
        return next((p for p in self.players if player_key(p) == key), None)

    def place(self, entry: Mapping[str, Any]) -> int | None:
        """The place of a seat among those who took part (None: he did not play)."""
        if not took_part(entry):
            return None
        if entry.get("night_place") is not None:
            return int(entry["night_place"])  # a club night: the place of its own final ranking
        mine = int(entry.get("points") or 0)
        return 1 + sum(int(p.get("points") or 0) > mine for p in self.participants)


def took_part(entry: Mapping[str, Any]) -> bool:
    """Whether the seat's player took part in the evening, as the engine said when the summary was
    written (``EveningResult.took_part``, docs/rules/money.md). A summary made by hand without the word counts
    every seat."""
    return bool(entry.get("took_part", True))


def player_key(entry: Mapping[str, Any]) -> Key:
    player = entry.get("player")
    return player if player is not None else f"name:{entry.get('name', '')}"


def places(entries: Sequence[Mapping[str, Any]]) -> list[int]:
    """The place of each entry in its evening: 1 + the number of players with more points
    (``entries``: the players who took part). A club night's entries carry their place in the
    night's own final ranking (``night_place``, docs/rules/club-nights.md), which is taken as it is."""
    if entries and all(e.get("night_place") is not None for e in entries):
        return [int(e["night_place"]) for e in entries]
    points = [int(e.get("points") or 0) for e in entries]
    return [1 + sum(other > mine for other in points) for mine in points]


def in_order(evenings: Iterable[EveningSummary]) -> list[EveningSummary]:
    """The evenings that count, by date (stable for evenings of the same date)."""
    return sorted((e for e in evenings if e.counts), key=lambda e: e.date)


# --- standings -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    """One player's evening."""

    evening: int | None
    date: date_cls
    points: int
    place: int
    league: int

    @property
    def won(self) -> bool:
        return self.place == 1


@dataclass
class Row:
    key: Key
    name: str
    evenings: int = 0
    deals: int = 0  # deals played (sat-out deals are counted apart)
    sat_out: int = 0
    points: int = 0  # all the points of the season, nothing dropped
    won: int = 0
    league: int = 0  # league points of the season, nothing dropped
    money: dict[str, Decimal] = field(default_factory=dict)  # by currency
    results: list[Result] = field(default_factory=list)
    score: Fraction = Fraction(0)  # what the ranking compares
    counted: int = 0  # evenings counted after the worst were dropped
    qualified: bool = True  # False: under the minimum of evenings, listed apart
    rank: int | None = None
    previous_rank: int | None = None
    tied: bool = False  # same score as another ranked player: the tie-break decided, or the place is shared
    shared: bool = False  # the tie-break could not separate him from another: same rank

    @property
    def dropped(self) -> int:
        return self.evenings - self.counted

    @property
    def average(self) -> Fraction | None:
        """Points per evening played (every evening, none dropped)."""
        return Fraction(self.points, self.evenings) if self.evenings else None

    @property
    def movement(self) -> int | None:
        """Places gained since the previous standings (negative: lost); None when new or unranked."""
        if self.rank is None or self.previous_rank is None:
            return None
        return self.previous_rank - self.rank

    @property
    def is_new(self) -> bool:
        return self.rank is not None and self.previous_rank is None

    @property
    def movement_text(self) -> str:
        """ "▲2", "▼1", "=", "new" (translated by the page), "" for the players listed apart."""
        if self.rank is None:
            return ""
        move = self.movement
        if move is None:  # is_new: no rank before
            return "new"
        return "=" if move == 0 else f"▲{move}" if move > 0 else f"▼{-move}"


@dataclass
class Standings:
    rules: Rules
    ranked: list[Row]
    apart: list[Row]  # under the minimum of evenings (average ranking)
    evenings: int  # evenings that count
    last_date: date_cls | None
    previous_date: date_cls | None  # the date the movement is measured from

    @property
    def rows(self) -> list[Row]:
        return self.ranked + self.apart

    def row(self, key: Key) -> Row | None:
        return next((r for r in self.rows if r.key == key), None)

    def without_results(self) -> Standings:
        """The same table without each row's per-evening results, which grow with the season:
        every figure a page shows, small enough to keep in a cache."""
        return replace(
            self,
            ranked=[replace(r, results=[]) for r in self.ranked],
            apart=[replace(r, results=[]) for r in self.apart],
        )


def _add(rules: Rules, rows: dict[Key, Row], evenings: Sequence[EveningSummary], names: Mapping[Key, str]) -> None:
    """Add ``evenings`` to the players' rows (created as needed)."""
    for evening in evenings:
        entries = evening.participants  # a player who took no part did not play this evening
        for entry, place in zip(entries, places(entries), strict=True):
            key = player_key(entry)
            row = rows.get(key)
            if row is None:
                row = rows[key] = Row(key=key, name=names.get(key) or str(entry.get("name", "")))
            elif key not in names:
                row.name = str(entry.get("name", row.name))  # the latest name at the table
            points = int(entry.get("points") or 0)
            row.evenings += 1
            row.deals += int(entry.get("played") or 0)
            row.sat_out += int(entry.get("sat_out") or 0)
            row.points += points
            row.won += place == 1
            row.league += rules.points_for_place(place)
            add_money(row.money, evening.currency, money_of(entry))
            row.results.append(Result(evening.id, evening.date, points, place, rules.points_for_place(place)))


def _score(rules: Rules, row: Row) -> None:
    measure = [r.league if rules.ranking == Ranking.LEAGUE else r.points for r in row.results]
    drop = min(rules.drop_worst, max(len(measure) - 1, 0))
    kept = sorted(measure)[drop:]
    row.counted = len(kept)
    if rules.ranking == Ranking.AVERAGE:
        row.score = Fraction(sum(kept), len(kept)) if kept else Fraction(0)
        row.qualified = row.evenings >= rules.min_evenings
    else:
        row.score = Fraction(sum(kept))
        row.qualified = True


def _tie_value(rules: Rules, row: Row) -> int:
    if rules.tie_break == TieBreak.EVENINGS_WON:
        return -row.won
    if rules.tie_break == TieBreak.TOTAL_POINTS:
        return -row.points
    return row.evenings  # TieBreak.FEWER_EVENINGS


def _order(rules: Rules, rows: Iterable[Row]) -> list[Row]:
    return sorted(rows, key=lambda r: (-r.score, _tie_value(rules, r), sort_key(r.name), str(r.key)))


def _rank(rules: Rules, rows: dict[Key, Row]) -> tuple[list[Row], list[Row]]:
    """Score every row, then order and rank them: the qualified ones, and the ones listed apart."""
    for row in rows.values():
        _score(rules, row)
        row.rank, row.tied, row.shared = None, False, False
    ranked = _order(rules, (r for r in rows.values() if r.qualified))
    apart = _order(rules, (r for r in rows.values() if not r.qualified))
    for i, row in enumerate(ranked, start=1):
        row.rank = i
    for a, b in pairwise(ranked):
        if a.score == b.score:
            a.tied = b.tied = True
            if _tie_value(rules, a) == _tie_value(rules, b):  # the tie-break cannot separate them
                b.rank = a.rank
                a.shared = b.shared = True
    return ranked, apart


def standings(rules: Rules, evenings: Iterable[EveningSummary], names: Mapping[Key, str] | None = None) -> Standings:
    """The season's table. ``names`` gives the current name of players (else their latest seat name).

    One pass over the evenings: the standings before the last date are taken on the way
    (for the movement), then the evenings of the last date are added.
    """
    names = names or {}
    ordered = in_order(evenings)
    last_date = ordered[-1].date if ordered else None
    split = next((i for i, e in enumerate(ordered) if e.date == last_date), len(ordered))
    before, last = ordered[:split], ordered[split:]
    rows: dict[Key, Row] = {}
    previous: dict[Key, int] = {}
    if before:
        _add(rules, rows, before, names)
        ranked, _apart = _rank(rules, rows)
        previous = {r.key: r.rank for r in ranked if r.rank is not None}  # every ranked row has one
    _add(rules, rows, last, names)
    ranked, apart = _rank(rules, rows)
    for row in ranked:
        row.previous_rank = previous.get(row.key)
    for row in apart:
        row.previous_rank = None
    return Standings(rules, ranked, apart, len(ordered), last_date, before[-1].date if before else None)


# --- one player ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Mark:
    """A figure and the evening it happened in."""

    value: int
    date: date_cls
    evening: int | None


@dataclass
class ContractStat:
    ruleset: str
    contract: str
    declared: int = 0
    made: int = 0

    @property
    def percent(self) -> int | None:
        return round(100 * self.made / self.declared) if self.declared else None


@dataclass(frozen=True)
class Step:
    """The player's cumulative points after one of their evenings (the chart)."""

    date: date_cls
    evening: int | None
    points: int
    cumulative: int


@dataclass
class PlayerStats:
    key: Key
    evenings: int = 0
    deals: int = 0  # deals played
    sat_out: int = 0  # deals sat out, never counted as played (evenings he did not play included)
    absent: int = 0  # evenings at the table in which he took no part (not among ``evenings``)
    points: int = 0
    won: int = 0
    money: dict[str, Decimal] = field(default_factory=dict)
    contracts: list[ContractStat] = field(default_factory=list)
    best_evening: Mark | None = None  # biggest win over an evening (> 0)
    worst_evening: Mark | None = None  # biggest loss over an evening (< 0)
    best_deal: Mark | None = None  # biggest win in one deal (> 0)
    worst_deal: Mark | None = None  # biggest loss in one deal (< 0)
    steps: list[Step] = field(default_factory=list)

    @property
    def average(self) -> Fraction | None:
        return Fraction(self.points, self.evenings) if self.evenings else None

    @property
    def declared(self) -> int:
        return sum(c.declared for c in self.contracts)

    @property
    def made(self) -> int:
        return sum(c.made for c in self.contracts)


def _better(mark: Mark | None, value: int, evening: EveningSummary, sign: int) -> Mark | None:
    """Keep the larger (sign 1) or smaller (sign -1) figure; the earlier evening wins a tie."""
    if value * sign <= 0:
        return mark
    if mark is None or value * sign > mark.value * sign:
        return Mark(value, evening.date, evening.id)
    return mark


def player_stats(evenings: Iterable[EveningSummary], key: Key) -> PlayerStats:
    """One player's figures over ``evenings`` (those where the player has no seat are skipped)."""
    stats = PlayerStats(key=key)
    contracts: dict[tuple[str, str], ContractStat] = {}
    running = 0
    for evening in in_order(evenings):
        entry = evening.entry(key)
        if entry is None:
            continue
        stats.sat_out += int(entry.get("sat_out") or 0)
        if not took_part(entry):
            stats.absent += 1  # did not play: not one of his evenings
            continue
        points = int(entry.get("points") or 0)
        stats.evenings += 1
        stats.deals += int(entry.get("played") or 0)
        stats.points += points
        stats.won += evening.place(entry) == 1
        add_money(stats.money, evening.currency, money_of(entry))
        stats.best_evening = _better(stats.best_evening, points, evening, 1)
        stats.worst_evening = _better(stats.worst_evening, points, evening, -1)
        if entry.get("best") is not None:
            stats.best_deal = _better(stats.best_deal, int(entry["best"]), evening, 1)
        if entry.get("worst") is not None:
            stats.worst_deal = _better(stats.worst_deal, int(entry["worst"]), evening, -1)
        for contract, (declared, made) in (entry.get("declared") or {}).items():
            if contract in (None, "", "null", "None"):
                continue  # a deal without a contract (classic whist) declares nothing
            stat = contracts.setdefault((evening.ruleset, contract), ContractStat(evening.ruleset, contract))
            stat.declared += int(declared)
            stat.made += int(made)
        running += points
        stats.steps.append(Step(evening.date, evening.id, points, running))
    stats.contracts = sorted(contracts.values(), key=lambda c: (c.ruleset, -c.declared, c.contract))
    return stats


__all__ = [
    "ContractStat",
    "EveningSummary",
    "Mark",
    "PlayerStats",
    "Ranking",
    "Result",
    "Row",
    "Rules",
    "Standings",
    "Step",
    "TieBreak",
    "places",
    "player_stats",
    "standings",
    "took_part",
]
