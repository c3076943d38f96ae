"""The settlement page, marking payments, closing and reopening, and the printable sheet.

Expected points and money are worked out by hand from the grids (docs/rules/).
"""

import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.urls import reverse

from pages import Element, Page, body
from scorebook.evenings.models import Evening, Payment

pytestmark = pytest.mark.django_db

MINUS = "\u2212"
NBSP = "\u00a0"

# Kleurenwiezen, four players, stake 0.10 EUR.
#  1. samen 9 (Anne, Carl), 10 tricks: made, 14 each -> Anne +14, Carl +14, Bert -14, Dina -14.
#  2. alleen 5 (Bert), 4 tricks: failed by one, 4 per opponent -> Bert -12, the others +4.
#  3. pass: the next deal counts double.
#  4. samen 8 (Bert, Dina), 8 tricks: made, 8 each, doubled -> Bert +16, Dina +16, Anne -16, Carl -16.
# Totals: Anne 2, Bert -10, Carl 2, Dina 6 (sum 0).
# Money at 0.10: Anne +0.20, Bert -1.00, Carl +0.20, Dina +0.60.
# Transfers (one zero-sum group of four: three payments; Bert, the largest debtor, pays the
# largest creditor Dina 0.60, then Anne 0.20 (earlier seat), then Carl 0.20):
#   Bert pays Anne 0.20, Bert pays Carl 0.20, Bert pays Dina 0.60.
KLEUREN_DEALS = [
    {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10},
    {"contract": "alleen-5", "declarers": ["Bert"], "tricks": 4},
    {"contract": "pass"},
    {"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": 8},
]


def eur(text: str) -> str:
    """ "-0,20" -> "−€0.20" as the English pages write it (the tests read English)."""
    sign = {"-": MINUS, "+": "+"}.get(text[0], "")
    return sign + "€" + text.lstrip("+-").replace(",", ".")


def text_of(html: str) -> str:
    """The visible text, tags dropped and white space squeezed."""
    return re.sub(r"[ \t\r\n]+", " ", re.sub(r"<[^>]+>", " ", html)).replace(" ,", ",")


@pytest.fixture
def kleuren(make_evening):
    return make_evening("kleurenwiezen", deals=KLEUREN_DEALS, stake="0.10")


def url(name, evening):
    return reverse(name, args=[evening.pk])


def transfers_section(html: str) -> str:
    start = html.index('id="transfers"')
    return html[start : html.index("</section>", start)]


def standings_section(html: str) -> str:
    start = html.index('class="standings"')
    return html[start : html.index("</ol>", start)]


# --- the settlement page -------------------------------------------------------------------


def test_it_shows_the_points_money_and_transfers_of_a_kleurenwiezen_evening(scorer_client, kleuren):
    response = scorer_client.get(url("settlement", kleuren))
    assert response.status_code == 200
    html = body(response)
    standings = text_of(standings_section(html))
    # the winner first, then by points; the two players at +2 keep their seat order
    assert re.findall(r"\b(Anne|Bert|Carl|Dina)\b", standings) == ["Dina", "Anne", "Carl", "Bert"]
    for name, points, money in [
        ("Dina", "+6", "+0,60"),
        ("Anne", "+2", "+0,20"),
        ("Carl", "+2", "+0,20"),
        ("Bert", f"{MINUS}10", "-1,00"),
    ]:
        assert f"{name} {points} pts {eur(money)}" in standings
    transfers = text_of(transfers_section(html))
    assert f"Bert pays Anne {eur('0,20')}" in transfers
    assert f"Bert pays Carl {eur('0,20')}" in transfers
    assert f"Bert pays Dina {eur('0,60')}" in transfers
    assert transfers_section(html).count('<li class="transfer') == 3
    assert transfers.count("mark paid") == 3
    assert 'class="standing tone-pos is-winner"' in html
    assert "tone-neg" in html


