"""Settle up (issue 21, point 2): one screen with the fewest payments that clear the club across its
evenings, each recorded as paid where it is shown (in full or in part); a player's page says what he
owes and is owed, and to whom.

Kleurenwiezen, stake 0.10: samen 9 made with 10 tricks is 14 points each (1.40).
  10 Sept: Anne and Carl win: Bert pays Anne 1.40, Dina pays Carl 1.40.
  17 Sept: Bert and Dina win: Anne pays Bert 1.40, Carl pays Dina 1.40.
  24 Sept: as on 10 Sept.
Evening by evening: 6 transfers. Netted: Anne +1.40, Bert -1.40, Carl +1.40, Dina -1.40, two zero-sum
pairs (Bert with Anne first, in the order of the balances): 2 payments.
"""

import re
from datetime import date
from decimal import Decimal

import pytest
from django.urls import reverse

from builders import club_evening
from pages import body
from scorebook.clubs.models import Player
from scorebook.evenings.models import Payment

# the ledger's money, summed in SQL (ledger/books.py): both databases
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

AC = {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}
BD = {"contract": "samen-9", "declarers": ["Bert", "Dina"], "tricks": 10}


def text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def evenings(club, scorer):
    return [club_evening(club, scorer, date(2026, 9, day), [deal]) for day, deal in ((10, AC), (17, BD), (24, AC))]


def page(client, club):
    return text(body(client.get(reverse("club_settle_up", args=[club.slug]))))


def test_it_clears_the_club_with_the_fewest_payments_across_evenings(scorer_client, club, evenings):
    shown = page(scorer_client, club)
    assert "2 payments clear the club: the fewest possible" in shown  # instead of 6 evening by evening
    assert re.findall(r"(\w+) → (\w+) (€[\d.]+)", shown) == [("Bert", "Anne", "€1.40"), ("Dina", "Carl", "€1.40")]


def line_form(html, n: int) -> dict:
    """The hidden fields of the n-th line's "paid" form (1-based)."""
    item = re.search(rf'<li class="transfer" id="line-{n}">(.*?)</li>', html, re.DOTALL).group(1)
    form = re.search(r"<form[^>]*>(.*?)</form>", item, re.DOTALL).group(1)
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))


def test_a_line_recorded_paid_is_a_payment_on_account_and_the_club_is_cleared(scorer_client, scorer, club, evenings):
    html = body(scorer_client.get(reverse("club_settle_up", args=[club.slug])))
    data = line_form(html, 1)
    bert, anne = Player.objects.get(club=club, name="Bert"), Player.objects.get(club=club, name="Anne")
    assert data["line"] == f"{bert.pk}:{anne.pk}:EUR"
    response = scorer_client.post(reverse("club_settle_up_paid", args=[club.slug]), data)
    assert response.status_code == 302 and response.url.endswith("/settle-up/#settle-up")
    scorer_client.post(reverse("club_settle_up_paid", args=[club.slug]), data)  # a second tap: nothing more
    payment = Payment.objects.get()
    assert (payment.evening, payment.kind, payment.amount, payment.marked_by, payment.payer_player) == (
        None,
        "account",
        Decimal("1.40"),
        scorer,
        bert,
    )
    shown = page(scorer_client, club)
    assert "1 payment clears the club" in shown and "Dina → Carl €1.40" in shown and "Bert →" not in shown


def part(client, club, html, n: int, amount: str):
    data = line_form(html, n) | {"part": f"part{n}", f"part{n}-amount": amount, f"part{n}-note": "in cash"}
    data["key"] += "-part"
    return client.post(reverse("club_settle_up_paid", args=[club.slug]), data)


def test_part_of_a_line_leaves_the_rest_to_settle(scorer_client, club, evenings):
    html = body(scorer_client.get(reverse("club_settle_up", args=[club.slug])))
    assert part(scorer_client, club, html, 2, "0,40").status_code == 302
    assert "Dina → Carl €1.00" in page(scorer_client, club)
    assert Payment.objects.get().note == "in cash"


@pytest.mark.parametrize(
    ("amount", "refusal"),
    [
        ("999", "Part of it is at most the whole: 1.40."),
        ("1.41", "Part of it is at most the whole: 1.40."),
        ("0", "Ensure this value is greater than or equal to 0.01."),
        ("", "This field is required."),
    ],
)
def test_part_of_a_line_is_at_most_the_line_and_a_refusal_says_so_next_to_the_field(
    scorer_client, club, evenings, amount, refusal
):
    html = body(scorer_client.get(reverse("club_settle_up", args=[club.slug])))
    response = part(scorer_client, club, html, 2, amount)
    assert response.status_code == 422
    form = re.search(r'<li class="transfer" id="line-2">(.*?)</li>', body(response), re.DOTALL).group(1)
    assert refusal in text(form) and '<details class="pay-other no-print" open>' in form
    assert not Payment.objects.exists()


def test_a_line_no_longer_in_the_settle_up_records_nothing_and_says_why(scorer_client, club, evenings, scorer):
    html = body(scorer_client.get(reverse("club_settle_up", args=[club.slug])))
    data = line_form(html, 1)
    from scorebook.evenings import payments

    payments.record_payment(evenings[0], "Bert", "Anne", Decimal("1.40"), scorer)  # paid meanwhile on its evening
    response = scorer_client.post(reverse("club_settle_up_paid", args=[club.slug]), data)
    assert response.status_code == 302 and Payment.objects.count() == 1
    assert "The settle-up has changed since the page was shown" in page(scorer_client, club)


def test_a_players_page_says_what_he_owes_and_is_owed_and_to_whom(scorer_client, club, evenings):
    bert = Player.objects.get(club=club, name="Bert")
    anne = Player.objects.get(club=club, name="Anne")
    shown = text(body(scorer_client.get(reverse("club_player", args=[club.slug, bert.pk]))))
    assert "To settle up" in shown and "Bert owes Anne €1.40" in shown and "Carl" not in shown.split("To settle up")[1]
    shown = text(body(scorer_client.get(reverse("club_player", args=[club.slug, anne.pk]))))
    assert "Bert owes Anne €1.40" in shown.split("To settle up")[1]


def test_a_member_sees_the_settle_up_and_cannot_record(client, cast, club, evenings):
    client.force_login(cast["member"])
    html = body(client.get(reverse("club_settle_up", args=[club.slug])))
    assert "2 payments clear the club" in text(html) and reverse("club_settle_up_paid", args=[club.slug]) not in html
    client.force_login(cast["outsider"])
    assert client.get(reverse("club_settle_up", args=[club.slug])).status_code == 404


def test_it_says_when_nothing_is_to_settle(scorer_client, club, scorer):
    club_evening(club, scorer, date(2026, 9, 10), [AC])
    club_evening(club, scorer, date(2026, 9, 17), [BD])
    shown = page(scorer_client, club)
    assert "Nothing to settle" in shown and "Every balance of the club is clear." in shown
