"""export_club / import_club: a club survives a round trip through its JSON backup."""

import json
from datetime import date
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from builders import club_evening, lose_the_site
from scorebook.clubs.models import Club, HouseRules, Membership, Player, Role, Season
from scorebook.evenings import payments, services, stored
from scorebook.evenings.models import Evening

PLAYERS = ["Anne", "Bert", "Carl", "Dina", "Eric"]
DEALS = [
    {"contract": "samen-9", "declarers": ["Bert", "Dina"], "tricks": 10},
    {"contract": "pass"},
    {"contract": "alleen-6", "declarers": ["Eric"], "tricks": 7},
    {"contract": "grote-miserie", "declarers": ["Dina", "Eric"], "tricks": {"Dina": 1, "Eric": 0}},
    {"adjustment": {"Anne": -3, "Bert": 3}, "note": "revoke"},
]


@pytest.fixture
def club(make_user, admin, scorer):
    club = Club.objects.create(name="De Klaverboer", slug="klaverboer")
    Membership.objects.create(club=club, user=admin, role=Role.ADMIN)
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
    member = make_user("jan", email="jan@example.org")
    Membership.objects.create(club=club, user=member, role=Role.MEMBER)
    HouseRules.objects.create(club=club, ruleset="kleurenwiezen", overrides={"all_pass_multiplier": 3})
    Season.objects.create(
        club=club, name="2026", start=date(2026, 1, 1), end=date(2026, 12, 31), ruleset="kleurenwiezen"
    )
    for day in (6, 13, 20):
        rotated = PLAYERS[day % 5 :] + PLAYERS[: day % 5]
        names = dict(zip(PLAYERS, rotated, strict=False))  # keep every declarer at the table whoever deals first
        deals = [_rename(deal, names) for deal in DEALS]
        club_evening(club, scorer, date(2026, 11, day), deals, PLAYERS, stake="0.05", first_dealer=day % 5)
    Player.objects.filter(club=club, name="Anne").update(user=member)
    evening = Evening.objects.filter(club=club).first()
    transfer = evening.summary["transfers"][0]
    payments.record_payment(evening, transfer["from"], transfer["to"], Decimal(transfer["amount"]), scorer)
    return club


def _rename(deal, names):
    text = json.dumps(deal)
    for old in sorted(names, key=len, reverse=True):
        text = text.replace(f'"{old}"', f'"@{names[old]}"')
    return json.loads(text.replace('"@', '"'))


def _picture(club):
    """Everything a member sees of the club, without database ids."""
    evenings = Evening.objects.filter(club=club).order_by("date")
    return {
        "members": sorted((m.user.username, m.role) for m in club.memberships.all()),
        "players": sorted((p.name, p.user.username if p.user else None) for p in Player.objects.filter(club=club)),
        "rules": [(h.ruleset, h.overrides) for h in club.house_rules.all()],
        "seasons": [(s.name, s.start, s.end, s.ruleset, s.ranking) for s in club.seasons.all()],
        "evenings": [
            (
                e.date,
                e.ruleset,
                e.rules,
                e.status,
                [(s.position, s.name, s.player.name) for s in e.seats.all()],
                [d.data for d in e.deals.all()],
                dict(stored.scored(e).result.totals),
                dict(e.summary.items()),
                sorted((p.payer, p.payee, p.amount) for p in e.payments.all()),
            )
            for e in evenings
        ],
    }


def _wipe():
    lose_the_site()


@pytest.mark.both_databases
@pytest.mark.django_db
def test_it_restores_a_club_into_an_empty_database_identically(club, tmp_path):
    before = _picture(club)
    before_summaries = [e["players"] for e in (ev[7] for ev in before["evenings"])]
    path = tmp_path / "club.json"
    call_command("export_club", "klaverboer", "-o", str(path))
    _wipe()
    call_command("import_club", str(path))
    restored = Club.objects.get(slug="klaverboer")
    after = _picture(restored)
    # player ids differ in a new database; everything else is identical
    for ev in before["evenings"] + after["evenings"]:
        for p in ev[7]["players"]:
            p.pop("player")
    for key in before:
        if key != "evenings":
            assert after[key] == before[key], key
    for old, new in zip(before["evenings"], after["evenings"], strict=True):
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            assert b == a, (old[0], i)
    assert before_summaries  # the summaries were compared too


@pytest.mark.both_databases
@pytest.mark.django_db
def test_it_lets_members_log_in_after_a_restore_and_shows_the_same_standings(club, tmp_path):
    from conftest import PASSWORD

    client = Client()
    client.login(username="marie", password=PASSWORD)
    season = club.seasons.get()
    standings = client.get(reverse("season", args=[club.slug, season.pk]))
    path = tmp_path / "club.json"
    call_command("export_club", "klaverboer", "-o", str(path), "--with-secrets")
    _wipe()
    call_command("import_club", str(path), "--with-secrets")
    client = Client()
    assert client.login(username="marie", password=PASSWORD)
    restored = Club.objects.get(slug="klaverboer")
    again = client.get(reverse("season", args=[restored.slug, restored.seasons.get().pk]))
    assert again.status_code == standings.status_code == 200
    table = lambda html: html[html.find("<table") : html.find("</table>")]  # noqa: E731
    import re

    strip_ids = lambda html: re.sub(r"/players/\d+/(?:\?season=\d+)?", "/players/N/", table(html))  # noqa: E731
    assert strip_ids(again.content.decode()) == strip_ids(standings.content.decode())


@pytest.mark.django_db
def test_it_refuses_to_restore_over_an_existing_club(club, tmp_path):
    path = tmp_path / "club.json"
    call_command("export_club", "klaverboer", "-o", str(path))
    with pytest.raises(CommandError, match="The short name “klaverboer” is taken"):
        call_command("import_club", str(path))


@pytest.mark.django_db
def test_it_restores_nothing_from_a_damaged_backup(club, tmp_path):
    path = tmp_path / "club.json"
    call_command("export_club", "klaverboer", "-o", str(path))
    data = json.loads(path.read_text())
    data["evenings"][-1]["file"]["deals"][0]["tricks"] = 14
    path.write_text(json.dumps(data))
    _wipe()
    with pytest.raises(CommandError, match="14 tricks"):
        call_command("import_club", str(path))
    assert not Club.objects.exists() and not Evening.objects.exists()


@pytest.mark.django_db
def test_it_names_an_unknown_club():
    with pytest.raises(CommandError, match="no club"):
        call_command("export_club", "nope")


@pytest.mark.both_databases
@pytest.mark.django_db
def test_its_download_reads_as_many_queries_for_three_evenings_as_for_six(client, club, admin, scorer):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries():
        client.force_login(admin)
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("club_backup", args=[club.slug])).status_code == 200
        return len(captured)

    three = queries()
    for day in (21, 22, 23):
        evening = club_evening(club, scorer, date(2026, 11, day), DEALS[:1], PLAYERS, stake="0.05")
        services.delete_deal(evening, 1, scorer)
        services.new_share_link(evening)
    assert queries() == three