def test_it_uses_the_engine_money_that_sums_to_zero_for_a_liege_evening(scorer_client, make_evening):
    # Liège is not zero-sum. 1. emballage 8 (Anne, Carl) made with 8: +7 each, opponents 0.
    # 2. solo 6 (Bert) failed with 5: Bert -15, each opponent +10 (Anne, Carl, Dina).
    # Totals 17, -15, 17, 10 (sum 29, mean 7.25); at 0.05 the exact cents are
    # 48.75, -111.25, 48.75, 13.75 -> floors 48, -112, 48, 13 (3 cents missing, equal
    # remainders served in seat order): Anne 0.49, Bert -1.11, Carl 0.49, Dina 0.13.
    evening = make_evening(
        "liege",
        deals=[
            {"contract": "emballage-8", "declarers": ["Anne", "Carl"], "tricks": 8},
            {"contract": "solo-6", "declarers": ["Bert"], "tricks": 5},
        ],
        stake="0.05",
    )
    html = body(scorer_client.get(url("settlement", evening)))
    standings = text_of(standings_section(html))
    shown = {}
    for name in ("Anne", "Bert", "Carl", "Dina"):
        match = re.search(rf"{name} [+{MINUS}]?\d+ pts ([+{MINUS}]?)€([\d.]+)", standings)
        shown[name] = Decimal(match.group(1).replace(MINUS, "-") + match.group(2))
    assert shown == {
        "Anne": Decimal("0.49"),
        "Bert": Decimal("-1.11"),
        "Carl": Decimal("0.49"),
        "Dina": Decimal("0.13"),
    }
    assert sum(shown.values()) == 0
    transfers = text_of(transfers_section(html))
    paid = sum(Decimal(m) for m in re.findall(r"pays \w+ €([\d.]+)", transfers))
    assert paid == Decimal("1.11")  # Bert alone owes, and pays everything he owes


def test_it_shows_the_bete_left_and_shares_it_out_in_encheres(scorer_client, make_evening):
    # solo (needs 6, value 8) by Bert with 4 tricks: failed, he pays the table value 8 into the
    # empty bête. Totals Anne 0, Bert -8, Carl 0, Dina 0, bête 8, shared out: 2 each.
    # Money at 0.10: Anne, Carl, Dina +0.20, Bert -0.60.
    evening = make_evening("encheres", deals=[{"contract": "solo", "declarers": ["Bert"], "tricks": 4}], stake="0.10")
    html = body(scorer_client.get(url("settlement", evening)))
    assert "jetons left in the bête" in html
    assert "8" in Page(html).texts("span.figure")
    assert "Shared out equally between the 4 players" in html
    standings = text_of(standings_section(html))
    assert f"Bert {MINUS}8 pts {eur('-0,60')}" in standings
    assert f"Anne 0 pts {eur('+0,20')}" in standings
    transfers = text_of(transfers_section(html))
    for payee in ("Anne", "Carl", "Dina"):
        assert f"Bert pays {payee} {eur('0,20')}" in transfers


@pytest.mark.both_databases
def test_it_settles_a_carried_bete_as_a_party_of_its_own(scorer_client, make_evening):
    # House rule: the bête is carried to the next evening. Bert's failed solo puts 8 jetons in;
    # with the bête as a fifth party (mean 0), Bert owes 0.80 and the bête keeps 0.80.
    evening = make_evening(
        "encheres",
        deals=[{"contract": "solo", "declarers": ["Bert"], "tricks": 4}],
        stake="0.10",
        rules={"bete": {"end": "carry"}},
    )
    html = body(scorer_client.get(url("settlement", evening)))
    assert "carried to the club's next evening" in html
    assert f"Its part: {eur('+0,80')}" in text_of(html)
    assert f"Bert pays the bête {eur('0,80')}" in text_of(transfers_section(html))
    assert pay(scorer_client, evening, payee="(bête)", amount="0.80", data={"paid": "1"}).status_code == 302
    assert Payment.objects.filter(evening=evening, payer="Bert", payee="(bête)").exists()


def test_it_writes_names_and_money_in_the_active_language(scorer_client, kleuren):
    html = body(scorer_client.get(url("evening_print", kleuren), HTTP_ACCEPT_LANGUAGE="nl"))
    assert deal_rows(html)[0][2] == "samen 9 · Anne & Carl · 10 slagen"
    assert f"€{NBSP}{MINUS}1,00" in html
    html = body(scorer_client.get(url("evening_print", kleuren), HTTP_ACCEPT_LANGUAGE="en"))
    assert deal_rows(html)[0][2] == "together 9 · Anne & Carl · 10 tricks"
    assert f"{MINUS}€1.00" in html


def test_it_shows_points_only_and_says_so_without_a_stake(scorer_client, make_evening):
    evening = make_evening("kleurenwiezen", deals=KLEUREN_DEALS, stake=None)
    html = body(scorer_client.get(url("settlement", evening)))
    assert "No stake was set for this evening" in html
    standings = text_of(standings_section(html))
    assert "Dina +6 pts" in standings and f"Bert {MINUS}10 pts" in standings
    assert "€" not in html
    assert 'id="transfers"' not in html
    assert "mark paid" not in html
    print_html = body(scorer_client.get(url("evening_print", evening)))
    assert "No stake was set for this evening" in print_html
    assert "€" not in print_html


