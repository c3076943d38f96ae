"""Stable quick buttons (issue 18, item 7): once an evening's contract buttons are shown, their order
does not change during the evening; the contracts the table plays most are promoted when an evening
starts, from its last evenings of the variant (the club's, or the owner's private ones)."""

import re
from datetime import date

import pytest
from django.urls import reverse

from builders import club_evening
from scorebook.evenings import services
from scorebook.evenings.models import Evening

pytestmark = pytest.mark.django_db

FOUR = ["Anne", "Bert", "Carl", "Dina"]
PRESET = ["samen-8", "alleen-5", "samen-9", "alleen-6", "troel", "kleine-miserie", "piccolo", "grote-miserie"]
RARE = [
    {"contract": "abondance-9", "declarers": ["Anne"], "tricks": 9},
    {"contract": "open-miserie", "declarers": ["Bert"], "tricks": {"Bert": 0}},
    {"contract": "solo-slim", "declarers": ["Carl"], "tricks": 13},
    {"contract": "alleen-7", "declarers": ["Dina"], "tricks": 7},
]


def quick_buttons(client, evening) -> list[str]:
    html = client.get(reverse("evening", args=[evening.pk])).content.decode()
    first_screen = html[html.index('id="record"') : html.index('class="more-contracts"')]
    return [k for k in re.findall(r'name="contract" value="([^"]+)"', first_screen) if k != "pass"]


@pytest.mark.both_databases
def test_it_keeps_the_quick_buttons_in_their_order_all_evening(scorer_client, scorer, make_evening):
    evening = make_evening(stake=None)
    assert quick_buttons(scorer_client, evening) == PRESET
    for deal in RARE * 3:  # rarer contracts played again and again: no button moves
        services.record_deal(evening, deal, scorer)
        assert quick_buttons(scorer_client, evening) == PRESET


@pytest.mark.both_databases
def test_it_answers_each_deal_with_what_changed_only_since_the_buttons_stay(scorer_client, scorer, make_evening):
    evening = make_evening(stake=None)
    for deal in [d for d in RARE if d["contract"] != "open-miserie"]:  # the form's fields
        evening.refresh_from_db()
        headers = {"HX-Request": "true", "X-Board-Version": str(evening.version)}
        response = scorer_client.post(reverse("deal_record", args=[evening.pk]), deal, headers=headers)
        assert response.status_code == 200 and response["HX-Reswap"] == "none"


def test_it_promotes_what_the_table_played_most_when_the_next_evening_starts(scorer_client, scorer, make_evening):
    make_evening(stake=None, deals=RARE[:2] * 3)
    evening = make_evening(stake=None)
    quick = quick_buttons(scorer_client, evening)
    assert {"abondance-9", "open-miserie"} <= set(quick)
    assert len(quick) == len(PRESET)
    assert Evening.objects.get(pk=evening.pk).quick_contracts == quick


def test_it_does_not_promote_from_another_persons_evenings(scorer_client, make_user, make_evening):
    other = make_user("otto")
    club_evening(None, other, date(2026, 11, 1), RARE[:2] * 3, FOUR, stake=None)
    assert quick_buttons(scorer_client, make_evening(stake=None)) == PRESET
