from __future__ import annotations

import hashlib
import secrets
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Role(models.TextChoices):
    ADMIN = "admin", _("admin")
    SCORER = "scorer", _("scorer")
    MEMBER = "member", _("member")


SCORING_ROLES = (Role.ADMIN, Role.SCORER)


class Club(models.Model):
    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("short name"), max_length=40, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # the club's kitty (docs/rules/money.md): what each player who takes part owes the club for an evening, and
    # for a club night (once for the night); empty: no fee. Copied onto each evening and night when it
    # starts, so that a change applies from the next one on.
    kitty_evening_fee = models.DecimalField(
        _("kitty fee per evening"), max_digits=8, decimal_places=2, null=True, blank=True
    )
    kitty_night_fee = models.DecimalField(
        _("kitty fee per night"), max_digits=8, decimal_places=2, null=True, blank=True
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    # get_absolute_url: the club's page is the league's (a later layer); settings.ABSOLUTE_URL_OVERRIDES names it.
    if TYPE_CHECKING:  # (Django adds it from the settings; declared for the type checker)

        def get_absolute_url(self) -> str: ...

    def overrides_for(self, ruleset: str) -> dict:
        """The club's house rules for preset ``ruleset``: its changes to the preset ({}: it plays the preset)."""
        house = self.house_rules.filter(ruleset=ruleset).first()
        return house.overrides if house else {}


class FormerSlug(models.Model):
    """A short name the club had before it was renamed: its old addresses redirect to the new ones."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="former_slugs")
    slug = models.SlugField(max_length=40, unique=True)
    changed_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.slug} → {self.club.slug}"


class Membership(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=10, choices=Role, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)
    invitation = models.ForeignKey(
        "Invitation",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="memberships",
        help_text="The link this member joined (or took his role) with: revoked when he is removed or demoted.",
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="membership_unique")]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role})"


def new_invitation_token() -> str:
    return secrets.token_urlsafe(24)  # 192 random bits


def token_digest(token: str) -> str:
    """What is stored of a secret link: its SHA-256 (the token has 192 random bits: no salt needed)."""
    return hashlib.sha256(token.encode()).hexdigest()


class Invitation(models.Model):
    """A link that lets whoever has it join the club with a role: a limited number of times,
    until it expires or is revoked. Only its digest is stored: the link is shown once, when made."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    token_hash = models.CharField(max_length=64, unique=True)
    role = models.CharField(_("role"), max_length=10, choices=Role, default=Role.MEMBER)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    max_uses = models.PositiveSmallIntegerField(default=1)
    uses = models.PositiveSmallIntegerField(default=0)
    revoked_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"invitation to {self.club_id} as {self.role}"

    @property
    def active(self) -> bool:
        return self.revoked_at is None and self.uses < self.max_uses and timezone.now() < self.expires_at

    @classmethod
    def usable(cls) -> QuerySet[Invitation]:
        """The invitations that still let someone join (the creator's role is checked on joining)."""
        return cls.objects.filter(revoked_at__isnull=True, uses__lt=models.F("max_uses"), expires_at__gt=timezone.now())
