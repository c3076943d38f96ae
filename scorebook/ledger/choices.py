"""What the money pages offer and name besides the figures: a variant's name, the club's players as a
form's choices, the currency of a new payment."""

from __future__ import annotations

from scorebook.clubs.models import Club, Player
from scorebook.core.collation import sort_key
from scorebook.core.formatting import lang
from scorebook.evenings.models import Evening
from scorebook.rules import registry
from scorebook.rules.model import RulesError


def variant_name(ruleset: str) -> str:
    try:
        return registry.get(ruleset).names.get(lang())
    except RulesError:
        return ruleset


def players(club: Club) -> list[tuple[int, str]]:
    """The club's players as a list of choices, in the roster's order (collated: Élise beside Elise)."""
    return sorted(Player.objects.filter(club=club).values_list("pk", "name"), key=lambda p: sort_key(p[1]))


def club_currency(club: Club) -> str:
    """The currency of the club's latest evening with a stake (what a payment on account is in)."""
    latest = (
        Evening.objects.filter(club=club, stake__isnull=False)
        .order_by("-date", "-pk")
        .values_list("currency", flat=True)
    ).first()
    return latest or "EUR"
