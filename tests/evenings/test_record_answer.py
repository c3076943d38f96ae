"""The answer to a recorded line. When the page that posted it shows the evening as it was just before
(``X-Board-Version``, sent by the page's script) and the record forms keep their shape, the answer is
small: what changed, swapped out of band (the new row, the row before it, the totals, who deals next,
the robre, the notices, the next request keys, the rotation), the form kept where it is. Otherwise the
whole board; without JavaScript, a redirect."""

import re

import pytest
from django.urls import reverse

from scorebook.evenings import display
from scorebook.evenings.models import Evening
from scorebook.rules import registry

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

FOUR = ["Anne", "Bert", "Carl", "Dina"]
SAMEN = {"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": "8"}


def record(client, evening, data, *, shown: int | None = None, name="deal_record", current_url=None):
    """Post ``data`` with htmx, as the page showing version ``shown`` (the evening's now by default)."""
    evening.refresh_from_db()
    headers = {"HX-Request": "true", "X-Board-Version": str(evening.version if shown is None else shown)}
    if current_url:
        headers["HX-Current-URL"] = current_url
    return client.post(reverse(name, args=[evening.pk]), data, headers=headers)


def small(response) -> bool:
    """An answer swapped out of band into the page that posted (the board kept)."""
    assert response.status_code == 200
    body = response.content.decode()
    if response.get("HX-Reswap") == "none":
        assert 'id="board"' not in body and 'id="record"' not in body
        return True
    assert 'id="board"' in body and "hx-swap-oob" not in body
    return False


def oob_ids(response) -> set[str]:
    return set(re.findall(r'id="([^"]+)"[^>]*hx-swap-oob="true"', response.content.decode()))


def totals(html: str) -> dict[str, int]:
    section = html[html.index('id="totals"') :]
    section = section[: section.index("</section>")]
    names = re.findall(r'class="chip-name"[^>]*>(?:<span class="crown"[^>]*>★</span>)?([^<]+)<', section)
    values = re.findall(r'class="chip-total[^"]*">(-?\d+)<', section)
    return dict(zip(names, map(int, values), strict=False))


def test_it_answers_a_deal_with_what_changed_only(scorer_client, make_evening):
    evening = make_evening(deals=[{"contract": "pass"}])
    response = record(scorer_client, evening, SAMEN | {"request_key": "a"})
    assert small(response)
    body = response.content.decode()
    assert {"totals", "next", "deal-1", "notices", "id_request_key", "id_adj-request_key", "earlier"} <= oob_ids(
        response
    ), "the totals, who deals next, the row before, the notices, the next keys, the earlier deals' link"
    assert '<ol hx-swap-oob="afterbegin:#deals">' in body and 'id="deal-2"' in body  # the new row, on top
    assert 'id="rotation-holder" hx-swap-oob="true"' in body
    page = scorer_client.get(reverse("evening", args=[evening.pk])).content.decode()
    assert totals(body) == totals(page) == {"Anne": 16, "Bert": -16, "Carl": 16, "Dina": -16}
    fresh = Evening.objects.get(pk=evening.pk)
    assert f'data-version="{fresh.version}"' in body  # the page's version moves on with it
    assert 'name="request_key" value="a"' not in body  # a new key for the next deal
    full = record(scorer_client, evening, SAMEN | {"request_key": "b"}, shown=0)
    assert len(body) * 3 < len(full.content)


def test_it_answers_the_whole_board_to_a_page_behind_or_without_its_version(scorer_client, make_evening):
    evening = make_evening(deals=[{"contract": "pass"}])
    assert not small(record(scorer_client, evening, SAMEN | {"request_key": "a"}, shown=0))  # another phone's deal
    response = scorer_client.post(
        reverse("deal_record", args=[evening.pk]), SAMEN | {"request_key": "b"}, headers={"HX-Request": "true"}
    )
    assert not small(response)


