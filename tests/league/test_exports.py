"""What a club takes away: the standings, the ledger and the roster as CSV in the reader's language,
the standings on paper, and the club's backup for its admins (issue 15, point 6).

Kleurenwiezen, stake 0.10 EUR. 10 Sept: samen 9 made with 10 tricks by Anne and Carl (+14 each,
Bert and Dina -14): Bert pays Anne 1.40, Dina pays Carl 1.40. 17 Sept: samen 8 made by Bert and
Dina (+8): Anne pays Bert 0.80, Carl pays Dina 0.80. Season: Anne 6, Carl 6, Bert -6, Dina -6;
average 3.00.
"""

import csv
import io
import json
from datetime import date

import pytest
from django.urls import reverse

from builders import club_evening
from scorebook.clubs.models import Player, Season

# the ledger's money, summed in SQL (ledger/books.py), in the exports: both databases
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

SAMEN_9 = {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}
SAMEN_8 = {"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": 8}


@pytest.fixture
def season(club, scorer):
    club_evening(club, scorer, date(2026, 9, 10), [SAMEN_9])
    club_evening(club, scorer, date(2026, 9, 17), [SAMEN_8])
    return Season.objects.create(
        club=club, name="Herfst 2026", start=date(2026, 9, 1), end=date(2026, 12, 31), ruleset="kleurenwiezen"
    )


def url(name, club, *args):
    return reverse(name, args=[club.slug, *args])


def read(response, delimiter):
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=delimiter))


@pytest.mark.parametrize(
    ("language", "filename", "header", "anne"),
    [
        ("nl", "de-troef-herfst-2026-klassement.csv", "Gemiddelde", ["1", "=", "Anne", "6", "3,00", "2", "2", "0,60"]),
        ("fr", "de-troef-herfst-2026-classement.csv", "Moyenne", ["1", "=", "Anne", "6", "3,00", "2", "2", "0,60"]),
        ("en", "de-troef-herfst-2026-standings.csv", "Average", ["1", "=", "Anne", "6", "3.00", "2", "2", "0.60"]),
    ],
)
def test_it_writes_the_standings_csv_as_the_readers_spreadsheet_reads_it(
    client, cast, club, season, language, filename, header, anne
):
    client.force_login(cast["member"])
    response = client.get(url("season_csv", club, season.pk), HTTP_ACCEPT_LANGUAGE=language)
    assert response["Content-Disposition"] == f'attachment; filename="{filename}"'
    delimiter = "," if language == "en" else ";"
    assert response.content.decode("utf-8-sig").splitlines()[0].count(delimiter) == 7  # one column per field
    rows = read(response, delimiter)
    assert header in rows[0]
    assert rows[1] == anne
    assert rows[-1][2:] == [
        "Dina",
        "-6",
        "-3,00" if language != "en" else "-3.00",
        "2",
        "2",
        "-0,60" if language != "en" else "-0.60",
    ]


def test_it_keeps_a_formula_a_name_in_the_semicolon_csv(client, cast, club, season):
    Player.objects.filter(club=club, name="Bert").update(name="=1+2;B")
    client.force_login(cast["member"])
    rows = read(client.get(url("season_csv", club, season.pk), HTTP_ACCEPT_LANGUAGE="nl"), ";")
    assert "'=1+2;B" in [r[2] for r in rows]  # text, and the semicolon inside it does not split the cell


def test_it_prints_the_standings_with_every_column_and_the_rule(client, cast, club, season):
    client.force_login(cast["member"])
    html = client.get(url("season_print", club, season.pk)).content.decode()
    assert "Herfst 2026" in html and "De Troef" in html
    for header in ("Points", "Average", "Evenings", "Deals played", "Money"):
        assert f">{header}</th>" in html
    assert "How the ranking works" in html and "data-print" in html
    assert 'class="club-nav"' not in html  # paper needs no navigation
    standings = client.get(url("season", club, season.pk)).content.decode()
    assert url("season_print", club, season.pk) in standings


