"""A club that has done everything a club does, built through the real services: what the backup
tests restore and compare (issue 29).

De Troef (once "Le Trèfle", ``le-trefle``: its old address redirects) plays every variant. Adèle
(``adele``) is its secretary, an admin; Marie (``marie``) and Fred (``fred``) keep the score, Fred
then leaves the club (what he did stays his); Mia (``mia``) is a member linked to Anne; Jan (``jan``)
is a member whose claim ("I am Bert") waits for an admin; Ivo (``ivo``) joined with an invitation.

Evenings of all eight variants; a kleurenwiezen evening played for money with every kind of payment
(the full transfer, part of one, a free amount with a note, one cancelled with its reason) and a
correction after the payments; a deal corrected, one deleted and put back, one deleted for good;
evenings closed by the table (a scorer) and by the secretary (only an admin reopens it); one
archived; one imported from a file with the file's rules; one with a read-only link. A club night
of 8 players and 3 sessions for money: a late arrival, a substitute, the director's correction at a
table, a session closed, reopened (the reason in the log) and closed again, cards to reprint, its
ranking link, and its night payment; payments on account, one cancelled. Two seasons, one archived;
house rules changed by the secretary; an invitation link active, one revoked.
"""

from __future__ import annotations

import json
import tomllib
from datetime import date
from decimal import Decimal
from pathlib import Path

import night_builders
from builders import club_evening
from scorebook.clubs import services as clubs
from scorebook.clubs.models import HouseRules, Membership, Player, Role, Season
from scorebook.evenings import creation, links, payments, services, stored
from scorebook.evenings.management.commands import seed_demo
from scorebook.ledger import services as ledger
from scorebook.ledger.books import night_ledgers
from scorebook.nights import services as nights
from write_path import builder

CASES = Path(__file__).resolve().parent / "rules" / "cases"

# (ruleset, players, day, deals): the contract games from the demo's scripts, the classic ones from
# the worked examples (their first case)
CONTRACT = [
    ("kleurenwiezen", ["Anne", "Bert", "Carl", "Dina", "Eric"], date(2026, 3, 3), seed_demo.KLEURENWIEZEN[:12]),
    ("liege", ["Marc", "Nadia", "Olivier", "Pascale"], date(2026, 3, 4), seed_demo.LIEGE[:8]),
    ("gand", ["Bert", "Dina", "Marc", "Nadia"], date(2026, 3, 5), seed_demo.GAND),
    ("encheres", ["Anne", "Carl", "Eric", "Pascale"], date(2026, 3, 6), seed_demo.ENCHERES[:6]),
]
CLASSIC = [("classique", date(2026, 3, 7)), ("short", date(2026, 3, 8)), ("francais", date(2026, 3, 9))]
MORT = date(2026, 3, 10)


def _case(ruleset: str) -> tuple[list[str], list[dict]]:
    data = tomllib.loads((CASES / f"{ruleset}.toml").read_text())
    return data["players"], data["case"][0]["deals"]


def _contract_evening(club, user, ruleset, players, day, script, stake="0.10"):
    evening = club_evening(club, user, day, (), players, ruleset, stake)
    for step in script:
        playing = stored.scored(evening).result.next.playing
        services.record_deal(evening, seed_demo.contract_deal(step, playing), user)
    return evening


def _classic_evening(club, user, ruleset, day):
    players, deals = _case(ruleset)
    return club_evening(club, user, day, deals, players, ruleset, "0.05")


