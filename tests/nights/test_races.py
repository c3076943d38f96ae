"""Two directors (or a director and a table), one night: every director action of a night when two
requests cross (``races``, issue 19). Whatever the order the database puts them in, what is left is
what one request alone would leave, the one that lost is told in words, and nothing answers 500.
Marie (``director``) and Adèle (``admin``) both direct the night of De Troef."""

from types import SimpleNamespace

import pytest
from django.urls import reverse

from night_builders import NAMES, card_links, tables
from races import Shot, race, said
from scorebook.evenings import services as evenings
from scorebook.evenings.links import SESSION_KEY  # noqa: F401 - the grant a card gives (see links)
from scorebook.evenings.models import Deal, Evening, ScoringLink
from scorebook.nights import services
from scorebook.nights.models import Night, NightEvent, NightSession

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]


def form(evening, made=True) -> dict:
    names = [s.name for s in evening.seats.all()]
    return {"contract": "samen-9", "declarers": [names[1], names[3]], "tricks": "9" if made else "7"}


def data(evening) -> dict:
    return {**form(evening), "tricks": 9}


@pytest.fixture
def night(make_night):
    def make(**kw):
        return make_night(players=8, sessions=2, **kw)

    return make


def test_it_closes_a_session_once_when_two_directors_close_it(night, director, admin):
    def setup(_round):
        n = night()
        return SimpleNamespace(night=n, url=reverse("night_session_close", args=[n.pk, 1]))

    def shots(s):
        return [Shot(director, "post", s.url), Shot(admin, "post", s.url)]

    def check(s, answers):
        assert NightSession.objects.get(night=s.night, number=1).status == "closed"
        assert {t.evening.status for t in tables(s.night, 1)} == {"closed"}
        assert NightEvent.objects.filter(night=s.night, kind=NightEvent.Kind.CLOSED).count() == 1  # was 2

    race(setup, shots, check)


def test_it_reopens_a_session_once_when_two_directors_reopen_it(night, director, admin):
    def setup(_round):
        n = night()
        services.close_session(n, 1, director)
        return SimpleNamespace(night=n, url=reverse("night_session_reopen", args=[n.pk, 1]))

    def shots(s):
        return [
            Shot(director, "post", s.url, {"reason": "A deal to correct"}),
            Shot(admin, "post", s.url, {"reason": "Same"}),
        ]

    def check(s, answers):
        assert {t.evening.status for t in tables(s.night, 1)} == {"open"}
        assert NightEvent.objects.filter(night=s.night, kind=NightEvent.Kind.REOPENED).count() == 1

    race(setup, shots, check)


def test_a_deal_and_the_sessions_close_cross_without_a_deal_after_the_close(night, director, admin):
    def setup(_round):
        n = night()
        table = tables(n, 1)[0].evening
        return SimpleNamespace(night=n, table=table, close=reverse("night_session_close", args=[n.pk, 1]))

    def shots(s):
        return [
            Shot(director, "post", reverse("deal_record", args=[s.table.pk]), form(s.table)),
            Shot(admin, "post", s.close),
        ]

    def check(s, answers):
        s.table.refresh_from_db()
        assert s.table.status == "closed"
        recorded = Deal.objects.filter(evening=s.table).count()
        assert recorded in (0, 1)
        closed_at = NightSession.objects.get(night=s.night, number=1).closed_at
        assert all(d.recorded_at <= closed_at for d in Deal.objects.filter(evening=s.table))
        if not recorded:  # refused: told on the page it is sent back to (a redirect, the message kept)
            assert answers[0].status in (302, 409, 422)

    race(setup, shots, check)


def test_a_correction_and_the_sessions_close_cross(night, director, admin):
    def setup(_round):
        n = night()
        table = tables(n, 1)[0].evening
        evenings.record_deal(table, data(table), director)
        return SimpleNamespace(night=n, table=table, close=reverse("night_session_close", args=[n.pk, 1]))

    def shots(s):
        edit = reverse("deal_edit", args=[s.table.pk, 1])
        deal = Deal.objects.get(evening=s.table, number=1)
        return [
            Shot(director, "post", edit, {**form(s.table, made=False), "deal": deal.pk, "version": deal.version}),
            Shot(admin, "post", s.close),
        ]

    def check(s, answers):
        s.table.refresh_from_db()
        assert s.table.status == "closed" and Deal.objects.filter(evening=s.table).count() == 1

    race(setup, shots, check)


