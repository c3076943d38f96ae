"""Every address that answers both a page and, to htmx, a fragment of it varies on HX-Request
(issue 30, item 2): otherwise the browser's cache gives the fragment for the page (Back after the
waiting deals were sent showed a bare board, without styles, header or scripts). The browser test
with Back is tests/browser/test_waiting_deals_kept.py; here each such address is asked both ways.

Found by reading every view that looks at ``request.htmx`` on a GET: the scoring page (its board),
the chart (its live part), and the cancel confirmation of a payment (one page for the settlement's
and the ledger's payments: the line in place)."""

from datetime import date

import pytest
from django.urls import reverse

from builders import club_evening
from scorebook.evenings.models import Payment

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

SAMEN_9 = {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}


def addresses(club, scorer, client) -> dict[str, str]:
    evening = club_evening(club, scorer, date(2026, 9, 10), [SAMEN_9])
    client.post(
        reverse("club_ledger_paid", args=[club.slug]),
        {"evening": evening.pk, "payer": "Bert", "payee": "Anne", "amount": "1.40"},
    )
    payment = Payment.objects.get()
    return {
        "evening": reverse("evening", args=[evening.pk]),
        "evening_chart": reverse("evening_chart", args=[evening.pk]),
        "payment_cancel": reverse("payment_cancel", args=[payment.pk]),  # the one cancellation, the ledger's too
    }


def test_each_page_with_a_fragment_varies_on_hx_request(client, club, scorer):
    client.force_login(scorer)
    for name, url in addresses(club, scorer, client).items():
        page = client.get(url)
        fragment = client.get(url, headers={"HX-Request": "true"})
        assert page.status_code == fragment.status_code == 200, name
        assert "<html" in page.content.decode() and "<html" not in fragment.content.decode(), name
        for answer in (page, fragment):
            assert "HX-Request" in [v.strip() for v in answer.get("Vary", "").split(",")], name
