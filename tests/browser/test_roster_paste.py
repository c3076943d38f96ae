# ruff: noqa: F811 (the club admin fixture is imported)
"""The roster of 30 by paste on a phone (issue 23, item 1): the taps and the seconds it takes the
secretary, from the roster page to 30 players in it; screenshots at 390x844 and 360x640."""

import json
import time

import pytest

from club_fixtures import admin  # noqa: F401 (Adèle, the club admin)
from scorebook.clubs.models import Club, Membership, Player, Role

from .conftest import ARTIFACTS

pytestmark = pytest.mark.django_db(transaction=True)

THIRTY = [f"{first} {last}" for first in ("Anne", "Bert", "Carl", "Dina", "Émile", "Fien") for last in "VWXYZ"]


@pytest.fixture
def club(admin):
    club = Club.objects.create(name="De Troef", slug="de-troef")
    Membership.objects.create(club=club, user=admin, role=Role.ADMIN)
    return club


@pytest.mark.browser
@pytest.mark.parametrize(("width", "height"), [(390, 844), (360, 640)])
def test_the_secretary_pastes_a_roster_of_30(phone, live_server, admin, club, width, height):
    p = phone(width=width, height=height, name=f"roster-paste-{width}")
    p.login("adele", next_path=f"/c/{club.slug}/players/")
    started = time.monotonic()
    p.tap("summary:has-text('Add several players at once')")
    p.tap("#id_paste_text")
    p.page.locator("#id_paste_text").fill("\n".join(THIRTY))  # the paste: the phone's paste menu
    p.taps += 1  # the paste itself is a tap on the phone's menu
    p.shot("pasted")
    with p.page.expect_navigation():
        p.tap("button:has-text('Check the list')")
    assert p.page.locator("ul.paste-check input[name=add]:checked").count() == 30
    p.shot("check")
    with p.page.expect_navigation():
        p.tap("button:has-text('Add the ticked players')")
    seconds = time.monotonic() - started
    assert "30 players added to the roster." in p.page.content()
    assert Player.objects.filter(club=club).count() == 30
    p.shot("roster")
    assert p.page.evaluate("() => document.documentElement.scrollWidth") <= width  # no sideways scroll
    result = {"width": width, "taps": p.taps, "scrolls": p.scrolls, "seconds": round(seconds, 1)}
    (ARTIFACTS / f"roster-paste-{width}.json").write_text(json.dumps(result))
    assert p.taps + p.scrolls <= 8, result
    assert not p.errors
