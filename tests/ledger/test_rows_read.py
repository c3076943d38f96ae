"""What the money pages read does not grow with the club (issue 28, point 2): the rows each page fetches
from the database, counted at the cursor, are the same for a club of 20 evenings as for one of 200,
and pinned here, so that a page that starts reading the whole club's history (a row per evening or per
payment) fails this test before it fails a treasurer. (Time is ``make bench``'s business.)

Both clubs are built alike: weekly evenings of six players, every transfer paid but the last two
evenings', a club night, payments on account, a fee and an expense of the kitty."""

from __future__ import annotations

from contextlib import contextmanager
from datetime import date
from decimal import Decimal

import pytest
from django.db.backends.utils import CursorWrapper
from django.test import Client
from django.urls import reverse

import night_builders
from bench import synthetic as syn
from scorebook.clubs.models import Player
from scorebook.evenings.models import Evening
from scorebook.league.views import player as player_view
from scorebook.ledger import services as ledger

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

# Rows read by each money page (the same at 20 and at 200 evenings).
PINNED = {
    "ledger": 93,
    "settle_up": 33,
    "settle_up_with_kitty": 33,
    "kitty": 43,
    "history": 35,
    "player_money": 67,
    "settlement": 9,
}


@contextmanager
def rows_read():
    """Counts the rows the database hands over (every fetch of every cursor) while inside."""
    counted = {"rows": 0}
    names = ("fetchone", "fetchmany", "fetchall")  # Django's cursor hands them over from the driver's

    def counting(name):
        def fetch(self, *args, **kwargs):
            got = self.db.wrap_database_errors(getattr(self.cursor, name))(*args, **kwargs)
            counted["rows"] += (got is not None) if name == "fetchone" else len(got)
            return got

        return fetch

    for name in names:
        setattr(CursorWrapper, name, counting(name))
    try:
        yield counted
    finally:
        for name in names:
            delattr(CursorWrapper, name)


def make_club(size: int, user):
    club = syn.make_club(user, name=f"Club of {size}", slug=f"club-{size}")
    history = syn.build_history(club, user, evenings=size, deals_per_evening=4, last_day=date(2026, 6, 25), unpaid=2)
    anne, bert, carl = (Player.objects.get(club=club, name=n) for n in ("Anne", "Bert", "Carl"))
    ledger.set_fees(club, Decimal("1.00"), Decimal("2.00"))
    night = night_builders.night(
        club,
        user,
        [*syn.PLAYERS, "Gust", "Hugo"],
        1,
        2,
        stake=Decimal("0.10"),
        name="Herfstavond",
        day=date(2026, 7, 2),
        seed=0,
        ranking_link=False,
    )
    import random

    rng = random.Random(size)
    from scorebook.evenings import services

    for table in night.night_sessions.get().tables.select_related("evening"):
        names = [s.name for s in table.evening.seats.all()]
        for deal in syn.make_deals(2, rng, players=names, first_dealer=0):
            services.record_deal(table.evening, deal, user)
    ledger.record_on_account(club, anne, bert, Decimal("2.00"), "EUR", user, note="coffee")
    ledger.record_kitty_payment(club, carl, Decimal("5.00"), "EUR", user, into=True)
    ledger.record_expense(club, Decimal("12.50"), "EUR", date(2026, 7, 1), "cards", user)
    return club, anne, Evening.objects.get(pk=history.evening_ids[-1])


def rows_of_each_page(club, player, evening, user) -> dict[str, int]:
    client = Client()
    client.force_login(user)
    pages = {
        "ledger": reverse("club_ledger", args=[club.slug]),
        "settle_up": reverse("club_settle_up", args=[club.slug]),
        "settle_up_with_kitty": reverse("club_settle_up", args=[club.slug]) + "?kitty=1",
        "kitty": reverse("club_kitty", args=[club.slug]),
        "history": reverse("club_ledger_history", args=[club.slug]),
        "settlement": reverse("settlement", args=[evening.pk]),
    }
    out = {}
    client.get(pages["ledger"])  # the session and the user, read once before counting
    for name, url in pages.items():
        with rows_read() as counted:
            assert client.get(url).status_code == 200
        out[name] = counted["rows"]
    with rows_read() as counted:
        player_view.money(club, player)
    out["player_money"] = counted["rows"]
    return out


def test_the_money_pages_read_as_many_rows_at_200_evenings_as_at_20():
    user = syn.make_user("treasurer")
    small = rows_of_each_page(*make_club(20, user), user)
    large = rows_of_each_page(*make_club(200, user), user)
    assert large == small
    assert small == PINNED
