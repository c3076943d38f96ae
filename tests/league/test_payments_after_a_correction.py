"""Payments survive a correction (docs/rules/money.md): the settlement is computed anew and what was already
paid is netted against it; the ledger and the settlement page show what remains, in whichever
direction, and the settlement page what was paid.

Kleurenwiezen, Anne Bert Carl Dina, stake 0.10, figures worked out by hand (docs/rules/kleurenwiezen.md):

  1. samen 9, Anne + Carl, 10 tricks (one over): Anne +14, Carl +14, Bert -14, Dina -14
  2. alleen 5, Bert, 5 tricks: Bert +9, the others -3
  totals Anne 11, Bert -5, Carl 11, Dina -17; money 1.10, -0.50, 1.10, -1.70
  no smaller zero-sum group: Dina pays Anne 1.10 (the largest debtor the largest creditor, Anne
  before Carl), then Carl 0.60; Bert pays Carl 0.50.
  Paid: Bert -> Carl 0.50 and Dina -> Anne 1.10.

  Correction of deal 1: 9 tricks (exact): 11 each. Totals Anne 8, Bert -2, Carl 8, Dina -14;
  money 0.80, -0.20, 0.80, -1.40.
  Netted against the payments: Anne 0.80 - 1.10 received = -0.30; Bert -0.20 + 0.50 paid = +0.30
  (he paid too much: now he is owed); Carl 0.80 - 0.50 = +0.30; Dina -1.40 + 1.10 = -0.30 (she owes
  less than the 0.60 left before). Two zero-sum pairs, Anne's with Bert first (player order):
  Anne pays Bert 0.30, Dina pays Carl 0.30.
  (Before: the ledger listed the new settlement as if nothing had been paid: Bert pays Carl 0.20,
  Dina pays Anne 0.80 and Carl 0.60, and the 1.60 paid was lost.)
"""

import re
from datetime import date
from decimal import Decimal

import pytest
from django.urls import reverse

from builders import club_evening
from pages import body
from scorebook.evenings import payments, services
from scorebook.evenings.models import Payment

# the ledger's money, summed in SQL (ledger/books.py): both databases
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

MINUS = "\u2212"
DEALS = [
    {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10},
    {"contract": "alleen-5", "declarers": ["Bert"], "tricks": 5},
]


