"""Hostile input beyond the deal form: the house-rules form, names with markup, forged posts."""

from datetime import date

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from builders import club_evening
from pages import Page
from scorebook.clubs.models import Club, HouseRules, Membership, Player, Role, Season
from test_access_matrix import _lines, built_world, world  # noqa: F401  (the fixtures are used by name)

SCRIPT = "<script>alert(1)</script>"
NASTY = st.one_of(
    st.sampled_from(["", "-1", "-999999", "1e9", "99999999999999999999", "NaN", "١٢", " 3 ", SCRIPT, "true", "null"]),
    st.text(max_size=20),
    st.integers(-(10**15), 10**15).map(str),
)


@pytest.fixture
def admin_club(scorer):
    club = Club.objects.create(name="Club", slug="club")
    Membership.objects.create(club=club, user=scorer, role=Role.ADMIN)
    return club


@pytest.mark.both_databases
@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.parametrize("ruleset", ["kleurenwiezen", "encheres", "francais"])
def test_it_never_breaks_on_a_hostile_house_rules_post(scorer_client, admin_club, ruleset):
    url = reverse("club_rules_edit", args=[admin_club.slug, ruleset])
    page = scorer_client.get(url).content.decode()
    fields = {e.get("name"): e.get("value") for e in Page(page).all("input[name][value]")}
    names = sorted(n for n in fields if n != "csrfmiddlewaretoken")
    assert len(names) > 10

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(changes=st.dictionaries(st.sampled_from(names), NASTY, min_size=1, max_size=6))
    def check(changes):
        before = list(HouseRules.objects.values_list("ruleset", "overrides"))
        response = scorer_client.post(url, fields | changes)
        assert response.status_code in (200, 302, 409, 422), response.status_code
        if response.status_code == 422:
            assert list(HouseRules.objects.values_list("ruleset", "overrides")) == before
            assert SCRIPT not in response.content.decode()
        HouseRules.objects.all().delete()  # every example starts from the preset

    check()


@pytest.mark.django_db
def test_it_shows_a_player_called_script_as_text_on_every_page(scorer_client, admin_club, scorer):
    players = [SCRIPT, "Bert", "Carl", "Dina"]
    deals = [
        {"contract": "samen-9", "declarers": [SCRIPT, "Carl"], "tricks": 10},
        {"adjustment": {SCRIPT: -1, "Bert": 1}, "note": SCRIPT},
    ]
    evening = club_evening(admin_club, scorer, deals=deals, players=players, share=True)
    season = Season.objects.create(
        club=admin_club, name=SCRIPT, start=date(2026, 1, 1), end=date(2026, 12, 31), ruleset="kleurenwiezen"
    )
    player = Player.objects.get(club=admin_club, name=SCRIPT)
    pages = [
        reverse("evening", args=[evening.pk]),
        reverse("evening_public", args=[evening.share_token]),
        reverse("evening_public_live", args=[evening.share_token]),
        reverse("evening_print", args=[evening.pk]),
        reverse("settlement", args=[evening.pk]),
        reverse("evening_chart", args=[evening.pk]),
        reverse("deal_edit", args=[evening.pk, 1]),
        reverse("season", args=[admin_club.slug, season.pk]),
        reverse("club_player", args=[admin_club.slug, player.pk]),
        reverse("club_players", args=[admin_club.slug]),
        reverse("club_evenings", args=[admin_club.slug]),
        reverse("club_ledger", args=[admin_club.slug]),
        reverse("club", args=[admin_club.slug]),
        reverse("evening_list"),
    ]
    for url in pages:
        response = scorer_client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert SCRIPT not in html, url
        assert "&lt;script&gt;" in html, url


@pytest.mark.django_db
def test_it_refuses_every_write_without_its_csrf_token(world):  # noqa: F811
    admin = Client(enforce_csrf_checks=True)
    admin.force_login(world["users"]["admin"])
    for name, args, method, data, _expected in _lines(world):
        if method != "post":
            continue
        if callable(data):
            data = data(world["users"]["admin"])
        response = admin.post(reverse(name, args=args), data)
        assert response.status_code == 403, f"{name}: {response.status_code}"
