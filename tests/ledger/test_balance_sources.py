"""Every source of a balance, added up by hand (docs/rules/money.md), so that a wrong balance of any kind
— a fee, a prize, a payment's side, a cancelled payment — fails here at once, whatever the property
test draws; and each line the money pages show.

De Troef charges its kitty €1.00 a player for an evening and €2.00 for a night, and plays at €0.10 a
point. Eric deals the evening's only deal and sits it out: a samen 8 of Anne and Carl, 8 tricks (Anne
and Carl +0.80, Bert and Dina -0.80, Eric took no part: no money, no fee). The next evening is auction
whist whose bête the club carries: Bert's failed solo puts 8 jetons in it (Bert -0.80, the bête, a party
of its own, +0.80; a fee from each of the four). The autumn night has eight players at two tables,
where seats 2 and 4 make a samen 8 (+0.80 each, the others -0.80); the winter night, auction whist with
the bête carried, one table where Carl's solo fails (Carl -0.80, the bête +0.80). The winter season's
prize of €20.00 is Anne's; a prize of €7.00 awarded to Bert by mistake is withdrawn.

Then payments of every kind, each kind once more cancelled: Bert pays Anne the evening's 0.80 (Dina's
0.30 to Carl, cancelled); Carl pays Dina 5.00 on account (Anne's 7.00 to Bert, cancelled), Fien pays
Gust CHF 4.00; Dina pays 3.00 into the kitty and the kitty hands Anne her prize (Bert's 4.00 into it,
cancelled), Jef and Ivo pay 1.50 each into it; the autumn night's first line is paid (its next one,
paid and cancelled); the kitty spends 12.50 on cards.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from decimal import Decimal

import pytest

import night_builders
from builders import club_evening
from scorebook.clubs.models import HouseRules, Player, Season
from scorebook.core.collation import sort_key
from scorebook.evenings import creation, payments
from scorebook.evenings.models import Evening, Payment
from scorebook.ledger import books
from scorebook.ledger import services as ledger
from scorebook.ledger.models import Prize
from scorebook.nights.models import Night
from scorebook.rules.scoring import BETE

pytestmark = pytest.mark.django_db

KITTY = Payment.KITTY
# the new players are added in the reverse of their names' order: the pages order by name, never by record
NIGHT_PLAYERS = ["Anne", "Bert", "Carl", "Dina", "Hilde", "Gust", "Fien", "Emma"]
WHY = "entered by mistake"
MINUS = "\u2212"
SOLO_FAILED = {"contract": "solo", "tricks": 4}


def samen_8(*declarers: str) -> dict:
    return {"contract": "samen-8", "declarers": list(declarers), "tricks": 8}


def euros(amount: Decimal, *, signed: bool = True) -> str:
    """An amount as the English pages write it: +€0.80, −€1.20."""
    sign = MINUS if amount < 0 else "+" if signed and amount > 0 else ""
    return f"{sign}€{abs(amount)}"


class Hand:
    """The balances worked out by hand: each party's money by currency, and the part of it with the kitty."""

    def __init__(self) -> None:
        self.money: dict = defaultdict(lambda: defaultdict(Decimal))
        self.kitty: dict = defaultdict(lambda: defaultdict(Decimal))

    def won(self, who, amount: str) -> None:
        self.money[who]["EUR"] += Decimal(amount)

    def owes_the_kitty(self, who, amount: str) -> None:
        """A fee (a prize is a negative one): his balance down, the kitty's up, both with the kitty."""
        for party, sign in ((who, -1), (KITTY, 1)):
            self.money[party]["EUR"] += sign * Decimal(amount)
            self.kitty[party]["EUR"] += sign * Decimal(amount)

    def paid(self, payer, payee, amount, *, with_kitty: bool = False, currency: str = "EUR") -> None:
        """The payer's balance up by what he paid, the payee's down."""
        for party, sign in ((payer, 1), (payee, -1)):
            self.money[party][currency] += sign * Decimal(amount)
            if with_kitty:
                self.kitty[party][currency] += sign * Decimal(amount)

    def of(self, who) -> tuple[dict, dict]:
        return (
            {c: v for c, v in sorted(self.money[who].items()) if v},
            {c: v for c, v in sorted(self.kitty[who].items()) if v},
        )

    def balances(self) -> dict:
        parties = [k for k in [*self.money, *self.kitty] if any(self.of(k))]
        return {k: self.of(k) for k in parties}

    def eur(self, who) -> Decimal:
        return self.money[who]["EUR"]


