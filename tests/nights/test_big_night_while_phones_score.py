"""Issue 19, item 4: a director creates a big club night (its plan, eighty evenings) while eight
phones are scoring evenings of the club. Every phone's deal is answered (it may wait for the
night's transaction on SQLite, never fails): no 500, no "database is locked", nothing lost. Runs
on SQLite (WAL, IMMEDIATE transactions, a busy timeout) and on PostgreSQL alike."""

import threading
import time
from datetime import date

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from builders import club_evening
from scorebook.evenings.models import Deal
from scorebook.nights import services
from scorebook.nights.models import NightTable

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.both_databases,
]  # threads, a big night

PHONES = 8
PLAYERS, SESSIONS = 64, 5  # eighty tables, each an evening
AT_THE_TABLE = ["Anne", "Bert", "Carl", "Dina"]  # four players: every deal is valid whoever deals


def phone(director, evening, stop: threading.Event, answers: list, problems: list) -> None:
    """A scorer's phone recording deals (htmx posts with request keys) until told to stop, a deal a
    second (a hall's pace many times over; the phones share this process's interpreter with
    the night's creation, which they would otherwise starve)."""
    client = Client()
    client.force_login(director)
    url = reverse("deal_record", args=[evening.pk])
    sent = 0
    try:
        while not stop.is_set() or sent < 3:
            form = {"contract": "samen-9", "declarers": AT_THE_TABLE[1::2], "tricks": "9"}
            form["request_key"] = f"phone-{evening.pk}-{sent}"
            try:
                answer = client.post(url, form, headers={"HX-Request": "true"})
                answers.append((evening.pk, answer.status_code))
            except Exception as error:  # noqa: BLE001 - "database is locked" would surface here
                problems.append(repr(error))
            sent += 1
            stop.wait(1)
    finally:
        connection.close()  # this thread's own connection


def test_it_creates_a_big_night_while_eight_phones_score_and_every_deal_is_answered(club, director):
    tables = [club_evening(club, director, date(2026, 3, 14), (), AT_THE_TABLE, stake=None) for _ in range(PHONES)]
    stop, answers, problems = threading.Event(), [], []
    phones = [threading.Thread(target=phone, args=(director, e, stop, answers, problems)) for e in tables]
    for p in phones:
        p.start()
    try:
        time.sleep(0.5)  # the phones are scoring
        night = services.create_night(
            club=club,
            user=director,
            name="Grote kaartavond",
            date=date(2026, 3, 14),
            ruleset="kleurenwiezen",
            sessions=SESSIONS,
            deals_per_session=8,
            ranking="total",
            place_points=[],
            stake=None,
            currency="EUR",
            players=[f"Speler {n:02d}" for n in range(1, PLAYERS + 1)],
            seed=3,
        )
        time.sleep(0.5)  # and go on after it
    finally:
        stop.set()
        for p in phones:
            p.join(timeout=60)
    assert not problems, problems[:3]
    assert answers and {status for _pk, status in answers} == {200}
    assert NightTable.objects.filter(session__night=night).count() == PLAYERS // 4 * SESSIONS
    for evening in tables:  # every deal answered 200 is stored, once
        answered = sum(1 for pk, _status in answers if pk == evening.pk)
        assert Deal.objects.filter(evening=evening).count() == answered
