"""The club's kitty (docs/rules/money.md): what it spent and the prizes it owes. Its fees are not stored: each
evening and night keeps the fee it started with (``Evening.kitty_fee``, ``Night.kitty_fee``) and the
ledger adds them up for the players who took part. Payments into and out of the kitty are payments
(``Payment.KITTY``). A record here is never deleted: it is withdrawn, with who, when and why, and then
counts no more."""

from __future__ import annotations

from typing import TypeVar

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorebook.core.formatting import money_text

_Record = TypeVar("_Record", bound="KittyRecord")


class KittyRecordQuerySet(models.QuerySet[_Record]):
    def active(self) -> KittyRecordQuerySet[_Record]:
        """The records that count: every one not withdrawn."""
        return self.filter(withdrawn_at__isnull=True)


class KittyRecord(models.Model):
    """What an expense and a prize share: the club, the amount in a currency, who recorded it when,
    and its withdrawal (who, when, why)."""

    club = models.ForeignKey("clubs.Club", on_delete=models.PROTECT, related_name="+")
    amount = models.DecimalField(_("amount"), max_digits=12, decimal_places=2)
    currency = models.CharField(_("currency"), max_length=8, default="EUR")
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    withdrawn_reason = models.CharField(_("reason"), max_length=200, blank=True, default="")

    objects = KittyRecordQuerySet.as_manager()

    class Meta:
        abstract = True
        ordering = ["recorded_at", "pk"]

    kind = ""  # the record's kind as its address names it

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_at is not None

    @property
    def amount_text(self) -> str:
        return money_text(self.amount, self.currency)


class Expense(KittyRecord):
    """Money the kitty spent outside the club (cards, a room, a trophy): it leaves the kitty's cash."""

    kind = "expense"
    day = models.DateField(_("date"))
    note = models.CharField(_("what for"), max_length=200)
    request_key = models.CharField(
        max_length=64, blank=True, default="", help_text="The expense form's idempotency key."
    )

    class Meta(KittyRecord.Meta):
        constraints = [
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="expense_amount_positive"),
            models.UniqueConstraint(
                fields=["request_key"], condition=~models.Q(request_key=""), name="expense_request_key_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"expense {self.amount} {self.currency}: {self.note}"


class Prize(KittyRecord):
    """A prize the kitty owes a player for his final place in a season: the player's balance goes up by
    it and the kitty's down, until it is paid (a payment out of the kitty) or netted in the settle-up.
    The season's name is kept with it (a season deleted later leaves its prizes)."""

    kind = "prize"
    season = models.ForeignKey("clubs.Season", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    season_name = models.CharField(max_length=80)
    place = models.PositiveSmallIntegerField(_("place"))
    player = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="prizes")

    class Meta(KittyRecord.Meta):
        constraints = [models.CheckConstraint(condition=models.Q(amount__gt=0), name="prize_amount_positive")]

    def __str__(self) -> str:
        return f"prize {self.place} of {self.season_name}: {self.amount} {self.currency}"
