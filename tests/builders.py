"""Building data for tests through the real services."""

from decimal import Decimal

from scorebook.evenings import creation, services

PLAYERS = ("Anne", "Bert", "Carl", "Dina")


def club_evening(club, user, day, deals=(), players=PLAYERS, ruleset="kleurenwiezen", stake="0.10"):
    """An evening of ``club`` on ``day`` with ``deals`` recorded one by one."""
    evening = creation.create_evening(
        ruleset=ruleset,
        players=list(players),
        first_dealer=0,
        stake=Decimal(stake) if stake else None,
        currency="EUR",
        date=day,
        user=user,
        club=club,
    )
    for deal in deals:
        services.record_deal(evening, deal, user)
    return evening
