from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _


class Player(models.Model):
    """A person at the table: in a club's roster, or in a user's private table book (no club)."""

    name = models.CharField(_("name"), max_length=40)
    club = models.ForeignKey("clubs.Club", null=True, blank=True, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
        help_text=_("The account of this player, if any."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                Lower("name"), "club", condition=models.Q(club__isnull=False), name="player_name_unique_in_club"
            ),
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(club__isnull=False, user__isnull=False),
                name="player_account_unique_in_club",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class PlayerClaim(models.Model):
    """A member says a roster entry is him: it waits for an admin of the club to approve or refuse it."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_claims")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["player", "user"], name="player_claim_unique")]

    def __str__(self) -> str:
        return f"{self.user} claims {self.player}"