def test_it_answers_the_whole_board_to_a_page_showing_every_deal(scorer_client, make_evening):
    evening = make_evening(deals=[{"contract": "pass"}])
    url = "http://testserver" + reverse("evening", args=[evening.pk]) + "?deals=all"
    assert not small(record(scorer_client, evening, SAMEN | {"request_key": "a"}, current_url=url))


def test_it_redirects_without_javascript(scorer_client, make_evening):
    evening = make_evening()
    response = scorer_client.post(reverse("deal_record", args=[evening.pk]), SAMEN)
    assert response.status_code == 302


def test_it_takes_the_oldest_row_away_once_ten_are_shown_and_offers_the_earlier_ones(scorer_client, make_evening):
    evening = make_evening(deals=[{"contract": "pass"}] * 10)
    response = record(scorer_client, evening, SAMEN)
    assert small(response)
    body = response.content.decode()
    assert '<div id="deal-1" hx-swap-oob="delete"></div>' in body
    assert "Show the 1 earlier deal" in body


def test_it_takes_the_no_deal_line_away_with_the_first_deal(scorer_client, make_evening):
    evening = make_evening()
    body = record(scorer_client, evening, SAMEN).content.decode()
    assert '<div id="no-deals" hx-swap-oob="delete"></div>' in body
    body = record(scorer_client, evening, SAMEN).content.decode()
    assert "no-deals" not in body


def test_it_answers_an_adjustment_with_what_changed_only(scorer_client, make_evening):
    evening = make_evening(deals=[SAMEN | {"tricks": 8}])
    response = record(scorer_client, evening, {"adj-points_0": "5", "adj-points_1": "-5"}, name="adjustment")
    assert small(response)
    assert totals(response.content.decode())["Anne"] == 8 + 5


def test_it_answers_small_when_a_rarer_contract_is_played_since_the_buttons_stay(scorer_client, make_evening):
    """The quick buttons are fixed when the evening starts (issue 18, item 7): a rarer contract
    played changes nothing on the form's first screen."""
    rare = {"contract": "solo-slim", "declarers": ["Bert"], "tricks": "13"}
    quick = [b.key for b in display.contract_choices(registry.get("kleurenwiezen")).quick]
    assert "solo-slim" not in quick
    evening = make_evening(deals=[{"contract": "pass"}])
    assert small(record(scorer_client, evening, rare))
    assert small(record(scorer_client, evening, rare))
    assert small(record(scorer_client, evening, SAMEN))


def test_it_answers_the_whole_board_when_a_classic_robre_begins_ends_or_offers_a_claim(scorer_client, make_evening):
    evening = make_evening("classique", FOUR)

    def deal(t0):
        return {"tricks": str(t0)}

    assert not small(record(scorer_client, evening, deal(9)))  # the first deal: the partnerships form goes
    assert small(record(scorer_client, evening, deal(9)))  # 6 – 0
    assert not small(record(scorer_client, evening, deal(8)))  # 8 – 0: the claim at 8 is offered
    assert not small(record(scorer_client, evening, deal(11)))  # the manche is won: no claim any more
    assert small(record(scorer_client, evening, deal(9)))
    assert not small(record(scorer_client, evening, deal(13)))  # the robre is over: a new one, new teams
    assert not small(record(scorer_client, evening, deal(13)))  # its first deal
    assert small(record(scorer_client, evening, deal(8)))  # 7 – 0, then 9 – 0


def test_it_answers_the_whole_board_to_new_partnerships_and_to_a_repeated_request(scorer_client, make_evening):
    evening = make_evening("classique", FOUR)
    teams = {"robre-choice": "Anne\x1fBert\x1fCarl\x1fDina"}
    assert not small(record(scorer_client, evening, teams, name="robre_start"))
    evening = make_evening(deals=[{"contract": "pass"}])
    assert small(record(scorer_client, evening, SAMEN | {"request_key": "twice"}))
    again = record(scorer_client, evening, SAMEN | {"request_key": "twice"})
    assert not small(again) and 'id="deal-2"' in again.content.decode()
