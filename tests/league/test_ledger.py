"""The club's ledger: transfers left unpaid at the end of evenings, until marked paid.

Kleurenwiezen, four players, stake 0.10 EUR:
  A, 10 Sept (KLEUREN_DEALS): Anne +2, Bert -10, Carl +2, Dina +6.
     Bert pays Anne 0.20, Carl 0.20, Dina 0.60.
  B, 17 Sept (samen 9 made by Anne and Carl): Anne +14, Carl +14, Bert -14, Dina -14.
     Bert pays Anne 1.40, Dina pays Carl 1.40.
  C, 24 Sept, no stake: nothing to pay.
"""

import re
from datetime import date
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from builders import club_evening
from pages import body
from scorebook.clubs.models import Club, Player
from scorebook.evenings import payments
from scorebook.evenings.models import Evening, Payment

# the ledger's money, summed in SQL (ledger/books.py): both databases
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

MINUS = "\u2212"
KLEUREN_DEALS = [
    {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10},
    {"contract": "alleen-5", "declarers": ["Bert"], "tricks": 4},
    {"contract": "pass"},
    {"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": 8},
]
SAMEN = {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}


@pytest.fixture
def evenings(club, scorer):
    a = club_evening(club, scorer, date(2026, 9, 10), KLEUREN_DEALS)
    b = club_evening(club, scorer, date(2026, 9, 17), [SAMEN])
    c = club_evening(club, scorer, date(2026, 9, 24), [SAMEN], stake=None)
    other = Club.objects.create(name="Elders", slug="elders")
    club_evening(other, scorer, date(2026, 9, 12), [SAMEN])
    return {"a": a, "b": b, "c": c}


def ledger_url(club):
    return reverse("club_ledger", args=[club.slug])


def paid_url(club):
    return reverse("club_ledger_paid", args=[club.slug])


def clean(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def balances(html):
    """{name: balance} as the ledger shows them."""
    out = {}
    for li in re.findall(r'<li class="balance[^"]*">(.*?)</li>', html, re.DOTALL):
        name = clean(re.search(r'<span class="balance-name">(.*?)</span>', li, re.DOTALL).group(1))
        out[name] = clean(
            re.search(r'<span class="balance-money figure">(.*?)</span>\s*$', li.strip(), re.DOTALL).group(1)
        )
    return out


def open_transfers(html):
    """[(evening id, "payer pays payee amount")] in the order of the page."""
    out = []
    for pk, section in re.findall(
        r'<article class="ledger-evening" aria-labelledby="ledger-evening-(\d+)">(.*?)</article>', html, re.DOTALL
    ):
        for text in re.findall(r'<p class="transfer-text">(.*?)</p>', section, re.DOTALL):
            out.append((int(pk), clean(text)))
    return out


def mark(client, club, evening, payer, payee, amount, **extra):
    return client.post(
        paid_url(club), {"evening": evening.pk, "payer": payer, "payee": payee, "amount": amount}, **extra
    )


# --- who sees and marks ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "status"), [("outsider", 404), ("other_admin", 404), ("member", 200), ("scorer", 200), ("admin", 200)]
)
def test_members_read_the_ledger_and_others_get_404(client, cast, club, who, status):
    client.force_login(cast[who])
    assert client.get(ledger_url(club)).status_code == status


@pytest.mark.parametrize(
    ("who", "status"), [("outsider", 404), ("other_admin", 404), ("member", 403), ("scorer", 302), ("admin", 302)]
)
def test_admins_and_scorers_mark_transfers_paid(client, cast, club, evenings, who, status):
    client.force_login(cast[who])
    response = mark(client, club, evenings["a"], "Bert", "Dina", "0.60")
    assert response.status_code == status
    assert Payment.objects.filter(evening=evenings["a"], payer="Bert", payee="Dina").exists() == (status == 302)


def test_members_see_no_mark_button(client, cast, club, evenings):
    client.force_login(cast["member"])
    assert paid_url(club) not in body(client.get(ledger_url(club)))
    client.force_login(cast["scorer"])
    assert paid_url(club) in body(client.get(ledger_url(club)))


def test_marking_is_a_post(client, cast, club):
    client.force_login(cast["admin"])
    assert client.get(paid_url(club)).status_code == 405


# --- what it shows ---------------------------------------------------------------------------------


