"""A club as one JSON document: members, players, house rules, seasons, and every evening as an
evening file (shared/evening-format.md). ``import_club`` restores it into a database without that club.

Accounts travel with their password hashes, so members can log in after a restore.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.dateparse import parse_datetime

from scorebook.accounts.models import Profile
from scorebook.evenings import services
from scorebook.clubs.models import Club, HouseRules, Invitation, Membership, Player, Season
from scorebook.evenings.models import Deal, Evening, Payment, Seat
from scorebook.rules import evening_file
from scorebook.rules.model import to_dict as rules_to_dict
from scorebook.rules.scoring import score

FORMAT = "scorebook-club/1"


class BackupError(ValueError):
    pass


def _user(user) -> str | None:
    return user.get_username() if user is not None else None


def export_club(club: Club) -> dict[str, Any]:
    users = {m.user for m in club.memberships.select_related("user", "user__profile")}
    players = list(Player.objects.filter(club=club).select_related("user").order_by("pk"))
    users |= {p.user for p in players if p.user}
    evenings = list(Evening.objects.filter(club=club).select_related("owner").order_by("date", "pk"))
    users |= {e.owner for e in evenings if e.owner}
    return {
        "format": FORMAT,
        "club": {"name": club.name, "slug": club.slug},
        "accounts": [
            {
                "username": u.get_username(),
                "password": u.password,
                "email": u.email,
                "first_name": u.first_name,
                "display_name": getattr(getattr(u, "profile", None), "display_name", ""),
                "is_active": u.is_active,
            }
            for u in sorted(users, key=lambda u: u.get_username())
        ],
        "members": [
            {"username": m.user.get_username(), "role": m.role}
            for m in club.memberships.select_related("user").order_by("pk")
        ],
        "invitations": [
            {"token": i.token, "role": i.role, "revoked_at": i.revoked_at.isoformat() if i.revoked_at else None}
            for i in club.invitations.order_by("pk")
        ],
        "players": [{"id": p.pk, "name": p.name, "account": _user(p.user)} for p in players],
        "house_rules": [{"ruleset": h.ruleset, "overrides": h.overrides} for h in club.house_rules.order_by("ruleset")],
        "seasons": [
            {
                "name": s.name,
                "start": s.start.isoformat(),
                "end": s.end.isoformat(),
                "ruleset": s.ruleset,
                "ranking": s.ranking,
                "min_evenings": s.min_evenings,
                "league_points": s.league_points,
                "drop_worst": s.drop_worst,
                "tie_break": s.tie_break,
            }
            for s in club.seasons.order_by("start", "pk")
        ],
        "evenings": [_export_evening(e) for e in evenings],
    }


def _export_evening(evening: Evening) -> dict[str, Any]:
    data = services.file_dict(evening)  # with the full copy of the rules: restored exactly
    return {
        "file": data,
        "seats": [seat.player_id for seat in evening.seats.all()],
        "status": evening.status,
        "version": evening.version,
        "share_token": evening.share_token,
        "owner": _user(evening.owner),
        "payments": [
            {"from": p.payer, "to": p.payee, "amount": str(p.amount)} for p in evening.payments.order_by("pk")
        ],
    }


def import_club(data: dict[str, Any]) -> Club:
    """Restore a club exported by ``export_club``; nothing is written if anything is wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError(f"not a club backup (format {FORMAT!r} expected)")
    if Club.objects.filter(slug=data["club"]["slug"]).exists():
        raise BackupError(f"a club {data['club']['slug']!r} already exists here")
    User = get_user_model()
    with transaction.atomic():
        club = Club.objects.create(name=data["club"]["name"], slug=data["club"]["slug"])
        accounts = {}
        for a in data["accounts"]:
            user = User.objects.filter(username=a["username"]).first()
            if user is None:
                user = User(
                    username=a["username"],
                    email=a["email"],
                    first_name=a["first_name"],
                    is_active=a["is_active"],
                )
                user.password = a["password"]
                user.save()
                if a["display_name"]:
                    Profile.objects.create(user=user, display_name=a["display_name"])
            accounts[a["username"]] = user
        for m in data["members"]:
            Membership.objects.create(club=club, user=accounts[m["username"]], role=m["role"])
        for i in data["invitations"]:
            Invitation.objects.create(
                club=club,
                token=i["token"],
                role=i["role"],
                revoked_at=parse_datetime(i["revoked_at"]) if i["revoked_at"] else None,
            )
        players = {
            p["id"]: Player.objects.create(club=club, name=p["name"], user=accounts.get(p["account"]))
            for p in data["players"]
        }
        for h in data["house_rules"]:
            HouseRules.objects.create(club=club, ruleset=h["ruleset"], overrides=h["overrides"])
        for s in data["seasons"]:
            Season.objects.create(
                club=club,
                **{k: v for k, v in s.items() if k not in ("start", "end")},
                start=date.fromisoformat(s["start"]),
                end=date.fromisoformat(s["end"]),
            )
        for e in data["evenings"]:
            _import_evening(club, e, players, accounts)
    return club


def _import_evening(club, item, players, accounts) -> Evening:
    engine = evening_file.from_dict(item["file"])  # validated like any evening file
    score(engine)
    evening = Evening.objects.create(
        club=club,
        ruleset=engine.rules.key,
        rules=rules_to_dict(engine.rules),
        date=engine.date,
        stake=engine.stake,
        currency=engine.currency,
        first_dealer=engine.players.index(engine.first_dealer),
        status=item["status"],
        version=item["version"],
        share_token=item["share_token"],
        owner=accounts.get(item["owner"]),
    )
    for position, (name, player_id) in enumerate(zip(engine.players, item["seats"], strict=True)):
        Seat.objects.create(evening=evening, player=players[player_id], position=position, name=name)
    for number, deal in enumerate(item["file"]["deals"], start=1):
        Deal.objects.create(evening=evening, number=number, data=deal)
    for p in item["payments"]:
        Payment.objects.create(evening=evening, payer=p["from"], payee=p["to"], amount=Decimal(p["amount"]))
    services.refresh_summary(evening)
    return evening
