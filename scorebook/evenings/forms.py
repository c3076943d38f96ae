"""Forms of the evening pages. Each turns what the scorer tapped into an evening-file deal;
the engine (through services) decides whether the deal is possible."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

import itertools
import uuid
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.db.models import Q
from django.forms import BoundField
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scorebook.clubs.models import Club, Player
from scorebook.clubs.models.club import SCORING_ROLES
from scorebook.core import cleaning
from scorebook.core.collation import by_name
from scorebook.core.engine_messages import localized
from scorebook.core.fields import AmountField, CurrencyField, StakeField, StakeForm, check_stake, confirm_field
from scorebook.core.formatting import lang
from scorebook.core.forms import Taps, choice_field, field_of
from scorebook.core.money import AMOUNT_LIMIT
from scorebook.rules import registry
from scorebook.rules.evening_file import FileError
from scorebook.rules.model import MAX_TRICKS, ClassicRules, ContractRules, Ruleset
from scorebook.rules.scoring import BETE, DealError

from . import display
from .models import Evening, usual_variant

MAX_PLAYERS = 7


def new_request_key() -> str:
    return uuid.uuid4().hex


class RecordForm(forms.Form):
    """A form that records one line of the evening: an idempotency key, and engine errors shown in place."""

    request_key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)
    error_field: str | None = None  # where an engine error goes when it names no field of the form

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial.setdefault("request_key", new_request_key())

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if any(name in self.fields and self[name].is_hidden for name in self.errors):  # never typed: forged
            self.add_error(self.error_field, _("This page is out of date: reload it and try again."))
        return cleaned

    def deal_data(self) -> dict[str, Any]:
        raise NotImplementedError

    def add_engine_error(self, error: DealError | FileError, number: int | None = None) -> None:
        """Show an engine error (DealError / FileError) next to the field it names.

        When the error is about another deal than the one in this form (an edit that
        makes a later deal impossible), it goes at the top and names that deal.
        """
        if number is not None and error.number != number:
            self.add_error(
                None,
                _("Deal %(n)s would become impossible: %(why)s")
                % {"n": error.number, "why": localized(error, getattr(self, "rules", None))},
            )
            return
        field = getattr(error, "field", "") or None
        self.add_error(
            field if field in self.fields else self.error_field, localized(error, getattr(self, "rules", None))
        )


class DealForm(RecordForm):
    """A played deal: also the version of the deal being corrected; for a new deal, what the phone
    showed when it was entered (the evening's version, the deal's number and dealer)."""

    version = cleaning.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)
    evening_version = cleaning.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)
    deal_number = cleaning.IntegerField(widget=forms.HiddenInput, required=False, min_value=1, max_value=10**6)
    dealer = forms.CharField(widget=forms.HiddenInput, required=False, max_length=100)

    def __init__(self, *args: Any, rules: Ruleset, players: Iterable[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rules = rules
        self.players = list(players)


def _table_fields(contracts: list[tuple[str, str]], players: list[str]) -> dict[str, forms.Field]:
    """The fields of the contract form that depend on the contracts and the table."""
    people = [(p, p) for p in players]
    fields: dict[str, forms.Field] = {
        "contract": forms.ChoiceField(label=_("Contract"), choices=[("pass", _("All pass")), *contracts]),
        "declarers": forms.MultipleChoiceField(
            label=_("Declarers"), required=False, widget=forms.CheckboxSelectMultiple, choices=people
        ),
        "exposed_fault": forms.ChoiceField(
            label=_("Opponent made to take a trick"), required=False, choices=[("", "—"), *people]
        ),
        "playing": forms.MultipleChoiceField(
            label=_("Who plays this deal"), required=False, widget=forms.CheckboxSelectMultiple, choices=people
        ),
    }
    for seat, name in enumerate(players):
        fields[f"tricks_{seat}"] = cleaning.IntegerField(
            label=_("Tricks of %(name)s") % {"name": name}, required=False, min_value=0, max_value=MAX_TRICKS
        )
    return fields


class ContractDealForm(DealForm):
    """Also ``contract``, ``declarers``, ``exposed_fault``, ``playing`` and ``tricks_<seat>``,
    which depend on the evening's contracts and table (``_table_fields``)."""

    tricks = cleaning.IntegerField(label=_("Tricks"), required=False, min_value=0, max_value=MAX_TRICKS)
    trump_changed = forms.BooleanField(label=_("Trump changed (needs 9)"), required=False)
    rules: ContractRules  # (``deal_form_class`` gives it a contract game's rules)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        rules = self.rules
        code = lang()
        contracts = [(key, c.names.get(code)) for key, c in rules.contracts.items()]
        self.fields.update(_table_fields(contracts, self.players))

    def per_declarer_fields(self) -> list[tuple[str, BoundField]]:
        return [(name, self[f"tricks_{seat}"]) for seat, name in enumerate(self.players)]

    @classmethod
    def initial_from(cls, data: dict, players: list[str]) -> dict:
        """Form values for an existing deal (the edit page)."""
        initial = {"contract": data.get("contract")}
        if data.get("contract") == "pass":
            return initial | {"playing": data.get("playing", [])}
        initial["declarers"] = data.get("declarers", [])
        tricks = data.get("tricks")
        if isinstance(tricks, dict):
            for name, value in tricks.items():
                initial[f"tricks_{players.index(name)}"] = value
        else:
            initial["tricks"] = tricks
        initial["trump_changed"] = data.get("trump_changed", False)
        initial["exposed_fault"] = data.get("exposed_fault", "")
        initial["playing"] = data.get("playing", [])
        return initial

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        key = cleaned.get("contract")
        if not key or key == "pass":
            return cleaned
        contract = self.rules.contracts[key]
        declarers = cleaned.get("declarers") or []
        if not declarers:
            self.add_error("declarers", _("Tap the declaring player(s)."))
            return cleaned
        if contract.exact:
            for name in declarers:
                if cleaned.get(f"tricks_{self.players.index(name)}") is None:
                    self.add_error("tricks", _("Give the tricks of %(name)s.") % {"name": name})
        elif cleaned.get("tricks") is None:
            self.add_error("tricks", _("Give the tricks of the declaring side."))
        playing = cleaned.get("playing") or []
        if playing and len(playing) != 4:
            self.add_error("playing", _("Four players play a deal."))
        return cleaned

    def deal_data(self) -> dict[str, Any]:
        c = self.cleaned_data
        data: dict[str, Any]
        playing = [p for p in self.players if p in (c.get("playing") or [])]
        if c["contract"] == "pass":
            data = {"contract": "pass"}
        else:
            contract = self.rules.contracts[c["contract"]]
            declarers = [p for p in self.players if p in c["declarers"]]  # seat order
            if contract.exact:
                tricks = {name: c[f"tricks_{self.players.index(name)}"] for name in declarers}
            else:
                tricks = c["tricks"]
            data = {"contract": c["contract"], "declarers": declarers, "tricks": tricks}
            if c.get("trump_changed"):
                data["trump_changed"] = True
            if c.get("exposed_fault"):
                data["exposed_fault"] = c["exposed_fault"]
        if playing:
            data["playing"] = playing
        return data


