"""The ranking of a night, from its tables' stored summaries (never from their deals).

Plain Python over what the database gives: per table and session, the evening's summary
(its players by roster id with their points, and how many deals were played). Its cost
grows with the tables and players, not with the deals.

Two rules: the total of points over the night (the default), or place points per table
and session (4/3/2/1...: the table's players ranked by points; tied players share the
points of the places they hold together; a table without a deal gives no places yet).
Equal totals are ranked equal (1, 2, 2, 4); under place points, equal place points are
told apart by the points.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from scorebook.core.collation import sort_key


@dataclass
class TableResult:
    session: int
    table: int
    deals: int
    is_open: bool
    players: list[dict]  # {"number", "name", "points", "place", "place_points"} in points order


@dataclass
class SessionLine:
    session: int
    table: int
    points: int
    place_points: Decimal | None
    opponents: list[str]


@dataclass
class RankRow:
    number: int
    name: str
    places: bool  # ranked by place points (else by points)
    points: int = 0
    place_points: Decimal = Decimal(0)
    rank: int = 0
    lines: dict[int, SessionLine] = field(default_factory=dict)

    @property
    def total(self) -> Decimal | int:
        return self.place_points if self.places else self.points


def _share(values: list[Decimal]) -> Decimal:
    return sum(values, Decimal(0)) / len(values)


def table_result(
    session: int,
    table: int,
    summary: dict[str, Any],
    is_open: bool,
    numbers: dict[int, tuple[int, str]],
    place_value: Callable[[int], Decimal],
) -> TableResult:
    """One table's players by points, with their places (ties share the places' points)."""
    deals = int(summary.get("deals") or 0)
    players: list[dict[str, Any]] = []
    for entry in summary.get("players") or []:
        if deals and not entry.get("took_part", True):
            continue  # sat out every deal of the table: no place and no place points there (docs/rules/money.md)
        number, name = numbers.get(entry.get("player"), (None, entry.get("name")))
        players.append({"number": number, "name": name, "points": int(entry.get("points") or 0)})
    players.sort(key=lambda p: -p["points"])
    i = 0
    while i < len(players):
        j = i
        while j + 1 < len(players) and players[j + 1]["points"] == players[i]["points"]:
            j += 1
        shared = _share([place_value(k + 1) for k in range(i, j + 1)]) if deals else None
        for k in range(i, j + 1):
            players[k]["place"] = i + 1 if deals else None
            players[k]["place_points"] = shared
        i = j + 1
    return TableResult(session, table, deals, is_open, players)


def rank(participants: list[tuple[int, int, str]], tables: list[TableResult], places: bool) -> list[RankRow]:
    """``participants``: (number, player id, name). The rows, best first, each with its night line."""
    rows = {number: RankRow(number, name, places) for number, _player, name in participants}
    for t in tables:
        for p in t.players:
            row = rows.get(p["number"])
            if row is None:
                continue
            row.points += p["points"]
            if p["place_points"] is not None:
                row.place_points += p["place_points"]
            row.lines[t.session] = SessionLine(
                t.session,
                t.table,
                p["points"],
                p["place_points"] if places else None,
                [o["name"] for o in t.players if o is not p],
            )
    key = (lambda r: (-r.place_points, -r.points)) if places else (lambda r: (-r.points,))
    ordered = sorted(rows.values(), key=lambda r: (*key(r), sort_key(r.name), r.number))  # ties: by name
    for i, row in enumerate(ordered):
        row.rank = ordered[i - 1].rank if i and key(ordered[i - 1]) == key(row) else i + 1
    return ordered