class Club:
    """The club's books as built, and the hand's figures."""

    def __init__(self, club, evening: Evening, bete: Evening, night: Night, winter: Night, hand: Hand) -> None:
        self.club, self.evening, self.bete, self.night, self.winter, self.hand = (
            club,
            evening,
            bete,
            night,
            winter,
            hand,
        )
        self.players = {p.name: p for p in Player.objects.filter(club=club)}
        self.names = {p.pk: p.name for p in self.players.values()}


def _night(club, scorer, hand: Hand) -> Night:
    night = night_builders.night(
        club,
        scorer,
        NIGHT_PLAYERS,
        sessions=1,
        deals=1,
        stake=Decimal("0.10"),
        name="Herfstavond",
        day=date(2026, 3, 7),
        seed=0,
        ranking_link=False,
    )
    from scorebook.evenings import services

    for table in night.night_sessions.get().tables.select_related("evening"):
        seats = list(table.evening.seats.all())
        services.record_deal(table.evening, samen_8(seats[1].name, seats[3].name), scorer)
        for at, seat in enumerate(seats):
            hand.won(seat.player_id, "0.80" if at in (1, 3) else "-0.80")
            hand.owes_the_kitty(seat.player_id, "2.00")
    return night


def _winter_night(club, scorer, hand: Hand) -> Night:
    HouseRules.objects.create(club=club, ruleset="encheres", overrides={"bete": {"end": "carry"}})
    night = night_builders.night(
        club,
        scorer,
        ["Anne", "Bert", "Carl", "Dina"],
        sessions=1,
        deals=1,
        stake=Decimal("0.10"),
        name="Winteravond",
        day=date(2026, 3, 9),
        ruleset="encheres",
        seed=0,
        ranking_link=False,
    )
    from scorebook.evenings import services

    [table] = night.night_sessions.get().tables.select_related("evening")
    services.record_deal(table.evening, {**SOLO_FAILED, "declarers": ["Carl"]}, scorer)
    for seat in table.evening.seats.all():
        hand.won(seat.player_id, "-0.80" if seat.name == "Carl" else "0.00")
        hand.owes_the_kitty(seat.player_id, "2.00")
    hand.won(BETE, "0.80")
    return night


def _carried_bete(make_evening, club, players, hand: Hand) -> Evening:
    evening = make_evening(
        "encheres",
        deals=[{**SOLO_FAILED, "declarers": ["Bert"]}],
        date=date(2026, 3, 6),
        club=club,
        rules={"bete": {"end": "carry"}},
    )
    hand.won(players["Bert"].pk, "-0.80")
    hand.won(BETE, "0.80")
    for name in ("Anne", "Bert", "Carl", "Dina"):
        hand.owes_the_kitty(players[name].pk, "1.00")
    return evening


def _prizes(club, admin, players, hand: Hand) -> None:
    winter, wrong = (
        Season.objects.create(
            club=club,
            name=name,
            start=date(2025, 12, 1),
            end=date(2026, 2, 28),
            ruleset="kleurenwiezen",
            prizes=["20.00"],
        )
        for name in ("Winter", "Winter, again")
    )
    ledger.award_prizes(winter, [ledger.Award(1, players["Anne"], Decimal("20.00"))], "EUR", admin)
    hand.owes_the_kitty(players["Anne"].pk, "-20.00")
    [mistake] = ledger.award_prizes(wrong, [ledger.Award(1, players["Bert"], Decimal("7.00"))], "EUR", admin)
    ledger.withdraw(mistake, admin, WHY)


