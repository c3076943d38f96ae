"""The club's kitty worked through a season by hand (issue 28, point 7; docs/rules/money.md).

De Troef plays kleurenwiezen at €0.10 a point and charges €1 a player an evening. Its spring season
(total points) has prizes of €20 and €10. Three evenings of Anne, Bert, Carl and Dina:

1. samen 8, Anne and Carl, 8 tricks: Anne +8, Carl +8, Bert -8, Dina -8 (€0.80 each way);
2. samen 8, Bert and Dina, 9 tricks: Bert +11, Dina +11, Anne -11, Carl -11 (€1.10);
3. alleen 5, Anne, 5 tricks: Anne +9, the others -3 each (€0.90 and €0.30).

Season: Anne +6 (1st), Bert 0 and Dina 0 (2nd together: one evening won each, the tie-break cannot
separate them), Carl -6. The prizes: Anne €20; Bert and Dina share places 2 and 3, €10 + €0, €5 each.
Money: Anne +0.60, Bert 0.00, Carl -0.60, Dina 0.00; fees €3 each (€12 for the kitty).

Balances once the prizes are awarded: Anne 0.60 - 3 + 20 = 17.60, Bert 2.00, Carl -3.60, Dina 2.00,
the kitty 12 - 30 = -18.00 (it owes more than it is owed). Carl pays his €3 of fees into the kitty
(Carl -0.60, the kitty -21.00), the kitty hands Anne her €20 (Anne -2.40, the kitty -1.00), and it
spends €15 on cards: it holds 3 - 20 - 15 = -32.00 (the treasurer advanced it), and is worth
-1.00 + -32.00 = 12 - 30 - 15 = -33.00.
"""

from datetime import date
from decimal import Decimal

import pytest
from django.urls import reverse

from builders import club_evening
from pages import body
from scorebook.clubs.models import Player, Season
from scorebook.ledger import books
from scorebook.ledger.models import Prize

# the kitty's money, summed in SQL (ledger/books.py): both databases
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

MINUS = "\u2212"

EVENINGS = [
    (date(2025, 4, 3), {"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": 8}),
    (date(2025, 4, 10), {"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": 9}),
    (date(2025, 4, 17), {"contract": "alleen-5", "declarers": ["Anne"], "tricks": 5}),
]


def euros(text: str) -> Decimal:
    return Decimal(text)


@pytest.fixture
def season(club, admin, scorer, client):
    client.force_login(admin)
    response = client.post(reverse("club_kitty_fees", args=[club.slug]), {"evening_fee": "1", "night_fee": ""})
    assert response.status_code == 302
    for day, deal in EVENINGS:
        club_evening(club, scorer, day, [deal])
    return Season.objects.create(
        club=club,
        name="Spring 2025",
        start=date(2025, 4, 1),
        end=date(2025, 6, 30),
        ruleset="kleurenwiezen",
        prizes=["20.00", "10.00"],
    )


def balances(club) -> dict[str, Decimal]:
    return {b.name: b.net for b in books.balances(club) if b.net}


