"""A write that meets a deletion (issue 39): a form posted after what it was about was deleted, or while
it is deleted, is answered in words, never a 500. A deleted evening sends the phone to the list of
evenings with "This evening has been deleted." (as it always did for a deal); a deleted club night to the
club's nights; a deleted season answers its 410 page with the sentence. Payments cannot vanish (an
evening or a night with payments is not deleted) and a player merged away is "a player of the club is
needed" next to the field (tests/league/test_payment_races.py, the roster's tests).

Before the fix, a payment posted while its evening was deleted answered 500 (``EveningGone`` not caught),
a director's write while his night was deleted 500 (``Night.DoesNotExist``), prizes awarded while their
season was deleted 500 (the prize's season row gone, an IntegrityError at the commit).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from types import SimpleNamespace
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from builders import club_evening
from club_fixtures import *  # noqa: F403 - the club and its admin, as the league tests have them
from night_builders import night as make_night
from races import HTMX, Shot, race
from scorebook.clubs.models import Season
from scorebook.evenings.models import Evening, Payment
from scorebook.ledger.models import Prize
from scorebook.nights.models import Night

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]

SAMEN_9 = {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}
ROUNDS = 4


def _evening(w: SimpleNamespace, n: int) -> SimpleNamespace:
    evening = club_evening(w.club, w.scorer, date(2026, 9, 1 + n))  # no deal yet: it may be deleted
    return SimpleNamespace(
        deleter=(w.scorer, reverse("evening_delete", args=[evening.pk])),
        write=(w.scorer, reverse("payment_add", args=[evening.pk])),
        data={"payer": "Anne", "payee": "Bert", "amount": "1,00", "note": "", "key": f"pay-{n}"},
        gone=lambda: not Evening.objects.filter(pk=evening.pk).exists(),
        nothing=lambda: not Payment.objects.filter(evening_id=evening.pk).exists(),
        words="This evening has been deleted.",
    )


def _night(write: str, data: dict[str, str]) -> Callable[[SimpleNamespace, int], SimpleNamespace]:
    def case(w: SimpleNamespace, n: int) -> SimpleNamespace:
        night = make_night(w.club, w.admin, players=8, sessions=1, deals=1, day=date(2026, 10, 1 + n))
        args = [night.pk, 1] if write == "night_session_close" else [night.pk]
        return SimpleNamespace(
            deleter=(w.admin, reverse("night_delete", args=[night.pk])),
            write=(w.admin, reverse(write, args=args)),
            data=data,
            gone=lambda: not Night.objects.filter(pk=night.pk).exists(),
            nothing=lambda: True,
            words="This club night has been deleted.",
        )

    return case


def _season(w: SimpleNamespace, n: int) -> SimpleNamespace:
    club_evening(w.club, w.scorer, date(2026, 9, 1 + n), [SAMEN_9])
    season = Season.objects.create(
        club=w.club, name=f"Autumn {n}", start=date(2026, 9, 1), end=date(2026, 9, 30), ruleset="kleurenwiezen"
    )
    Season.objects.filter(pk=season.pk).update(prizes=["20.00", "5.00"])
    return SimpleNamespace(
        deleter=(w.admin, reverse("season_delete", args=[w.club.slug, season.pk])),
        write=(w.admin, reverse("season_prizes", args=[w.club.slug, season.pk])),
        data={},
        gone=lambda: not Season.objects.filter(pk=season.pk).exists(),
        # awarded before the deletion, the prizes stay (a season deleted later leaves its prizes), without it
        nothing=lambda: not Prize.objects.filter(season_name=f"Autumn {n}", season__isnull=False).exists(),
        words="This season has been deleted.",
    )


CASES: dict[str, Callable[[SimpleNamespace, int], SimpleNamespace]] = {
    "a payment, its evening deleted": _evening,
    "a late player, his night deleted": _night("night_late", {"name": "Zoë"}),
    "a session closed, its night deleted": _night("night_session_close", {}),
    "the ranking's link, its night deleted": _night("night_ranking_link", {}),
    "prizes, their season deleted": _season,
}


@pytest.fixture
def world(club: Any, scorer: Any, admin: Any) -> SimpleNamespace:
    return SimpleNamespace(club=club, scorer=scorer, admin=admin)


def _client(user: Any) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


@pytest.mark.parametrize("name", sorted(CASES))
def test_it_answers_in_words_a_form_posted_after_its_object_was_deleted(world: SimpleNamespace, name: str) -> None:
    s = CASES[name](world, 0)
    deleter, writer = _client(s.deleter[0]), _client(s.write[0])
    assert deleter.post(s.deleter[1]).status_code in (200, 302)
    assert s.gone()
    answer = writer.post(s.write[1], s.data, follow=True)
    assert answer.status_code in (200, 404, 410), answer.status_code
    assert s.nothing()


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("headers", [{}, HTMX], ids=["form", "htmx"])
def test_it_answers_in_words_a_form_posted_while_its_object_is_deleted(
    world: SimpleNamespace, name: str, headers: dict[str, str]
) -> None:
    def setup(n: int) -> SimpleNamespace:
        return CASES[name](world, n)

    def shots(s: SimpleNamespace) -> list[Shot]:
        return [Shot(s.deleter[0], "post", s.deleter[1]), Shot(s.write[0], "post", s.write[1], s.data, headers)]

    def check(s: SimpleNamespace, answers: list[Any]) -> None:
        _deleted, written = answers
        if s.gone():
            assert s.nothing()
            assert written.status in (302, 200, 404, 410), written.status
            if written.status == 410:
                assert s.words in written.text

    race(setup, shots, check, rounds=ROUNDS)
