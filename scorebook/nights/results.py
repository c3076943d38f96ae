"""What the ranking pages read: two queries whatever the number of deals played."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, Sum

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


def results(night: Night) -> NightResults:
    participants = list(night.participants.values_list("number", "player_id", "name"))
    numbers = {player: (number, name) for number, player, name in participants}
    rows = list(
        NightTable.objects.filter(session__night=night)
        .order_by("session__number", "number")
        .values_list("session__number", "number", "evening__summary", "evening__status", "session__status")
    )
    tables = [
        ranking.table_result(s, t, summary or {}, status == "open", numbers, night.place_value)
        for s, t, summary, status, _session_status in rows
    ]
    closed = len({r[0] for r in rows if r[4] == NightSession.Status.CLOSED})
    places = night.ranking == Night.Ranking.PLACES
    return NightResults(night, ranking.rank(participants, tables, places), tables, closed == night.sessions, closed)


def version(**night) -> tuple[int, str] | None:
    """(pk, version) of the night found by ``night`` (``pk=`` or ``ranking_token=``): what changes
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


def nights_of(player) -> list[dict]:
    """The club nights a roster player took part in, newest first (one query), with the number he
    had: the player page links each one to his night line on the night's ranking."""
    rows = (
        Participant.objects.filter(player=player)
        .order_by("-night__date", "-night_id")
        .values_list("number", "night__name", "night__date", "night__ranking_token")
    )
    return [{"number": n, "name": name, "date": day, "token": token} for n, name, day, token in rows]
