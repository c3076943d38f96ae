"""The number of database queries of the evening pages does not grow with the number of deals, nor
that of a recorded deal, posted as the scoring page posts it."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench import synthetic as syn
from pages import Page

PAIRS = [
    {"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": 8},
    {"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": 9},
]
TABLE = ("Anne", "Bert", "Carl", "Dina", "Emma", "Fred", "Gust")


def _queries(client, method, url, data=None, **headers):
    with CaptureQueriesContext(connection) as queries:
        if method == "get":
            response = client.get(url)
        else:
            response = client.post(url, data, HTTP_HX_REQUEST="true", **headers)
    assert response.status_code == 200
    return len(queries)


# the session with its user, the evening with the user's role, its seats, its last deals, the corrections
SCORING_PAGE = 5
# the session with its user; then in the write's transaction (a savepoint inside the test's, two
# statements; a BEGIN on SQLite as deployed): the evening locked with the user's role, its seats,
# its deals counted with the last two and the request key's deal or deletion (one query), the deal
# inserted, the evening updated (its state, summary and version), its payments; and each seat whose
# figures changed (every seat at the table: it played or sat out the deal), one UPDATE of the figures
# that changed (a bulk_update in one statement costs five times the processor time); the answer is
# drawn from what the service gave back
SMALL_ANSWER = 9  # + one per seat
BOARD = 2  # more: the last deals and the corrections, for the whole board


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["evening", "settlement", "evening_print", "evening_chart"])
def test_it_reads_an_evening_with_the_same_queries_at_4_and_at_40_deals(scorer_client, make_evening, page):
    small = make_evening("kleurenwiezen", deals=PAIRS * 2)
    large = make_evening("kleurenwiezen", deals=PAIRS * 20)
    url = lambda e: reverse(page, args=[e.pk])  # noqa: E731
    scorer_client.get(url(small))  # warm the session
    assert _queries(scorer_client, "get", url(small)) == _queries(scorer_client, "get", url(large))


@pytest.mark.django_db
def test_it_shows_the_scoring_page_with_the_same_queries_at_4_and_at_40_deals(scorer_client, make_evening):
    for deals in (PAIRS * 2, PAIRS * 20):
        evening = make_evening("kleurenwiezen", deals=deals)
        assert _queries(scorer_client, "get", reverse("evening", args=[evening.pk])) == SCORING_PAGE


def _as_the_page_posts(client, evening, deal: dict) -> tuple[dict, dict]:
    """The record form's fields as the scoring page shows them (its request key, the version, number
    and dealer it was entered against) with ``deal`` chosen, and the headers htmx and the page send."""
    page = Page(client.get(reverse("evening", args=[evening.pk])).content.decode())
    form = page.by_id("record")
    data = {e.get("name"): e.get("value") or "" for e in form.all("input[type=hidden]")}
    data |= syn.form_data(deal, [seat.name for seat in evening.seats.all()], request_key=data["request_key"])
    return data, {"HTTP_X_BOARD_VERSION": page.by_id("board").get("data-version")}


@pytest.mark.both_databases
@pytest.mark.django_db
@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_it_records_a_deal_in_nine_queries_and_one_per_seat_at_4_and_at_40_deals(scorer_client, make_evening, players):
    names = TABLE[:players]
    for count in (4, 40):
        table, rng = syn.Table(names), random.Random(f"{players}-{count}")
        evening = make_evening("kleurenwiezen", names, deals=syn.make_deals(count, rng, players=names, table=table))
        url = reverse("deal_record", args=[evening.pk])
        deal = syn.random_deal(table.playing, rng, allow_pass=False)
        data, headers = _as_the_page_posts(scorer_client, evening, deal)
        assert _queries(scorer_client, "post", url, data, **headers) == SMALL_ANSWER + players, (players, count)
        table.play(deal)
        assert evening.deals.count() == count + 1


@pytest.mark.both_databases
@pytest.mark.django_db
def test_it_answers_with_the_whole_board_in_two_queries_more_at_4_and_at_40_deals(scorer_client, make_evening):
    for deals in (PAIRS * 2, PAIRS * 20):
        evening = make_evening("kleurenwiezen", deals=deals)
        data, _headers = _as_the_page_posts(scorer_client, evening, PAIRS[0])
        assert (
            _queries(scorer_client, "post", reverse("deal_record", args=[evening.pk]), data) == SMALL_ANSWER + 4 + BOARD
        )
