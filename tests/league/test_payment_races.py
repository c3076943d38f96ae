"""Two phones, one payment (issue 19 for payments, with the harness of ``races``): marking a transfer
paid, cancelling a payment, a free payment and a payment on account (the settle-up's line) fired
twice at the same moment leave what one request alone would leave; the one that lost is told; no 500.
"""

from datetime import date
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.urls import reverse

from builders import club_evening
from races import HTMX, Shot, race, said
from scorebook.clubs.models import Player
from scorebook.evenings import payments
from scorebook.evenings.models import Payment, Seat

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]

SAMEN_9 = {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}  # Bert pays Anne 1.40, Dina Carl 1.40


def unpaid(evening) -> dict[str, Decimal]:
    return dict(Seat.objects.filter(evening=evening).values_list("name", "unpaid"))


@pytest.mark.parametrize("where", ["settlement", "ledger"])
def test_it_marks_a_transfer_paid_once_when_two_phones_tap_paid(club, scorer, admin, where):
    def setup(n):
        evening = club_evening(club, scorer, date(2026, 9, 1 + n), [SAMEN_9])
        if where == "settlement":
            url, data = reverse("payment_toggle", args=[evening.pk]), {"paid": "1"}
        else:
            url, data = reverse("club_ledger_paid", args=[club.slug]), {"evening": evening.pk}
        return SimpleNamespace(
            evening=evening, url=url, data=data | {"payer": "Bert", "payee": "Anne", "amount": "1.40"}
        )

    def shots(s):
        return [Shot(scorer, "post", s.url, s.data), Shot(admin, "post", s.url, s.data)]

    def check(s, answers):
        assert Payment.objects.filter(evening=s.evening).count() == 1
        assert unpaid(s.evening)["Anne"] == Decimal("0.00") and unpaid(s.evening)["Bert"] == Decimal("0.00")

    race(setup, shots, check)


@pytest.mark.parametrize("where", ["settlement", "ledger"])
def test_it_cancels_a_payment_once_when_two_phones_confirm(club, scorer, admin, where):
    def setup(n):
        evening = club_evening(club, scorer, date(2026, 9, 1 + n), [SAMEN_9])
        payment, _ = payments.record_payment(evening, "Bert", "Anne", Decimal("1.40"), scorer)
        url = reverse("payment_cancel", args=[payment.pk])
        back = {"settlement": {}, "ledger": {"next": reverse("club_ledger", args=[club.slug]), "target": "ledger"}}
        return SimpleNamespace(evening=evening, payment=payment, url=url, back=back[where])

    def shots(s):  # each phone follows where its cancel goes back to, as htmx does
        return [
            Shot(scorer, "post", s.url, {"reason": "mine"} | s.back, headers=HTMX, follow=True),
            Shot(admin, "post", s.url, {"reason": "admin"} | s.back, headers=HTMX, follow=True),
        ]

    def check(s, answers):
        s.payment.refresh_from_db()
        assert s.payment.cancelled and Payment.objects.filter(evening=s.evening).count() == 1
        assert said(answers, "This payment was cancelled already.") == 1
        assert unpaid(s.evening)["Anne"] == Decimal("1.40")

    race(setup, shots, check)


def test_it_records_a_free_payment_once_when_its_form_is_sent_twice(club, scorer):
    def setup(n):
        evening = club_evening(club, scorer, date(2026, 9, 1 + n), [SAMEN_9])
        data = {"payer": "Bert", "payee": "Anne", "amount": "0,40", "note": "", "key": f"free-{n}"}
        return SimpleNamespace(evening=evening, url=reverse("payment_add", args=[evening.pk]), data=data)

    def shots(s):
        return [Shot(scorer, "post", s.url, s.data)] * 2

    def check(s, answers):
        assert list(Payment.objects.filter(evening=s.evening).values_list("amount", flat=True)) == [Decimal("0.40")]
        assert unpaid(s.evening)["Anne"] == Decimal("1.00")

    race(setup, shots, check)


def test_it_records_a_payment_on_account_once_when_its_form_is_sent_twice(club, scorer):
    club_evening(club, scorer, date(2026, 9, 1), [SAMEN_9])
    bert, anne = Player.objects.get(club=club, name="Bert"), Player.objects.get(club=club, name="Anne")
    url = reverse("club_ledger_pay", args=[club.slug])

    def setup(n):
        return SimpleNamespace(
            data={"payer": bert.pk, "payee": anne.pk, "amount": "1,40", "note": "", "key": f"acc-{n}"}
        )

    def shots(s):
        return [Shot(scorer, "post", url, s.data)] * 2

    def check(s, answers):
        assert Payment.objects.filter(request_key=s.data["key"]).count() == 1

    race(setup, shots, check)
