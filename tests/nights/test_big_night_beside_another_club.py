"""Issue 32, item 1: the biggest nights the form allows are written while another club's phone saves
deals, and that phone's saves go on and are all kept. How long the phone waits (at most a second) is
a figure of ``make bench`` (``bench/big_night.py``, against the deployment of docs/operating.md),
not of this test: a timed test fails on a loaded machine for no fault. On SQLite a write holds the
whole database: a probe measured 13.1 s to create a 160 x 5 night and 12.3 s for the other club's
phone to save one deal. Now a night is prepared outside any transaction and written in one short
one; its redraw for a late arrival, its sessions closed and reopened, its cards and its deletion
write in a few queries each. The phone is another process (as a second gunicorn worker is), so that
what is measured is the database's lock, not this process's interpreter. SQLite and PostgreSQL
(``DATABASE_URL``)."""

import os
import subprocess
import sys
import threading
import time
from datetime import date
from pathlib import Path

import pytest
from django.db import connection

from builders import club_evening
from scorebook.clubs.models import Club, Membership, Role
from scorebook.evenings.models import Deal, Evening
from scorebook.nights import services
from scorebook.nights.models import Night, NightTable

# locks held while the biggest nights are written: both databases
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.both_databases,
]  # processes, the biggest nights

ROOT = Path(__file__).resolve().parent.parent.parent


def database_url() -> str:
    """The test database, for the phone's process."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class OtherPhone:
    """Another club's phone saving deals in its own process; ``waits`` of every save so far."""

    def __init__(self, evening: Evening, user):
        env = os.environ | {"DATABASE_URL": database_url(), "DJANGO_SETTINGS_MODULE": "scorebook.settings"}
        self.process = subprocess.Popen(
            [sys.executable, str(ROOT / "tests" / "other_phone.py"), str(evening.pk), str(user.pk)],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.waits: list[float] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.waits.append(float(line))

    def saved(self, count: int, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while len(self.waits) < count and time.monotonic() < deadline and self.process.poll() is None:
            time.sleep(0.05)
        assert len(self.waits) >= count, f"the phone saved {len(self.waits)} deals (exit {self.process.poll()})"

    def during(self, write) -> object:
        """Run ``write`` while the phone saves; the phone saves again after it (it was not stopped)."""
        before = len(self.waits)
        result = write()
        self.saved(before + 2)  # the save under way when the write ended, and one after it
        return result

    def stop(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=30)
        self.reader.join(timeout=5)


def test_it_keeps_every_save_of_another_clubs_phone_while_the_biggest_nights_are_written(make_user):
    director, scorer = make_user("director"), make_user("scorer")
    club, other = Club.objects.create(name="De Troef", slug="de-troef"), Club.objects.create(name="Klaver", slug="k")
    Membership.objects.create(club=club, user=director, role=Role.ADMIN)
    Membership.objects.create(club=other, user=scorer, role=Role.SCORER)
    evening = club_evening(other, scorer, date(2026, 3, 14), stake=None)
    phone = OtherPhone(evening, scorer)
    try:
        phone.saved(3)  # the phone is saving
        for players, sessions in ((160, 5), (40, 20)):  # the form's biggest: the most tables, the most sessions
            night = phone.during(
                lambda players=players, sessions=sessions: services.create_night(
                    club=club,
                    user=director,
                    name=f"Kaartavond {players}",
                    date=date(2026, 3, 14),
                    ruleset="kleurenwiezen",
                    sessions=sessions,
                    deals_per_session=8,
                    ranking="total",
                    place_points=[],
                    stake=None,
                    currency="EUR",
                    players=[f"Speler {n:03d}" for n in range(1, players + 1)],
                    seed=3,
                )
            )
            assert NightTable.objects.filter(session__night=night).count() == players // 4 * sessions
            phone.during(lambda night=night: services.table_links(night))
            phone.during(lambda night=night: services.close_session(night, 1, director))
            phone.during(lambda night=night: services.late_arrival(night, "Laatkomer", director))
            phone.during(lambda night=night: services.delete_night(night))
    finally:
        phone.stop()
    assert not Night.objects.exists()
    assert Deal.objects.filter(evening=evening).count() == len(phone.waits)  # every save kept, once
