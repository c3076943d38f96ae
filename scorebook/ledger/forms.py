"""The kitty's forms: its fees (a house rule), an expense, a payment into or out of it. Every amount
is bounded (``evenings.forms.bounded_amount``; a fee by ``FEE_LIMIT``), every refusal a sentence next
to its field."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _

from scorebook.core import cleaning
from scorebook.core.fields import AmountField, MoneyField
from scorebook.core.forms import Taps, choice_field
from scorebook.core.money import FEE_LIMIT
from scorebook.evenings.forms import bounded_amount, new_request_key

KEY = r"^[0-9A-Za-z_-]*\Z"


class FeeField(MoneyField):
    """A fee per player: empty (none), or 0.01 to ``FEE_LIMIT``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs, required=False, max_digits=8, decimal_places=2)

    def validate(self, value: Decimal | None) -> None:
        super().validate(value)  # type: ignore[arg-type]  # None when left empty (not required): Django takes it
        if value is not None and not 0 < value <= FEE_LIMIT:
            raise forms.ValidationError(
                _("A fee is more than 0 and at most %(limit)s (empty: no fee).")
                % {"limit": number_format(FEE_LIMIT, 2, use_l10n=True, force_grouping=True)}
            )


class FeesForm(forms.Form):
    evening_fee = FeeField(
        label=_("Fee per player per evening"),
        help_text=_("What each player who takes part in an evening owes the kitty. Empty: none."),
    )
    night_fee = FeeField(
        label=_("Fee per player per club night"),
        help_text=_("Once for the night, whatever the number of its tables. Empty: none."),
    )


class ExpenseForm(forms.Form):
    amount = AmountField()
    day = cleaning.DateField(label=_("Date"))
    note = forms.CharField(label=_("What for"), max_length=200)
    key = forms.RegexField(KEY, widget=forms.HiddenInput, max_length=64, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        initial = kwargs.setdefault("initial", {})
        initial.setdefault("day", timezone.localdate())
        initial.setdefault("key", new_request_key())
        super().__init__(*args, **kwargs)

    def clean_amount(self) -> Decimal | None:
        return bounded_amount(self.cleaned_data.get("amount"))

    def clean_note(self) -> str:
        note = cleaning.clean_text(self.cleaned_data.get("note") or "")
        if not note:
            raise forms.ValidationError(_("Say what it was for."))
        return note


class KittyPaymentForm(forms.Form):
    """A player pays the kitty (his fees), or the kitty pays him (a prize handed over)."""

    direction = forms.ChoiceField(
        label=_("Which way"),
        choices=[("in", _("into the kitty")), ("out", _("out of the kitty"))],
        widget=Taps,
        initial="in",
    )
    player = forms.ChoiceField(label=_("Player"))
    amount = AmountField()
    note = forms.CharField(label=_("Note"), max_length=200, required=False)
    key = forms.RegexField(KEY, widget=forms.HiddenInput, max_length=64, required=False)

    def __init__(self, *args: Any, players: list[tuple[int, str]], **kwargs: Any) -> None:
        kwargs.setdefault("initial", {}).setdefault("key", new_request_key())
        super().__init__(*args, **kwargs)
        choice_field(self, "player").choices = players

    def clean_amount(self) -> Decimal | None:
        return bounded_amount(self.cleaned_data.get("amount"))

    def clean_note(self) -> str:
        return cleaning.clean_text(self.cleaned_data.get("note") or "")


class WithdrawForm(forms.Form):
    """Why an expense or a prize is withdrawn (kept with it): a reason is needed."""

    reason = forms.CharField(label=_("Why (kept in the history)"), max_length=200)

    def clean_reason(self) -> str:
        reason = cleaning.clean_text(self.cleaned_data.get("reason") or "")
        if not reason:
            raise forms.ValidationError(_("Say why."))
        return reason
