"""Every seat keeps its figures (points, place, deals, records, money, what is still unpaid) as
the evening's summary and payments say, after every kind of write: the player page adds them up."""

import contextlib
import dataclasses
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rebuilt import rebuilt
from rules.test_properties import evenings
from scorebook.evenings import creation, payments, services, summary
from scorebook.evenings.models import DealRevision, Evening, Seat
from scorebook.rules import evening_file
from scorebook.rules.scoring import DealError

pytestmark = pytest.mark.both_databases  # the site's write path runs in every test here (tests/write_path.py)

CHECK = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def expected(evening) -> list[dict]:
    """Each seat's figures worked out here from a summary rebuilt from the deals and from what
    the settlement netted against the payments leaves open."""
    fresh = Evening.objects.get(pk=evening.pk)
    the_summary = rebuilt(fresh)["summary"]
    assert fresh.summary == the_summary
    entries = the_summary["players"]
    taking = [e for e in entries if e["took_part"]]
    still_open = payments.still_due(fresh)
    out = []
    for e in entries:
        mine = [t for t in still_open if e["name"] in (t.payer, t.payee)]
        counts = the_summary["deals"] > 0 and e["took_part"]
        out.append(
            {
                "position": e["seat"],
                "took_part": e["took_part"],
                "points": e["points"],
                "place": 1 + sum(o["points"] > e["points"] for o in taking) if counts else None,
                "played": e["played"],
                "sat_out": e["sat_out"],
                "best_deal": e["best"],
                "worst_deal": e["worst"],
                "money": Decimal(e["money"]) if e["money"] is not None else None,
                "declared": e["declared"],
                "unpaid": sum((t.amount if t.payee == e["name"] else -t.amount for t in mine), Decimal(0)),
                "open_transfers": len(mine),
            }
        )
    return out


def kept(evening) -> list[dict]:
    return list(
        Seat.objects.filter(evening_id=evening.pk).order_by("position").values("position", *summary.SEAT_FIGURES)
    )


def same(evening, after: str) -> None:
    assert kept(evening) == expected(evening), f"the seats' figures after {after} differ from the summary's"


@pytest.mark.slow
@pytest.mark.django_db
def test_it_keeps_every_seats_figures_as_the_summary_says_after_every_write(scorer):
    @CHECK
    @given(engine=evenings(house=True, max_deals=10), start=st.integers(0, 2), stake=st.booleans(), data=st.data())
    def check(engine, start, stake, data):
        engine = dataclasses.replace(engine, stake=engine.stake if stake else None)
        first = dataclasses.replace(engine, deals=engine.deals[:start])
        evening = creation.import_evening(evening_file.dumps(first), scorer)
        same(evening, "the import")
        for n, deal in enumerate(engine.deals[start:], start=start + 1):
            services.record_deal(evening, evening_file.deal_to_dict(deal), scorer, f"key-{n}")
            same(evening, f"deal {n}")
        deals = [d.data for d in evening.deals.all()]
        if len(deals) >= 2:
            number = data.draw(st.integers(1, len(deals)))
            with contextlib.suppress(DealError):  # a correction the engine refuses changes nothing
                services.edit_deal(evening, number, deals[-1 if number != len(deals) else 0], scorer, None)
            same(evening, f"a correction of deal {number}")
        if deals:
            number = data.draw(st.integers(1, len(deals)))
            try:
                services.delete_deal(evening, number, scorer)
            except DealError:
                pass
            else:
                same(evening, f"deleting deal {number}")
                services.restore_deal(evening, DealRevision.objects.filter(evening=evening).first().pk, scorer)
                same(evening, f"restoring deal {number}")
        due = payments.still_due(evening)
        if due:
            paid = due[data.draw(st.integers(0, len(due) - 1))]
            payment, _created = payments.record_payment(evening, paid.payer, paid.payee, paid.amount, scorer)
            same(evening, "a payment")
            if deals:  # a correction after a payment: the payment is netted against the new settlement
                services.edit_deal(evening, 1, evening.deals.first().data, scorer, None)
                same(evening, "a correction after a payment")
            assert payments.cancel_payment(payment.pk, scorer, admin=False, reason="entered twice")
            same(evening, "a payment cancelled")
        Seat.objects.filter(evening=evening).update(points=0, place=None, unpaid=0, open_transfers=0, declared={})
        services.rebuild(evening)
        same(evening, "a rebuild")

    check()
