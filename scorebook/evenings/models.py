"""Evenings at the table. Deals are the source of truth; totals are derived by the engine."""

from __future__ import annotations

import hashlib
import secrets
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from scorebook.rules import registry

if TYPE_CHECKING:
    from scorebook.clubs.models import Club


class Evening(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")

    class RulesFrom(models.TextChoices):
        STARTED = "", _("the preset with the club's house rules, when it started")
        CLUB = "club", _("the club's house rules, in place of the imported file's")
        FILE = "file", _("the imported file's own rules")

    ruleset = models.CharField(_("variant"), max_length=20, choices=registry.choices())
    rules = models.JSONField(_("rules"), help_text=_("The copy of the rules this evening is played with."))
    # where its copy of the rules came from: an evening imported from a file into a club is scored with
    # the club's house rules or keeps the file's, as the importer chose; the rules pages say which
    rules_from = models.CharField(max_length=4, choices=RulesFrom, default=RulesFrom.STARTED, blank=True)
    date = models.DateField(_("date"))
    stake = models.DecimalField(_("stake"), max_digits=9, decimal_places=4, null=True, blank=True)
    currency = models.CharField(_("currency"), max_length=8, default="EUR")
    first_dealer = models.PositiveSmallIntegerField(_("first dealer"), default=0, help_text=_("Seat number"))
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.OPEN)
    # who closed it and when (empty while open); an evening closed by an admin of its club, or one
    # that arrived closed (an imported old evening), is reopened by an admin only (Evening.reopenable)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    admin_reopens = models.BooleanField(
        default=False, help_text=_("Closed by an admin of the club, or imported closed: only an admin reopens it.")
    )
    # the read-only link is /s/<share_id>.<secret>/: the id finds the evening, the secret's digest
    # proves the link; the secret is stored nowhere (the link is shown once, when it is made)
    share_id = models.CharField(max_length=16, unique=True, null=True, blank=True)
    share_hash = models.CharField(max_length=64, blank=True, default="")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="evenings"
    )
    club = models.ForeignKey(
        "clubs.Club",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="evenings",
        help_text=_("Empty: the owner's private table book."),
    )
    summary = models.JSONField(
        default=dict, blank=True, help_text=_("Derived from the deals (totals, money, statistics); rebuildable.")
    )
    # {"version": the evening's version it was written at, "engine": Scorer.snapshot()}: the state after
    # the last deal, from which the next deal is scored (services); rebuildable from the deals
    state = models.JSONField(null=True, blank=True, editable=False)
    version = models.PositiveIntegerField(default=0, help_text=_("Goes up with every change of a deal."))
    # the contract games' quick buttons, in their order, fixed when the evening starts (from the
    # table's past evenings): a thumb that learned their places finds them all evening
    quick_contracts = models.JSONField(default=list, blank=True, editable=False)
    archived = models.BooleanField(
        _("archived"), default=False, help_text=_("Left out of the lists of evenings; still counted and reachable.")
    )
    # what each player who took part owes the club's kitty for the evening, copied from the club's
    # house rule when it starts (later changes never rewrite it); empty: no fee (a night's table: the
    # night's fee, once for the night)
    kitty_fee = models.DecimalField(_("kitty fee"), max_digits=8, decimal_places=2, null=True, blank=True)
    # an evening run from above it (a club night's table, set by the nights services): its link or
    # its club's scorers record and correct its deals while it is open and below ``deal_limit``;
    # closing, reopening, deleting, archiving and sharing it happen only through what runs it
    managed = models.BooleanField(
        default=False, help_text=_("Run from above (a club night's table): closed, reopened, deleted only from there.")
    )
    deal_limit = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("Empty, or the most deals it records (a club night's deals per session).")
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-date", "-created_at"]
        # a season's evenings, and their fingerprint (count, ids, latest change) read from the index alone
        indexes = [
            models.Index(fields=["club", "ruleset", "date", "updated_at"], name="evening_season"),
            models.Index(fields=["club", "-date", "-id"], name="evening_club_latest"),
            # the evenings with a fee for the club's kitty (the ledger adds up their fees)
            models.Index(fields=["club"], condition=models.Q(kitty_fee__isnull=False), name="evening_kitty_fee"),
        ]

    def __str__(self) -> str:
        return f"{self.variant_name} {self.date}"

    def get_absolute_url(self) -> str:
        return reverse("evening", args=[self.pk])

    @property
    def variant_name(self) -> str:
        """The variant's name in the active language."""
        code = (translation.get_language() or "fr")[:2]
        return registry.get(self.ruleset).names.get(code)

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    def reopenable(self, *, admin: bool) -> bool:
        """Whether someone who may score it may reopen it: an admin (of its club; a private
        evening's owner counts as one) always; a scorer unless an admin closed it or it arrived closed."""
        return not self.is_open and not self.managed and (admin or not self.admin_reopens)