def _cancelled(payment: Payment, admin) -> None:
    payments.cancel_payment(payment.pk, admin, admin=True, reason=WHY)


def _pay_the_night(night: Night, admin, hand: Hand) -> None:
    [line] = books.night_ledgers([night])
    first = line.transfers[0]
    payer, payee = Player.objects.get(pk=first.payer_key), Player.objects.get(pk=first.payee_key)
    ledger.record_for_night(night, payer, payee, first.amount, admin)
    hand.paid(payer.pk, payee.pk, first.amount)
    [line] = books.night_ledgers([night])
    then = line.transfers[0]
    payer, payee = Player.objects.get(pk=then.payer_key), Player.objects.get(pk=then.payee_key)
    _cancelled(ledger.record_for_night(night, payer, payee, then.amount, admin)[0], admin)


def _payments(club, evening, night, admin, scorer, players, hand: Hand) -> None:
    anne, bert, carl, dina, fien, gust = (players[n] for n in ("Anne", "Bert", "Carl", "Dina", "Fien", "Gust"))
    payments.record_payment(evening, "Bert", "Anne", Decimal("0.80"), scorer)
    hand.paid(bert.pk, anne.pk, "0.80")
    _cancelled(payments.record_payment(evening, "Dina", "Carl", Decimal("0.30"), scorer, free=True)[0], admin)
    ledger.record_on_account(club, carl, dina, Decimal("5.00"), "EUR", admin)
    hand.paid(carl.pk, dina.pk, "5.00")
    ledger.record_on_account(club, fien, gust, Decimal("4.00"), "CHF", admin)
    hand.paid(fien.pk, gust.pk, "4.00", currency="CHF")
    _cancelled(ledger.record_on_account(club, anne, bert, Decimal("7.00"), "EUR", admin)[0], admin)
    ledger.record_kitty_payment(club, dina, Decimal("3.00"), "EUR", admin, into=True)
    hand.paid(dina.pk, KITTY, "3.00", with_kitty=True)
    ledger.record_kitty_payment(club, anne, Decimal("20.00"), "EUR", admin, into=False)
    hand.paid(KITTY, anne.pk, "20.00", with_kitty=True)
    _cancelled(ledger.record_kitty_payment(club, bert, Decimal("4.00"), "EUR", admin, into=True)[0], admin)
    for name in ("Jef", "Ivo"):  # two who only paid into the kitty, alike: their names order them
        newcomer = creation.player_named(name, admin, club)
        ledger.record_kitty_payment(club, newcomer, Decimal("1.50"), "EUR", admin, into=True)
        hand.paid(newcomer.pk, KITTY, "1.50", with_kitty=True)
    _pay_the_night(night, admin, hand)


@pytest.fixture
def books_of(club, admin, scorer, make_evening) -> Club:
    hand = Hand()
    ledger.set_fees(club, Decimal("1.00"), Decimal("2.00"))
    evening = club_evening(
        club, scorer, date(2026, 3, 5), [samen_8("Anne", "Carl")], players=("Eric", "Anne", "Bert", "Carl", "Dina")
    )
    players = {p.name: p for p in Player.objects.filter(club=club)}
    for name, amount in (("Anne", "0.80"), ("Bert", "-0.80"), ("Carl", "0.80"), ("Dina", "-0.80")):
        hand.won(players[name].pk, amount)
        hand.owes_the_kitty(players[name].pk, "1.00")
    bete = _carried_bete(make_evening, club, players, hand)
    night = _night(club, scorer, hand)
    winter = _winter_night(club, scorer, hand)
    players = {p.name: p for p in Player.objects.filter(club=club)}
    _prizes(club, admin, players, hand)
    _payments(club, evening, night, admin, scorer, players, hand)
    ledger.record_expense(club, Decimal("12.50"), "EUR", date(2026, 3, 8), "cards", admin)
    return Club(club, evening, bete, night, winter, hand)