def test_it_lists_each_players_balance_and_the_open_transfers_with_their_evening(client, cast, club, evenings):
    client.force_login(cast["member"])
    html = body(client.get(ledger_url(club)))
    a, b = evenings["a"].pk, evenings["b"].pk
    assert open_transfers(html) == [
        (b, "Bert pays Anne €1.40"),
        (b, "Dina pays Carl €1.40"),
        (a, "Bert pays Anne €0.20"),
        (a, "Bert pays Carl €0.20"),
        (a, "Bert pays Dina €0.60"),
    ]
    assert balances(html) == {"Bert": f"{MINUS}€2.40", "Dina": f"{MINUS}€0.80", "Anne": "+€1.60", "Carl": "+€1.60"}
    assert "Sept. 10, 2026" in html and reverse("evening", args=[a]) in html
    anne = Player.objects.get(club=club, name="Anne")
    assert reverse("club_player", args=[club.slug, anne.pk]) in html


def test_paid_transfers_leave_the_ledger(client, cast, club, evenings, scorer):
    payments.record_payment(evenings["a"], "Bert", "Anne", Decimal("0.20"), scorer)
    payments.record_payment(evenings["b"], "Dina", "Carl", Decimal("1.40"), scorer)
    # a payment of another amount is money paid all the same (docs/rules/money.md): it is netted, never lost;
    # B asks Bert for 1.40 - 1.00 = 0.40 more
    payments.record_payment(evenings["b"], "Bert", "Anne", Decimal("1.00"), scorer, free=True)
    client.force_login(cast["member"])
    html = body(client.get(ledger_url(club)))
    assert [t for _pk, t in open_transfers(html)] == [
        "Bert pays Anne €0.40",
        "Bert pays Carl €0.20",
        "Bert pays Dina €0.60",
    ]
    assert balances(html) == {"Bert": f"{MINUS}€1.20", "Anne": "+€0.40", "Carl": "+€0.20", "Dina": "+€0.60"}


def test_an_empty_ledger_says_so(client, cast, club, scorer):
    club_evening(club, scorer, date(2026, 9, 1), [SAMEN], stake=None)
    client.force_login(cast["member"])
    html = body(client.get(ledger_url(club)))
    assert "Every balance is clear" in html and open_transfers(html) == []


# --- marking paid ----------------------------------------------------------------------------------


def test_marking_a_transfer_paid_creates_the_payment_and_updates_the_ledger(client, cast, club, evenings):
    client.force_login(cast["scorer"])
    response = mark(client, club, evenings["b"], "Bert", "Anne", "1.40")
    assert response.status_code == 302 and response.url == ledger_url(club) + "#open-transfers"
    payment = Payment.objects.get(evening=evenings["b"])
    assert (payment.payer, payment.payee, payment.amount, payment.marked_by) == (
        "Bert",
        "Anne",
        Decimal("1.40"),
        cast["scorer"],
    )
    html = body(client.get(ledger_url(club)))
    assert "Marked paid: Bert paid Anne €1.40." in html
    assert (evenings["b"].pk, "Bert pays Anne €1.40") not in open_transfers(html)
    assert balances(html)["Bert"] == f"{MINUS}€1.00"


def test_a_second_tap_changes_nothing(client, cast, club, evenings):
    client.force_login(cast["admin"])
    mark(client, club, evenings["a"], "Bert", "Dina", "0.6")
    mark(client, club, evenings["a"], "Bert", "Dina", "0.60")
    assert Payment.objects.filter(evening=evenings["a"]).count() == 1