HONOURS_NONE = "none"


class ClassicDealForm(DealForm):
    tricks = cleaning.IntegerField(label=_("Tricks"), min_value=0, max_value=MAX_TRICKS, required=False)
    honours = forms.ChoiceField(label=_("Honours"), required=False, widget=forms.RadioSelect)
    claim = forms.TypedChoiceField(
        choices=[("", ""), ("0", "0"), ("1", "1")], coerce=int, empty_value=None, required=False
    )

    rules: ClassicRules  # (``deal_form_class`` gives it a classic game's rules)

    def __init__(self, *args: Any, teams: Sequence[Sequence[str]] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        rules = self.rules
        self.teams = teams or (("", ""), ("", ""))
        held = [h for h in sorted(rules.honours_points) if rules.honours_points[h] > 0]
        choices: list[tuple[str, StrOrPromise]] = [(HONOURS_NONE, _("none"))]
        for side in (0, 1):
            for h in held:
                choices.append((f"{side}-{h}", f"{h} · {display.team_name(self.teams[side])}"))
        choice_field(self, "honours").choices = choices
        self.fields["honours"].initial = HONOURS_NONE
        if not self.is_bound:
            self.initial.setdefault("tricks", 7)

    @classmethod
    def initial_from(cls, data: dict, players: list[str]) -> dict:
        if "claim" in data:
            return {"claim": data["claim"]}
        honours = data.get("honours", [0, 0])
        choice = HONOURS_NONE
        for side in (0, 1):
            if honours[side]:
                choice = f"{side}-{honours[side]}"
        return {"tricks": data["tricks"][0], "honours": choice}

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if cleaned.get("claim") is None and cleaned.get("tricks") is None:
            self.add_error("tricks", _("Give the tricks of the first team."))
        return cleaned

    def deal_data(self) -> dict[str, Any]:
        c = self.cleaned_data
        if c.get("claim") is not None:
            return {"claim": c["claim"]}
        honours = [0, 0]
        choice = c.get("honours") or HONOURS_NONE
        if choice != HONOURS_NONE:
            side, held = choice.split("-")
            honours[int(side)] = int(held)
        return {"tricks": [c["tricks"], MAX_TRICKS - c["tricks"]], "honours": honours}


def deal_form_class(rules: Ruleset) -> type[ContractDealForm] | type[ClassicDealForm]:
    return ClassicDealForm if isinstance(rules, ClassicRules) else ContractDealForm


class AdjustmentForm(RecordForm):
    note = forms.CharField(label=_("Reason"), max_length=200, required=False)

    def __init__(self, *args: Any, players: Iterable[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = list(players)
        for seat, name in enumerate(self.players):
            self.fields[f"points_{seat}"] = cleaning.IntegerField(
                label=name,
                required=False,
                min_value=-100_000,
                max_value=100_000,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )

    def clean_note(self) -> str:
        return cleaning.clean_text(self.cleaned_data.get("note") or "")

    def point_fields(self) -> list[BoundField]:
        return [self[f"points_{seat}"] for seat in range(len(self.players))]

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if not any(cleaned.get(f"points_{seat}") for seat in range(len(self.players))):
            raise forms.ValidationError(_("Give points to at least one player."))
        return cleaned

    def deal_data(self) -> dict[str, Any]:
        points = {
            name: self.cleaned_data[f"points_{seat}"]
            for seat, name in enumerate(self.players)
            if self.cleaned_data.get(f"points_{seat}")
        }
        data: dict[str, Any] = {"adjustment": points}
        if self.cleaned_data.get("note"):
            data["note"] = self.cleaned_data["note"]
        return data


class RobreForm(RecordForm):
    """Classic games: who plays the next robre and with whom."""

    choice = forms.ChoiceField(label=_("Partnerships"))
    error_field = "choice"

    def __init__(self, *args: Any, players: Sequence[str], dummy: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.dummy = dummy
        if dummy:
            self.fields["choice"].label = _("Plays with the dummy")
            choice_field(self, "choice").choices = [(p, p) for p in players]
        else:
            choice_field(self, "choice").choices = [
                (_teams_key(t), f"{display.team_name(t[0])} — {display.team_name(t[1])}") for t in partnerships(players)
            ]

    def deal_data(self) -> dict[str, Any]:
        value = self.cleaned_data["choice"]
        if self.dummy:
            return {"robre": {"dummy_partner": value}}
        a, b, c, d = value.split("\x1f")
        return {"robre": {"teams": [[a, b], [c, d]]}}


def _teams_key(teams: tuple[tuple[str, str], tuple[str, ...]]) -> str:
    return "\x1f".join(teams[0] + teams[1])


def partnerships(players: Sequence[str]) -> list[tuple[tuple[str, str], tuple[str, ...]]]:
    """Every way to pick four players and pair them off (3 per four)."""
    out = []
    for four in itertools.combinations(players, 4):
        a, rest = four[0], four[1:]
        for partner in rest:
            others = tuple(p for p in rest if p != partner)
            out.append(((a, partner), others))
    return out


class NewEveningForm(StakeForm):
    club: forms.ModelChoiceField[Club] = forms.ModelChoiceField(
        label=_("Table book"), queryset=None, required=False, empty_label=_("My private table book")
    )
    ruleset = forms.ChoiceField(label=_("Variant"), widget=Taps(css="variants"))
    first_dealer = forms.TypedChoiceField(
        label=_("First dealer"), coerce=int, choices=[(i, i + 1) for i in range(MAX_PLAYERS)], initial=0
    )
    stake = StakeField()
    confirm_stake = confirm_field()
    currency = CurrencyField()
    date = cleaning.DateField(label=_("Date"))

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        # the clubs where this user records deals
        field_of(self, "club", forms.ModelChoiceField).queryset = Club.objects.filter(
            memberships__user=user, memberships__role__in=SCORING_ROLES
        ).order_by("name")
        choice_field(self, "ruleset").choices = registry.choices(lang())
        self.fields["ruleset"].initial = "kleurenwiezen"
        self.fields["date"].initial = timezone.localdate
        if not self.is_bound:
            self._club_habits()
        for seat in range(MAX_PLAYERS):
            self.fields[f"player_{seat}"] = cleaning.NameField(
                label=_("Seat %(n)s") % {"n": seat + 1},
                required=False,
                max_length=40,
                # the names of the user's players to pick from: the page's <datalist id="known-players">
                widget=forms.TextInput(
                    attrs={"list": "known-players", "autocomplete": "off", "autocapitalize": "words"}
                ),
            )
        choice_field(self, "first_dealer").choices = [(i, _("Seat %(n)s") % {"n": i + 1}) for i in range(MAX_PLAYERS)]

    def _club_habits(self) -> None:
        """An evening of a club (``initial["club"]``, from the club's page) starts as the club's
        evenings usually do: its usual variant (unless one was asked for), with the stake and
        currency of its latest evening of that variant."""
        pk = cleaning.whole_number(str(self.initial.get("club") or ""), low=1)
        clubs = field_of(self, "club", forms.ModelChoiceField).queryset
        club = clubs.filter(pk=pk).first() if pk is not None and clubs is not None else None
        ruleset = usual_variant(club) if club is not None else None
        if ruleset is None:
            return
        self.initial.setdefault("ruleset", ruleset)
        latest = (
            Evening.objects.filter(club=club, ruleset=self.initial["ruleset"])
            .order_by("-date", "-created_at")
            .values("stake", "currency")
            .first()
        )
        if latest is not None:
            stake = latest["stake"]
            self.initial.setdefault("stake", "" if stake is None else f"{stake.normalize():f}")
            self.initial.setdefault("currency", latest["currency"])

    def player_fields(self) -> list[BoundField]:
        return [self[f"player_{seat}"] for seat in range(MAX_PLAYERS)]

    def known_players(self) -> list[str]:
        """Names to pick from: the rosters of the user's clubs and his private book."""
        players = Player.objects.filter(
            Q(club__in=field_of(self, "club", forms.ModelChoiceField).queryset)
            | Q(club__isnull=True, created_by=self.user)
        )
        return by_name(set(players.values_list("name", flat=True)))[:300]

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        check_stake(self)
        names = [(cleaned.get(f"player_{seat}") or "").strip() for seat in range(MAX_PLAYERS)]
        seats = [seat for seat, name in enumerate(names) if name]
        players = [names[seat] for seat in seats]
        if BETE in players:
            self.add_error("player_0", _("%(name)s is the name of the pot.") % {"name": BETE})
        if any(cleaning.looks_like(n, players[:i]) for i, n in enumerate(players)):  # Anne, ANNE, Ａｎｎｅ, ΑΝΝΕ
            self.add_error("player_0", _("Two players have the same name."))
        key = cleaned.get("ruleset")
        if key:
            rules = registry.get(key)
            if not rules.min_players <= len(players) <= rules.max_players:
                low, high = rules.min_players, rules.max_players
                self.add_error(
                    "player_0",
                    ngettext("%(variant)s is played by %(n)s player.", "%(variant)s is played by %(n)s players.", low)
                    % {"variant": rules.names.get(lang()), "n": low}
                    if low == high
                    else _("%(variant)s is played by %(low)s to %(high)s players.")
                    % {"variant": rules.names.get(lang()), "low": low, "high": high},
                )
        dealer = cleaned.get("first_dealer")
        if dealer is not None and players:
            if dealer not in seats:
                self.add_error("first_dealer", _("The first dealer's seat is empty."))
            else:
                cleaned["first_dealer_index"] = seats.index(dealer)
        cleaned["players"] = players
        return cleaned


class PaymentForm(forms.Form):
    """A payment typed in: part of a transfer, or a free amount between two parties, with a note."""

    payer = forms.ChoiceField(label=_("Who paid"))
    payee = forms.ChoiceField(label=_("To whom"))
    amount = AmountField()
    note = forms.CharField(label=_("Note"), max_length=200, required=False)
    key = forms.RegexField(r"^[0-9A-Za-z_-]*\Z", widget=forms.HiddenInput, max_length=64, required=False)

    def __init__(self, *args: Any, parties: Sequence[tuple[object, str]], **kwargs: Any) -> None:
        initial = kwargs.setdefault("initial", {})
        initial.setdefault("key", new_request_key())
        if len(parties) > 1:  # two different people from the start
            initial.setdefault("payer", parties[0][0])
            initial.setdefault("payee", parties[1][0])
        super().__init__(*args, **kwargs)
        choice_field(self, "payer").choices = parties
        choice_field(self, "payee").choices = parties

    def clean_note(self) -> str:
        return cleaning.clean_text(self.cleaned_data.get("note") or "")

    def clean_amount(self) -> Decimal | None:
        return bounded_amount(self.cleaned_data.get("amount"))

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("payer") and data.get("payer") == data.get("payee"):
            self.add_error("payee", _("Someone else than who paid."))
        return data


def bounded_amount(amount: Decimal | None, line: Decimal | None = None) -> Decimal | None:
    """An amount typed in, refused above ``AMOUNT_LIMIT`` (and above ``line``, the transfer it is a
    part of), with a sentence that says the bound. What every payment form's amount goes through."""
    if amount is None:
        return amount
    if amount > AMOUNT_LIMIT:
        raise forms.ValidationError(
            _("At most %(limit)s can be recorded at once.")
            % {"limit": number_format(AMOUNT_LIMIT, 2, use_l10n=True, force_grouping=True)}
        )
    if line is not None and amount > line:
        raise forms.ValidationError(
            _("Part of it is at most the whole: %(line)s.") % {"line": number_format(line, 2, use_l10n=True)}
        )
    return amount


class CancelForm(forms.Form):
    """Why a payment is cancelled (kept with the cancellation): a reason is needed."""

    reason = forms.CharField(label=_("Why (kept in the history)"), max_length=200)

    def clean_reason(self) -> str:
        return cleaning.clean_text(self.cleaned_data.get("reason") or "")
