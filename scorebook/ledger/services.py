"""Every write of the club's money that is not one evening's (``evenings.payments`` records an evening's
payments and cancels any payment): payments on account, for a night, into and out of the kitty; the
kitty's fees, expenses and prizes. Each is decided under the club's lock, in one transaction; a form's
request key already spent records nothing (a repeated form gives the first payment back)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date as date_cls
from decimal import Decimal

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import timezone

from scorebook.clubs.models import Club, Player, Season
from scorebook.clubs.services import SeasonGone, lock_club
from scorebook.core.money import FEE_LIMIT
from scorebook.evenings.models import Payment
from scorebook.evenings.payments import NotDue, OutOfBounds, ReasonNeeded, check_amount, spent
from scorebook.evenings.services import author
from scorebook.nights.models import Night, NightPayment

from .models import Expense, KittyRecord, Prize

KITTY = Payment.KITTY

# who records it: an account, else (a table's phone, through a link) nobody
Author = User | AnonymousUser | None


__all__ = ["FEE_LIMIT", "KITTY", "NotDue", "OutOfBounds", "ReasonNeeded"]


def _lock(club: Club) -> None:
    lock_club(club.pk)


def _players(club: Club, *ids: int) -> dict[int, Player]:
    return {p.pk: p for p in Player.objects.filter(club=club, pk__in=ids)}


def record_on_account(
    club: Club,
    payer: Player,
    payee: Player,
    amount: Decimal,
    currency: str,
    user: Author,
    *,
    note: str = "",
    request_key: str = "",
) -> tuple[Payment, bool]:
    """A payment between two players of ``club`` for no evening (it counts in both balances and in the
    settle-up). ``NotDue`` unless two different players of the club; ``OutOfBounds`` beyond
    ``AMOUNT_LIMIT``. ``(payment, created)``."""
    check_amount(amount)
    with transaction.atomic():
        _lock(club)
        found = spent(request_key)
        if found is not None:
            return found, False
        players = _players(club, payer.pk, payee.pk)
        if payer.pk == payee.pk or len(players) != 2:
            raise NotDue()
        payment = Payment.objects.create(
            club=club,
            payer=players[payer.pk].name[:40],
            payee=players[payee.pk].name[:40],
            payer_player=payer,
            payee_player=payee,
            amount=amount,
            currency=currency,
            kind=Payment.Kind.ACCOUNT,
            note=note,
            request_key=request_key,
            marked_by=author(user),
        )
    return payment, True


def record_for_night(
    night: Night, payer: Player, payee: Player, amount: Decimal, user: Author, *, request_key: str = ""
) -> tuple[Payment, bool]:
    """One of the night's transfers paid (docs/rules/club-nights.md: a night settles once, across its tables): a
    payment between the two players for the night, which its settlement nets. It must be one of the
    night's transfers as they are now (``NotDue``: the page was out of date). ``(payment, created)``."""
    from .books import night_ledgers  # the night's transfers, read under the lock

    with transaction.atomic():
        _lock(night.club)
        found = spent(request_key)
        if found is not None:
            return found, False
        lines = night_ledgers([night])
        due = lines[0].transfers if lines else []
        if not any((t.payer_key, t.payee_key, t.amount) == (payer.pk, payee.pk, amount) for t in due):
            raise NotDue()
        payment = Payment.objects.create(
            club=night.club,
            payer=payer.name[:40],
            payee=payee.name[:40],
            payer_player=payer,
            payee_player=payee,
            amount=amount,
            currency=night.currency,
            kind=Payment.Kind.ACCOUNT,
            request_key=request_key,
            marked_by=author(user),
        )
        NightPayment.objects.create(night=night, payment=payment)
    return payment, True