@builder
def build(make_user) -> dict:
    adele = make_user("adele", first_name="Adèle", email="adele@example.org")
    marie = make_user("marie", first_name="Marie")
    fred = make_user("fred", first_name="Fred")
    mia = make_user("mia", first_name="Mia")
    jan = make_user("jan")
    ivo = make_user("ivo", first_name="Ivo")
    club = clubs.create_club(name="Le Trèfle", slug="le-trefle", user=adele)
    Membership.objects.create(club=club, user=marie, role=Role.SCORER)
    fred_membership = Membership.objects.create(club=club, user=fred, role=Role.SCORER)
    Membership.objects.create(club=club, user=mia, role=Role.MEMBER)
    Membership.objects.create(club=club, user=jan, role=Role.MEMBER)
    invitation, _token = clubs.create_invitation(club, adele, role=Role.MEMBER, days=30, uses=5)
    clubs.join(invitation, ivo)
    revoked, _token = clubs.create_invitation(club, adele, role=Role.SCORER, days=7, uses=1)
    clubs.revoke(revoked)
    HouseRules.objects.create(
        club=club, ruleset="kleurenwiezen", overrides={"all_pass_multiplier": 3}, updated_by=adele
    )
    Season.objects.create(
        club=club, name="Seizoen 2026", start=date(2026, 1, 1), end=date(2026, 12, 31), ruleset="kleurenwiezen"
    )
    old = Season.objects.create(
        club=club, name="Seizoen 2025", start=date(2025, 1, 1), end=date(2025, 12, 31), ruleset="kleurenwiezen"
    )
    clubs.archive_season(old, True)
    ledger.set_fees(club, Decimal("1.00"), Decimal("2.50"))  # the kitty's fees, from the first evening on

    evenings = {}
    for ruleset, players, day, script in CONTRACT:
        evenings[ruleset] = _contract_evening(club, marie, ruleset, players, day, script)
    for ruleset, day in CLASSIC:
        evenings[ruleset] = _classic_evening(club, fred, ruleset, day)
    evenings["mort"] = _classic_evening(club, marie, "mort", MORT)

    # corrections: one corrected, one deleted and put back, one deleted for good
    kw = evenings["kleurenwiezen"]
    first = kw.deals.get(number=1)
    services.edit_deal(kw, 1, {**first.data, "tricks": first.data["tricks"] + 1}, marie, first.version)
    put_back = services.delete_deal(kw, 4, fred)
    services.restore_deal(kw, put_back.pk, marie)
    services.delete_deal(evenings["liege"], 2, marie)

    # money: every kind of payment, one cancelled, then a correction after them
    due = payments.still_due(kw)
    payments.record_payment(kw, due[0].payer, due[0].payee, due[0].amount, marie)
    part = due[1].amount / 2
    payments.record_payment(kw, due[1].payer, due[1].payee, part.quantize(Decimal("0.01")), fred, free=True)
    free, _ = payments.record_payment(kw, "Eric", "Anne", Decimal("2.50"), marie, free=True, note="een pint")
    payments.cancel_payment(free.pk, adele, admin=True, reason="dubbel ingegeven")
    second = kw.deals.get(number=2)
    services.edit_deal(kw, 2, {**second.data, "tricks": second.data["tricks"] - 1}, adele, second.version)

    # closed by the table, closed by the secretary, archived, shared
    services.set_status(evenings["gand"], "closed", marie)
    services.set_status(kw, "closed", adele, admin=True)
    services.set_archived(evenings["short"], True)
    services.new_share_link(evenings["liege"])

    # an evening imported from a file, its own rules kept
    text = json.dumps(
        {
            "format": "scorebook-evening/1",
            "ruleset": "kleurenwiezen",
            "rules": {"all_pass_multiplier": 1},
            "date": "2026-02-20",
            "players": ["Anne", "Bert", "Carl", "Dina"],
            "first_dealer": "Anne",
            "stake": "0.10",
            "currency": "EUR",
            "deals": [{"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}, {"contract": "pass"}],
        }
    )
    evenings["imported"] = creation.import_evening(text, marie, club=club, closed=True, house_rules=False)

    # the roster: Mia is Anne; Jan says he is Bert (waiting for an admin)
    clubs.link_player(Player.objects.get(club=club, name="Anne"), mia)
    clubs.claim_player(Player.objects.get(club=club, name="Bert"), jan)

    night = _night(club, marie)

    # payments on account, one cancelled
    anne, bert = Player.objects.get(club=club, name="Anne"), Player.objects.get(club=club, name="Bert")
    ledger.record_on_account(club, anne, bert, Decimal("3.00"), "EUR", marie, note="voorschot")
    wrong, _created = ledger.record_on_account(club, bert, anne, Decimal("1.00"), "EUR", fred)
    payments.cancel_payment(wrong.pk, adele, admin=True, reason="vergissing")

    # the kitty: fees paid in, an expense, one withdrawn, the archived season's prizes, one handed over
    ledger.record_kitty_payment(club, anne, Decimal("6.00"), "EUR", marie, into=True, note="bijdragen maart")
    ledger.record_expense(club, Decimal("12.40"), "EUR", date(2026, 3, 20), "kaarten en scoreblokken", adele)
    typo, _ = ledger.record_expense(club, Decimal("124.00"), "EUR", date(2026, 3, 20), "kaarten", adele)
    ledger.withdraw(typo, adele, "tikfout: 12,40")
    carl, dina = Player.objects.get(club=club, name="Carl"), Player.objects.get(club=club, name="Dina")
    awards = [ledger.Award(1, carl, Decimal("20.00")), ledger.Award(2, dina, Decimal("10.00"))]
    ledger.award_prizes(old, awards, "EUR", adele)
    ledger.record_kitty_payment(club, carl, Decimal("20.00"), "EUR", adele, into=False, note="prijs 2025")

    # Fred leaves; what he did stays his. The club is renamed: its old address redirects.
    clubs.remove_member(fred_membership)
    club = clubs.rename_club(club, name="De Troef", slug="de-troef")
    return {
        "club": club,
        "users": {"admin": adele, "scorer": marie, "member": mia, "claimant": jan, "joined": ivo, "former": fred},
        "evenings": evenings,
        "night": night,
    }


def _night(club, director):
    names = ["Anne", "Bert", "Carl", "Dina", "Eric", "Marc", "Nadia", "Olivier"]
    night = night_builders.night(
        club,
        director,
        names,
        3,
        2,
        ranking="places",
        place_points=[4, 3, 2, 1],
        stake=Decimal("0.05"),
        name="Lenteavond",
        seed=3,
        ranking_link=False,
    )
    nights.table_links(night)  # the cards printed
    nights.new_ranking_link(night)

    def play(session):
        for table in night.night_sessions.get(number=session).tables.select_related("evening"):
            for tricks in (9, 8):
                playing = stored.scored(table.evening).result.next.playing
                deal = {"contract": "samen-9", "declarers": [playing[1], playing[3]], "tricks": tricks}
                services.record_deal(table.evening, deal, director)

    play(1)
    nights.close_session(night, 1, director)
    nights.reopen_session(night, 1, "tafel 2 verkeerd genoteerd", director)
    table = night.night_sessions.get(number=1).tables.order_by("number").last().evening
    deal = table.deals.get(number=2)
    services.edit_deal(table, 2, {**deal.data, "tricks": 10}, director, deal.version)  # the director's correction
    nights.close_session(night, 1, director)
    nights.late_arrival(night, "Pascale", director)  # plays from session 2: its plan is drawn again
    leaving = night.participants.get(name="Eric")
    nights.substitute(night, leaving, "Ivo", director)
    links.issue(night.night_sessions.get(number=2).tables.first().evening)
    play(2)
    line = night_ledgers([night])[0].transfers[0]  # one of the night's transfers, paid on the night
    payer, payee = (Player.objects.get(pk=pk) for pk in (line.payer_key, line.payee_key))
    ledger.record_for_night(night, payer, payee, line.amount, director)
    return night