def test_it_downloads_the_ledger_with_open_transfers_and_payments(client, cast, club, season, scorer):
    client.force_login(scorer)
    evening = club.evenings.get(date=date(2026, 9, 10))
    client.post(
        url("club_ledger_paid", club), {"evening": evening.pk, "payer": "Bert", "payee": "Anne", "amount": "1.40"}
    )
    response = client.get(url("club_ledger_csv", club), HTTP_ACCEPT_LANGUAGE="nl")
    assert response["Content-Disposition"] == 'attachment; filename="de-troef-openstaande-betalingen.csv"'
    rows = read(response, ";")
    assert rows[0] == [
        "Avond",
        "Variant",
        "Stand",
        "Betaler",
        "Ontvanger",
        "Bedrag",
        "Munt",
        "Aangeduid door",
        "Aangeduid op",
        "Notitie",
        "Speler",
        "Saldo",
    ]
    lines = {tuple(r[2:7]) for r in rows[1:]}
    assert ("te betalen", "Dina", "Carl", "1,40", "EUR") in lines
    assert ("te betalen", "Anne", "Bert", "0,80", "EUR") in lines
    assert ("betaald", "Bert", "Anne", "1,40", "EUR") in lines
    paid = next(r for r in rows if r[2] == "betaald")
    assert paid[7] == "Marie" and paid[8].startswith("20")
    # each player's balance, one line each, the ledger's figure
    from django.utils import translation

    from scorebook.core import spreadsheet
    from scorebook.ledger import books

    with translation.override("nl"):
        fmt = spreadsheet.local_format()
        expected = {b.name: spreadsheet.number(b.net, 2, fmt) for b in books.balances(club) if b.net}
    assert {r[10]: r[11] for r in rows[1:] if r[2] == "saldo"} == expected and len(expected) == 4


def test_it_downloads_the_roster(client, cast, club, season):
    Player.objects.filter(club=club, name="Anne").update(user=cast["member"])
    client.force_login(cast["member"])
    response = client.get(url("club_players_csv", club), HTTP_ACCEPT_LANGUAGE="fr")
    assert response["Content-Disposition"] == 'attachment; filename="de-troef-joueurs.csv"'
    rows = read(response, ";")
    assert rows[0] == ["Joueur", "Compte de membre", "Soirées"]
    assert ["Anne", "mia", "2"] in rows and ["Bert", "", "2"] in rows
    assert url("club_players_csv", club) in client.get(url("club_players", club)).content.decode()


@pytest.mark.parametrize(("who", "status"), [("admin", 200), ("scorer", 403), ("member", 403), ("outsider", 404)])
def test_only_the_admin_downloads_the_clubs_backup(client, cast, club, season, who, status):
    client.force_login(cast[who])
    assert client.get(url("club_backup", club)).status_code == status


def test_the_backup_on_the_site_leaves_out_passwords_and_live_links(client, cast, club, season, admin):
    """Links travel as their digests (a digest opens nothing), never as the links themselves."""
    from scorebook.evenings import services

    evening = club.evenings.first()
    client.force_login(admin)
    link = services.new_share_link(evening)  # a live read-only link: "<id>.<secret>"
    response = client.get(url("club_backup", club), HTTP_ACCEPT_LANGUAGE="fr")
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="de-troef-sauvegarde-20')
    assert response["Cache-Control"] == "private, no-store"
    text = response.content.decode()
    data = json.loads(text)
    assert {"accounts", "players", "seasons", "evenings"} <= set(data)
    assert all("password" not in a and "email" not in a for a in data["accounts"])
    admin.refresh_from_db()
    evening.refresh_from_db()
    assert admin.password not in text and "pbkdf2" not in text and "argon2" not in text
    assert link.split(".", 1)[1] not in text and evening.share_hash in text
    assert url("club_backup", club) in client.get(url("club", club)).content.decode()
    client.force_login(cast["member"])
    assert url("club_backup", club) not in client.get(url("club", club)).content.decode()
