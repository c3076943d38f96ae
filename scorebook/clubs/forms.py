"""Forms of the club pages: a new club, roles, invitations, the roster."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TypedDict

from django import forms
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scorebook.accounts.models import display_name
from scorebook.clubs.models import Membership, Player
from scorebook.core.cleaning import IntegerField, clean_name, looks_like
from scorebook.core.forms import Choice, Taps, choice_field
from scorebook.rules.scoring import BETE

from .models import Club, Role
from .services import slug_taken

NAME_TOO_LONG = {"max_length": _("At most %(limit_value)d characters (this name has %(show_value)d): shorten it.")}


def _no_maxlength(field: forms.Field) -> None:
    """The browser would cut a longer text without a word: the form says it is too long instead."""
    field.widget.attrs.pop("maxlength", None)


def slug_from(name: str) -> str:
    """The short name made from a name: cut between two words, never inside one."""
    slug = slugify(name)
    if len(slug) > 40:
        slug = slug[:41].rsplit("-", 1)[0] if "-" in slug[:41] else slug[:40]
    return slug.strip("-")


class ClubForm(forms.Form):
    """A new club, or (``club`` given) the club's name and short name changed by an admin."""

    name = forms.CharField(
        label=_("Name of the club"),
        max_length=80,
        error_messages=NAME_TOO_LONG,
    )
    slug = forms.SlugField(
        label=_("Short name in the address"),
        max_length=40,
        required=False,
        help_text=_("Letters, digits and dashes. Left empty, it is made from the name."),
        error_messages={"max_length": _("At most %(limit_value)d characters (this one has %(show_value)d).")},
    )

    def __init__(self, *args: Any, club: Club | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        _no_maxlength(self.fields["name"])
        _no_maxlength(self.fields["slug"])
        if club is not None:
            self.fields["slug"].help_text = _("Changing it changes the club's address; the old address keeps working.")

    def clean_name(self) -> str:
        if not self.cleaned_data["name"].strip():
            raise forms.ValidationError(_("Give the club a name."))
        return clean_name(self.cleaned_data["name"], max_length=80)

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if "slug" in self.errors or "name" in self.errors:
            return cleaned
        slug = (cleaned.get("slug") or "").lower() or slug_from(cleaned.get("name") or "")
        if not slug:
            self.add_error("slug", _("Choose a short name: letters, digits and dashes."))
        elif slug_taken(slug, self.club):
            self.add_error("slug", _("The short name “%(slug)s” is taken: choose another.") % {"slug": slug})
        cleaned["slug"] = slug
        return cleaned


class RoleForm(forms.Form):
    """A member's role, changed on his row of the members page (the label names him, for a screen reader)."""

    role = forms.ChoiceField(label=_("Role"), choices=Role.choices)

    def __init__(self, *args: Any, member: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if member:
            self.fields["role"].label = _("Role of %(name)s") % {"name": member}


class InvitationForm(forms.Form):
    """A new link: the role it gives (never above the creator's), how long and how often it works."""

    role = forms.ChoiceField(label=_("Role of whoever joins"), choices=Role.choices, initial=Role.MEMBER)
    days = forms.TypedChoiceField(
        label=_("Works for"),
        coerce=int,
        initial=7,
        choices=[(1, _("one day")), (7, _("one week")), (30, _("30 days"))],
    )
    uses = IntegerField(
        label=_("Number of people who may use it"),
        min_value=1,
        max_value=50,
        initial=1,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    def __init__(self, *args: Any, grantable: Iterable[Role] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if grantable is not None:
            choice_field(self, "role").choices = [(r.value, r.label) for r in Role if r in grantable]


class PlayerForm(forms.Form):
    """A new name in the club's roster."""

    name = forms.CharField(
        label=_("Name"),
        max_length=40,
        error_messages=NAME_TOO_LONG,
    )

    def __init__(self, *args: Any, club: Club, player: Player | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        self.player = player  # renaming this player: his own name is not "already in the roster"
        _no_maxlength(self.fields["name"])
        name = self.fields["name"]
        name.label = _("New player") if player is None else _("New name for %(name)s") % {"name": player.name}

    def clean_name(self) -> str:
        name = clean_name(self.cleaned_data["name"])
        if name == BETE:
            raise forms.ValidationError(_("%(name)s is the name of the pot.") % {"name": BETE})
        others = Player.objects.filter(club=self.club)
        if self.player is not None:
            others = others.exclude(pk=self.player.pk)
        existing = looks_like(name, others.values_list("name", flat=True).iterator())
        if existing is not None:
            raise forms.ValidationError(_("%(name)s is already in the roster.") % {"name": existing})
        return name


class LinkForm(forms.Form):
    """Which account is this player: an admin picks any member; empty means no account."""

    user = forms.TypedChoiceField(label=_("Account"), coerce=int, required=False, empty_value=None)

    def __init__(
        self, *args: Any, members: Iterable[Membership] = (), player: Player | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        if player is not None:  # on the player's row of the roster: the label names him, for a screen reader
            self.fields["user"].label = _("Account of %(name)s") % {"name": player.name}
        choice_field(self, "user").choices = [("", _("No account"))] + [
            (m.user_id, display_name(m.user)) for m in members
        ]


if TYPE_CHECKING:  # django-stubs' annotated model (a type only: Python 3.13 cannot build it at run time)
    from django_stubs_ext import WithAnnotations

    class _Played(TypedDict):
        evenings: int  # the evenings a player sat at (the roster's pages count them)

    PlayedPlayer = WithAnnotations[Player, _Played]


class MergeForm(forms.Form):
    """Two records of the same person: the other one, and which of the two stays. The players come
    annotated with their ``evenings``; the choice of the record to keep shows the two records only."""

    other = forms.TypedChoiceField(label=_("Same person as"), coerce=int)
    keep = forms.TypedChoiceField(label=_("Record to keep"), coerce=int, widget=Taps(css="keep", option_css="person"))

    def __init__(self, *args: Any, player: PlayedPlayer, others: Iterable[PlayedPlayer], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.player = player
        self.others = {p.pk: p for p in others}
        choice_field(self, "other").choices = [(p.pk, p.name) for p in self.others.values()]
        choice_field(self, "keep").choices = [(player.pk, player.name)] + [(p.pk, p.name) for p in self.others.values()]
        wanted = str(self.data.get("other", "") if self.is_bound else self.initial.get("other", ""))
        other = next((p for pk, p in self.others.items() if str(pk) == wanted), None)
        pair = (player, other) if other is not None else ()
        self.fields["keep"].widget.choices = [(p.pk, self._record(p)) for p in pair]

    @staticmethod
    def _record(player: PlayedPlayer) -> Choice:
        played = ngettext("%(n)s evening", "%(n)s evenings", player.evenings) % {"n": player.evenings}
        return Choice(player.name, f"{played} · {display_name(player.user)}" if player.user_id else played)

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        other, keep = cleaned.get("other"), cleaned.get("keep")
        if other is not None and keep is not None and keep not in (other, self.player.pk):
            self.add_error("keep", _("Keep one of the two records."))
        if other is not None:
            cleaned["other_player"] = self.others[other]
        return cleaned


class ClaimAnswerForm(forms.Form):
    """An admin's answer to a claim: approve (link the account) or refuse."""

    answer = forms.ChoiceField(choices=[("approve", _("Approve")), ("refuse", _("Refuse"))])
