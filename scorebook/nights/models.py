"""Club nights: many tables, sessions, a seating plan, one ranking.

Each table of each session IS an evening of the club (``NightTable.evening``): the scoring
page, the engine, the summary and the settlement all apply to it. The night keeps who
takes part (numbered 1..N), the plan, the sessions and the rule of its ranking; the
ranking is read from the evenings' stored summaries, never from their deals.
"""

from __future__ import annotations

import secrets
from decimal import Decimal

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from scorebook.rules import registry


def new_ranking_token() -> str:
    """The ranking link's token as the first migration made it, kept in clear (migration 0007 keeps its digest)."""
    return secrets.token_urlsafe(16)


class Night(models.Model):
    class Ranking(models.TextChoices):
        TOTAL = "total", _("total points over the night")
        PLACES = "places", _("place points per table and session")

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="nights")
    name = models.CharField(_("name"), max_length=80)
    date = models.DateField(_("date"))
    ruleset = models.CharField(_("variant"), max_length=20, choices=registry.choices())
    rules = models.JSONField(_("rules"), help_text=_("The copy of the rules every table plays with."))
    sessions = models.PositiveSmallIntegerField(_("sessions"))
    deals_per_session = models.PositiveSmallIntegerField(
        _("deals per session"), null=True, blank=True, help_text=_("Empty: until the director closes the session.")
    )
    ranking = models.CharField(_("ranking"), max_length=10, choices=Ranking, default=Ranking.TOTAL)
    place_points = models.JSONField(_("place points"), default=list, blank=True)
    stake = models.DecimalField(_("stake"), max_digits=9, decimal_places=4, null=True, blank=True)
    currency = models.CharField(_("currency"), max_length=8, default="EUR")
    # what each player who took part (at any of its tables) owes the club's kitty for the night, once,
    # copied from the club's house rule when the night is made; empty: no fee
    kitty_fee = models.DecimalField(_("kitty fee"), max_digits=8, decimal_places=2, null=True, blank=True)
    seed = models.PositiveIntegerField(default=0)
    plan = models.JSONField(default=dict, help_text="{'sessions': [{'tables': [[numbers], ...]}, ...]}")
    # the live ranking's read-only link is /r/<token>/: only the token's digest is kept (the link is
    # shown once, when the director makes it; a new one replaces it). Empty: no link (the club's
    # members read the ranking from the club's pages, without one).
    ranking_hash = models.CharField(max_length=64, unique=True, null=True, blank=True, editable=False)
    ranking_link_at = models.DateTimeField(null=True, blank=True, editable=False)
    version = models.PositiveIntegerField(default=0, help_text="Goes up with every change of the night itself.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-pk"]

    def __str__(self) -> str:
        return f"{self.name} {self.date}"

    def get_absolute_url(self) -> str:
        return reverse("night", args=[self.pk])

    @property
    def variant_name(self) -> str:
        code = (translation.get_language() or "fr")[:2]
        return registry.get(self.ruleset).names.get(code)

    def place_value(self, place: int) -> Decimal:
        """The points of ``place`` (1-based) at a table; places beyond the list score 0."""
        points = self.place_points or []
        return Decimal(str(points[place - 1])) if place <= len(points) else Decimal(0)


class Participant(models.Model):
    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="participants")
    number = models.PositiveSmallIntegerField(_("number"))
    player = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="night_entries")
    name = models.CharField(_("name"), max_length=40)
    first_session = models.PositiveSmallIntegerField(default=1, help_text="1, or the session a late arrival joined.")
    last_session = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Empty, or the session during which he left."
    )
    replaces = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="substitutes")

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["night", "number"], name="participant_number_unique"),
            models.UniqueConstraint(fields=["night", "player"], name="participant_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.name}"


class NightSession(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="night_sessions")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status, default=Status.OPEN)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["night", "number"], name="night_session_unique")]

    def __str__(self) -> str:
        return f"session {self.number}"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN


class NightTable(models.Model):
    session = models.ForeignKey(NightSession, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    evening = models.OneToOneField("evenings.Evening", on_delete=models.CASCADE, related_name="night_table")
    # seated again (a substitute, a late arrival) or new since its card was printed: to reprint
    reprint = models.BooleanField(default=False)

    class Meta:
        ordering = ["session__number", "number"]
        constraints = [models.UniqueConstraint(fields=["session", "number"], name="night_table_unique")]

    def __str__(self) -> str:
        return f"table {self.number}"


class NightEvent(models.Model):
    """What the director did to the night: a session closed or reopened (with the reason), a
    substitute, a late arrival."""

    class Kind(models.TextChoices):
        CLOSED = "closed", _("session closed")
        REOPENED = "reopened", _("session reopened")
        SUBSTITUTE = "substitute", _("substitute")
        LATE = "late", _("late arrival")
        EDITED = "edited", _("night edited")

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=12, choices=Kind)
    session = models.PositiveSmallIntegerField()
    detail = models.CharField(max_length=300, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.kind} (session {self.session})"


class NightPayment(models.Model):
    """A payment made for a night as a whole (docs/rules/club-nights.md: a night settles once): a payment between
    two players of the club (no one evening) that the night's settlement nets. Neither the night nor
    the payment can be deleted while it exists (``PROTECT``)."""

    night = models.ForeignKey(Night, on_delete=models.PROTECT, related_name="payments")
    payment = models.OneToOneField("evenings.Payment", on_delete=models.PROTECT, related_name="night_link")

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"payment {self.payment_id} for night {self.night_id}"
