"""A table's phone (a scoring link, no account) is given only what it may use (issue 18, item 5):
no link of its scoring page leads to the login page; its menu says the director does the rest;
a closed table says only the director reopens it."""

import re

import pytest
from django.urls import reverse

from scorebook.evenings import links, services
from scorebook.evenings.models import Evening

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_phone(client, make_evening):
    evening = make_evening()
    client.get(reverse("scoring_link", args=[links.issue(evening)]))
    return client, evening


def board_links(html: str) -> set[str]:
    board = html[html.index('id="board"') :]
    return {h for h in re.findall(r'href="(/[^"#]*)', board) if not h.startswith("/static/")}


def test_it_leads_a_table_phone_to_no_login_page(table_phone):
    client, evening = table_phone
    page = client.get(reverse("evening", args=[evening.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "This phone scores this table only" in html
    assert reverse("settlement", args=[evening.pk]) not in board_links(html)
    for href in board_links(html):
        answer = client.get(href)
        assert answer.status_code == 200, href
        assert "/accounts/login/" not in answer.get("Location", ""), href


def test_it_keeps_the_whole_menu_for_a_scorer(scorer_client, make_evening):
    evening = make_evening()
    html = scorer_client.get(reverse("evening", args=[evening.pk])).content.decode()
    assert reverse("settlement", args=[evening.pk]) in board_links(html)
    assert "This phone scores this table only" not in html


@pytest.mark.both_databases
def test_it_tells_a_table_phone_that_the_director_reopens_a_closed_table(table_phone):
    client, evening = table_phone
    services.set_status(evening, Evening.Status.CLOSED)
    html = client.get(reverse("evening", args=[evening.pk])).content.decode()
    assert "only the director can reopen the table" in html
    assert "reopen it to correct one" not in html
