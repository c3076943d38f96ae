"""Form fields that mean the same on every form: money as people type it (``read_money``), the stake of
a game and its currency (an evening's, a club night's)."""

import re
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils import formats
from django.utils.translation import gettext_lazy as _

from .cleaning import DecimalField

_SPACES = str.maketrans("", "", " \u00a0\u202f\u2009€")  # spaces as thousands separators, the euro sign
_DIGITS = re.compile(r"[0-9]+\Z")
_GROUPED = re.compile(r"[1-9][0-9]{0,2}(?:[.,][0-9]{3})+\Z")  # 1.000 / 12,345,678: groups of three


def separators() -> tuple[str, str]:
    """The page's language's decimal mark and thousands separator: "," and "." in French and Dutch
    (1.000,50), "." and "," in English (1,000.50)."""
    decimal = formats.get_format("DECIMAL_SEPARATOR")
    return (",", ".") if decimal == "," else (".", ",")


def example() -> str:
    """A thousand and a half as the page's language writes it, to show in a sentence."""
    decimal, thousands = separators()
    return f"1{thousands}000{decimal}50"


def read_money(text: str) -> str:
    """An amount typed as people type it, as a plain decimal ("1000.50"), or a ValidationError that
    shows how to write it. A decimal comma or point alike ("0,10", "0.10"); spaces and the euro sign
    left out; thousands separated as the page's language does, or as the other one does where the
    decimal mark follows ("1.000,50" and "1,000.50" alike; "1.000.000"). One mark followed by three
    digits ("1.000", "2,500") could be a thousand or one with three decimals: refused with the two
    ways to write what was meant. Anything else is left to the number field's own check."""
    value = text.strip().translate(_SPACES)
    sign = value[:1] if value[:1] in ("+", "-") else ""
    digits = value[len(sign) :]
    marks = [c for c in digits if c in ".,"]
    if not marks:
        return value
    decimal, _thousands = separators()
    last = max(digits.rfind("."), digits.rfind(","))
    whole, fraction = digits[:last], digits[last + 1 :]
    if len(set(marks)) == 1 and len(marks) > 1:  # 1.000.000: thousands only
        if _GROUPED.match(digits):
            return sign + digits.replace(marks[0], "")
        raise _badly_written()
    if len(set(marks)) == 2:  # 1.000,50: the last mark is the decimal one, the others group thousands
        if digits[last] in whole or not _GROUPED.match(whole) or not _DIGITS.match(fraction):
            raise _badly_written()
        return f"{sign}{whole.replace(',', '').replace('.', '')}.{fraction}"
    if len(fraction) == 3 and whole[:1] not in ("", "0") and _DIGITS.match(whole) and len(whole) <= 3:
        small = Decimal(f"{whole}.{fraction}").normalize()
        places = max(2, -small.as_tuple().exponent)  # type: ignore[operator]
        small_text = f"{small:.{places + (places == 3)}f}"  # 1.125 would be as ambiguous: 1.1250
        raise ValidationError(
            _("“%(typed)s”: %(big)s or %(small)s? Type %(big)s, or %(small)s."),
            code="ambiguous",
            params={
                "typed": text.strip(),
                "big": sign + whole + fraction,
                "small": sign + small_text.replace(".", decimal),
            },
        )
    return f"{sign}{whole}.{fraction}"


def _badly_written() -> ValidationError:
    return ValidationError(
        _("Write an amount with its decimals after a comma or a point, such as %(example)s or %(plain)s."),
        code="invalid",
        params={"example": example(), "plain": example().replace(separators()[1], "")},
    )


class MoneyField(DecimalField):
    """Money as people type it (``read_money``): "0,10" and "0.10" alike (a decimal comma is the usual
    one in French and Dutch), thousands as the page's language writes them ("1.000,50", "1,000.50"),
    spaces and a currency sign left out. A text input with the phone's decimal keyboard
    (``inputmode="decimal"``): a number input lets a browser drop the comma ("0,10" became "010")."""

    widget = forms.TextInput

    # Django's DecimalField subclasses its IntegerField and returns a Decimal: django-stubs ignores the same override
    def to_python(self, value: Any) -> Decimal | None:  # type: ignore[override]
        if isinstance(value, str) and value.strip():
            value = read_money(value)
        try:
            return super().to_python(value)
        except ValidationError as error:
            raise _badly_written() if error.code == "invalid" else error from None

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        attrs = super().widget_attrs(widget)
        for name in ("min", "max", "step"):  # a text input: the bounds are the field's to check
            attrs.pop(name, None)
        return attrs | {"inputmode": "decimal", "autocomplete": "off"}


class StakeField(MoneyField):
    """The money a point is worth: empty (no money), or 0 to 10,000 with up to four decimals (what
    ``stake`` holds on an evening and on a night), in the digits 0-9 (``cleaning.DecimalField``)."""

    def __init__(self, **kwargs: Any) -> None:
        options: dict[str, Any] = {"label": _("Stake per point"), "required": False}
        super().__init__(**(options | kwargs), min_value=0, max_value=10_000, max_digits=9, decimal_places=4)


# A stake this high is most often a typo (10 for 0.10, or "0,10" a browser read as 010): asked to confirm.
STAKE_TO_CONFIRM = Decimal(1)


def confirm_field() -> forms.BooleanField:
    return forms.BooleanField(label=_("Yes, this stake per point is meant"), required=False)


class StakeForm(forms.Form):
    """A form with a stake, which asks to confirm a high one (``check_stake``): ``asks_stake`` shows the box."""

    asks_stake = False


def check_stake(form: StakeForm, stake_field: str = "stake", confirm: str = "confirm_stake") -> None:
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

    def __init__(self, **kwargs: Any) -> None:
        options: dict[str, Any] = {"label": _("Amount")}
        super().__init__(
            **(options | kwargs),
            min_value=Decimal("0.01"),
            max_value=Decimal("9999999999.99"),
            max_digits=12,
            decimal_places=2,
        )


class CurrencyField(forms.RegexField):
    """An ISO 4217 code: three capital letters, EUR unless changed."""

    def __init__(self, **kwargs: Any) -> None:
        options: dict[str, Any] = {"label": _("Currency"), "initial": "EUR"}
        super().__init__(
            r"^[A-Z]{3}\Z",
            **(options | kwargs),
            max_length=3,
            error_messages={"invalid": _("Three capital letters (ISO 4217), such as EUR.")},
        )