# --- marking transfers paid ----------------------------------------------------------------


def pay(client, evening, payer="Bert", payee="Dina", amount="0.60", **extra):
    data = {"payer": payer, "payee": payee, "amount": amount}
    data.update(extra.pop("data", {}))
    return client.post(url("payment_toggle", evening), data, **extra)


@pytest.mark.both_databases
def test_it_marks_a_transfer_paid_with_a_plain_post(scorer_client, scorer, kleuren):
    response = pay(scorer_client, kleuren)
    assert response.status_code == 302
    assert response.url == url("settlement", kleuren) + "#transfers"
    payment = Payment.objects.get(evening=kleuren)
    assert (payment.payer, payment.payee, payment.amount, payment.marked_by, payment.kind) == (
        "Bert",
        "Dina",
        Decimal("0.60"),
        scorer,
        Payment.Kind.FULL,
    )
    transfers = text_of(transfers_section(body(scorer_client.get(url("settlement", kleuren)))))
    assert transfers.count("paid ✓") == 1 and transfers.count("mark paid") == 2
    assert "Bert paid Dina €0.60" in transfers

    assert pay(scorer_client, kleuren).status_code == 302  # tapped again: the same payment, nothing more
    assert Payment.objects.count() == 1


@pytest.mark.both_databases
def test_it_sets_the_paid_state_explicitly_so_a_double_tap_changes_nothing(scorer_client, kleuren):
    pay(scorer_client, kleuren, data={"paid": "1"})
    pay(scorer_client, kleuren, data={"paid": "1"})
    assert Payment.objects.count() == 1


@pytest.mark.both_databases
def test_it_sends_an_undo_to_the_cancel_confirmation_and_deletes_nothing(scorer_client, kleuren):
    pay(scorer_client, kleuren, data={"paid": "1"})
    payment = Payment.objects.get()
    response = pay(scorer_client, kleuren, data={"paid": "0", "payment": payment.pk})
    assert response.status_code == 302
    assert response.url == reverse("payment_cancel", args=[payment.pk])
    assert Payment.objects.active().count() == 1


