"""The benchmark's phones post as the scoring page posts (bench/load.py ``ScoringPage``): every field
the page's own record form sends (read here from the rendered page with the tests' own reader), the
version and headers the page's script adds; and after each answer they are where the page is, so
that deal after deal they get the small answer a phone gets, and a conflict when another phone
recorded first."""

import random
import urllib.parse

import pytest
from django.urls import reverse

from bench import synthetic as syn
from bench.load import ScoringPage
from pages import Page

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]
PLAYERS = ("Anne", "Bert", "Carl", "Dina", "Emma")


def _post(client, url, pairs, headers):
    body = urllib.parse.urlencode(pairs)
    return client.post(url, body, "application/x-www-form-urlencoded", headers=headers)


def _what_the_form_posts(html: str) -> dict[str, list[str]]:
    """The names the page's record form posts before anything is tapped (a box or a radio button
    only when checked), with the values of its hidden fields."""
    form = Page(html).by_id("record")
    fields: dict[str, list[str]] = {}
    for element in form.elements():
        name, kind = element.get("name"), (element.get("type") or "").lower()
        if not name or element.tag not in ("input", "select", "textarea") or kind in ("submit", "button"):
            continue
        if kind in ("checkbox", "radio") and not element.has("checked"):
            continue
        fields.setdefault(name, [])
        if kind == "hidden":
            fields[name].append(element.get("value") or "")
    return fields


def test_it_posts_every_field_of_the_page_s_form_and_stays_where_the_page_is(scorer_client, make_evening):
    evening = make_evening("kleurenwiezen", PLAYERS)
    url = reverse("evening", args=[evening.pk])
    record = reverse("deal_record", args=[evening.pk])
    html = scorer_client.get(url).content.decode()
    page = ScoringPage(url, html)
    rng = random.Random(3)
    for number in range(1, 4):
        deal = syn.random_deal(page.playing(), rng, allow_pass=False)
        pairs, headers = page.post(deal)
        sent = {}
        for name, value in pairs:
            sent.setdefault(name, []).append(value)
        shown = _what_the_form_posts(html)
        assert set(shown) | set(syn.form_data(deal, PLAYERS)) <= set(sent), set(shown) - set(sent)
        for name, values in shown.items():
            if number == 1 and values and name != "evening_version":
                assert sent[name] == values, name  # its key, token, the deal's number and dealer
        board = Page(html).by_id("board") or Page(scorer_client.get(url).content.decode()).by_id("board")
        assert headers["X-Board-Version"] == sent["evening_version"][0] == board.get("data-version")
        assert headers["HX-Request"] == "true"
        response = _post(scorer_client, record, pairs, headers)
        assert response.status_code == 200 and response["HX-Reswap"] == "none", number  # the small answer
        assert evening.deals.count() == number
        page.answered(response.status_code, response.content.decode(), response)
        html = scorer_client.get(url).content.decode()  # what a reload shows: the phone is there already
        again = ScoringPage(url, html)
        where = ("evening_version", "deal_number", "dealer")
        assert again.version == page.version
        assert [again.fields[n] for n in where[1:]] == [page.fields[n] for n in where[1:]]


def test_it_meets_a_conflict_as_a_phone_does_when_another_phone_recorded_first(client, scorer, make_evening):
    evening = make_evening("kleurenwiezen", PLAYERS)
    url, record = reverse("evening", args=[evening.pk]), reverse("deal_record", args=[evening.pk])
    phones = []
    for _ in range(2):
        client.force_login(scorer)
        phones.append(ScoringPage(url, client.get(url).content.decode()))
    rng = random.Random(5)
    deals = [syn.random_deal(p.playing(), rng, allow_pass=False) for p in phones]
    first, second = (p.post(deal) for p, deal in zip(phones, deals, strict=True))
    assert _post(client, record, *first).status_code == 200
    refused = _post(client, record, *second)
    assert refused.status_code == 409  # the evening moved since the deal was entered: never placed silently
    assert evening.deals.count() == 1
    phones[1].answered(refused.status_code, refused.content.decode(), refused)
    again = _post(client, record, *phones[1].post(deals[1]))  # "Record it as deal 2", as the page offers
    assert again.status_code == 200
    assert [d.data for d in evening.deals.order_by("number")] == [syn_deal(d) for d in deals]


def syn_deal(deal: dict) -> dict:
    """A deal as the form stores it (its tricks a whole number)."""
    return deal | ({"tricks": int(deal["tricks"])} if isinstance(deal.get("tricks"), str) else {})


def test_it_stops_at_the_tables_last_deal_of_the_session_without_dying(scorer_client, make_evening):
    """The answer to a table's last deal of a club night's session is its board without the record
    form ("the deals are done"): the phone reads it as the end of its session. It died on it (an
    uncaught ValueError in its thread) and the bench counted no error: 53 phones last round."""
    from scorebook.evenings.models import Evening

    evening = make_evening("kleurenwiezen", PLAYERS[:4])
    Evening.objects.filter(pk=evening.pk).update(deal_limit=2)  # a session of two deals
    url, record = reverse("evening", args=[evening.pk]), reverse("deal_record", args=[evening.pk])
    page = ScoringPage(url, scorer_client.get(url).content.decode())
    rng = random.Random(8)
    for _deal in (1, 2):
        assert page.recording and not page.deals_done
        response = _post(scorer_client, record, *page.post(syn.random_deal(page.playing(), rng, allow_pass=False)))
        assert response.status_code == 200
        page.answered(response.status_code, response.content.decode(), response)
    assert evening.deals.count() == 2
    assert not page.recording and page.deals_done  # the board without the form: its deals are done