# --- the balances ------------------------------------------------------------------------------------


def test_every_balance_is_the_sum_of_its_sources_worked_out_by_hand(books_of):
    found = {b.key: (b.money, b.kitty) for b in books.balances(books_of.club)}
    assert found == books_of.hand.balances()
    assert books_of.players["Eric"].pk not in found  # he took no part: no money, no fee
    assert sum(b.money.get("EUR", 0) for b in books.balances(books_of.club)) == 0


def test_each_players_own_balance_reads_his_rows_only_and_says_the_same(books_of):
    for player in books_of.players.values():
        mine = books.balance_of(books_of.club, player)
        assert (mine.key, mine.name, mine.player) == (player.pk, player.name, player.pk)
        assert (mine.money, mine.kitty) == books_of.hand.of(player.pk)


def test_the_balances_are_listed_from_the_most_in_debt_then_by_name(books_of):
    listed = books.balances(books_of.club)
    assert [(b.net, sort_key(b.name)) for b in listed] == sorted((b.net, sort_key(b.name)) for b in listed)
    nets = [b.net for b in listed]
    assert len(set(nets)) < len(nets)  # some share a balance: their names order them
    names = books_of.names | {KITTY: "the club's kitty", BETE: "the bête"}
    assert {b.key: b.name for b in listed} == {k: names[k] for k in books_of.hand.balances()}
    assert [b.player for b in listed] == [b.key if isinstance(b.key, int) else None for b in listed]


def test_a_balance_says_its_amounts_signed_by_currency_and_its_part_with_the_kitty(books_of):
    hand = books_of.hand
    anne = books.balance_of(books_of.club, books_of.players["Anne"])
    money, kitty = hand.eur(anne.key), hand.kitty[anne.key]["EUR"]
    assert anne.net == money and not anne.is_kitty
    assert anne.texts == [{"text": euros(money), "tone": anne.tone, "currency": "EUR"}]
    assert anne.tone == ("pos" if money > 0 else "neg")
    assert anne.without_kitty() == {"EUR": money - kitty}
    fien = books.balance_of(books_of.club, books_of.players["Fien"])  # CHF before EUR: the first is the net
    assert fien.net == Decimal("4.00") and fien.tone == "pos"
    assert [t["currency"] for t in fien.texts] == ["CHF", "EUR"] and fien.texts[0]["text"] == "+4.00\xa0CHF"
    assert fien.without_kitty() == {"CHF": Decimal("4.00"), "EUR": hand.eur(fien.key) - hand.kitty[fien.key]["EUR"]}
    [pot] = [b for b in books.balances(books_of.club) if b.key == KITTY]
    assert pot.is_kitty and pot.without_kitty() == {"EUR": 0} and pot.net == hand.eur(KITTY)
    nobody = books.balance_of(books_of.club, books_of.players["Eric"])
    assert (nobody.net, nobody.texts, nobody.tone, nobody.without_kitty()) == (0, [], "zero", {})


def test_a_withdrawn_prize_and_the_cancelled_payments_count_nowhere(books_of):
    assert Prize.objects.filter(withdrawn_at__isnull=False).count() == 1
    assert Payment.objects.filter(cancellation__isnull=False).count() == 4
    bert = books_of.players["Bert"]
    assert books.balance_of(books_of.club, bert).money == {"EUR": books_of.hand.eur(bert.pk)}


# --- what remains to pay, item by item ------------------------------------------------------------------


