"""Club nights' fixtures: the club and its cast (club_fixtures), a director, and nights built
through the one night builder (night_builders.night), and the hall's clock."""

import time
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

import night_builders
from club_fixtures import *  # noqa: F403
from night_builders import deal
from scorebook.evenings import services as evenings
from scorebook.evenings.models import Deal
from scorebook.nights import hall, services
from scorebook.nights.models import Night
from write_path import builder


@pytest.fixture
def director(scorer):
    """Marie, a scorer of the club, directs the night."""
    return scorer


@pytest.fixture
def director_client(client, director):
    client.force_login(director)
    return client


@pytest.fixture
def make_night(club, director):
    """make_night(players=16, sessions=2, ...): a night of the club that Marie directs (night_builders.night)."""

    def make(players=16, sessions=2, ranking=Night.Ranking.TOTAL, place_points=(4, 3, 2, 1, 0), deals=8, stake=None):
        return night_builders.night(
            club, director, players, sessions, deals, ranking=ranking, place_points=place_points, stake=stake
        )

    return make


@pytest.fixture
def clock(monkeypatch):
    """The hall's clock, stopped: a page opened now has its marks now, 30 s later and so on;
    ``clock.record()`` records a deal half a second after it (a page opened before sees it from its
    next mark), ``clock.close()`` closes a session likewise, ``clock.later()`` moves on to the next
    mark (what was recorded and closed so far then counts), or by ``seconds``. Recording and closing
    build the world the hall reads (``write_path.builder``): the hall's tests check its reads."""
    now = [float(int(time.time()))]
    monkeypatch.setattr(hall, "time", SimpleNamespace(time=lambda: now[0]))

    def later(seconds: float = hall.TICK_SECONDS) -> None:
        now[0] += seconds

    @builder
    def record(table, data=None, made=True):
        recorded = evenings.record_deal(table.evening, data or deal(table.evening, made), table.evening.owner)
        Deal.objects.filter(pk=recorded.deal.pk).update(recorded_at=datetime.fromtimestamp(now[0] + 0.5, UTC))
        return recorded

    @builder
    def close(night, number: int) -> None:
        """The director closes session ``number`` half a second after the clock."""
        services.close_session(night, number, night.created_by)
        night.night_sessions.filter(number=number).update(closed_at=datetime.fromtimestamp(now[0] + 0.5, UTC))

    return SimpleNamespace(later=later, record=record, close=close)
