"""Numbers and words for people, shared by every page: the active language, signed points,
money, the tone (colour class) of a figure. Presentation only: no model, no scoring."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from django.utils import translation
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from scorebook.rules.model import LANGS
from scorebook.rules.scoring import BETE

MINUS = "\u2212"  # a real minus sign: "−0,20 €"
NBSP = "\u00a0"
SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£", "JPY": "¥"}


def lang() -> str:
    """The active language among the engine's (fr, nl, en); French when it is another."""
    code = (translation.get_language() or "fr").split("-")[0].lower()
    return code if code in LANGS else "fr"


def tone(value: int | Decimal | Fraction) -> str:
    """The class that colours a number of points or an amount of money."""
    return "pos" if value > 0 else "neg" if value < 0 else "zero"


def signed_points(value: int) -> str:
    """+12, −4 (a true minus sign), 0."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"{MINUS}{-value}"
    return "0"


def money_text(amount: Decimal, currency: str, *, signed: bool = False, places: int = 2) -> str:
    """``Decimal("-0.20"), "EUR"`` -> "−0,20 €" in French, "€ −0,20" in Dutch, "−€0.20" in English."""
    digits = number_format(abs(amount), places, use_l10n=True, force_grouping=True)
    sign = MINUS if amount < 0 else ("+" if signed and amount > 0 else "")
    symbol = SYMBOLS.get(currency.upper(), currency)
    code = lang()
    if code == "en" and symbol in SYMBOLS.values():
        return f"{sign}{symbol}{digits}"
    if code == "nl":
        return f"{symbol}{NBSP}{sign}{digits}"
    return f"{sign}{digits}{NBSP}{symbol}"


def stake_text(stake: Decimal, currency: str) -> str:
    """The stake keeps its own precision: 0.025 is "0,025 €", 0.1 is "0,10 €"."""
    exponent = stake.normalize().as_tuple().exponent
    places = min(4, max(2, -exponent)) if isinstance(exponent, int) else 2
    return money_text(stake, currency, places=places)


def party_label(name: str) -> str:
    """A party of a transfer: a player's name, or the bête's."""
    return _("the bête") if name == BETE else name


def decimal_text(value: Fraction | None, places: int = 1) -> str:
    """An average or a share, signed, in the language's decimals; "–" for none."""
    if value is None:
        return "–"
    number = round(Decimal(value.numerator) / Decimal(value.denominator), places)
    text = number_format(abs(number), places, use_l10n=True)
    return (MINUS if number < 0 else "+" if number > 0 else "") + text