def usual_variant(club: Club) -> str | None:
    """The variant a club plays most: the one played on the most days (the tables of one night,
    a club night's included, count once), the most recently played on a tie; None before any."""
    played = (
        Evening.objects.filter(club=club)
        .values("ruleset")
        .annotate(days=models.Count("date", distinct=True), last=models.Max("date"))
        .order_by("-days", "-last", "ruleset")
        .first()
    )
    return played["ruleset"] if played else None


class Seat(models.Model):
    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(_("name at the table"), max_length=40, help_text=_("The name the deals use."))
    took_part = models.BooleanField(
        default=True,
        help_text="Derived from the deals with the summary: False when the player took no part (docs/rules/money.md).",
    )
    # The seat's figures, copied from the evening's summary by the transaction that writes it
    # (summary.seat_figures): what the player page adds up in the database.
    points = models.IntegerField(default=0)
    place = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Among those who took part; empty when the evening is not one of his."
    )
    played = models.PositiveIntegerField(default=0, help_text="Deals played.")
    sat_out = models.PositiveIntegerField(default=0, help_text="Deals sat out.")
    best_deal = models.IntegerField(null=True, blank=True)
    worst_deal = models.IntegerField(null=True, blank=True)
    money = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True, help_text="Empty: no stake.")
    declared = models.JSONField(default=dict, blank=True, help_text="Contract: [declared, made] (the summary's).")
    # What is still open for him after the evening's payments (docs/rules/money.md), kept with the payments too.
    unpaid = models.DecimalField(
        max_digits=14, decimal_places=2, default=0, help_text="Open transfers netted; > 0: others owe him."
    )
    open_transfers = models.PositiveSmallIntegerField(default=0, help_text="Open transfers he pays or receives.")

    class Meta:
        ordering = ["position"]
        indexes = [
            models.Index(fields=["player", "open_transfers"], name="seat_open"),
            # the seats with something still open: all the ledger reads of the evenings (the settled are not)
            models.Index(fields=["evening"], condition=models.Q(open_transfers__gt=0), name="seat_still_open"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["evening", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["evening", "player"], name="seat_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.position}: {self.name}"


class Deal(models.Model):
    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveIntegerField()
    data = models.JSONField(help_text="The deal as the evening file writes it.")
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)
    version = models.PositiveIntegerField(default=1)
    request_key = models.CharField(
        max_length=64, blank=True, default="", help_text="The record form's idempotency key."
    )
    # Derived from the deals up to this one by the write that stored it (services): the deal's scored
    # result (DealResult.as_dict: deltas, dealer, who played, outcome, robre...) for the pages' rows,
    # and the engine's state after it (Scorer.snapshot: running totals...) for re-scoring the deals
    # after it. Empty: not stored yet (the evening is rebuilt from its deals at its next write).
    result = models.JSONField(null=True, blank=True, editable=False)
    state = models.JSONField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["evening", "number"], name="deal_number_unique"),
            models.UniqueConstraint(
                fields=["evening", "request_key"], condition=~models.Q(request_key=""), name="deal_request_key_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"deal {self.number}"


class DealRevision(models.Model):
    class Action(models.TextChoices):
        CORRECTED = "corrected", _("corrected")
        DELETED = "deleted", _("deleted")
        RESTORED = "restored", _("restored")

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()
    action = models.CharField(max_length=10, choices=Action)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    request_key = models.CharField(
        max_length=64, blank=True, default="", help_text="A deleted deal's request key, given back by an undo."
    )
    deal_id = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="A deleted deal's id, given back by an undo (the same deal again)."
    )
    undone = models.BooleanField(default=False, help_text="A deletion undone: the deal was put back.")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(auto_now_add=True)
    evening_version = models.PositiveIntegerField(default=0, help_text="The evening's version right after this change.")

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"deal {self.number} {self.action}"


class PaymentQuerySet(models.QuerySet["Payment"]):
    def active(self) -> PaymentQuerySet:
        """The payments that count: every one not cancelled (a cancellation is a record of its own)."""
        return self.filter(cancellation__isnull=True)


class Payment(models.Model):
    """Money paid: who paid whom how much, when, entered by whom, for which evening (docs/rules/money.md) or
    "on account" (the club's, no evening), or into or out of the club's kitty (``KITTY``: a party
    without a player). A payment is a record that is never deleted: cancelling it is a record of its
    own (``PaymentCancellation``) and every balance nets the payments not cancelled; the evening, the
    club and the players it names cannot be deleted while it exists (``PROTECT``).
    The evening's settlement, computed anew after a correction, is netted against them
    (``settlement.outstanding``); a payment its evening's settlement no longer asks for still counts.
    The same amount can be paid twice."""

    KITTY = "(kitty)"  # the club's kitty as a party (payer or payee, with no player): the ledger's

    class Kind(models.TextChoices):
        FULL = "full", _("the full transfer")
        PART = "part", _("part of a transfer")
        FREE = "free", _("a free amount")
        ACCOUNT = "account", _("on account")

    evening = models.ForeignKey(
        Evening,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="payments",
        help_text=_("Empty: a payment on account, between players of the club."),
    )
    club = models.ForeignKey(
        "clubs.Club",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="payments",
        help_text=_("The club of the evening, or of a payment on account; empty for a private evening."),
    )
    payer = models.CharField(max_length=40, help_text=_("The name at the table (or the player's name on account)."))
    payee = models.CharField(max_length=40)
    # the players (a club's payment; empty for the bête and private evenings): balances across evenings
    payer_player = models.ForeignKey(
        "clubs.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="payments_made"
    )
    payee_player = models.ForeignKey(
        "clubs.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="payments_received"
    )
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    currency = models.CharField(
        max_length=8, default="EUR", help_text="The evening's (or the club's when it was made)."
    )
    kind = models.CharField(max_length=10, choices=Kind, default=Kind.FULL)
    note = models.CharField(_("note"), max_length=200, blank=True, default="")
    request_key = models.CharField(
        max_length=64, blank=True, default="", help_text="The payment form's idempotency key."
    )
    marked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    marked_at = models.DateTimeField(default=timezone.now)

    objects = PaymentQuerySet.as_manager()

    class Meta:
        ordering = ["marked_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["request_key"], condition=~models.Q(request_key=""), name="payment_request_key_unique"
            ),
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="payment_amount_positive"),
        ]
        indexes = [
            models.Index(fields=["club", "marked_at"], name="payment_club_marked"),
            # the payments for no evening (on account, a night's, the kitty's): the balances read them
            models.Index(fields=["club"], condition=models.Q(evening__isnull=True), name="payment_off_evening"),
        ]

    def __str__(self) -> str:
        return f"{self.payer} paid {self.payee} {self.amount}"

    @property
    def cancelled(self) -> bool:
        try:
            return self.cancellation is not None
        except PaymentCancellation.DoesNotExist:
            return False


