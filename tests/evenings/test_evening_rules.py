"""Each evening names the rules it was played with: the preset and its house-rule differences on the
settlement page, the printable sheet, the public page and the scoring menu, with a link to the full
grid as played, a read-only page that keeps the evening's own copy (issue 15, point 5)."""

import json
import re
from datetime import date

import pytest
from django.test import Client
from django.urls import reverse

from builders import club_evening
from scorebook.clubs.models import Club, HouseRules, Membership, Role

pytestmark = pytest.mark.django_db

HOUSE = {"all_pass_multiplier": 1, "contracts": {"samen-9": {"made": {"9": [12, -12]}}}}


@pytest.fixture
def club(scorer):
    club = Club.objects.create(name="De Troef", slug="de-troef")
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
    HouseRules.objects.create(club=club, ruleset="kleurenwiezen", overrides=HOUSE)
    return club


@pytest.fixture
def evening(club, scorer):
    return club_evening(
        club, scorer, date(2026, 9, 10), [{"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 9}]
    )


def text(response):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_the_settlement_page_names_the_preset_and_the_house_rules(scorer_client, evening):
    page = text(scorer_client.get(reverse("settlement", args=[evening.pk])))
    assert (
        "Rules: Flemish colour whist · 2 house rules: No doubling after an all-pass; together 9: 2 figures changed"
        in page
    )
    assert (
        reverse("evening_rules", args=[evening.pk])
        in scorer_client.get(reverse("settlement", args=[evening.pk])).content.decode()
    )


def test_the_print_sheet_and_the_scoring_menu_name_them_too(scorer_client, evening):
    sheet = text(scorer_client.get(reverse("evening_print", args=[evening.pk])))
    assert "Rules Flemish colour whist: No doubling after an all-pass; together 9: 2 figures changed" in sheet
    board = scorer_client.get(reverse("evening", args=[evening.pk])).content.decode()
    assert re.search(r'id="rules-link">Rules: Flemish colour whist, 2 house rules</a>', board)


def test_the_rules_page_shows_the_grid_as_played_even_after_the_club_changes_its_rules(scorer_client, club, evening):
    HouseRules.objects.filter(club=club).update(overrides={"contracts": {"samen-9": {"made": {"9": [20, -20]}}}})
    html = scorer_client.get(reverse("evening_rules", args=[evening.pk])).content.decode()
    block = html[html.index('id="c-samen-9"') : html.index('id="c-samen-10"')]
    row = re.search(r"<th scope=\"row\">9</th>(.*?)</tr>", block, re.S).group(1)
    assert '<td class="changed">+12<span class="sr-only"> (house rule)</span></td>' in row
    assert "+20" not in row
    assert "No doubling after an all-pass." in html
    # a contract the club did not touch is shown closed, without a mark
    assert '<details class="rules-grid" id="c-samen-8">' in html


def test_an_evening_without_house_rules_says_so(scorer_client, scorer):
    evening = club_evening(None, scorer, date(2026, 9, 10), stake=None)
    page = text(scorer_client.get(reverse("settlement", args=[evening.pk])))
    assert "Rules: Flemish colour whist · no house rule · the full grid as played" in page


@pytest.mark.both_databases
def test_the_public_page_links_to_the_rules_by_its_token_only(scorer_client, evening):
    client = Client()
    scorer_client.post(reverse("evening_share_reset", args=[evening.pk]))
    evening.refresh_from_db()
    link = re.search(r"/s/([^/\"]+)/", scorer_client.get(reverse("evening_share", args=[evening.pk])).content.decode())
    token = None
    if link is None:  # the link is shown once, when it is made
        response = scorer_client.post(reverse("evening_share_reset", args=[evening.pk]))
        token = re.search(r"/s/([^/\"<]+)/", response.content.decode()).group(1)
    else:
        token = link.group(1)
    public = client.get(reverse("evening_public", args=[token]))
    assert "No doubling after an all-pass" in text(public)
    assert reverse("evening_public_rules", args=[token]) in public.content.decode()
    rules = client.get(reverse("evening_public_rules", args=[token]))
    assert rules.status_code == 200 and rules["X-Robots-Tag"] == "noindex, nofollow"
    assert client.get(reverse("evening_public_rules", args=["nope.nope"])).status_code == 404
    assert client.get(reverse("evening_rules", args=[evening.pk])).status_code == 302  # login first


def test_the_exported_file_names_the_preset_and_carries_the_rules_as_played(scorer_client, evening):
    data = json.loads(scorer_client.get(reverse("evening_export", args=[evening.pk])).content)
    assert data["ruleset"] == "kleurenwiezen"
    assert data["rules"]["all_pass_multiplier"] == 1
    assert data["rules"]["contracts"]["samen-9"]["made"]["9"] == [12, -12]


@pytest.mark.parametrize(("who", "status"), [("outsider", 404)])
def test_only_who_sees_the_evening_sees_its_rules(client, outsider, evening, who, status):
    client.force_login(outsider)
    assert client.get(reverse("evening_rules", args=[evening.pk])).status_code == status
