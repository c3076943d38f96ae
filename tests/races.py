"""The race harness: two (or N) logged-in phones fire writes at the same moment, and what they leave
must be what one request alone would leave, told in words to the one that lost, never a 500.

Each request goes through the whole site (sessions, middleware, views, services) with its own
Django test client, in its own thread with its own database connection, all released together by
a barrier, on a file database: SQLite (the settings give each test process its own file) or
PostgreSQL when ``DATABASE_URL`` names it. A test using it needs
``@pytest.mark.django_db(transaction=True)`` so that the threads see each other's commits.

A case is three functions, run for ``RACE_ROUNDS`` rounds (default 6), each round on a situation
made afresh. A test using it is marked ``both_databases``: ``make test`` runs it on SQLite with the
default rounds, then on PostgreSQL, where CI (``.ci/run``: ``RACE_ROUNDS=12 make test``) runs it 12
rounds: a race that shows in half the rounds slips through 12 rounds once in 4096 runs, 6 rounds once
in 64::

    def test_it_puts_a_deleted_deal_back_once_when_undo_is_tapped_twice(scorer, make_evening):
        def setup(round):                       # the situation, made afresh each round
            evening = make_evening(deals=FOUR)
            revision = services.delete_deal(evening, 2, scorer)
            return SimpleNamespace(evening=evening, url=reverse("deal_restore", args=[evening.pk, revision.pk]))

        def shots(s):                           # the requests fired together
            return [Shot(scorer, "post", s.url), Shot(scorer, "post", s.url)]

        def check(s, answers):                  # what one request alone leaves, and what the other is told
            assert Deal.objects.filter(evening=s.evening).count() == 4
            assert said(answers, "already been put back") == 1

        race(setup, shots, check)

After every round ``race`` also asserts what every race keeps: no answer is a server error (500),
and every evening's stored state, deal rows, summary and seats' figures equal a rebuild from its
deals (``rebuilt.assert_as_rebuilt``). Shots may come from different users (a scorer and a club
admin, a director and a table's link) and may be GETs; ``Shot.headers`` sends headers such as
``HX-Request`` (the htmx answer) — ``HTMX`` is that header.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.test import Client

from rebuilt import assert_as_rebuilt
from scorebook.evenings.models import Evening

ROUNDS = int(os.environ.get("RACE_ROUNDS", "6"))
# RACE_TALLY=1: every round runs even after one fails, and the failure says how many rounds failed and how
# (to measure what a race does to the code before its fix: "10/10 rounds: a 500")
TALLY = os.environ.get("RACE_TALLY", "") not in ("", "0")
HTMX = {"HX-Request": "true"}


@dataclass
class Shot:
    """One request of a race: sent by ``user`` (logged in beforehand; None: anonymous), ``method``
    ("get" or "post") to ``url`` with ``data`` (a form) and ``headers``; with ``follow`` its redirects
    are followed, as a browser and htmx do, and the answer is the page they lead to."""

    user: Any
    method: str
    url: str
    data: dict = field(default_factory=dict)
    headers: dict = field(default_factory=dict)
    follow: bool = False


@dataclass
class Answer:
    """What a shot was answered: its status, its text, where it redirects (``location``)."""

    status: int
    text: str
    location: str = ""
    error: str = ""  # an exception in the thread (the request never answered)

    def says(self, words: str) -> bool:
        return words in self.text


def fire(shots: Sequence[Shot], timeout: float = 120) -> list[Answer]:
    """Send every shot at the same moment, each from its own thread, client and database connection;
    the answers in the order of the shots."""
    clients = []
    for shot in shots:
        client = Client(raise_request_exception=False)  # a server error is an answer (500), not an exception
        if shot.user is not None:
            client.force_login(shot.user)
        clients.append(client)
    start = threading.Barrier(len(shots))
    answers: list[Answer | None] = [None] * len(shots)

    def send(i: int) -> None:
        shot, client = shots[i], clients[i]
        try:
            start.wait()
            response = getattr(client, shot.method)(shot.url, shot.data, headers=shot.headers, follow=shot.follow)
            text = response.content.decode(errors="replace") if not response.streaming else ""
            answers[i] = Answer(response.status_code, text, response.get("Location") or response.get("HX-Redirect", ""))
        except Exception as error:  # noqa: BLE001 - any failure of a thread is reported as its answer
            answers[i] = Answer(0, "", error=repr(error))
        finally:
            connection.close()  # this thread's connection

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(shots))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    return [answer or Answer(0, "", error="no answer in time") for answer in answers]


def race(
    setup: Callable[[int], Any],
    shots: Callable[[Any], Sequence[Shot]],
    check: Callable[[Any, list[Answer]], None],
    rounds: int = ROUNDS,
) -> None:
    """``rounds`` rounds of: ``setup(round)`` makes the situation, ``shots(situation)`` are fired
    together, ``check(situation, answers)`` says what one request alone would have left; then no
    answer may be a server error and every evening must be stored as its deals say."""
    failures: list[str] = []
    for n in range(rounds):
        try:
            _round(setup, shots, check, n)
        except AssertionError as failure:
            if not TALLY:
                raise
            failures.append(f"round {n + 1}: {str(failure).splitlines()[0][:200]}")
    if failures:
        raise AssertionError(f"{len(failures)}/{rounds} rounds failed: " + " | ".join(failures))


def _round(setup, shots, check, n: int) -> None:
    situation = setup(n)
    answers = fire(shots(situation))
    where = f"round {n + 1}: {[(a.status, a.error) for a in answers]}"
    assert all(not a.error for a in answers), where
    assert all(a.status < 500 for a in answers), f"a server error (500): {where}"
    check(situation, answers)
    for evening in Evening.objects.all():
        assert_as_rebuilt(evening, f"after round {n + 1}")


def said(answers: Sequence[Answer], words: str) -> int:
    """How many answers say ``words``."""
    return sum(a.says(words) for a in answers)
