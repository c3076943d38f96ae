"""A club as one JSON document: members, players, house rules, seasons, every evening as an
evening file (shared/evening-format.md), and its club nights (their tables are evenings of the list).
``import_club`` restores it into a database without that club.

What a backup holds of the accounts is their names; their password hashes and e-mail addresses
only when asked for (``export_club --with-secrets``). It never holds a live link: invitations
and read-only links are secrets stored as digests, and new ones are made after a restore.

``import_club`` trusts nothing in its file: every field is checked before anything is written,
and a refusal is a sentence (BackupError) naming the field. An account of the file whose user
name already exists here is attached to that user only when the operator says so
(``account_map``); otherwise the restore is refused.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import identify_hasher
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.validators import validate_email, validate_slug
from django.db import transaction
from django.utils.dateparse import parse_date

from scorebook.accounts.models import Profile
from scorebook.clubs.models import Club, HouseRules, Membership, Player, Ranking, Role, Season, TieBreak
from scorebook.evenings import services
from scorebook.evenings.models import Deal, Evening, Payment, Seat
from scorebook.nights import backup as night_backup
from scorebook.rules import evening_file, registry
from scorebook.rules.model import RulesError
from scorebook.rules.model import to_dict as rules_to_dict
from scorebook.rules.scoring import DealError, score

FORMAT = "scorebook-club/1"
MAX_SMALL = 32767  # PositiveSmallIntegerField
PAYMENT_LIMIT = Decimal("9999999999.99")  # what Payment.amount holds (12 digits, 2 decimals)


class BackupError(ValueError):
    pass


def _user(user) -> str | None:
    return user.get_username() if user is not None else None


def export_club(club: Club, *, with_secrets: bool = False) -> dict[str, Any]:
    users = {m.user for m in club.memberships.select_related("user", "user__profile")}
    players = list(Player.objects.filter(club=club).select_related("user").order_by("pk"))
    users |= {p.user for p in players if p.user}
    evenings = list(Evening.objects.filter(club=club).select_related("owner").order_by("date", "pk"))
    users |= {e.owner for e in evenings if e.owner}
    accounts = []
    for u in sorted(users, key=lambda u: u.get_username()):
        account = {
            "username": u.get_username(),
            "first_name": u.first_name,
            "display_name": getattr(getattr(u, "profile", None), "display_name", ""),
            "is_active": u.is_active,
        }
        if with_secrets:
            account |= {"password": u.password, "email": u.email}
        accounts.append(account)
    return {
        "format": FORMAT,
        "club": {"name": club.name, "slug": club.slug},
        "accounts": accounts,
        "members": [
            {"username": m.user.get_username(), "role": m.role}
            for m in club.memberships.select_related("user").order_by("pk")
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
    } | _nights(club, evenings)


def _nights(club: Club, evenings: list[Evening]) -> dict[str, Any]:
    """The club's nights (only when it has some): their tables point at the evenings by their place."""
    nights = night_backup.export_nights(club, {e.pk: i for i, e in enumerate(evenings)})
    return {"nights": nights} if nights else {}


def _export_evening(evening: Evening) -> dict[str, Any]:
    data = services.file_dict(evening)  # with the full copy of the rules: restored exactly
    return {
        "file": data,
        "seats": [seat.player_id for seat in evening.seats.all()],
        "status": evening.status,
        "version": evening.version,
        "owner": _user(evening.owner),
        "payments": [
            {"from": p.payer, "to": p.payee, "amount": str(p.amount)} for p in evening.payments.order_by("pk")
        ],
    }


# --- checking a backup ---------------------------------------------------------------------------


def _fail(where: str, what: str):
    raise BackupError(f"{where}: {what}.")


def _obj(value, where: str, keys: set[str], required: set[str]) -> dict:
    if not isinstance(value, dict):
        _fail(where, "an object is expected")
    unknown = sorted(set(value) - keys)
    if unknown:
        _fail(where, f"unknown key {unknown[0]!r}")
    missing = sorted(required - set(value))
    if missing:
        _fail(where, f"the key {missing[0]!r} is missing")
    return value


def _list(value, where: str) -> list:
    if not isinstance(value, list):
        _fail(where, "a list is expected")
    return value