def test_a_season_with_fees_an_expense_and_prizes_adds_up_by_hand(club, season, client):
    assert balances(club) == {
        "Anne": euros("-2.40"),
        "Carl": euros("-3.60"),
        "Bert": euros("-3.00"),
        "Dina": euros("-3.00"),
        "the club's kitty": euros("12.00"),
    }
    page = body(client.get(reverse("season", args=[club.slug, season.pk])))
    assert "Award the prizes" in page and "€20.00" in page
    client.post(reverse("season_prizes", args=[club.slug, season.pk]))
    client.post(reverse("season_prizes", args=[club.slug, season.pk]))  # a second tap awards nothing more
    awarded = sorted((p.player.name, p.place, p.amount) for p in Prize.objects.all())
    assert awarded == [("Anne", 1, euros("20.00")), ("Bert", 2, euros("5.00")), ("Dina", 2, euros("5.00"))]
    assert balances(club) == {
        "Anne": euros("17.60"),
        "Bert": euros("2.00"),
        "Carl": euros("-3.60"),
        "Dina": euros("2.00"),
        "the club's kitty": euros("-18.00"),
    }
    carl, anne = Player.objects.get(club=club, name="Carl"), Player.objects.get(club=club, name="Anne")
    kitty_payment = reverse("club_kitty_payment", args=[club.slug])

    def pay(direction, player, amount, note, key):
        fields = {"direction": direction, "player": player.pk, "amount": amount, "note": note, "key": key}
        return client.post(kitty_payment, {f"pay-{name}": value for name, value in fields.items()})

    pay("in", carl, "3", "fees", "carl")
    pay("out", anne, "20", "prize", "anne")
    pay("out", anne, "20", "prize", "anne")  # the same form twice: recorded once
    response = client.post(
        reverse("club_kitty_expense", args=[club.slug]),
        {"expense-amount": "15", "expense-day": "2025-07-01", "expense-note": "cards"},
    )
    assert response.status_code == 302
    assert balances(club) == {
        "Anne": euros("-2.40"),
        "Bert": euros("2.00"),
        "Carl": euros("-0.60"),
        "Dina": euros("2.00"),
        "the club's kitty": euros("-1.00"),
    }
    kitty = books.kitty(club)
    assert (kitty.owed, kitty.held, kitty.expenses) == (
        {"EUR": euros("-1.00")},
        {"EUR": euros("-32.00")},
        {"EUR": euros("15.00")},
    )
    assert kitty.rows()[0]["worth"] == f"{MINUS}€33.00"
    # the settle-up among the players leaves the kitty apart; with it, it is one more party
    among_players = books.settle(books.balances(club), with_kitty=False)
    assert [(x.payer, x.payee, x.amount) for x in among_players.lines] == [("Carl", "Anne", euros("0.60"))]
    with_kitty = books.settle(books.balances(club), with_kitty=True)
    assert with_kitty.proved and len(with_kitty.lines) == 4
    settled = {b.key: b.net for b in books.balances(club)}
    for line in with_kitty.lines:
        settled[line.payer_key] += line.amount
        settled[line.payee_key] -= line.amount
    assert not any(settled.values())
    # the pages say so
    kitty_page = body(client.get(reverse("club_kitty", args=[club.slug])))
    assert f"{MINUS}€32.00" in kitty_page and "€15.00" in kitty_page and "cards" in kitty_page
    assert "Each player who takes part in an evening owes the kitty €1.00." in kitty_page
    ledger_page = body(client.get(reverse("club_ledger", args=[club.slug])))
    assert "the club&#x27;s kitty" in ledger_page.lower() or "the club's kitty" in ledger_page.lower()
    history = body(client.get(reverse("club_ledger", args=[club.slug])))
    assert "a prize of" in history and "The kitty spent" in history
    settle_page = body(client.get(reverse("club_settle_up", args=[club.slug]) + "?kitty=1"))
    assert "4 payments clear the club: the fewest possible" in settle_page


def test_a_fee_applies_from_the_next_evening_on(club, admin, scorer, client):
    first = club_evening(club, scorer, date(2025, 4, 3), [EVENINGS[0][1]])
    client.force_login(admin)
    client.post(reverse("club_kitty_fees", args=[club.slug]), {"evening_fee": "1,50", "night_fee": "2"})
    second = club_evening(club, scorer, date(2025, 4, 10), [EVENINGS[1][1]])
    assert (first.kitty_fee, second.kitty_fee) == (None, euros("1.50"))
    assert books.kitty(club).owed == {"EUR": euros("6.00")}


@pytest.mark.parametrize(
    ("fee", "refusal"),
    [("0", "A fee is more than 0 and at most 1,000.00"), ("1000.01", "A fee is more than 0 and at most 1,000.00")],
)
def test_a_fee_out_of_bounds_is_refused_next_to_its_field(club, admin, client, fee, refusal):
    client.force_login(admin)
    response = client.post(reverse("club_kitty_fees", args=[club.slug]), {"evening_fee": fee, "night_fee": ""})
    assert response.status_code == 422 and refusal in body(response)
    club.refresh_from_db()
    assert club.kitty_evening_fee is None
