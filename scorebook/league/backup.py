"""A club as one JSON document: members, players, house rules, seasons, every evening as an
evening file (docs/evening-file.md), and its club nights (their tables are evenings of the list).
``import_club`` restores it into a database without that club.

What a backup holds of the accounts is their names; their password hashes and e-mail addresses
only when asked for (``export_club --with-secrets``). It never holds a live link: invitations
and read-only links are secrets stored as digests, and new ones are made after a restore.

``import_club`` trusts nothing in its file: every field is checked (against the schema of
``backup_schema``) before anything is written, and a refusal is a sentence (BackupError) naming
the field. An account of the file whose user
name already exists here is attached to that user only when the operator says so
(``account_map``); otherwise the restore is refused.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q

from scorebook.accounts.models import Profile
from scorebook.clubs.models import Club, HouseRules, Membership, Player, Season
from scorebook.evenings import services, stored
from scorebook.evenings.models import Deal, Evening, Payment, PaymentCancellation, Seat
from scorebook.ledger.models import Expense, Prize
from scorebook.nights import backup as night_backup
from scorebook.nights.models import Night, NightPayment
from scorebook.rules.model import to_dict as rules_to_dict

if TYPE_CHECKING:  # the schema (and pydantic) is loaded when a backup is read, not with every page
    from .backup_schema import ClubBackup, EveningEntry

FORMAT = "scorebook-club/1"
KITTY = Payment.KITTY


class BackupError(ValueError):
    """A backup that cannot be restored here: ``where`` (the field's path) and ``what`` (the fault);
    ``str(error)`` is the sentence naming the field."""

    def __init__(self, where: str, what: str):
        self.where, self.what = where, what
        super().__init__(f"{where}: {what}.")


def _user(user) -> str | None:
    return user.get_username() if user is not None else None


def export_club(club: Club, *, with_secrets: bool = False) -> dict[str, Any]:
    users = {m.user for m in club.memberships.select_related("user", "user__profile")}
    players = list(Player.objects.filter(club=club).select_related("user").order_by("pk"))
    users |= {p.user for p in players if p.user}
    evenings = list(Evening.objects.filter(club=club).select_related("owner").order_by("date", "pk"))
    users |= {e.owner for e in evenings if e.owner}
    payments = list(
        Payment.objects.filter(Q(club=club) | Q(evening__club=club))
        .select_related("marked_by", "cancellation__by", "night_link")
        .order_by("pk")
    )
    # a payment for a night names it by its place in the backup's nights (export_nights' order)
    night_index = {pk: i for i, pk in enumerate(club.nights.order_by("date", "pk").values_list("pk", flat=True))}
    users |= {p.marked_by for p in payments if p.marked_by}
    users |= {p.cancellation.by for p in payments if p.cancelled and p.cancellation.by}
    expenses = list(Expense.objects.filter(club=club).select_related("recorded_by", "withdrawn_by").order_by("pk"))
    prizes = list(Prize.objects.filter(club=club).select_related("recorded_by", "withdrawn_by").order_by("pk"))
    users |= {u for r in (*expenses, *prizes) for u in (r.recorded_by, r.withdrawn_by) if u}
    season_index = {pk: i for i, pk in enumerate(club.seasons.order_by("start", "pk").values_list("pk", flat=True))}
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
        "club": {
            "name": club.name,
            "slug": club.slug,
            "kitty_evening_fee": _text(club.kitty_evening_fee),
            "kitty_night_fee": _text(club.kitty_night_fee),
        },
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
        "payments_on_account": [
            _export_payment(p)
            | {"from": p.payer_player_id or KITTY, "to": p.payee_player_id or KITTY}
            | ({"night": night_index[p.night_link.night_id]} if _night_of(p) else {})
            for p in payments
            if p.evening_id is None
        ],
        "kitty": {
            "night_fees": [
                {"night": i, "fee": str(fee)}
                for i, fee in enumerate(club.nights.order_by("date", "pk").values_list("kitty_fee", flat=True))
                if fee is not None
            ],
            "expenses": [_export_record(r) | {"day": r.day.isoformat(), "note": r.note} for r in expenses],
            "prizes": [
                _export_record(r)
                | {"season": season_index.get(r.season_id), "season_name": r.season_name, "place": r.place}
                | {"player": r.player_id}
                for r in prizes
            ],
        },
    } | _nights(club, evenings)


def _text(amount) -> str | None:
    return None if amount is None else str(amount)


def _export_record(r) -> dict[str, Any]:
    """A kitty's record: its amount, who recorded it when, and its withdrawal when it has one."""
    entry = {
        "amount": str(r.amount),
        "currency": r.currency,
        "recorded_by": _user(r.recorded_by),
        "recorded_at": r.recorded_at.isoformat(),
    }
    if r.withdrawn:
        entry["withdrawn"] = {
            "by": _user(r.withdrawn_by),
            "at": r.withdrawn_at.isoformat(),
            "reason": r.withdrawn_reason,
        }
    return entry


def _nights(club: Club, evenings: list[Evening]) -> dict[str, Any]:
    """The club's nights (only when it has some): their tables point at the evenings by their place."""
    nights = night_backup.export_nights(club, {e.pk: i for i, e in enumerate(evenings)})
    return {"nights": nights} if nights else {}


def _night_of(payment: Payment) -> bool:
    return getattr(payment, "night_link", None) is not None


def _export_payment(p: Payment) -> dict[str, Any]:
    """A payment with who entered it and when, its kind and note, and its cancellation when it has one."""
    entry = {
        "from": p.payer,
        "to": p.payee,
        "amount": str(p.amount),
        "currency": p.currency,
        "kind": p.kind,
        "note": p.note,
        "marked_by": _user(p.marked_by),
        "marked_at": p.marked_at.isoformat(),
    }
    if p.cancelled:
        c = p.cancellation
        entry["cancelled"] = {"by": _user(c.by), "at": c.at.isoformat(), "reason": c.reason}
    return entry


def _export_evening(evening: Evening) -> dict[str, Any]:
    data = stored.file_dict(evening)  # with the full copy of the rules: restored exactly
    return {
        "file": data,
        "seats": [seat.player_id for seat in evening.seats.all()],
        "status": evening.status,
        "version": evening.version,
        "kitty_fee": _text(evening.kitty_fee),
        "owner": _user(evening.owner),
        "payments": [_export_payment(p) for p in evening.payments.select_related("cancellation").order_by("pk")],
    }


# --- checking a backup ---------------------------------------------------------------------------


def check(data: Any, *, account_map: dict[str, str] | None = None) -> ClubBackup:
    """Every field of the backup checked (``backup_schema``), then what it needs of this database: no club
    of its name, and no account of the backup whose user name is taken unless ``account_map`` attaches it
    to a user here. Returns what import_club writes. Raises BackupError."""
    from scorebook.core.schema import read

    from .backup_schema import ClubBackup

    backup = read(ClubBackup, data, root="the backup", refusal=BackupError)
    account_map = account_map or {}
    if Club.objects.filter(slug=backup.club.slug).exists():
        raise BackupError("club", f"a club {backup.club.slug!r} already exists here")
    names = [a.username for a in backup.accounts]
    unknown_map = sorted(set(account_map) - set(names))
    if unknown_map:
        raise BackupError("account map", f"the backup has no account {unknown_map[0]!r}")
    users = get_user_model().objects
    for name in names:
        target = account_map.get(name)
        if target is not None:
            if not users.filter(username=target).exists():
                raise BackupError("account map", f"there is no user {target!r} here to attach {name!r} to")
        elif users.filter(username=name).exists():
            raise BackupError(
                f"account {name!r}",
                "a user of that name exists here already; it is attached only if you say so "
                f"(--account {name}={name}), or give the file's account another user",
            )
    return backup


# --- restoring ------------------------------------------------------------------------------------


def import_club(data: dict[str, Any], *, account_map: dict[str, str] | None = None) -> Club:
    """Restore a club exported by ``export_club``; nothing is written if anything is wrong.
    ``account_map``: {user name in the file: existing user name} for accounts that already exist here."""
    account_map = account_map or {}
    backup = check(data, account_map=account_map)
    User = get_user_model()
    with transaction.atomic():
        club = Club.objects.create(
            name=backup.club.name,
            slug=backup.club.slug,
            kitty_evening_fee=backup.club.kitty_evening_fee,
            kitty_night_fee=backup.club.kitty_night_fee,
        )
        accounts = {}
        for a in backup.accounts:
            target = account_map.get(a.username)
            if target is not None:
                accounts[a.username] = User.objects.get(username=target)
                continue
            user = User(username=a.username, email=a.email, first_name=a.first_name, is_active=a.is_active)
            if a.password:
                user.password = a.password
            else:
                user.set_unusable_password()  # the member sets one through a password reset
            user.save()
            if a.display_name:
                Profile.objects.create(user=user, display_name=a.display_name)
            accounts[a.username] = user
        for m in backup.members:
            Membership.objects.create(club=club, user=accounts[m.username], role=m.role)
        players = {
            p.id: Player.objects.create(club=club, name=p.name, user=accounts.get(p.account)) for p in backup.players
        }
        for h in backup.house_rules:
            HouseRules.objects.create(club=club, ruleset=h.ruleset, overrides=h.overrides)
        seasons = [Season.objects.create(club=club, **s.model_dump()) for s in backup.seasons]
        restored = [_import_evening(club, e, players, accounts) for e in backup.evenings]
        night_backup.import_nights(club, backup.nights, players, restored)
        nights = list(club.nights.order_by("pk"))  # in the backup's order, as import_nights made them
        for p in backup.payments_on_account:
            payer, payee = players.get(p.payer), players.get(p.payee)  # None: the kitty
            payment = _restore_payment(
                p,
                accounts,
                club=club,
                evening=None,
                payer=payer.name if payer else KITTY,
                payee=payee.name if payee else KITTY,
                players=(payer, payee),
                currency=p.currency or _latest_currency(club),
            )
            if p.night is not None:
                NightPayment.objects.create(night=nights[p.night], payment=payment)
        for entry in backup.kitty.night_fees:
            Night.objects.filter(pk=nights[entry.night].pk).update(kitty_fee=entry.fee)
        for e in backup.kitty.expenses:
            Expense.objects.create(club=club, day=e.day, note=e.note, **_record(e, accounts))
        for r in backup.kitty.prizes:
            season = seasons[r.season] if r.season is not None else None
            Prize.objects.create(
                club=club,
                season=season,
                season_name=r.season_name,
                place=r.place,
                player=players[r.player],
                **_record(r, accounts),
            )
    return club


def _latest_currency(club) -> str:
    """A payment of an older backup without its currency: the club's latest evening's with a stake."""
    latest = Evening.objects.filter(club=club, stake__isnull=False).order_by("-date", "-pk").first()
    return latest.currency if latest else "EUR"


def _record(r, accounts) -> dict[str, Any]:
    fields = {
        "amount": r.amount,
        "currency": r.currency,
        "recorded_by": accounts.get(r.recorded_by),
        "recorded_at": r.recorded_at,
    }
    if r.withdrawn is not None:
        fields |= {
            "withdrawn_at": r.withdrawn.at,
            "withdrawn_by": accounts.get(r.withdrawn.by),
            "withdrawn_reason": r.withdrawn.reason,
        }
    return fields


def _import_evening(club, item: EveningEntry, players, accounts) -> Evening:
    engine = item.engine
    evening = Evening.objects.create(
        club=club,
        ruleset=engine.rules.key,
        rules=rules_to_dict(engine.rules),
        date=engine.date,
        stake=engine.stake,
        currency=engine.currency,
        first_dealer=engine.players.index(engine.first_dealer),
        status=item.status,
        version=item.version,
        owner=accounts.get(item.owner),
        kitty_fee=item.kitty_fee,
    )
    for position, (name, player_id) in enumerate(zip(engine.players, item.seats, strict=True)):
        Seat.objects.create(evening=evening, player=players[player_id], position=position, name=name)
    for number, deal in enumerate(item.file["deals"], start=1):
        Deal.objects.create(evening=evening, number=number, data=deal)
    seats = dict(zip(engine.players, (players[i] for i in item.seats), strict=True))
    for p in item.payments:
        _restore_payment(
            p,
            accounts,
            club=club,
            evening=evening,
            payer=p.payer,
            payee=p.payee,
            players=(seats.get(p.payer), seats.get(p.payee)),
            currency=evening.currency,
        )
    services.store_new(evening)
    return evening


def _restore_payment(p, accounts, *, club, evening, payer, payee, players, currency) -> Payment:
    """A payment as it was made: its author and time, kind and note, and its cancellation."""
    payment = Payment.objects.create(
        evening=evening,
        club=club,
        payer=payer,
        payee=payee,
        payer_player=players[0],
        payee_player=players[1],
        amount=p.amount,
        currency=currency,
        kind=p.kind,
        note=p.note,
        marked_by=accounts.get(p.marked_by),
        **({"marked_at": p.marked_at} if p.marked_at else {}),
    )
    if p.cancelled is not None:
        PaymentCancellation.objects.create(
            payment=payment, by=accounts.get(p.cancelled.by), at=p.cancelled.at, reason=p.cancelled.reason
        )
    return payment
