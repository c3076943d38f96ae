"""The standings CSV never hands a spreadsheet a formula (issue 13, finding 12)."""

import csv
import io
from datetime import date

import pytest
from django.urls import reverse

from builders import club_evening
from scorebook.clubs import services
from scorebook.clubs.models import Membership, Role, Season
from scorebook.core.spreadsheet import safe_cell

pytestmark = pytest.mark.django_db

NAMES = ['=HYPERLINK("http://evil.example","x")', "+SUM(A1)", "-2+3", "@cmd", "Bert"]


@pytest.mark.parametrize(
    "value, written",
    [
        ("=1+1", "'=1+1"),
        ("+1+1", "'+1+1"),
        ("-A1", "'-A1"),
        ("@SUM(1)", "'@SUM(1)"),
        ("\t=1", "'\t=1"),
        ("-3", "-3"),
        ("+1", "+1"),
        ("-0.80", "-0.80"),
        ("=", "="),
        ("Anne", "Anne"),
        (7, "7"),
    ],
)
def test_it_writes_a_cell_a_spreadsheet_would_run_as_text(value, written):
    assert safe_cell(value) == written


@pytest.mark.both_databases
def test_it_escapes_a_player_named_like_a_formula_in_the_standings_csv(client, make_user):
    ada_admin = make_user("ada_admin")
    club = services.create_club(name="Les As", slug="les-as", user=ada_admin)
    mia_member = make_user("mia_member")
    Membership.objects.create(club=club, user=mia_member, role=Role.MEMBER)
    deals = [
        {"contract": "samen-8", "declarers": [NAMES[1], NAMES[3]], "tricks": 9},
        {"contract": "samen-8", "declarers": [NAMES[0], NAMES[2]], "tricks": 8},
    ]
    club_evening(club, ada_admin, date(2026, 10, 1), deals, NAMES, stake=None)
    season = Season.objects.create(
        club=club, name="Autumn", start=date(2026, 9, 1), end=date(2026, 12, 31), ruleset="kleurenwiezen"
    )
    client.force_login(mia_member)
    response = client.get(reverse("season_csv", args=[club.slug, season.pk]))
    cells = [cell for row in csv.reader(io.StringIO(response.content.decode("utf-8-sig"))) for cell in row]
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "@") and cell not in ("=",) and not cell[1:].isdigit()]
    for name in NAMES[:4]:
        assert "'" + name in cells
    assert any(cell.startswith("-") and cell[1:].isdigit() for cell in cells)  # a number stays a number