def _text(value, where: str, max_length: int, *, empty: bool = False) -> str:
    if not isinstance(value, str):
        _fail(where, "a text is expected")
    if not empty and not value.strip():
        _fail(where, "it cannot be empty")
    if len(value) > max_length:
        _fail(where, f"at most {max_length} characters")
    if not value.isprintable():
        _fail(where, "it holds control characters")
    return value


def _int(value, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        _fail(where, f"a whole number from {low} to {high} is expected")
    return value


def _choice(value, where: str, choices) -> str:
    allowed = [c.value for c in choices]
    if value not in allowed:
        _fail(where, f"{value!r} is not one of {', '.join(allowed)}")
    return value


def _day(value, where: str) -> date:
    try:
        parsed = parse_date(value) if isinstance(value, str) else None
    except ValueError:  # well formed, but no such day
        parsed = None
    if parsed is None:
        _fail(where, "a date written YYYY-MM-DD is expected")
    return parsed


def _username(value, where: str) -> str:
    _text(value, where, 150)
    try:
        UnicodeUsernameValidator()(value)
    except ValidationError:
        _fail(where, f"{value!r} is not a user name (letters, digits and @ . + - _)")
    return value


def _account(a, where: str) -> dict:
    a = _obj(
        a,
        where,
        {"username", "first_name", "display_name", "is_active", "password", "email"},
        {"username", "first_name", "display_name", "is_active"},
    )
    _username(a["username"], f"{where}: username")
    _text(a["first_name"], f"{where}: first_name", 150, empty=True)
    _text(a["display_name"], f"{where}: display_name", Profile._meta.get_field("display_name").max_length, empty=True)
    if not isinstance(a["is_active"], bool):
        _fail(f"{where}: is_active", "true or false is expected")
    password = a.get("password", "")
    _text(password, f"{where}: password", 128, empty=True)
    if password and not password.startswith("!"):
        try:
            identify_hasher(password)
        except ValueError:
            _fail(f"{where}: password", "not a password hash this site knows")
    email = a.get("email", "")
    _text(email, f"{where}: email", 254, empty=True)
    if email:
        try:
            validate_email(email)
        except ValidationError:
            _fail(f"{where}: email", f"{email!r} is not an e-mail address")
    return a


def _amount(value, where: str) -> Decimal:
    try:
        amount = Decimal(value) if isinstance(value, str) else None
    except InvalidOperation:
        amount = None
    if (
        amount is None
        or not amount.is_finite()
        or not Decimal("0.01") <= amount <= PAYMENT_LIMIT
        or amount != amount.quantize(Decimal("0.01"))
    ):
        _fail(where, f"an amount from 0.01 to {PAYMENT_LIMIT} with at most two decimals is expected")
    return amount


def check(data: Any, *, account_map: dict[str, str] | None = None) -> dict[str, Any]:
    """Every field of the backup checked; returns what import_club writes. Raises BackupError."""
    account_map = dict(account_map or {})
    data = _obj(
        data,
        "the backup",
        {
            "format",
            "club",
            "accounts",
            "members",
            "invitations",
            "players",
            "house_rules",
            "seasons",
            "evenings",
            "nights",
        },
        {"format", "club", "accounts", "members", "players", "house_rules", "seasons", "evenings"},
    )
    if data["format"] != FORMAT:
        _fail("format", f"not a club backup ({FORMAT!r} expected)")
    club = _obj(data["club"], "club", {"name", "slug"}, {"name", "slug"})
    _text(club["name"], "club: name", Club._meta.get_field("name").max_length)
    _text(club["slug"], "club: slug", Club._meta.get_field("slug").max_length)
    try:
        validate_slug(club["slug"])
    except ValidationError:
        _fail("club: slug", f"{club['slug']!r} is not a short name (letters, digits, - and _)")
    if Club.objects.filter(slug=club["slug"]).exists():
        _fail("club", f"a club {club['slug']!r} already exists here")

    accounts = [_account(a, f"accounts[{i}]") for i, a in enumerate(_list(data["accounts"], "accounts"))]
    names = [a["username"] for a in accounts]
    if len(set(names)) != len(names):
        _fail("accounts", "a user name is given twice")
    unknown_map = sorted(set(account_map) - set(names))
    if unknown_map:
        _fail("account map", f"the backup has no account {unknown_map[0]!r}")
    User = get_user_model()
    for a in accounts:
        existing = User.objects.filter(username=a["username"]).exists()
        target = account_map.get(a["username"])
        if target is not None:
            if not User.objects.filter(username=target).exists():
                _fail("account map", f"there is no user {target!r} here to attach {a['username']!r} to")
        elif existing:
            _fail(
                f"account {a['username']!r}",
                "a user of that name exists here already; it is attached only if you say so "
                f"(--account {a['username']}={a['username']}), or give the file's account another user",
            )

    members = []
    for i, m in enumerate(_list(data["members"], "members")):
        m = _obj(m, f"members[{i}]", {"username", "role"}, {"username", "role"})
        if m["username"] not in names:
            _fail(f"members[{i}]", f"{m['username']!r} is not one of the backup's accounts")
        _choice(m["role"], f"members[{i}]: role", Role)
        members.append(m)
    if len({m["username"] for m in members}) != len(members):
        _fail("members", "an account is a member twice")
    if not any(m["role"] == Role.ADMIN for m in members):
        _fail("members", "the club has no admin")

    players = []
    for i, p in enumerate(_list(data["players"], "players")):
        p = _obj(p, f"players[{i}]", {"id", "name", "account"}, {"id", "name", "account"})
        _int(p["id"], f"players[{i}]: id", 1, 2**63 - 1)
        _text(p["name"], f"players[{i}]: name", Player._meta.get_field("name").max_length)
        if p["account"] is not None and p["account"] not in names:
            _fail(f"players[{i}]: account", f"{p['account']!r} is not one of the backup's accounts")
        players.append(p)
    if len({p["id"] for p in players}) != len(players):
        _fail("players", "an id is given twice")
    if len({p["name"].casefold() for p in players}) != len(players):
        _fail("players", "a name is given twice")
    linked = [p["account"] for p in players if p["account"] is not None]
    if len(set(linked)) != len(linked):
        _fail("players", "an account is linked to two players")

    house_rules = []
    for i, h in enumerate(_list(data["house_rules"], "house_rules")):
        h = _obj(h, f"house_rules[{i}]", {"ruleset", "overrides"}, {"ruleset", "overrides"})
        if not isinstance(h["overrides"], dict):
            _fail(f"house_rules[{i}]: overrides", "an object is expected")
        try:
            registry.resolve(h["ruleset"], h["overrides"])
        except (RulesError, TypeError) as exc:
            _fail(f"house_rules[{i}]", str(exc))
        house_rules.append(h)
    if len({h["ruleset"] for h in house_rules}) != len(house_rules):
        _fail("house_rules", "a variant is given twice")

    seasons = []
    for i, s in enumerate(_list(data["seasons"], "seasons")):
        where = f"seasons[{i}]"
        keys = {
            "name",
            "start",
            "end",
            "ruleset",
            "ranking",
            "min_evenings",
            "league_points",
            "drop_worst",
            "tie_break",
        }
        s = _obj(s, where, keys, keys)
        _text(s["name"], f"{where}: name", Season._meta.get_field("name").max_length)
        start, end = _day(s["start"], f"{where}: start"), _day(s["end"], f"{where}: end")
        if end < start:
            _fail(where, "its last day comes before its first")
        if s["ruleset"] not in set(registry.keys()):
            _fail(f"{where}: ruleset", f"unknown variant {s['ruleset']!r}")
        _choice(s["ranking"], f"{where}: ranking", Ranking)
        _choice(s["tie_break"], f"{where}: tie_break", TieBreak)
        _int(s["min_evenings"], f"{where}: min_evenings", 0, MAX_SMALL)
        _int(s["drop_worst"], f"{where}: drop_worst", 0, MAX_SMALL)
        points = _list(s["league_points"], f"{where}: league_points")
        if len(points) > 100:
            _fail(f"{where}: league_points", "at most 100 places")
        for k, value in enumerate(points):
            _int(value, f"{where}: league_points[{k}]", -10_000, 10_000)
        seasons.append(s | {"start": start, "end": end})

    player_ids = {p["id"] for p in players}
    evenings = []
    for i, e in enumerate(_list(data["evenings"], "evenings")):
        where = f"evenings[{i}]"
        e = _obj(
            e,
            where,
            {"file", "seats", "status", "version", "share_token", "owner", "payments"},
            {"file", "seats", "status", "version", "owner", "payments"},
        )
        try:
            engine = evening_file.from_dict(e["file"])  # validated like any evening file
            score(engine)
        except (evening_file.FileError, DealError) as exc:
            _fail(where, str(exc))
        if engine.date is None:
            _fail(f"{where}: file", "the evening has no date")
        seats = _list(e["seats"], f"{where}: seats")
        if (
            len(seats) != len(engine.players)
            or any(s not in player_ids for s in seats)
            or len(set(seats)) != len(seats)
        ):
            _fail(f"{where}: seats", "one player of the backup per seat is expected")
        _choice(e["status"], f"{where}: status", Evening.Status)
        _int(e["version"], f"{where}: version", 0, 2**31 - 1)
        if e["owner"] is not None and e["owner"] not in names:
            _fail(f"{where}: owner", f"{e['owner']!r} is not one of the backup's accounts")
        payments = []
        for k, p in enumerate(_list(e["payments"], f"{where}: payments")):
            p = _obj(p, f"{where}: payments[{k}]", {"from", "to", "amount"}, {"from", "to", "amount"})
            if p["from"] not in engine.players or p["to"] not in engine.players or p["from"] == p["to"]:
                _fail(f"{where}: payments[{k}]", "two different players of the evening are expected")
            payments.append(
                {"from": p["from"], "to": p["to"], "amount": _amount(p["amount"], f"{where}: payments[{k}]")}
            )
        evenings.append(
            {
                "engine": engine,
                "file": e["file"],
                "seats": seats,
                "status": e["status"],
                "version": e["version"],
                "owner": e["owner"],
                "payments": payments,
            }
        )
    try:
        nights = night_backup.check_nights(data.get("nights", []), player_ids, evenings)
    except night_backup.NightBackupError as exc:
        raise BackupError(str(exc)) from None
    return {
        "club": club,
        "accounts": accounts,
        "account_map": account_map,
        "members": members,
        "players": players,
        "house_rules": house_rules,
        "seasons": seasons,
        "evenings": evenings,
        "nights": nights,
    }


# --- restoring ------------------------------------------------------------------------------------


def import_club(data: dict[str, Any], *, account_map: dict[str, str] | None = None) -> Club:
    """Restore a club exported by ``export_club``; nothing is written if anything is wrong.
    ``account_map``: {user name in the file: existing user name} for accounts that already exist here."""
    checked = check(data, account_map=account_map)
    User = get_user_model()
    with transaction.atomic():
        club = Club.objects.create(name=checked["club"]["name"], slug=checked["club"]["slug"])
        accounts = {}
        for a in checked["accounts"]:
            target = checked["account_map"].get(a["username"])
            if target is not None:
                accounts[a["username"]] = User.objects.get(username=target)
                continue
            user = User(
                username=a["username"], email=a.get("email", ""), first_name=a["first_name"], is_active=a["is_active"]
            )
            if a.get("password"):
                user.password = a["password"]
            else:
                user.set_unusable_password()  # the member sets one through a password reset
            user.save()
            if a["display_name"]:
                Profile.objects.create(user=user, display_name=a["display_name"])
            accounts[a["username"]] = user
        for m in checked["members"]:
            Membership.objects.create(club=club, user=accounts[m["username"]], role=m["role"])
        players = {
            p["id"]: Player.objects.create(club=club, name=p["name"], user=accounts.get(p["account"]))
            for p in checked["players"]
        }
        for h in checked["house_rules"]:
            HouseRules.objects.create(club=club, ruleset=h["ruleset"], overrides=h["overrides"])
        for s in checked["seasons"]:
            Season.objects.create(club=club, **s)
        restored = [_import_evening(club, e, players, accounts) for e in checked["evenings"]]
        night_backup.import_nights(club, checked["nights"], players, restored)
    return club


def _import_evening(club, item, players, accounts) -> Evening:
    engine = item["engine"]
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
        owner=accounts.get(item["owner"]),
    )
    for position, (name, player_id) in enumerate(zip(engine.players, item["seats"], strict=True)):
        Seat.objects.create(evening=evening, player=players[player_id], position=position, name=name)
    for number, deal in enumerate(item["file"]["deals"], start=1):
        Deal.objects.create(evening=evening, number=number, data=deal)
    for p in item["payments"]:
        Payment.objects.create(evening=evening, payer=p["from"], payee=p["to"], amount=p["amount"])
    services.refresh_summary(evening)
    return evening
