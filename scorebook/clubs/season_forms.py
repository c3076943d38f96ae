"""The forms of the seasons' pages: a season's settings, and the filters of the past evenings."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import date
from decimal import Decimal
from itertools import pairwise
from typing import Any

from django import forms
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scorebook.core import cleaning
from scorebook.core.formatting import lang
from scorebook.core.forms import ChoiceRows, choice_field
from scorebook.core.money import AMOUNT_LIMIT
from scorebook.rules import registry

from .models import Ranking, Season, TieBreak

MAX_PLACES = 20
MAX_LEAGUE_POINTS = 1000


class SeasonForm(forms.ModelForm):
    league_points = forms.CharField(
        label=gettext_lazy("League points per place"),
        required=False,
        max_length=200,
        help_text=gettext_lazy("Comma-separated, from the 1st place down, e.g. 10, 6, 4, 2. Places beyond get 0."),
    )

    prizes = forms.CharField(
        label=gettext_lazy("Prizes from the club's kitty"),
        required=False,
        max_length=200,
        help_text=gettext_lazy(
            "Comma-separated amounts, from the 1st place down, e.g. 20, 10. An admin awards them once the "
            "season is over, from its final standings."
        ),
    )

    confirm_overlap = forms.BooleanField(
        label=gettext_lazy("Keep the dates anyway: an evening of those days counts in both seasons"),
        required=False,
    )

    class Meta:
        model = Season
        fields = [
            "name",
            "start",
            "end",
            "ruleset",
            "ranking",
            "min_evenings",
            "league_points",
            "drop_worst",
            "tie_break",
            "prizes",
        ]
        field_classes = {
            "start": cleaning.DateField,
            "end": cleaning.DateField,
            "min_evenings": cleaning.IntegerField,
            "drop_worst": cleaning.IntegerField,
        }
        widgets = {
            "ranking": ChoiceRows,
            "tie_break": ChoiceRows,
        }
        help_texts = {
            "ruleset": gettext_lazy(
                "The season's evenings are the club's evenings of this variant, dated from the first to the last day."
            ),
            "min_evenings": gettext_lazy(
                "Ranking by average only: players with fewer evenings are listed apart, without a rank."
            ),
            "drop_worst": gettext_lazy("Each player's worst evenings left out of the score (one always counts)."),
            "tie_break": gettext_lazy(
                "Used when two players have the same score; players it cannot separate share the place."
            ),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choice_field(self, "ruleset").choices = registry.choices(lang())
        choice_field(self, "ranking").choices = Ranking.choices
        choice_field(self, "tie_break").choices = TieBreak.choices
        self.fields["min_evenings"].widget.attrs.update({"min": 0, "max": 365, "inputmode": "numeric"})
        self.fields["drop_worst"].widget.attrs.update({"min": 0, "max": 365, "inputmode": "numeric"})
        self.fields["league_points"].widget.attrs.update({"inputmode": "numeric", "autocomplete": "off"})
        if not self.is_bound:  # the text the field shows, never the stored list ("[]")
            points = self.initial.get("league_points") or []
            self.initial["league_points"] = points if isinstance(points, str) else ", ".join(str(p) for p in points)
            prizes = self.initial.get("prizes") or []
            self.initial["prizes"] = prizes if isinstance(prizes, str) else ", ".join(str(p) for p in prizes)
        self.fields["prizes"].widget.attrs.update({"inputmode": "decimal", "autocomplete": "off"})
        self.overlaps: list[Season] = []

    def clean_league_points(self) -> list[int]:
        text = (self.cleaned_data.get("league_points") or "").strip().strip(",")
        if not text:
            return []
        points = []
        for part in text.replace(";", ",").split(","):
            part = part.strip()
            if not part:
                raise forms.ValidationError(_("Leave no place empty between two commas."), code="empty")
            value = cleaning.whole_number(part)
            if value is None:  # ², ١٢, NaN...
                raise forms.ValidationError(
                    _("“%(value)s” is not a whole number of points."),
                    params={"value": cleaning.shown(part)},
                    code="invalid",
                )
            if not 0 <= value <= MAX_LEAGUE_POINTS:
                raise forms.ValidationError(
                    _("Points per place go from 0 to %(max)s."), params={"max": MAX_LEAGUE_POINTS}, code="range"
                )
            points.append(value)
        if len(points) > MAX_PLACES:
            raise forms.ValidationError(_("At most %(max)s places."), params={"max": MAX_PLACES}, code="too_many")
        if any(later > earlier for earlier, later in pairwise(points)):
            raise forms.ValidationError(_("A place never gives more points than the place before it."), code="order")
        return points

    def clean_prizes(self) -> list[str]:
        """Amounts as text ("20.00"), each 0.01 to AMOUNT_LIMIT, never more for a place than the one before.
        A decimal comma is read as a decimal point when it is the only mark of an amount ("7,50")."""
        text = (self.cleaned_data.get("prizes") or "").strip()
        if not text:
            return []
        parts = [p for p in re.split(r";|,\s+|\s+", text) if p]  # "20, 10" or "20 10"; "7,50" is one amount
        amounts = []
        for part in parts:
            value = cleaning.decimal_number(part.replace(",", ".")) if part else None
            if value is None or -int(value.as_tuple().exponent) > 2:  # at most two decimals, whatever its size
                raise forms.ValidationError(
                    _("“%(value)s” is not an amount (at most two decimals)."),
                    params={"value": cleaning.shown(part)},
                    code="invalid",
                )
            if not 0 < value <= AMOUNT_LIMIT:
                raise forms.ValidationError(
                    _("A prize is more than 0 and at most %(max)s."),
                    params={"max": number_format(AMOUNT_LIMIT, 2, use_l10n=True, force_grouping=True)},
                    code="range",
                )
            amounts.append(value.quantize(Decimal("0.01")))
        if len(amounts) > MAX_PLACES:
            raise forms.ValidationError(_("At most %(max)s places."), params={"max": MAX_PLACES}, code="too_many")
        if any(later > earlier for earlier, later in pairwise(amounts)):
            raise forms.ValidationError(_("A place never gets more than the place before it."), code="order")
        return [str(a) for a in amounts]

    def clean_min_evenings(self) -> int:
        value = self.cleaned_data["min_evenings"]
        if value > 365:
            raise forms.ValidationError(_("At most 365 evenings."), code="range")
        return value

    def clean_drop_worst(self) -> int:
        value = self.cleaned_data["drop_worst"]
        if value > 365:
            raise forms.ValidationError(_("At most 365 evenings."), code="range")
        return value

    def clean_name(self) -> str:
        name = cleaning.clean_name(self.cleaned_data["name"], max_length=cleaning.max_length(Season, "name"))
        if Season(pk=self.instance.pk, club_id=self.instance.club_id, name=name).same_name().exists():
            raise forms.ValidationError(
                _("The club already has a season named “%(name)s”: choose another name."),
                params={"name": name},
                code="taken",
            )
        return name

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        start, end = data.get("start"), data.get("end")
        if start and end and end < start:
            self.add_error("end", _("The last day comes on or after the first day."))
        if data.get("ranking") == Ranking.LEAGUE and "league_points" in data and not data["league_points"]:
            self.add_error("league_points", _("The league ranking needs the points of at least the 1st place."))
        if start and end and end >= start and data.get("ruleset") and not self.errors:
            self._check_overlap(start, end, data)
        return data

    def _check_overlap(self, start: date, end: date, data: dict[str, Any]) -> None:
        """Two seasons of one variant whose dates meet share evenings: allowed on confirmation only.
        A season of another variant never shares an evening (each evening has one variant)."""
        shape = Season(
            pk=self.instance.pk, club_id=self.instance.club_id, ruleset=data["ruleset"], start=start, end=end
        )
        self.overlaps = list(shape.overlapping().filter(archived=False)[:3])
        if self.overlaps and not data.get("confirm_overlap"):
            names = ", ".join(
                _("“%(name)s” (%(start)s – %(end)s)")
                % {
                    "name": s.name,
                    "start": date_format(s.start, "SHORT_DATE_FORMAT"),
                    "end": date_format(s.end, "SHORT_DATE_FORMAT"),
                }
                for s in self.overlaps
            )
            self.add_error(
                "confirm_overlap",
                ngettext(
                    "These dates meet the season %(seasons)s, of the same variant. Tick the box to keep them.",
                    "These dates meet the seasons %(seasons)s, of the same variant. Tick the box to keep them.",
                    len(self.overlaps),
                )
                % {"seasons": names},
            )


class EveningFilterForm(forms.Form):
    """The filters of the past evenings (GET): every field optional."""

    season = forms.TypedChoiceField(label=gettext_lazy("Season"), required=False, coerce=int, empty_value=None)
    player = forms.TypedChoiceField(label=gettext_lazy("Player"), required=False, coerce=int, empty_value=None)
    date_from = forms.DateField(
        label=gettext_lazy("From"), required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    date_to = forms.DateField(
        label=gettext_lazy("To"), required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    archived = forms.BooleanField(label=gettext_lazy("Archived evenings"), required=False)

    def __init__(
        self, *args: Any, seasons: Iterable[Season] = (), players: Iterable[Mapping[str, Any]] = (), **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        choice_field(self, "season").choices = [("", _("All seasons"))] + [(s.pk, s.name) for s in seasons]
        choice_field(self, "player").choices = [("", _("All players"))] + [(p["id"], p["name"]) for p in players]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and end < start:
            self.add_error("date_to", _("The end of the range comes on or after its start."))
        return data


class FiguresForm(forms.Form):
    """The player page's choice (GET): his figures over every evening, or over one season's."""

    season = forms.ChoiceField(label=gettext_lazy("Figures of"))

    def __init__(self, *args: Any, seasons: Iterable[Season] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choice_field(self, "season").choices = [("all", _("All evenings"))] + [(str(s.pk), s.name) for s in seasons]
