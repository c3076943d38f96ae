"""The director's forms. Every error is shown next to its field."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorebook.clubs.models import Club
from scorebook.clubs.services import check_names
from scorebook.core import cleaning
from scorebook.core.collation import by_name
from scorebook.core.fields import CurrencyField, StakeField, StakeForm, check_stake, confirm_field
from scorebook.core.formatting import lang
from scorebook.core.forms import Checks, choice_field
from scorebook.rules import registry

from . import seating
from .models import Night, Participant

FEWEST_SESSIONS, MOST_SESSIONS = 3, 5  # an evening of 3 to 5 sessions of about 8 deals


def default_sessions(players: int) -> int:
    """The sessions a night of ``players`` plays when the director leaves them empty: as many as
    the seating plan seats without a repeated meeting, within an evening's 3 to 5."""
    return min(MOST_SESSIONS, max(FEWEST_SESSIONS, seating.repeat_free_sessions(players)))


class NightForm(StakeForm):
    name = cleaning.NameField(label=_("Name of the night"), max_length=80)
    date = cleaning.DateField(label=_("Date"))
    ruleset = forms.ChoiceField(label=_("Variant"))
    sessions = cleaning.IntegerField(
        label=_("Sessions"),
        min_value=1,
        max_value=seating.MAX_SESSIONS,
        required=False,
        help_text=_("Empty: from the number of players, as many as they can play without meeting twice (3 to 5)."),
    )
    deals_per_session = cleaning.IntegerField(
        label=_("Deals per session"),
        min_value=1,
        max_value=99,
        initial=8,
        required=False,
        help_text=_("Empty: until the director closes the session."),
    )
    ranking = forms.ChoiceField(label=_("Ranking"), choices=Night.Ranking.choices, initial=Night.Ranking.TOTAL)
    place_points = forms.CharField(
        label=_("Place points"),
        initial="4, 3, 2, 1, 0",
        required=False,
        max_length=60,
        help_text=_("For the 1st, 2nd... place at a table, separated by commas (place points only)."),
    )
    stake = StakeField()
    currency = CurrencyField()
    confirm_stake = confirm_field()  # shown when the stake asks for it, as on the new-evening form
    roster = forms.MultipleChoiceField(
        label=_("Players of the roster"), required=False, widget=Checks(css="night-roster")
    )
    guests = forms.CharField(
        label=_("Guests"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("One name a line: players who are not in the roster."),
    )
    different_people = forms.BooleanField(
        label=_("The guests whose names look like a roster player's are other people: add them"),
        required=False,
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        self.fields["date"].initial = timezone.localdate
        choice_field(self, "ruleset").choices = [
            (key, name) for key, name in registry.choices(lang()) if registry.get(key).max_players >= 5
        ]
        self.fields["ruleset"].initial = "kleurenwiezen"
        choice_field(self, "roster").choices = [(n, n) for n in by_name(club.players.values_list("name", flat=True))]

    def clean_place_points(self) -> list[int | float]:
        raw = self.cleaned_data.get("place_points") or ""
        read = [cleaning.decimal_number(x) for x in raw.split(",") if x.strip()]
        points = [p for p in read if p is not None]
        if len(points) != len(read):  # NaN, ², words...
            raise forms.ValidationError(_("Numbers separated by commas, such as 4, 3, 2, 1."))
        if len(points) > 5 or any(abs(p) > 1000 for p in points):
            raise forms.ValidationError(_("At most five numbers, one per place at a table."))
        return [int(p) if p == p.to_integral_value() else float(p) for p in points]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        names = list(data.get("roster") or [])
        # each guest checked against the roster as the roster paste checks it: a roster player's name
        # (or a look-alike) is that player; one differing only by accents or capitals is added only
        # when the director confirms they are other people
        for line in check_names(self.club, cleaning.pasted_names(data.get("guests") or "")):
            if line.status == "invalid":
                self.add_error(
                    "guests",
                    _("Line “%(line)s”: %(why)s")
                    % {"line": cleaning.shown(line.typed.strip()[:40]), "why": line.reason},
                )
            elif line.status == "known":
                names.append(line.like)
            elif line.status == "similar" and not data.get("different_people"):
                self.add_error(
                    "guests",
                    _(
                        "%(name)s looks like %(other)s of the roster: tick %(other)s above if it is the same "
                        "person, or tick the box below to add %(name)s as someone else."
                    )
                    % {"name": line.name, "other": line.like},
                )
                names.append(line.name)
            else:
                names.append(line.name)
        seen = cleaning.Names()
        for name in names:
            if name in seen:
                self.add_error("guests", _("%(name)s is listed twice.") % {"name": name})
            seen.add(name)
        try:
            seating.table_sizes(len(names))
        except seating.PlanError:
            self.add_error(
                "guests",
                _("%(n)s players cannot sit at tables of four and five: at least 4, and not 6, 7 or 11.")
                % {"n": len(names)},
            )
        sessions = data.get("sessions")
        if sessions is None and "sessions" not in self.errors:
            sessions = data["sessions"] = default_sessions(len(names))
        if sessions and len(names) * sessions > seating.MAX_SEATS:
            self.add_error(
                "sessions",
                _(
                    "%(players)s players × %(sessions)s sessions is too big a night: at most %(limit)s "
                    "(such as 160 players × 5 sessions or 40 × 20), whose plan is drawn in under 2 seconds."
                )
                % {"players": len(names), "sessions": sessions, "limit": seating.MAX_SEATS},
            )
        if data.get("ranking") == Night.Ranking.PLACES and not data.get("place_points"):
            self.add_error("place_points", _("Give the points of each place."))
        check_stake(self)
        data["players"] = names
        return data


class EditForm(forms.Form):
    """A night's name, date and deals per session, changed after it was made."""

    name = cleaning.NameField(label=_("Name of the night"), max_length=80)
    date = cleaning.DateField(label=_("Date"))
    deals_per_session = cleaning.IntegerField(
        label=_("Deals per session"),
        min_value=1,
        max_value=99,
        required=False,
        help_text=_("Empty: until the director closes the session."),
    )


class ReopenForm(forms.Form):
    reason = forms.CharField(label=_("Why reopen it"), max_length=200)

    def clean_reason(self) -> str:
        return cleaning.clean_text(self.cleaned_data["reason"])


class SubstituteForm(forms.Form):
    leaving = forms.TypedChoiceField(label=_("Who leaves"), coerce=int)
    name = cleaning.NameField(label=_("Substitute"), max_length=40)

    def __init__(self, *args: Any, participants: Iterable[Participant], **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "id_substitute_%s")  # the late arrival's form on the same page has a name too
        super().__init__(*args, **kwargs)
        choice_field(self, "leaving").choices = [(p.number, f"{p.number}. {p.name}") for p in participants]


class LateForm(forms.Form):
    name = cleaning.NameField(label=_("Late arrival"), max_length=40)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "id_late_%s")  # the substitute's form on the same page has a name too
        super().__init__(*args, **kwargs)


class CardsForm(forms.Form):
    """Which table cards to print: every session's, or one session's."""

    session = forms.ChoiceField(label=_("Which cards"), required=False)

    def __init__(self, *args: Any, sessions: int, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "cards-%s")
        super().__init__(*args, **kwargs)
        choice_field(self, "session").choices = [("", _("every session"))] + [
            (str(n), _("session %(n)s") % {"n": n}) for n in range(1, sessions + 1)
        ]
