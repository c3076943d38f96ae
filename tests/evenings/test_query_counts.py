"""The number of database queries of the evening pages does not grow with the number of deals."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

PAIRS = [
    {"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": 8},
    {"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": 9},
]


def _queries(client, method, url, data=None, **headers):
    with CaptureQueriesContext(connection) as queries:
        if method == "get":
            response = client.get(url)
        else:
            response = client.post(url, data, HTTP_HX_REQUEST="true", **headers)
    assert response.status_code == 200
    return len(queries)


# session, user, the evening with the user's role, its seats, its last deals, the corrections
SCORING_PAGE = 6
# session, user, the evening with the user's role, its seats (the form is checked against the
# table), then in a transaction (a savepoint inside the test's): the evening locked, its seats,
# the deals counted with the request key's deal, the deletions keeping that key, the deal
# inserted, the evening updated (its state, summary and version), its payments, and each seat
# whose figures changed (the four played: 4 updates of the figures that changed; one CASE/WHEN
# update of every figure of every seat was slower); then the last deals for the answer
SMALL_ANSWER = 18
BOARD = SMALL_ANSWER + 1  # and the corrections, for the whole board


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


@pytest.mark.django_db
def test_it_records_a_deal_with_the_same_queries_at_4_and_at_40_deals(scorer_client, make_evening):
    for deals in (PAIRS * 2, PAIRS * 20):
        evening = make_evening("kleurenwiezen", deals=deals)
        url = reverse("deal_record", args=[evening.pk])
        post = {"contract": "pass", "request_key": f"k{evening.pk}"}
        assert _queries(scorer_client, "post", url, post) == BOARD
        evening.refresh_from_db()
        post = {"contract": "pass", "request_key": f"k{evening.pk}-2"}
        assert _queries(scorer_client, "post", url, post, HTTP_X_BOARD_VERSION=str(evening.version)) == SMALL_ANSWER
