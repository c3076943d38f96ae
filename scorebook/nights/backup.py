"""A club's nights in its backup (``league.backup``): each night's settings, participants, plan
and sessions, its tables pointing at the backup's evenings (the evening files) by their place in
the backup's list. Checked against its schema (``backup_schema.NightBackup``) before anything is
written; a refusal names the field."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scorebook.evenings.models import Evening

from .models import Night, NightSession, NightTable, Participant

if TYPE_CHECKING:  # the schema (and pydantic) is loaded when a backup is read
    from .backup_schema import NightBackup


def export_nights(club, evening_index: dict[int, int]) -> list[dict[str, Any]]:
    """``evening_index``: {evening pk: its place in the backup's list of evenings}."""
    out = []
    for night in Night.objects.filter(club=club).order_by("date", "pk"):
        out.append(
            {
                "name": night.name,
                "date": night.date.isoformat(),
                "ruleset": night.ruleset,
                "sessions": night.sessions,
                "deals_per_session": night.deals_per_session,
                "ranking": night.ranking,
                "place_points": night.place_points,
                "stake": None if night.stake is None else str(night.stake),
                "currency": night.currency,
                "seed": night.seed,
                "plan": night.plan,
                "participants": [
                    {
                        "number": p.number,
                        "player": p.player_id,
                        "first_session": p.first_session,
                        "last_session": p.last_session,
                        "replaces": p.replaces.number if p.replaces else None,
                    }
                    for p in night.participants.select_related("replaces").order_by("number")
                ],
                "tables": [
                    {
                        "session": t.session.number,
                        "table": t.number,
                        "status": t.session.status,
                        "evening": evening_index[t.evening_id],
                    }
                    for t in NightTable.objects.filter(session__night=night)
                    .select_related("session")
                    .order_by("session__number", "number")
                ],
            }
        )
    return out


def import_nights(club, nights: list[NightBackup], players: dict[int, Any], evenings: list) -> None:
    """``players``: {backup player id: Player}; ``evenings``: the restored evenings in the backup's order.
    Runs inside the restore's transaction."""
    for n in nights:
        night = Night.objects.create(
            club=club,
            name=n.name,
            date=n.date,
            ruleset=n.ruleset,
            rules=evenings[n.tables[0].evening].rules if n.tables else {},
            sessions=n.sessions,
            deals_per_session=n.deals_per_session,
            ranking=n.ranking,
            place_points=n.place_points,
            stake=n.stake,
            currency=n.currency,
            seed=n.seed,
            plan=n.plan,
        )
        made = {}
        for p in n.participants:
            player = players[p.player]
            made[p.number] = Participant.objects.create(
                night=night,
                number=p.number,
                player=player,
                name=player.name,
                first_session=p.first_session,
                last_session=p.last_session,
            )
        for p in n.participants:
            if p.replaces is not None:
                Participant.objects.filter(pk=made[p.number].pk).update(replaces=made[p.replaces])
        statuses = {t.session: t.status for t in n.tables}
        sessions = {
            number: NightSession.objects.create(night=night, number=number, status=statuses.get(number, "open"))
            for number in range(1, n.sessions + 1)
        }
        for t in n.tables:
            NightTable.objects.create(session=sessions[t.session], number=t.table, evening=evenings[t.evening])
        # its tables are run from the night again (docs/rules/club-nights.md)
        tables = [evenings[t.evening].pk for t in n.tables]
        Evening.objects.filter(pk__in=tables).update(managed=True, deal_limit=n.deals_per_session)