def test_what_remains_of_the_evening_is_its_settlement_netted_with_the_payments_that_count(books_of):
    anne, bert, carl, dina = (books_of.players[n].pk for n in ("Anne", "Bert", "Carl", "Dina"))
    [bete, line], total = books.open_evenings(books_of.club, limit=None)  # the newest first
    assert total == 2 and (bete.pk, line.pk) == (books_of.bete.pk, books_of.evening.pk)
    assert [(t.payer_key, t.payee_key, t.amount) for t in line.transfers] == [(dina, carl, Decimal("0.80"))]
    assert [(p.payer, p.payee, p.amount) for p in line.paid] == [("Bert", "Anne", Decimal("0.80"))]
    assert [line.remaining(k) for k in (carl, dina, anne)] == [Decimal("0.80"), Decimal("-0.80"), 0]
    assert [(t.payer_key, t.payee_key, t.amount) for t in bete.transfers] == [(bert, BETE, Decimal("0.80"))]
    assert (bete.remaining(BETE), bete.paid) == (Decimal("0.80"), [])
    seats = {s.name: (s.unpaid, s.open_transfers) for s in books_of.evening.seats.all()}
    assert seats == {
        "Eric": (0, 0),
        "Anne": (0, 0),
        "Bert": (0, 0),
        "Carl": (Decimal("0.80"), 1),
        "Dina": (Decimal("-0.80"), 1),
    }
    assert books.open_evenings(books_of.club, books_of.players["Anne"], limit=None) == ([], 0)
    [only], total = books.open_evenings(books_of.club, books_of.players["Carl"], limit=1)
    assert (only.pk, total) == (books_of.evening.pk, 1)


def test_the_evenings_lines_name_their_players_and_variant_and_come_a_page_at_a_time(books_of):
    [bete], total = books.open_evenings(books_of.club, limit=1)
    assert total == 2 and bete.pk == books_of.bete.pk and bete.variant == "auction whist (pot)"
    [older], total = books.open_evenings(books_of.club, limit=1, offset=1)
    assert total == 2 and older.pk == books_of.evening.pk and older.variant == "Flemish colour whist"
    [line] = older.transfers
    assert (line.payer_name, line.payee_name, line.amount_text) == ("Dina", "Carl", "€0.80")
    assert (line.evening, line.date, line.currency, line.variant) == (older.pk, date(2026, 3, 5), "EUR", older.variant)
    [paid] = older.paid
    assert (paid.payer_name, paid.payee_name, paid.amount_text, paid.evening) == ("Bert", "Anne", "€0.80", older.pk)
    assert bete.transfers[0].payee_name == "" and bete.transfers[0].payee_label == "the bête"


def test_what_remains_for_each_player_item_by_item_adds_up_to_his_balance(books_of):
    club, hand = books_of.club, books_of.hand
    evenings, _count = books.open_evenings(club, limit=None)
    nights_ = books.night_ledgers([books_of.night, books_of.winter])
    on_account = Payment.objects.active().filter(
        club=club, evening__isnull=True, night_link__isnull=True, currency="EUR"
    )
    for player in books_of.players.values():
        parts = sum((e.remaining(player.pk) for e in evenings), Decimal(0))
        parts += sum((n.remaining(player.pk) for n in nights_), Decimal(0))
        for p in on_account.filter(payer_player__isnull=False, payee_player__isnull=False):
            parts += p.amount if p.payer_player_id == player.pk else -p.amount if p.payee_player_id == player.pk else 0
        assert parts + hand.kitty[player.pk]["EUR"] == hand.eur(player.pk), player.name


