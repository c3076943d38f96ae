"""Club nights' fixtures: the club and its cast (club_fixtures), a director, and nights built
through the real services."""

import time
from datetime import UTC, date, datetime
from types import SimpleNamespace

import pytest

from club_fixtures import *  # noqa: F403
from night_builders import NAMES, deal
from scorebook.evenings import services as evenings
from scorebook.evenings.models import Deal
from scorebook.nights import hall, services
from scorebook.nights.models import Night


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
    def make(players=16, sessions=2, ranking=Night.Ranking.TOTAL, place_points=(4, 3, 2, 1, 0), deals=8, stake=None):
        names = NAMES[:players] if isinstance(players, int) else list(players)
        night = services.create_night(
            club=club,
            user=director,
            name="Kaartavond",
            date=date(2026, 3, 14),
            ruleset="kleurenwiezen",
            sessions=sessions,
            deals_per_session=deals,
            ranking=ranking,
            place_points=list(place_points),
            stake=stake,
            currency="EUR",
            players=names,
            seed=1,
        )
        # its live ranking's link, as the director makes it; only a digest is stored, so the tests keep the token
        night.ranking_token = services.new_ranking_link(night)
        return night

    return make


@pytest.fixture
def clock(monkeypatch):
    """The hall's clock, stopped: a page opened now has its marks now, 30 s later and so on;
    ``clock.record()`` records a deal half a second after it (a page opened before sees it from its
    next mark), ``clock.close()`` closes a session likewise, ``clock.later()`` moves on to the next
    mark (what was recorded and closed so far then counts), or by ``seconds``."""
    now = [float(int(time.time()))]
    monkeypatch.setattr(hall, "time", SimpleNamespace(time=lambda: now[0]))

    def later(seconds: float = hall.TICK_SECONDS) -> None:
        now[0] += seconds

    def record(table, data=None, made=True):
        recorded = evenings.record_deal(table.evening, data or deal(table.evening, made), table.evening.owner)
        Deal.objects.filter(pk=recorded.deal.pk).update(recorded_at=datetime.fromtimestamp(now[0] + 0.5, UTC))
        return recorded

    def close(night, number: int) -> None:
        """The director closes session ``number`` half a second after the clock."""
        services.close_session(night, number, night.created_by)
        night.night_sessions.filter(number=number).update(closed_at=datetime.fromtimestamp(now[0] + 0.5, UTC))

    return SimpleNamespace(later=later, record=record, close=close)