def test_it_seats_one_substitute_when_two_directors_replace_the_same_player(night, director, admin):
    def setup(_round):
        n = night()
        url = reverse("night_substitute", args=[n.pk])
        return SimpleNamespace(night=n, url=url)

    def shots(s):
        return [
            Shot(director, "post", s.url, {"leaving": "1", "name": "Zoë"}),
            Shot(admin, "post", s.url, {"leaving": "1", "name": "Yves"}),
        ]

    def check(s, answers):
        assert s.night.participants.filter(replaces__number=1).count() == 1
        sub = s.night.participants.get(replaces__number=1)
        seated = Evening.objects.filter(night_table__session__night=s.night, seats__name=sub.name).count()
        assert (
            seated == 2
            and not Evening.objects.filter(night_table__session__night=s.night, seats__name=NAMES[0]).exists()
        )

    race(setup, shots, check)


def test_it_seats_a_late_arrival_once_when_two_directors_add_him(night, director, admin):
    def setup(_round):
        n = night()
        return SimpleNamespace(night=n, url=reverse("night_late", args=[n.pk]))

    def shots(s):
        return [Shot(director, "post", s.url, {"name": "Zoë"}), Shot(admin, "post", s.url, {"name": "Zoë"})]

    def check(s, answers):
        assert s.night.participants.filter(name="Zoë").count() == 1
        plan = Night.objects.get(pk=s.night.pk).plan
        for session in plan["sessions"]:
            seated = [n for t in session["tables"] for n in t]
            assert sorted(seated) == list(range(1, 10))  # each of the 9 once
        assert said(answers, "already takes part") == 1

    race(setup, shots, check)


def test_two_directors_printing_the_cards_leave_one_live_link_a_table(night, director, admin):
    def setup(_round):
        n = night()
        return SimpleNamespace(night=n, url=reverse("night_cards", args=[n.pk]))

    def shots(s):
        return [Shot(director, "post", s.url), Shot(admin, "post", s.url)]

    def check(s, answers):
        for t in tables(s.night, 1) + tables(s.night, 2):
            assert ScoringLink.objects.active().filter(evening=t.evening).count() == 1
        live = [url for a in answers for url in card_links(a.text)]
        assert len(live) == 8  # each printed 4 cards; the later print's are the live ones

    race(setup, shots, check)


def test_a_card_and_its_revocation_cross(night, director, admin):
    def setup(_round):
        n = night()
        table = tables(n, 1)[0]
        return SimpleNamespace(night=n, table=table)

    def shots(s):
        return [
            Shot(director, "post", reverse("night_table_link", args=[s.night.pk, s.table.pk])),
            Shot(admin, "post", reverse("night_table_revoke", args=[s.night.pk, s.table.pk])),
        ]

    def check(s, answers):
        assert ScoringLink.objects.active().filter(evening=s.table.evening).count() <= 1

    race(setup, shots, check)


def test_a_night_deleted_while_a_deal_is_recorded_keeps_the_deal_or_goes_whole(night, director, admin):
    def setup(_round):
        n = night()
        table = tables(n, 1)[0].evening
        return SimpleNamespace(night=n, table=table)

    def shots(s):
        return [
            Shot(director, "post", reverse("deal_record", args=[s.table.pk]), form(s.table)),
            Shot(admin, "post", reverse("night_delete", args=[s.night.pk])),
        ]

    def check(s, answers):
        if Night.objects.filter(pk=s.night.pk).exists():
            assert Deal.objects.filter(evening=s.table).count() == 1
            assert Evening.objects.filter(night_table__session__night=s.night).count() == 4
        else:
            assert not Evening.objects.filter(pk=s.table.pk).exists()
            assert not Deal.objects.filter(evening_id=s.table.pk).exists()

    race(setup, shots, check)
