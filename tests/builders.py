"""Building the tests' evenings through the real services: the one evening builder of the tests.

``club_evening`` makes an evening (of a club, or a private one) and records its deals one by one,
as a phone would; ``conftest.make_evening`` is the same builder bound to Marie, the scorer. The
nights' builder is ``night_builders.night``. What a builder writes is the world a test reads, not
the write path it checks (``write_path.builder``).
"""

from datetime import date
from decimal import Decimal

from scorebook.evenings import creation, services
from write_path import builder

PLAYERS = ("Anne", "Bert", "Carl", "Dina")
DAY = date(2026, 11, 20)
# at a stake of 10,000 a point (the most the form takes), the all pass (all four take part) and Anne
# 999,999 points up on Bert: the most money an evening holds (tests/evenings/test_money_bounds.py)
LARGEST = [{"contract": "pass"}] + [{"adjustment": {"Anne": p, "Bert": -p}} for p in [100_000] * 9 + [99_999]]


@builder
def club_evening(
    club,
    user,
    day=DAY,
    deals=(),
    players=PLAYERS,
    ruleset="kleurenwiezen",
    stake="0.10",
    *,
    currency="EUR",
    first_dealer=0,
    rules=None,
    share=False,
):
    """An evening of ``club`` (None: ``user``'s private evening) on ``day`` with ``deals`` recorded one
    by one by ``user``; ``stake`` None plays for points only. ``share``: its read-only link made, as the
    owner makes it on the share page (only a digest is stored, so the token is kept on the evening as
    ``share_token``)."""
    evening = creation.create_evening(
        ruleset=ruleset,
        players=list(players),
        first_dealer=first_dealer,
        stake=Decimal(stake) if stake is not None else None,
        currency=currency,
        date=day,
        user=user,
        club=club,
        rules=rules,
    )
    for deal in deals:
        services.record_deal(evening, deal, user)
    if share:
        evening.share_token = services.new_share_link(evening)
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