def test_the_nights_line_settles_what_remains_of_it_once_across_its_tables(books_of):
    club = books_of.club
    [night] = books.night_ledgers([books_of.night])
    paid = Payment.objects.active().get(night_link__night=books_of.night)
    tables = {p.player_id: Decimal(0) for p in books_of.night.participants.all()}
    for evening in Evening.objects.filter(night_table__session__night=books_of.night):
        for seat in evening.seats.all():
            tables[seat.player_id] += seat.money
    tables[paid.payer_player_id] += paid.amount
    tables[paid.payee_player_id] -= paid.amount
    assert night.nets == {k: v for k, v in tables.items() if v}
    assert all(night.remaining(k) == v for k, v in tables.items()) and night.remaining(KITTY) == 0
    assert [(t.payer, t.payee, t.amount) for t in night.transfers] == PINNED_NIGHT
    for t in night.transfers:
        assert (
            t.recordable
            and t.amount_text == f"€{t.amount}"
            and (t.night, t.name, t.currency)
            == (
                night.pk,
                "Herfstavond",
                "EUR",
            )
        )
        assert (t.payer, t.payee) == (books_of.names[t.payer_key], books_of.names[t.payee_key])
    assert len({t.key for t in night.transfers}) == len(night.transfers)  # each its own form key
    someone = night.transfers[0].payer_key
    [theirs] = books.night_ledgers([books_of.night], Player.objects.get(pk=someone))
    mine = [(t.payer_key, t.payee_key, t.amount) for t in night.transfers if someone in (t.payer_key, t.payee_key)]
    assert [(t.payer_key, t.payee_key, t.amount) for t in theirs.transfers] == mine
    assert len(mine) < len(night.transfers) and theirs.nets == night.nets
    lines, total = books.open_nights(club, limit=5)
    assert total == 2 and [n.pk for n in lines] == [books_of.winter.pk, books_of.night.pk]
    assert books.open_nights(club, books_of.players["Eric"], limit=5) == ([], 0)
    [autumn], total = books.open_nights(club, books_of.players["Emma"], limit=5)
    assert (autumn.pk, total) == (books_of.night.pk, 1)
    assert books.open_nights(club, limit=1, offset=1)[0][0].pk == books_of.night.pk


def test_a_night_whose_tables_carry_the_bete_settles_it_as_a_party(books_of):
    carl = books_of.players["Carl"].pk
    [winter] = books.night_ledgers([books_of.winter])
    assert winter.nets == {carl: Decimal("-0.80"), BETE: Decimal("0.80")}
    [line] = winter.transfers
    assert (line.payer_key, line.payee_key, line.amount, line.payer, line.payee) == (
        carl,
        BETE,
        Decimal("0.80"),
        "Carl",
        "the bête",
    )
    assert not line.recordable  # the bête is no one to pay


def test_a_payment_made_at_one_of_the_nights_tables_counts_in_the_night(books_of):
    """Such payments come from before nights settled once (a backup): the night nets them still."""
    table = Evening.objects.filter(night_table__session__night=books_of.night).first()
    emma, fien = books_of.players["Emma"], books_of.players["Fien"]
    [before] = books.night_ledgers([books_of.night])
    Payment.objects.create(
        club=books_of.club,
        evening=table,
        payer="Emma",
        payee="Fien",
        payer_player=emma,
        payee_player=fien,
        amount=Decimal("0.35"),
        currency="EUR",
    )
    [after] = books.night_ledgers([books_of.night])
    assert after.remaining(emma.pk) == before.remaining(emma.pk) + Decimal("0.35")
    assert after.remaining(fien.pk) == before.remaining(fien.pk) - Decimal("0.35")


# --- the settle-up and the kitty ------------------------------------------------------------------------


def test_the_settle_up_clears_every_balance_with_the_kitty_or_among_the_players(books_of):
    all_balances = books.balances(books_of.club)
    for with_kitty in (True, False):
        settled = books.settle(all_balances, with_kitty=with_kitty)
        assert settled.proved and settled.with_kitty == with_kitty
        parties = 0
        for currency in ("CHF", "EUR"):
            left = {b.key: (b.money if with_kitty else b.without_kitty()).get(currency, 0) for b in all_balances}
            if not with_kitty:
                del left[KITTY]
            parties += sum(1 for amount in left.values() if amount)
            for line in settled.lines:
                if line.currency == currency:
                    left[line.payer_key] += line.amount
                    left[line.payee_key] -= line.amount
            assert not any(left.values()), currency
        assert settled.parties == parties


