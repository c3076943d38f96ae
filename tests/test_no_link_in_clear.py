"""No link of any kind is kept in clear in the database (issue 29): one link of each kind is made and
opened as its holder opens it (an invitation, an evening's read-only link, a table's scoring link
and its printed card, a night's ranking link, a password reset, a link to choose a password), and
then every row of every table, the sessions and the cache decoded, is searched for their secrets.
"""

import base64
import pickle
import re
import zlib
from datetime import date

import pytest
from django.contrib.sessions.models import Session
from django.core import mail
from django.db import connection
from django.test import Client
from django.urls import reverse

import night_builders
from builders import club_evening
from scorebook.accounts import password_links
from scorebook.clubs import services as clubs
from scorebook.clubs.models import Club, Membership, Role
from scorebook.evenings import services
from scorebook.nights import services as nights

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


def _every_value() -> str:
    """Every value of every row of every table of the database, as text, with the sessions' data and
    the cache's entries decoded (they are base64, signed or pickled)."""
    found = []
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            found += [repr(row) for row in cursor.fetchall()]
    for session in Session.objects.all():
        found.append(repr(session.get_decoded()))
    for value in re.findall(r"'([A-Za-z0-9+/=:_-]{40,})'", "\n".join(found)):
        found.append(repr(_decoded(value)))
    return "\n".join(found)


def _decoded(value: str):
    """A cache entry (base64 of a pickle, perhaps compressed) as Python, or the value itself."""
    try:
        raw = base64.b64decode(value.encode(), validate=True)
    except ValueError:
        return value
    for read in (pickle.loads, lambda b: pickle.loads(zlib.decompress(b))):
        try:
            return read(raw)
        except Exception:  # noqa: BLE001 - not a pickle: the raw value stays
            pass
    return value


def test_no_token_of_any_kind_is_kept_in_clear(make_user):
    adele = make_user("adele", email="adele@example.org")
    club = clubs.create_club(name="De Troef", slug="de-troef", user=adele)
    evening = club_evening(club, adele, date(2026, 3, 1))
    night = night_builders.night(
        club,
        adele,
        ["Anne", "Bert", "Carl", "Dina", "Eric", "Fien", "Gust", "Hilde"],
        deals=4,
        name="Lenteavond",
        seed=0,
        ranking_link=False,
    )
    restored = make_user("mia")
    restored.set_unusable_password()
    restored.save()
    Membership.objects.create(club=club, user=restored, role=Role.MEMBER)

    _invitation, invitation = clubs.create_invitation(club, adele, role=Role.MEMBER, days=7, uses=3)
    share = services.new_share_link(evening)  # "<id>.<secret>": the id is stored, the secret is not
    card = next(iter(nights.table_links(night, 1).values()))
    ranking = nights.new_ranking_link(night)
    choose = password_links.make(restored, by=adele)
    Client().post(reverse("password_reset"), {"email": "adele@example.org"})
    reset = re.search(r"/accounts/reset/([\w-]+)/([\w-]+)/", mail.outbox[0].body)
    secrets = {
        "invitation": invitation,
        "read-only link": share.split(".", 1)[1],
        "table card": card,
        "ranking link": ranking,
        "link to choose a password": choose,
        "password reset": reset.group(2),
    }

    # each opened as its holder opens it
    holder = Client()
    holder.force_login(make_user("ivo"))
    assert holder.get(reverse("club_join", args=[invitation])).status_code == 200
    assert Client().get(reverse("evening_public", args=[share])).status_code == 200
    table = Client()
    assert table.get(reverse("scoring_link", args=[card])).status_code == 302
    assert table.get(reverse("evening", args=[evening.pk + 1])).status_code in (200, 404)
    hall = Client()
    assert hall.get(reverse("night_ranking", args=[ranking])).status_code == 200
    assert hall.get(reverse("night_ranking_live", args=[ranking])).status_code == 200
    assert Client().get(reverse("password_link", args=[choose])).status_code == 200
    forgetful = Client()
    opened = forgetful.get(reverse("password_reset_confirm", args=reset.groups()), follow=True)
    assert b"new_password1" in opened.content

    stored = _every_value()
    assert Club.objects.exists() and "de-troef" in stored  # the scan reads the database
    kept = [kind for kind, secret in secrets.items() if secret in stored]
    assert not kept, f"kept in clear: {kept}"
