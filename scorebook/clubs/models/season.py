from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import models
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from scorebook.rules import registry


class Ranking(models.TextChoices):
    TOTAL = "total", _("total points")
    AVERAGE = "average", _("average per evening")
    LEAGUE = "league", _("league points by evening rank")


class TieBreak(models.TextChoices):
    EVENINGS_WON = "evenings-won", _("most evenings won")
    TOTAL_POINTS = "total-points", _("most points in all")
    FEWER_EVENINGS = "fewer-evenings", _("fewer evenings played")


class Season(models.Model):
    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=80)
    start = models.DateField(_("first day"))
    end = models.DateField(_("last day"))
    ruleset = models.CharField(_("variant"), max_length=20, choices=registry.choices())
    ranking = models.CharField(_("ranking"), max_length=10, choices=Ranking, default=Ranking.TOTAL)
    min_evenings = models.PositiveSmallIntegerField(_("minimum evenings (average)"), default=0)
    league_points = models.JSONField(
        _("league points per place"), default=list, blank=True, help_text=_("Points for 1st, 2nd, 3rd… place.")
    )
    drop_worst = models.PositiveSmallIntegerField(_("worst evenings dropped"), default=0)
    tie_break = models.CharField(_("tie break"), max_length=16, choices=TieBreak, default=TieBreak.EVENINGS_WON)
    # the prizes the club's kitty pays for the final places, 1st first (amounts as text, "20.00"),
    # in the currency of the season's evenings; awarded by an admin once the season is over
    prizes = models.JSONField(_("prizes"), default=list, blank=True, help_text=_("Amounts for 1st, 2nd, 3rd… place."))
    archived = models.BooleanField(
        _("archived"), default=False, help_text=_("Kept, and left out of the club's lists of seasons.")
    )

    class Meta:
        ordering = ["-start"]

    def __str__(self) -> str:
        return self.name

    # get_absolute_url: a season's page is the league's (a later layer); settings.ABSOLUTE_URL_OVERRIDES names it.
    if TYPE_CHECKING:  # (Django adds it from the settings; declared for the type checker)

        def get_absolute_url(self) -> str: ...

    def same_name(self) -> QuerySet[Season]:
        """The club's other seasons of this name (in any case): a club names each of its seasons apart."""
        return Season.objects.filter(club_id=self.club_id, name__iexact=self.name).exclude(pk=self.pk)

    def overlapping(self) -> QuerySet[Season]:
        """The club's other seasons of the same variant whose dates meet this one's."""
        return (
            Season.objects.filter(club_id=self.club_id, ruleset=self.ruleset, start__lte=self.end, end__gte=self.start)
            .exclude(pk=self.pk)
            .order_by("start", "pk")
        )
