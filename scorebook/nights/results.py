"""What the ranking pages read: two queries whatever the number of deals played."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Sum

from . import ranking
from .models import Night, NightSession, NightTable


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


def fingerprint(night_pk: int) -> str | None:
    """What changes whenever the ranking may change: one aggregate query, no summary read."""
    row = (
        Night.objects.filter(pk=night_pk)
        .annotate(
            tables=Count("night_sessions__tables"),
            versions=Sum("night_sessions__tables__evening__version"),
        )
        .values_list("version", "tables", "versions")
        .first()
    )
    return None if row is None else "-".join(str(x) for x in row)
