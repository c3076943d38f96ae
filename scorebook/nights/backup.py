"""A club's nights in its backup (``league.backup``): each night's settings, participants, plan
and sessions, its tables pointing at the backup's evenings (the evening files) by their place in
the backup's list. Checked field by field before anything is written; a refusal names the field."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils.dateparse import parse_date

from scorebook.rules import registry

from . import seating
from .models import Night, NightSession, NightTable, Participant


class NightBackupError(ValueError):
    pass


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


def _fail(where: str, what: str):
    raise NightBackupError(f"{where}: {what}.")


def _int(value, where, low, high, *, none=False):
    if none and value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        _fail(where, f"a whole number from {low} to {high} is expected")
    return value


KEYS = {
    "name",
    "date",
    "ruleset",
    "sessions",
    "deals_per_session",
    "ranking",
    "place_points",
    "stake",
    "currency",
    "seed",
    "plan",
    "participants",
    "tables",
}


def check_nights(data: Any, player_ids: set[int], evenings: list[dict]) -> list[dict]:
    """``evenings``: the backup's evenings as checked (their files' rulesets and dates)."""
    if not isinstance(data, list):
        _fail("nights", "a list is expected")
    out, used = [], set()
    for i, n in enumerate(data):
        where = f"nights[{i}]"
        if not isinstance(n, dict) or set(n) != KEYS:
            _fail(where, f"an object with the keys {', '.join(sorted(KEYS))} is expected")
        if (
            not isinstance(n["name"], str)
            or not n["name"].strip()
            or len(n["name"]) > 80
            or not n["name"].isprintable()
        ):
            _fail(f"{where}: name", "a text of 1 to 80 characters is expected")
        day = parse_date(n["date"]) if isinstance(n["date"], str) else None
        if day is None:
            _fail(f"{where}: date", "a date written YYYY-MM-DD is expected")
        if n["ruleset"] not in {key for key, _name in registry.choices()}:
            _fail(f"{where}: ruleset", f"unknown variant {n['ruleset']!r}")
        sessions = _int(n["sessions"], f"{where}: sessions", 1, seating.MAX_SESSIONS)
        _int(n["deals_per_session"], f"{where}: deals_per_session", 1, 99, none=True)
        if n["ranking"] not in Night.Ranking.values:
            _fail(f"{where}: ranking", f"{n['ranking']!r} is not one of {', '.join(Night.Ranking.values)}")
        points = n["place_points"]
        if (
            not isinstance(points, list)
            or len(points) > 5
            or any(isinstance(p, bool) or not isinstance(p, int | float) or abs(p) > 1000 for p in points)
        ):
            _fail(f"{where}: place_points", "at most five numbers are expected")
        stake = None
        if n["stake"] is not None:
            try:
                stake = Decimal(n["stake"]) if isinstance(n["stake"], str) else None
            except InvalidOperation:
                stake = None
            if stake is None or not stake.is_finite() or not 0 <= stake <= 10_000:
                _fail(f"{where}: stake", "an amount from 0 to 10000 is expected")
        if not isinstance(n["currency"], str) or not 1 <= len(n["currency"]) <= 8:
            _fail(f"{where}: currency", "a currency code is expected")
        _int(n["seed"], f"{where}: seed", 0, 2**31 - 1)
        participants = n["participants"]
        if not isinstance(participants, list) or not participants:
            _fail(f"{where}: participants", "a list of participants is expected")
        numbers = set()
        for k, p in enumerate(participants):
            pw = f"{where}: participants[{k}]"
            if not isinstance(p, dict) or set(p) != {"number", "player", "first_session", "last_session", "replaces"}:
                _fail(pw, "an object with number, player, first_session, last_session and replaces is expected")
            _int(p["number"], f"{pw}: number", 1, seating.MAX_PLAYERS + 100)
            if p["player"] not in player_ids:
                _fail(f"{pw}: player", "one of the backup's players is expected")
            _int(p["first_session"], f"{pw}: first_session", 1, sessions)
            _int(p["last_session"], f"{pw}: last_session", 1, sessions, none=True)
            numbers.add(p["number"])
        if len(numbers) != len(participants) or len({p["player"] for p in participants}) != len(participants):
            _fail(f"{where}: participants", "a number or a player is given twice")
        if any(p["replaces"] is not None and p["replaces"] not in numbers for p in participants):
            _fail(f"{where}: participants", "a substitute replaces a number the night does not have")
        plan = n["plan"]
        if (
            not isinstance(plan, dict)
            or not isinstance(plan.get("sessions"), list)
            or len(plan["sessions"]) != sessions
        ):
            _fail(f"{where}: plan", "one list of tables per session is expected")
        for s in plan["sessions"]:
            tables = s.get("tables") if isinstance(s, dict) else None
            if not isinstance(tables, list) or any(
                not isinstance(t, list) or not 4 <= len(t) <= 5 or any(x not in numbers for x in t) for t in tables
            ):
                _fail(f"{where}: plan", "tables of 4 or 5 of the night's numbers are expected")
        tables = n["tables"]
        if not isinstance(tables, list):
            _fail(f"{where}: tables", "a list is expected")
        for k, t in enumerate(tables):
            tw = f"{where}: tables[{k}]"
            if not isinstance(t, dict) or set(t) != {"session", "table", "status", "evening"}:
                _fail(tw, "an object with session, table, status and evening is expected")
            _int(t["session"], f"{tw}: session", 1, sessions)
            _int(t["table"], f"{tw}: table", 1, 1000)
            if t["status"] not in NightSession.Status.values:
                _fail(f"{tw}: status", "open or closed is expected")
            index = _int(t["evening"], f"{tw}: evening", 0, max(len(evenings) - 1, 0))
            if index >= len(evenings) or index in used:
                _fail(f"{tw}: evening", "an evening of the backup that no other table has is expected")
            if evenings[index]["engine"].rules.key != n["ruleset"]:
                _fail(f"{tw}: evening", "an evening of the night's variant is expected")
            used.add(index)
        if len({(t["session"], t["table"]) for t in tables}) != len(tables):
            _fail(f"{where}: tables", "a table of a session is given twice")
        out.append(n | {"date": day, "stake": stake})
    return out


def import_nights(club, nights: list[dict], players: dict[int, Any], evenings: list) -> None:
    """``players``: {backup player id: Player}; ``evenings``: the restored evenings in the backup's order.
    Runs inside the restore's transaction."""
    for n in nights:
        night = Night.objects.create(
            club=club,
            name=n["name"],
            date=n["date"],
            ruleset=n["ruleset"],
            rules=evenings[n["tables"][0]["evening"]].rules if n["tables"] else {},
            sessions=n["sessions"],
            deals_per_session=n["deals_per_session"],
            ranking=n["ranking"],
            place_points=n["place_points"],
            stake=n["stake"],
            currency=n["currency"],
            seed=n["seed"],
            plan=n["plan"],
        )
        made = {}
        for p in n["participants"]:
            player = players[p["player"]]
            made[p["number"]] = Participant.objects.create(
                night=night,
                number=p["number"],
                player=player,
                name=player.name,
                first_session=p["first_session"],
                last_session=p["last_session"],
            )
        for p in n["participants"]:
            if p["replaces"] is not None:
                Participant.objects.filter(pk=made[p["number"]].pk).update(replaces=made[p["replaces"]])
        statuses = {t["session"]: t["status"] for t in n["tables"]}
        sessions = {
            number: NightSession.objects.create(night=night, number=number, status=statuses.get(number, "open"))
            for number in range(1, n["sessions"] + 1)
        }
        for t in n["tables"]:
            NightTable.objects.create(session=sessions[t["session"]], number=t["table"], evening=evenings[t["evening"]])