def test_htmx_gets_the_ledger_partial(client, cast, club, evenings):
    client.force_login(cast["admin"])
    response = mark(client, club, evenings["a"], "Bert", "Dina", "0.60", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = body(response)
    assert html.lstrip().startswith('<div id="ledger"') and "<html" not in html
    assert "Marked paid: Bert paid Dina €0.60." in html
    assert (evenings["a"].pk, "Bert pays Dina €0.60") not in open_transfers(html)


def test_a_closed_evening_can_still_be_settled_in_the_ledger(client, cast, club, evenings):
    Evening.objects.filter(pk=evenings["a"].pk).update(status=Evening.Status.CLOSED)
    client.force_login(cast["admin"])
    assert mark(client, club, evenings["a"], "Bert", "Carl", "0.20").status_code == 302
    assert Payment.objects.filter(evening=evenings["a"], payee="Carl").exists()


def test_a_transfer_no_longer_in_the_settlement_is_not_marked(client, cast, club, evenings):
    client.force_login(cast["admin"])
    response = mark(client, club, evenings["a"], "Bert", "Anne", "0.50")
    assert response.status_code == 302
    assert not Payment.objects.exists()
    assert "no longer part of the evening" in body(client.get(ledger_url(club)))


@pytest.mark.parametrize(
    "data",
    [
        {"payer": "Bert", "payee": "Anne", "amount": "0.20"},
        {"evening": "x", "payer": "Bert", "payee": "Anne", "amount": "0.20"},
        {"evening": "{a}", "payer": "", "payee": "Anne", "amount": "0.20"},
        {"evening": "{a}", "payer": "Bert", "payee": "Anne", "amount": "lots"},
        {"evening": "{a}", "payer": "Bert", "payee": "Anne", "amount": "-0.20"},
        {"evening": "{a}", "payer": "Bert", "payee": "Anne", "amount": "NaN"},
    ],
)
def test_a_malformed_request_is_refused(client, cast, club, evenings, data):
    client.force_login(cast["admin"])
    data = {k: v.format(a=evenings["a"].pk) for k, v in data.items()}
    assert client.post(paid_url(club), data).status_code == 400
    assert not Payment.objects.exists()


def test_evenings_of_another_club_or_without_a_stake_cannot_be_marked(client, cast, club, evenings):
    theirs = Evening.objects.get(club__slug="elders")
    client.force_login(cast["admin"])
    assert mark(client, club, theirs, "Bert", "Anne", "1.40").status_code == 404
    assert mark(client, club, evenings["c"], "Bert", "Anne", "1.40").status_code == 404
    client.force_login(cast["other_admin"])
    assert (
        client.post(
            reverse("club_ledger_paid", args=["trefle"]),
            {"evening": evenings["a"].pk, "payer": "Bert", "payee": "Anne", "amount": "0.20"},
        ).status_code
        == 404
    )
    assert not Payment.objects.exists()


# --- no query per evening --------------------------------------------------------------------------


def test_the_ledger_takes_as_many_queries_for_30_evenings_as_for_3(client, cast, club, scorer):
    client.force_login(cast["member"])

    def count():
        with CaptureQueriesContext(connection) as queries:
            assert client.get(ledger_url(club)).status_code == 200
        return len(queries)

    for day in range(1, 4):
        club_evening(club, scorer, date(2026, 3, day), [SAMEN])
    few = count()
    for day in range(4, 31):
        club_evening(club, scorer, date(2026, 3, day), [SAMEN])
    assert count() == few


def test_the_newest_evenings_are_listed_and_the_older_ones_on_the_next_page(client, cast, club, scorer, monkeypatch):
    from scorebook.league.views import ledger

    monkeypatch.setattr(ledger, "SHOWN_EVENINGS", 3)
    for day in range(1, 5):
        club_evening(club, scorer, date(2026, 3, day), [SAMEN])
    client.force_login(cast["member"])
    html = body(client.get(ledger_url(club)))
    assert len({pk for pk, _t in open_transfers(html)}) == 3
    assert "4 evenings have open transfers." in html and "?page=2#open-transfers" in html
    assert balances(html)["Bert"] == f"{MINUS}€5.60"  # the balances count every evening
    older = body(client.get(ledger_url(club) + "?page=2"))
    assert len({pk for pk, _t in open_transfers(older)}) == 1 and "?page=1#open-transfers" in older


def test_it_writes_a_merged_players_kept_name_in_the_ledger_and_its_csv(client, admin, club, scorer):
    """A player typed "Ann" at one evening and "Anne" at another is merged into Anne: the ledger and
    its CSV name her Anne everywhere, never by the spelling that was merged away (issue 23)."""
    from scorebook.league.roster import merge_players

    club_evening(club, scorer, date(2026, 9, 10), [SAMEN])  # Anne, Carl +14; Bert, Dina -14
    ann = {**SAMEN, "declarers": ["Ann", "Carl"]}
    club_evening(club, scorer, date(2026, 9, 17), [ann], players=("Ann", "Bert", "Carl", "Dina"))
    merge_players(Player.objects.get(club=club, name="Anne"), Player.objects.get(club=club, name="Ann"))
    client.force_login(admin)
    page = clean(body(client.get(ledger_url(club))))
    sheet = client.get(reverse("club_ledger_csv", args=[club.slug])).content.decode("utf-8-sig")
    for text in (page, sheet):
        assert "Anne" in text
        found = re.search(r"\bAnn\b", text)
        assert not found, text[max(0, found.start() - 200) : found.end() + 80]
