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


def lose_the_site(accounts: bool = True):
    """Every club, evening, night, player and account (unless not ``accounts``) gone, as on a new machine
    before a restore. The site never deletes a payment (they outlive everything: ``PROTECT``), so a test
    that simulates the loss of the whole database removes them first, records before what they protect."""
    from django.contrib.auth import get_user_model

    from scorebook.clubs.models import Club, Player
    from scorebook.evenings.models import Evening, Payment, PaymentCancellation
    from scorebook.ledger.models import Expense, Prize
    from scorebook.nights.models import Night, NightPayment

    for model in (PaymentCancellation, NightPayment, Payment, Expense, Prize, Evening, Night, Player, Club):
        model.objects.all().delete()
    if accounts:
        get_user_model().objects.all().delete()
