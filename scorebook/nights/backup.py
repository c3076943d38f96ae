"""A club's nights in its backup (``league.backup``): each night's settings, rules, participants
(with their names at the night), plan, sessions (open or closed, and when), its director's log, its
ranking link's digest, and its tables (the card to reprint) pointing at the backup's evenings (the
evening files) by their place in the backup's list. Checked against its schema
(``backup_schema.NightBackup``) before anything is written; a refusal names the field."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import User

from scorebook.clubs.models import Club
from scorebook.evenings.models import Evening

from .models import Night, NightEvent, NightSession, NightTable, Participant

if TYPE_CHECKING:  # the schema (and pydantic) is loaded when a backup is read
    from .backup_schema import NightBackup


def _user(user: User | None) -> str | None:
    return user.get_username() if user is not None else None


def _at(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def export_nights(club: Club, evening_index: dict[int, int]) -> list[dict[str, Any]]:
    """``evening_index``: {evening pk: its place in the backup's list of evenings}. The nights in the
    order they were made."""
    out = []
    for night in Night.objects.filter(club=club).select_related("created_by").order_by("pk"):
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
                        "name": p.name,
                    }
                    for p in night.participants.select_related("replaces").order_by("number")
                ],
                "tables": [
                    {
                        "session": t.session.number,
                        "table": t.number,
                        "status": t.session.status,
                        "evening": evening_index[t.evening_id],
                        "reprint": t.reprint,
                    }
                    for t in NightTable.objects.filter(session__night=night)
                    .select_related("session")
                    .order_by("session__number", "number")
                ],
                "rules": night.rules,
                "version": night.version,
                "created_by": _user(night.created_by),
                "created_at": _at(night.created_at),
                "ranking_link": {"digest": night.ranking_hash, "made_at": _at(night.ranking_link_at)}
                if night.ranking_hash
                else None,
                "session_states": [
                    {"number": s.number, "status": s.status, "closed_at": _at(s.closed_at)}
                    for s in night.night_sessions.order_by("number")
                ],
                "events": [
                    {"kind": e.kind, "session": e.session, "detail": e.detail, "by": _user(e.by), "at": _at(e.at)}
                    for e in night.events.select_related("by").order_by("pk")
                ],
            }
        )
    return out


def import_nights(
    club: Club, nights: list[NightBackup], players: dict[int, Any], evenings: list[Evening], accounts: dict[str, Any]
) -> None:
    """``players``: {backup player id: Player}; ``evenings``: the restored evenings in the backup's order;
    ``accounts``: {user name in the backup: User}. Runs inside the restore's transaction."""
    for n in nights:
        night = _import_night(club, n, evenings, accounts)
        _import_participants(night, n, players)
        if n.session_states is not None:
            states = {s.number: (s.status, s.closed_at) for s in n.session_states}
        else:  # format 1: from the tables
            states = {t.session: (t.status, None) for t in n.tables}
        sessions = {
            number: NightSession.objects.create(
                night=night,
                number=number,
                status=states.get(number, ("open", None))[0],
                closed_at=states.get(number, ("open", None))[1],
            )
            for number in range(1, n.sessions + 1)
        }
        for t in n.tables:
            NightTable.objects.create(
                session=sessions[t.session], number=t.table, evening=evenings[t.evening], reprint=t.reprint
            )
        for e in n.events:
            event = NightEvent.objects.create(
                night=night, kind=e.kind, session=e.session, detail=e.detail, by=accounts.get(e.by)
            )
            NightEvent.objects.filter(pk=event.pk).update(at=e.at)
        # its tables are run from the night again (docs/rules/club-nights.md)
        tables = [evenings[t.evening].pk for t in n.tables]
        Evening.objects.filter(pk__in=tables).update(managed=True, deal_limit=n.deals_per_session)


def _import_night(club: Club, n: NightBackup, evenings: list[Evening], accounts: dict[str, Any]) -> Night:
    """The night's own row: its settings, rules (format 1: its first table's), plan, author and links."""
    if n.rules is not None:
        rules = n.rules
    else:  # format 1: its first table's
        rules = evenings[n.tables[0].evening].rules if n.tables else {}
    night = Night.objects.create(
        club=club,
        name=n.name,
        date=n.date,
        ruleset=n.ruleset,
        rules=rules,
        sessions=n.sessions,
        deals_per_session=n.deals_per_session,
        ranking=n.ranking,
        place_points=n.place_points,
        stake=n.stake,
        currency=n.currency,
        seed=n.seed,
        plan=n.plan,
        version=n.version,
        created_by=accounts.get(n.created_by),
        ranking_hash=n.ranking_link.digest if n.ranking_link else None,
        ranking_link_at=n.ranking_link.made_at if n.ranking_link else None,
    )
    if n.created_at is not None:
        Night.objects.filter(pk=night.pk).update(created_at=n.created_at)
    return night


def _import_participants(night: Night, n: NightBackup, players: dict[int, Any]) -> None:
    """The night's participants (with the name they had at the night), then who replaced whom."""
    made = {}
    for p in n.participants:
        player = players[p.player]
        made[p.number] = Participant.objects.create(
            night=night,
            number=p.number,
            player=player,
            name=p.name or player.name,
            first_session=p.first_session,
            last_session=p.last_session,
        )
    for p in n.participants:
        if p.replaces is not None:
            Participant.objects.filter(pk=made[p.number].pk).update(replaces=made[p.replaces])
