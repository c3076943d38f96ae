"""Every address with an id or a number answers 404 to one beyond a 64-bit integer
(issue 13, finding 10): SQLite cannot even compare such a number, and nothing has that id."""

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from conftest import world_of_the_module
from scorebook.clubs import services

# what the database does with a number beyond its integers is the database's own: both databases
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


def routes(resolver=None, prefix=""):
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            yield from routes(entry, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern)


NUMBERED = sorted({r for r in routes() if re.search(r"<(int|id):", r)})


def test_it_finds_the_numbered_addresses():
    assert len(NUMBERED) >= 20
    assert any("players/<" in r for r in NUMBERED) and any("members/<" in r for r in NUMBERED)


def _build(make_user):
    admin = make_user("ada_admin", is_staff=True, is_superuser=True)
    services.create_club(name="Les As", slug="les-as", user=admin)
    return admin


admin = world_of_the_module(_build)  # Ada and her club, built once: each test only reads


@pytest.mark.parametrize("route", NUMBERED)
@pytest.mark.parametrize("number", [2**63, 2**64 + 5, 10**30, 0])
def test_it_answers_404_to_an_id_out_of_range(client, admin, route, number):
    client.force_login(admin)
    path = "/" + re.sub(r"<(?:int|id):\w+>", str(number), route)
    path = re.sub(r"<slug:\w+>", "les-as", path)
    path = re.sub(r"<(?:str:)?\w+>", "x", path)
    assert client.get(path).status_code == 404, path
    assert client.post(path).status_code == 404, path