class PaymentCancellation(models.Model):
    """A payment cancelled: by whom, when and why. The payment stays, shown as cancelled, and no
    longer counts in any balance."""

    payment = models.OneToOneField(Payment, on_delete=models.PROTECT, related_name="cancellation")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(default=timezone.now)
    reason = models.CharField(_("reason"), max_length=200, blank=True, default="")

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"payment {self.payment_id} cancelled"


def new_link_token() -> str:
    return secrets.token_urlsafe(24)  # 192 random bits; only its hash is stored


def link_token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class ScoringLinkQuerySet(models.QuerySet["ScoringLink"]):
    def active(self) -> ScoringLinkQuerySet:
        return self.filter(revoked_at__isnull=True)


class ScoringLink(models.Model):
    """A link that lets whoever holds it record and correct the deals of one evening, without an
    account, while the evening is open. Only the token's hash is kept: the link is shown once, when
    it is made; revoking it (or making a new one) stops it for good."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="scoring_links")
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    # revoked because its table was seated again (a club night's redraw): its printed card says so
    replaced = models.BooleanField(default=False)

    objects = ScoringLinkQuerySet.as_manager()

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"scoring link {self.pk} of evening {self.evening_id}"


class LinkAttempt(models.Model):
    """An unknown or revoked scoring link tried from an address (the limit on guessing)."""

    address = models.CharField(max_length=45)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        indexes = [models.Index(fields=["address", "at"], name="link_attempt_address")]

    def __str__(self) -> str:
        return f"{self.address} at {self.at}"
