"""The benchmark's club is written in bulk (bench/synthetic.py): it must store what the site's own
writes store, or the benchmark measures pages reading something else than a real club's."""

from datetime import date

import pytest

from bench import synthetic as syn
from scorebook.evenings.models import Evening
from scorebook.evenings.summary import SEAT_FIGURES

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


def test_it_stores_in_bulk_what_recording_each_deal_stores(django_user_model):
    treasurer = syn.make_user("bench", first_name="Bench")
    club = syn.make_club(treasurer, name="Club de la Couleur", slug="couleur")
    history = syn.build_history(club, treasurer, evenings=3, deals_per_evening=12, last_day=date(2026, 6, 25))
    for pk in history.evening_ids:
        bulk = Evening.objects.get(pk=pk)
        recorded = syn.make_evening(
            club, treasurer, bulk.date, [d.data for d in bulk.deals.order_by("number")], first_dealer=bulk.first_dealer
        )
        recorded.refresh_from_db()
        assert bulk.state and bulk.deals.filter(result__isnull=True).count() == 0
        assert syn.stored_alike(recorded, bulk)
        figures = [list(e.seats.values_list("position", *SEAT_FIGURES)) for e in (recorded, bulk)]
        if bulk.payments.exists():  # the bulk history settles its past evenings: the money figures differ
            continue
        assert figures[0] == figures[1]