def record_kitty_payment(
    club: Club,
    player: Player,
    amount: Decimal,
    currency: str,
    user: Author,
    *,
    into: bool,
    note: str = "",
    request_key: str = "",
) -> tuple[Payment, bool]:
    """Money paid into the club's kitty by ``player`` (``into``: his fees, say), or out of it to him (a
    prize handed over, change given back). ``NotDue`` unless a player of the club. ``(payment, created)``."""
    check_amount(amount)
    with transaction.atomic():
        _lock(club)
        found = spent(request_key)
        if found is not None:
            return found, False
        if player.pk not in _players(club, player.pk):
            raise NotDue()
        name = player.name[:40]
        payment = Payment.objects.create(
            club=club,
            payer=name if into else KITTY,
            payee=KITTY if into else name,
            payer_player=player if into else None,
            payee_player=None if into else player,
            amount=amount,
            currency=currency,
            kind=Payment.Kind.ACCOUNT,
            note=note,
            request_key=request_key,
            marked_by=author(user),
        )
    return payment, True


def set_fees(club: Club, evening_fee: Decimal | None, night_fee: Decimal | None) -> None:
    """The club's house rule for its kitty: the fee of each player who takes part in an evening, and in
    a night (``None``: none). It applies from the next evening and night on (each keeps its own)."""
    for fee in (evening_fee, night_fee):
        if fee is not None and not 0 < fee <= FEE_LIMIT:
            raise OutOfBounds()
    with transaction.atomic():
        _lock(club)
        Club.objects.filter(pk=club.pk).update(kitty_evening_fee=evening_fee, kitty_night_fee=night_fee)
    club.kitty_evening_fee, club.kitty_night_fee = evening_fee, night_fee


def record_expense(
    club: Club, amount: Decimal, currency: str, day: date_cls, note: str, user: Author, *, request_key: str = ""
) -> tuple[Expense, bool]:
    """What the kitty spent outside the club: it leaves the kitty's cash. A ``request_key`` already spent
    records nothing (a repeated form) and gives that expense back. ``(expense, created)``."""
    check_amount(amount)
    with transaction.atomic():
        _lock(club)
        found = Expense.objects.filter(request_key=request_key).first() if request_key else None
        if found is not None:
            return found, False
        expense = Expense.objects.create(
            club=club,
            amount=amount,
            currency=currency,
            day=day,
            note=note,
            request_key=request_key,
            recorded_by=author(user),
        )
    return expense, True


@dataclass(frozen=True)
class Award:
    place: int
    player: Player
    amount: Decimal


class AlreadyAwarded(Exception):
    """The season's prizes were awarded already (and not withdrawn since)."""


def award_prizes(season: Season, awards: list[Award], currency: str, user: Author) -> list[Prize]:
    """The season's prizes, owed by the kitty to each player for his final place (from the standings
    the page showed). ``AlreadyAwarded`` when prizes of the season count already (another tap)."""
    for award in awards:
        check_amount(award.amount)
    with transaction.atomic():
        _lock(season.club)
        if not Season.objects.filter(pk=season.pk).exists():
            raise SeasonGone()
        if Prize.objects.active().filter(season=season).exists():
            raise AlreadyAwarded()
        return [
            Prize.objects.create(
                club=season.club,
                season=season,
                season_name=season.name,
                place=award.place,
                player=award.player,
                amount=award.amount,
                currency=currency,
                recorded_by=author(user),
            )
            for award in awards
        ]


class AlreadyWithdrawn(Exception):
    """The record was withdrawn already."""


def withdraw(record: KittyRecord, user: Author, reason: str) -> None:
    """Withdraw an expense or a prize recorded by mistake: it stays, marked with who, when and why,
    and counts no more. A reason is needed."""
    reason = (reason or "").strip()
    if not reason:
        raise ReasonNeeded()
    model = type(record)
    with transaction.atomic():
        _lock(record.club)
        fresh = model.objects.get(pk=record.pk)
        if fresh.withdrawn:
            raise AlreadyWithdrawn()
        model.objects.filter(pk=record.pk).update(
            withdrawn_at=timezone.now(), withdrawn_by=author(user), withdrawn_reason=reason
        )