def test_the_settle_ups_lines_come_largest_first_then_by_name_each_with_its_own_key(books_of):
    settled = books.settle(books.balances(books_of.club), with_kitty=True)
    order = [(-line.amount, sort_key(line.payer), sort_key(line.payee)) for line in settled.lines]
    assert order == sorted(order)
    assert len({line.key for line in settled.lines}) == len(settled.lines)
    for line in settled.lines:
        assert line.amount_text == (f"€{line.amount}" if line.currency == "EUR" else f"{line.amount}\xa0CHF")
        assert line.payer_player == (line.payer_key if isinstance(line.payer_key, int) else None)
        assert line.payee_player == (line.payee_key if isinstance(line.payee_key, int) else None)
        assert line.with_kitty == (KITTY in (line.payer_key, line.payee_key))
        assert line.recordable == (BETE not in (line.payer_key, line.payee_key))
    assert ("Fien", "Gust", Decimal("4.00"), "CHF") in [(x.payee, x.payer, x.amount, x.currency) for x in settled.lines]
    assert any(line.with_kitty for line in settled.lines)
    assert any(not line.recordable for line in settled.lines)  # the bête is paid, by no one
    among_players = books.settle(books.balances(books_of.club), with_kitty=False)
    assert not any(line.with_kitty for line in among_players.lines)


def test_the_kitty_holds_what_was_paid_in_less_what_it_paid_out_and_spent(books_of):
    kitty = books.kitty(books_of.club)
    assert kitty.owed == {"EUR": books_of.hand.eur(KITTY)}
    assert kitty.held == {"EUR": Decimal("3.00") + 2 * Decimal("1.50") - Decimal("20.00") - Decimal("12.50")}
    assert kitty.expenses == {"EUR": Decimal("12.50")}
    assert (kitty.evening_fee, kitty.night_fee) == (Decimal("1.00"), Decimal("2.00"))
    assert kitty == books.kitty(books_of.club, books.balances(books_of.club))


def test_the_kittys_page_rows(books_of):
    kitty = books.kitty(books_of.club)
    owed, held = books_of.hand.eur(KITTY), Decimal("-26.50")
    assert kitty.used and kitty.currencies == ["EUR"]
    assert kitty.rows() == [
        {
            "currency": "EUR",
            "owed": euros(owed),
            "owed_tone": "pos" if owed > 0 else "neg",
            "held": euros(held, signed=False),
            "held_tone": "neg",
            "spent": "€12.50",
            "worth": euros(owed + held, signed=False),
        }
    ]


def test_a_kitty_is_used_as_soon_as_it_has_a_fee_or_a_figure():
    fee = Decimal("1.00")
    assert not books.Kitty(None, None).used and books.Kitty(None, None).rows() == []
    for kitty in (
        books.Kitty(fee, None),
        books.Kitty(None, fee),
        books.Kitty(None, None, owed={"EUR": fee}),
        books.Kitty(None, None, held={"EUR": fee}),
        books.Kitty(None, None, expenses={"EUR": fee}),
    ):
        assert kitty.used
    apart = books.Kitty(None, None, owed={"EUR": fee}, held={"CHF": fee}, expenses={"USD": fee})
    assert apart.currencies == ["CHF", "EUR", "USD"]
    assert [(r["currency"], r["owed"], r["held"], r["spent"], r["worth"]) for r in apart.rows()] == [
        ("CHF", "0.00\xa0CHF", "1.00\xa0CHF", "0.00\xa0CHF", "1.00\xa0CHF"),
        ("EUR", "+€1.00", "€0.00", "€0.00", "€1.00"),
        ("USD", "$0.00", "$0.00", "$1.00", "$0.00"),
    ]
    assert [(r["owed_tone"], r["held_tone"]) for r in apart.rows()] == [
        ("zero", "pos"),
        ("pos", "zero"),
        ("zero", "zero"),
    ]


# the autumn night's transfers once its first line is paid: who pays whom, in the order of names
PINNED_NIGHT = [
    ("Carl", "Fien", Decimal("0.80")),
    ("Dina", "Gust", Decimal("0.80")),
    ("Emma", "Hilde", Decimal("0.80")),
]
