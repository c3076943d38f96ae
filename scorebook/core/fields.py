"""Form fields that mean the same on every form: the stake of a game and its currency (an evening's,
a club night's)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from .cleaning import DecimalField


class StakeField(DecimalField):
    """The money a point is worth: empty (no money), or 0 to 10,000 with up to four decimals (what
    ``stake`` holds on an evening and on a night), in the digits 0-9 (``cleaning.DecimalField``)."""

    def __init__(self, **kwargs):
        options = {"label": _("Stake per point"), "required": False}
        super().__init__(**(options | kwargs), min_value=0, max_value=10_000, max_digits=9, decimal_places=4)

    def widget_attrs(self, widget):
        return super().widget_attrs(widget) | {"inputmode": "decimal"}  # a phone's keyboard with the decimal point


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
