"""The empty record form is rendered once per set of rules, table, who sits out and language,
and kept (``views.scoring._form_body``): it must always be the form that evening needs."""

import re

import pytest
from django.conf import settings
from django.urls import reverse

from pages import body

pytestmark = pytest.mark.django_db

FIVE = ["Anne", "Bert", "Carl", "Dina", "Eric"]


def form_of(html: str) -> str:
    return re.search(r'<form id="record".*?</form>', html, re.S).group(0)


def needs(html: str, contract: str) -> str:
    return re.search(rf'value="{contract}" data-needs="(\d+)"', form_of(html)).group(1)


def sitting_out(html: str) -> list[str]:
    return re.findall(r'<label class="tap person out"><input type="checkbox" name="declarers" value="(\w+)"', form_of(html))


def test_it_shows_the_contracts_in_the_language_of_the_page(scorer_client, make_evening):
    evening = make_evening("kleurenwiezen")
    url = reverse("evening", args=[evening.pk])
    english = body(scorer_client.get(url))
    scorer_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    dutch = body(scorer_client.get(url))
    scorer_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert "Proposal and acceptance" in form_of(english) and "Samen" not in form_of(english)
    assert "Samen" in form_of(dutch) and "Proposal and acceptance" not in form_of(dutch)


def test_it_marks_who_sits_out_the_next_deal_on_every_page(scorer_client, make_evening):
    evening = make_evening("kleurenwiezen", FIVE)
    url = reverse("evening", args=[evening.pk])
    assert sitting_out(body(scorer_client.get(url))) == ["Anne"]
    scorer_client.post(reverse("deal_record", args=[evening.pk]), {"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": "8"})
    assert sitting_out(body(scorer_client.get(url))) == ["Bert"]
    other = make_evening("kleurenwiezen", FIVE, first_dealer=2)  # the same rules and table, Carl deals
    assert sitting_out(body(scorer_client.get(reverse("evening", args=[other.pk])))) == ["Carl"]


def test_it_shows_the_house_rules_of_each_evening(scorer_client, make_evening):
    preset = make_evening("liege")
    house = make_evening("liege", rules={"contracts": {"solo-6": {"needs": 7, "made": {"6": None}, "failed": {"6": [-12, 8]}}}})
    assert needs(body(scorer_client.get(reverse("evening", args=[preset.pk]))), "solo-6") == "6"
    assert needs(body(scorer_client.get(reverse("evening", args=[house.pk]))), "solo-6") == "7"
    assert needs(body(scorer_client.get(reverse("evening", args=[preset.pk]))), "solo-6") == "6"


def test_it_keeps_what_was_tapped_when_the_form_comes_back_with_an_error(scorer_client, make_evening):
    evening = make_evening("kleurenwiezen")
    scorer_client.get(reverse("evening", args=[evening.pk]))  # the empty form is kept
    response = scorer_client.post(
        reverse("deal_record", args=[evening.pk]), {"contract": "samen-9", "declarers": ["Anne"], "tricks": "9"}
    )
    assert response.status_code == 422
    form = form_of(body(response))
    assert re.search(r'value="samen-9"[^>]* checked', form) and re.search(r'value="Anne"[^>]* checked', form)
