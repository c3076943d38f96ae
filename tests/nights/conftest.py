"""Club nights' fixtures: the club and its cast (club_fixtures), a director, and nights built
through the one night builder (night_builders.night)."""

import pytest

import night_builders
from club_fixtures import *  # noqa: F403
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
    """make_night(players=16, sessions=2, ...): a night of the club that Marie directs (night_builders.night)."""

    def make(players=16, sessions=2, ranking=Night.Ranking.TOTAL, place_points=(4, 3, 2, 1, 0), deals=8, stake=None):
        return night_builders.night(
            club, director, players, sessions, deals, ranking=ranking, place_points=place_points, stake=stake
        )

    return make