@pytest.mark.both_databases
def test_it_answers_htmx_with_the_list_of_transfers_in_place(scorer_client, kleuren):
    response = pay(scorer_client, kleuren, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = body(response)
    assert html.strip().startswith('<section id="transfers"')
    assert "<html" not in html and "Standings" not in html
    assert f"Bert paid Dina {eur('0,60')}" in text_of(html)
    assert "paid ✓" in html and html.count("mark paid") == 2
    assert Payment.objects.filter(evening=kleuren, payer="Bert", payee="Dina", amount=Decimal("0.60")).exists()


@pytest.mark.both_databases
def test_it_refuses_to_mark_a_transfer_the_settlement_does_not_ask_for(scorer_client, kleuren):
    response = pay(scorer_client, kleuren, payer="Dina", payee="Bert", amount="5.00")
    assert response.status_code == 302
    assert not Payment.objects.exists()
    response = pay(scorer_client, kleuren, payer="Dina", payee="Bert", amount="5.00", HTTP_HX_REQUEST="true")
    assert response.headers["HX-Refresh"] == "true"
    assert not Payment.objects.exists()
    assert pay(scorer_client, kleuren, amount="lots").status_code == 400
    assert pay(scorer_client, kleuren, amount="-0.60").status_code == 400
    assert pay(scorer_client, kleuren, payer="").status_code == 400


# --- closing and reopening -------------------------------------------------------------------


@pytest.mark.both_databases
def test_it_closes_and_reopens_the_evening(scorer_client, kleuren):
    response = scorer_client.post(url("evening_close", kleuren))
    assert response.status_code == 302 and response.url == url("settlement", kleuren)
    kleuren.refresh_from_db()
    assert kleuren.status == Evening.Status.CLOSED

    html = body(scorer_client.get(url("settlement", kleuren)))
    assert "This evening is closed." in html and "Its deals can no longer be changed" in html
    # the money is often paid days later: a closed evening's payments are still marked here, as in the ledger
    assert "Payments can still be marked and cancelled." in html
    assert "mark paid" in html and url("payment_toggle", kleuren) in html
    assert url("evening_reopen", kleuren) in html and url("evening_close", kleuren) not in html

    response = scorer_client.post(url("evening_reopen", kleuren))
    assert response.status_code == 302 and response.url == url("settlement", kleuren)
    kleuren.refresh_from_db()
    assert kleuren.status == Evening.Status.OPEN
    assert "This evening is closed." not in body(scorer_client.get(url("settlement", kleuren)))


@pytest.mark.both_databases
def test_it_settles_payments_of_a_closed_evening_as_the_ledger_does(scorer_client, kleuren):
    pay(scorer_client, kleuren, data={"paid": "1"})
    scorer_client.post(url("evening_close", kleuren))
    payment = Payment.objects.get()
    cancel = reverse("payment_cancel", args=[payment.pk])
    assert scorer_client.post(cancel, {"reason": "twice"}).status_code == 302  # cancelled
    assert not Payment.objects.active().exists()
    assert pay(scorer_client, kleuren, data={"paid": "1"}).status_code == 302  # marked again
    assert list(Payment.objects.active().values_list("payer", "payee")) == [("Bert", "Dina")]
    kleuren.refresh_from_db()
    assert kleuren.status == Evening.Status.CLOSED  # the deals stay frozen
    assert "paid ✓" in body(scorer_client.get(url("settlement", kleuren)))


@pytest.mark.both_databases
def test_it_follows_a_safe_next_and_ignores_another_site(scorer_client, kleuren):
    response = scorer_client.post(url("evening_close", kleuren), {"next": "/evenings/"})
    assert response.url == "/evenings/"
    response = scorer_client.post(url("evening_reopen", kleuren), {"next": "https://evil.example/"})
    assert response.url == url("settlement", kleuren)
    response = scorer_client.post(url("evening_close", kleuren), {"next": "//evil.example/x"})
    assert response.url == url("settlement", kleuren)


# --- methods and access ----------------------------------------------------------------------

WRITES = ["payment_toggle", "evening_close", "evening_reopen"]
PAGES = ["settlement", "evening_print"]


@pytest.mark.parametrize("name", WRITES)
def test_it_answers_405_to_a_get_on_a_write_url(scorer_client, kleuren, name):
    assert scorer_client.get(url(name, kleuren)).status_code == 405
    kleuren.refresh_from_db()
    assert kleuren.status == Evening.Status.OPEN


@pytest.mark.parametrize("name", PAGES)
def test_it_answers_405_to_a_post_on_a_page(scorer_client, kleuren, name):
    assert scorer_client.post(url(name, kleuren)).status_code == 405


@pytest.mark.parametrize("name", PAGES)
def test_it_hides_every_page_from_an_outsider(outsider_client, kleuren, name):
    assert outsider_client.get(url(name, kleuren)).status_code == 404


@pytest.mark.parametrize("name", WRITES)
def test_it_hides_every_write_from_an_outsider(outsider_client, kleuren, name):
    data = {"payer": "Bert", "payee": "Dina", "amount": "0.60", "paid": "1"}
    assert outsider_client.post(url(name, kleuren), data).status_code == 404
    assert outsider_client.post(url(name, kleuren), data, HTTP_HX_REQUEST="true").status_code == 404
    kleuren.refresh_from_db()
    assert kleuren.status == Evening.Status.OPEN
    assert not Payment.objects.exists()


def test_it_lets_staff_see_the_settlement(client, staff, kleuren):
    client.force_login(staff)
    assert client.get(url("settlement", kleuren)).status_code == 200


def test_it_answers_404_for_an_evening_that_does_not_exist(scorer_client):
    assert scorer_client.get(reverse("settlement", args=[999999])).status_code == 404


@pytest.mark.parametrize("name", WRITES)
def test_it_sends_anonymous_writes_to_log_in(client, kleuren, name):
    response = client.post(url(name, kleuren), {"payer": "Bert", "payee": "Dina", "amount": "0.60"})
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    kleuren.refresh_from_db()
    assert kleuren.status == Evening.Status.OPEN
    assert not Payment.objects.exists()


# --- the printable sheet -------------------------------------------------------------------


def deal_rows(html: str) -> list[list[str]]:
    """The cells of the first table body's rows, read as words."""
    tbody = Page(html).all("tbody")[0]
    return [
        [cell.spaced_text.replace(" ,", ",") for cell in row.elements() if cell.tag in ("td", "th")]
        for row in tbody.all("tr")
    ]


def test_it_prints_every_deal_and_the_totals(scorer_client, kleuren):
    response = scorer_client.get(url("evening_print", kleuren))
    assert response.status_code == 200
    html = body(response)
    assert "Flemish colour whist" in html  # the variant's name in the active language
    assert "Nov. 20, 2026" in html
    assert "Anne, Bert, Carl, Dina" in html
    assert "€0.10 per point" in html
    assert "settle.css" in html
    m = MINUS
    assert deal_rows(html) == [
        ["1", "Anne", "together 9 · Anne & Carl · 10 tricks", "+14", f"{m}14", "+14", f"{m}14"],
        ["2", "Bert", "solo 5 · Bert · 4 tricks", "+4", f"{m}12", "+4", "+4"],
        ["3", "Carl", "All pass", "0", "0", "0", "0"],
        ["4", "Carl", "together 8 · Bert & Dina · 8 tricks · ×2", f"{m}16", "+16", f"{m}16", "+16"],
    ]
    tfoot = html[html.index("<tfoot>") : html.index("</tfoot>")]
    assert text_of(tfoot).split() == ["Total", "+2", f"{m}10", "+2", "+6"]
    bottom = text_of(html[html.index('class="sheet-bottom"') :])
    assert f"4. Bert {m}10 {eur('-1,00')}" in bottom
    assert f"1. Dina +6 {eur('+0,60')}" in bottom
    assert f"Bert pays Dina {eur('0,60')}" in bottom


def test_it_prints_a_blank_for_a_player_sitting_out_and_describes_adjustments(scorer_client, make_evening):
    # Liège with five: the four to the dealer's left play, so the dealer Anne sits out deal 1.
    evening = make_evening(
        "liege",
        players=("Anne", "Bert", "Carl", "Dina", "Eric"),
        deals=[
            {"contract": "emballage-8", "declarers": ["Bert", "Dina"], "tricks": 9},
            {"adjustment": {"Carl": -5, "Eric": 5}, "note": "revoke"},
            {"contract": "petite-misere", "declarers": ["Dina", "Anne"], "tricks": {"Dina": 0, "Anne": 2}},
        ],
        stake="0.05",
    )
    rows = deal_rows(body(scorer_client.get(url("evening_print", evening))))
    m = MINUS
    # 1. emballage 8 made with 9 tricks: 10 each for Bert and Dina; Anne is out.
    assert rows[0] == ["1", "Anne", "together 8 · Bert & Dina · 9 tricks", "", "+10", "0", "+10", "0"]
    assert rows[1] == ["2", "—", "Adjustment: revoke", "0", "0", f"{m}5", "0", "+5"]
    # 3. dealt by Bert: Carl, Dina, Eric, Anne play, Bert is out. Petite misère: Dina made (+18),
    # Anne failed (-18, each non-declarer +12).
    assert rows[2] == ["3", "Bert", "small misère · Anne 2, Dina 0", f"{m}18", "", "+12", "+18", "+12"]


def test_it_writes_the_stake_with_its_own_precision(scorer_client, make_evening):
    evening = make_evening("kleurenwiezen", deals=KLEUREN_DEALS[:1], stake="0.025")
    # samen 9 made with 10: +14 / -14; 14 x 0.025 = 0.35 each way.
    html = body(scorer_client.get(url("settlement", evening)))
    assert "stake €0.025 per point" in html
    assert f"Anne +14 pts {eur('+0,35')}" in text_of(standings_section(html))


def test_it_keeps_the_wide_sheet_inside_its_own_scrolling_box(scorer_client, kleuren):
    html = body(scorer_client.get(url("evening_print", kleuren)))
    boxes = Page(html).all("div.table-scroll")
    first_inside = [next(child for child in box.children if isinstance(child, Element)) for box in boxes]
    assert any(e.tag == "table" and e.classes == {"sheet-deals"} for e in first_inside)
    css = (Path(__file__).resolve().parents[2] / "static/css/settle.css").read_text()
    assert "@media print" in css and "A4 portrait" in css


@pytest.mark.both_databases
def test_a_free_amount_is_never_said_to_come_from_a_correction(scorer_client, scorer, kleuren):
    """A free amount was never a transfer of the settlement: it counts in both balances, and the page
    says "a free amount", never that the evening was corrected (issue 28's paper cut)."""
    from scorebook.evenings import payments

    payments.record_payment(kleuren, "Anne", "Bert", Decimal("5.00"), scorer, free=True, note="a loan")
    page = body(scorer_client.get(reverse("settlement", args=[kleuren.pk])))
    assert "a free amount" in page and "the evening was corrected" not in page
