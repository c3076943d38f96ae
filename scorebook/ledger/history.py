"""The club's history of money (docs/rules/money.md): its payments (cancelled ones too) and the kitty's
expenses and prizes (withdrawn ones too), the latest recorded first, paged."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.utils.formats import date_format
from django.utils.translation import gettext as _

from scorebook.accounts.models import display_name
from scorebook.clubs.models import Club
from scorebook.core.formatting import money_text
from scorebook.evenings.display import TransferWords
from scorebook.evenings.models import Payment

from .models import Expense, Prize
from .parties import KITTY, kitty_label


@dataclass
class HistoryLine(TransferWords):
    """A payment, an expense or a prize as the history lists it: what, for what, who recorded it
    when, and its cancellation (who, when, why) when it was cancelled or withdrawn."""

    what: str  # "payment", "expense", "prize"
    pk: int
    where: str  # the evening's date, the night, "on account", the kitty, the season
    evening: int | None
    currency: str
    payer: str
    payee: str
    amount: Decimal
    marked_by: str
    marked_at: object
    kind: str = ""
    note: str = ""
    marked_by_id: int | None = None
    cancelled_at: object = None
    cancelled_by: str = ""
    reason: str = ""
    payer_name: str = ""
    payee_name: str = ""
    may_cancel: bool = False

    @property
    def amount_text(self) -> str:
        return money_text(self.amount, self.currency)

    @property
    def cancelled(self) -> bool:
        return self.cancelled_at is not None


def _payment_line(p: Payment) -> HistoryLine:
    cancellation = p.cancellation if p.cancelled else None
    link = getattr(p, "night_link", None) if p.evening_id is None else None
    if p.evening is not None:
        where = _("evening of %(day)s") % {"day": date_format(p.evening.date, "DATE_FORMAT")}
    elif link is not None:
        where = _("night %(name)s of %(day)s") % {
            "name": link.night.name,
            "day": date_format(link.night.date, "DATE_FORMAT"),
        }
    elif KITTY in (p.payer, p.payee) and (p.payer_player_id is None or p.payee_player_id is None):
        where = kitty_label()
    else:
        where = _("on account")
    return HistoryLine(
        "payment",
        p.pk,
        where,
        p.evening_id,
        p.currency,
        p.payer if p.payer != KITTY else kitty_label(),
        p.payee if p.payee != KITTY else kitty_label(),
        p.amount,
        display_name(p.marked_by),
        p.marked_at,
        p.kind,
        p.note,
        p.marked_by_id,
        cancellation.at if cancellation else None,
        display_name(cancellation.by) if cancellation else "",
        cancellation.reason if cancellation else "",
        p.payer_player.name if p.payer_player else "",
        p.payee_player.name if p.payee_player else "",
    )


def _kitty_line(record: Expense | Prize) -> HistoryLine:
    prize = isinstance(record, Prize)
    return HistoryLine(
        "prize" if prize else "expense",
        record.pk,
        record.season_name if isinstance(record, Prize) else date_format(record.day, "DATE_FORMAT"),
        None,
        record.currency,
        kitty_label(),
        record.player.name if isinstance(record, Prize) else record.note,
        record.amount,
        display_name(record.recorded_by),
        record.recorded_at,
        "prize" if prize else "expense",
        _("place %(place)s") % {"place": record.place} if isinstance(record, Prize) else "",
        record.recorded_by_id,
        record.withdrawn_at,
        display_name(record.withdrawn_by) if record.withdrawn_at else "",
        record.withdrawn_reason,
    )


def history(club: Club, *, limit: int | None, offset: int = 0) -> list[HistoryLine]:
    """The club's payments (cancelled ones too) and the kitty's expenses and prizes, the latest
    recorded first: ``limit`` of them from ``offset`` (None: every one, for the CSV). Three queries."""
    end = None if limit is None else offset + limit
    payments = (
        Payment.objects.filter(club=club)
        .select_related(
            "evening",
            "marked_by__profile",
            "cancellation__by__profile",
            "night_link__night",
            "payer_player",
            "payee_player",
        )
        .order_by("-marked_at", "-pk")[:end]
    )
    expenses = Expense.objects.filter(club=club).select_related("recorded_by__profile", "withdrawn_by__profile")
    prizes = Prize.objects.filter(club=club).select_related("recorded_by__profile", "withdrawn_by__profile", "player")
    lines = [_payment_line(p) for p in payments]
    lines += [_kitty_line(r) for r in expenses.order_by("-recorded_at", "-pk")[:end]]
    lines += [_kitty_line(r) for r in prizes.order_by("-recorded_at", "-pk")[:end]]
    lines.sort(key=lambda h: (h.marked_at, h.pk), reverse=True)
    return lines[offset:end]