def clean(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def ledger_transfers(html):
    return [clean(t) for t in re.findall(r'<p class="transfer-text">(.*?)</p>', html, re.DOTALL)]


def ledger_balances(html):
    out = {}
    for li in re.findall(r'<li class="balance[^"]*">(.*?)</li>', html, re.DOTALL):
        name = clean(re.search(r'<span class="balance-name">(.*?)</span>', li, re.DOTALL).group(1))
        out[name] = clean(
            re.search(r'<span class="balance-money figure">(.*?)</span>\s*$', li.strip(), re.DOTALL).group(1)
        )
    return out


def settlement_rows(html):
    """[(text, "paid" | "due")] of the settlement page's transfers."""
    section = re.search(r'<section id="transfers".*?</section>', html, re.DOTALL).group(0)
    rows = []
    for cls, li in re.findall(r'<li class="transfer( is-paid)?">(.*?)</li>', section, re.DOTALL):
        text = clean(re.search(r'<p class="transfer-text">(.*?)</p>', li, re.DOTALL).group(1))
        text = re.sub(r" (marked )?paid on .*$", "", text)
        rows.append((text, "paid" if cls else "due"))
    return rows


@pytest.fixture
def corrected(club, scorer):
    evening = club_evening(club, scorer, date(2026, 9, 10), DEALS)
    assert [(t["from"], t["to"], t["amount"]) for t in evening.summary["transfers"]] == [
        ("Bert", "Carl", "0.50"),
        ("Dina", "Anne", "1.10"),
        ("Dina", "Carl", "0.60"),
    ]
    for payer, payee, amount in (("Bert", "Carl", "0.50"), ("Dina", "Anne", "1.10")):
        payments.record_payment(evening, payer, payee, Decimal(amount), scorer)
    services.edit_deal(evening, 1, {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 9}, scorer, None)
    return evening


def test_it_lists_in_the_ledger_only_what_remains_after_the_payments(scorer_client, club, corrected):
    html = body(scorer_client.get(reverse("club_ledger", args=[club.slug])))
    assert ledger_transfers(html) == ["Anne pays Bert €0.30", "Dina pays Carl €0.30"]
    assert ledger_balances(html) == {
        "Anne": f"{MINUS}€0.30",
        "Bert": "+€0.30",
        "Carl": "+€0.30",
        "Dina": f"{MINUS}€0.30",
    }
    assert "Bert paid Carl €0.50" in clean(html) and "Dina paid Anne €1.10" in clean(html)
    assert Payment.objects.filter(evening=corrected).count() == 2  # nothing was lost


def test_it_shows_on_the_settlement_page_what_was_paid_and_what_remains(scorer_client, corrected):
    html = body(scorer_client.get(reverse("settlement", args=[corrected.pk])))
    assert settlement_rows(html) == [
        ("Bert paid Carl €0.50", "paid"),
        ("Dina paid Anne €1.10", "paid"),
        ("Anne pays Bert €0.30", "due"),
        ("Dina pays Carl €0.30", "due"),
    ]


def test_it_settles_the_rest_from_the_ledger_and_then_nothing_is_open(scorer_client, club, corrected):
    url = reverse("club_ledger_paid", args=[club.slug])
    for payer, payee in (("Anne", "Bert"), ("Dina", "Carl")):
        response = scorer_client.post(url, {"evening": corrected.pk, "payer": payer, "payee": payee, "amount": "0.30"})
        assert response.status_code == 302
    html = body(scorer_client.get(reverse("club_ledger", args=[club.slug])))
    assert ledger_transfers(html) == []
    assert 'id="ledger-empty"' in html
    assert Payment.objects.filter(evening=corrected).count() == 4


def test_it_does_not_ask_again_for_a_payment_a_double_tap_repeats(scorer_client, club, corrected):
    url = reverse("club_ledger_paid", args=[club.slug])
    data = {"evening": corrected.pk, "payer": "Anne", "payee": "Bert", "amount": "0.30"}
    scorer_client.post(url, data)
    scorer_client.post(url, data)
    assert Payment.objects.filter(evening=corrected, payer="Anne", payee="Bert").count() == 1
    html = body(scorer_client.get(reverse("club_ledger", args=[club.slug])))
    assert ledger_transfers(html) == ["Dina pays Carl €0.30"]


def test_it_lets_the_same_amount_be_paid_again_when_a_second_correction_asks_for_it(
    scorer_client, club, corrected, scorer
):
    # the correction undone: the first settlement again; Bert's 0.50 and Dina's 1.10 settle it but for Dina -> Carl 0.60
    services.edit_deal(corrected, 1, DEALS[0], scorer, None)
    html = body(scorer_client.get(reverse("club_ledger", args=[club.slug])))
    assert ledger_transfers(html) == ["Dina pays Carl €0.60"]


def test_a_payment_no_transfer_asks_for_after_a_correction_stays_and_counts_on_account(scorer_client, club, scorer):
    """10 Sept: samen 9 made by Anne and Carl: Bert pays Anne 1.40, Dina pays Carl 1.40; Bert pays.
    Corrected: Bert and Dina made it: Anne pays Bert 1.40, Carl pays Dina 1.40. Bert's 1.40 to Anne
    matches no transfer any more: it stays, says it counts on account, and every balance nets it:
    Anne -1.40 - 1.40 received = -2.80, Bert +1.40 + 1.40 paid = +2.80."""
    evening = club_evening(club, scorer, date(2026, 9, 10), [DEALS[0]])
    scorer_client.post(
        reverse("payment_toggle", args=[evening.pk]), {"payer": "Bert", "payee": "Anne", "amount": "1.40"}
    )
    services.edit_deal(evening, 1, {"contract": "samen-9", "declarers": ["Bert", "Dina"], "tricks": 10}, scorer, None)
    page = clean(body(scorer_client.get(reverse("settlement", args=[evening.pk]))))
    assert "Bert paid Anne €1.40" in page and "it counts on account, netted in every balance" in page
    assert "Anne pays Bert €2.80" in page and "Carl pays Dina €1.40" in page
    html = body(scorer_client.get(reverse("club_ledger", args=[club.slug])))
    assert ledger_balances(html) == {
        "Anne": f"{MINUS}€2.80",
        "Bert": "+€2.80",
        "Carl": f"{MINUS}€1.40",
        "Dina": "+€1.40",
    }
    assert Payment.objects.active().count() == 1
