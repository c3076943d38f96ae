"""Form fields that mean the same on every form: the stake of a game and its currency (an evening's,
a club night's)."""

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from .cleaning import DecimalField


class MoneyField(DecimalField):
    """Money as people type it: "0,10" and "0.10" alike (a decimal comma is the usual one in French
    and Dutch), spaces and a currency sign left out. A text input with the phone's decimal keyboard
    (``inputmode="decimal"``): a number input lets a browser drop the comma ("0,10" became "010")."""

    widget = forms.TextInput

    def to_python(self, value):
        if isinstance(value, str):
            value = value.strip().replace("\u00a0", "").replace("\u202f", "").replace(" ", "").replace("€", "")
            if value.count(",") == 1 and "." not in value:
                value = value.replace(",", ".")
        return super().to_python(value)

    def widget_attrs(self, widget):
        attrs = super().widget_attrs(widget)
        for name in ("min", "max", "step"):  # a text input: the bounds are the field's to check
            attrs.pop(name, None)
        return attrs | {"inputmode": "decimal", "autocomplete": "off"}


class StakeField(MoneyField):
    """The money a point is worth: empty (no money), or 0 to 10,000 with up to four decimals (what
    ``stake`` holds on an evening and on a night), in the digits 0-9 (``cleaning.DecimalField``)."""

    def __init__(self, **kwargs):
        options = {"label": _("Stake per point"), "required": False}
        super().__init__(**(options | kwargs), min_value=0, max_value=10_000, max_digits=9, decimal_places=4)


# A stake this high is most often a typo (10 for 0.10, or "0,10" a browser read as 010): asked to confirm.
STAKE_TO_CONFIRM = Decimal(1)


def confirm_field() -> forms.BooleanField:
    return forms.BooleanField(label=_("Yes, this stake per point is meant"), required=False)


def check_stake(form, stake_field: str = "stake", confirm: str = "confirm_stake") -> None:
    """Refuse a stake of STAKE_TO_CONFIRM or more a point until the form's ``confirm`` box is ticked:
    the error next to the stake says what it would cost; ``form.asks_stake`` shows the box."""
    stake = form.cleaned_data.get(stake_field)
    form.asks_stake = False
    if stake is not None and stake >= STAKE_TO_CONFIRM and not form.cleaned_data.get(confirm):
        form.asks_stake = True
        form.add_error(
            stake_field,
            _("%(stake)s a point is a lot (a 30-point deal costs %(deal)s): tick the box below if it is meant.")
            % {"stake": f"{stake.normalize():f}", "deal": f"{(stake * 30).normalize():f}"},
        )


class AmountField(MoneyField):
    """An amount paid: more than 0, two decimals at most."""

    def __init__(self, **kwargs):
        options = {"label": _("Amount")}
        super().__init__(
            **(options | kwargs),
            min_value=Decimal("0.01"),
            max_value=Decimal("9999999999.99"),
            max_digits=12,
            decimal_places=2,
        )


class CurrencyField(forms.RegexField):
    """An ISO 4217 code: three capital letters, EUR unless changed."""

    def __init__(self, **kwargs):
        options = {"label": _("Currency"), "initial": "EUR"}
        super().__init__(
            r"^[A-Z]{3}\Z",
            **(options | kwargs),
            max_length=3,
            error_messages={"invalid": _("Three capital letters (ISO 4217), such as EUR.")},
        )
