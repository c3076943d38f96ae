"""Club nights' fixtures: the club and its cast (club_fixtures), a director, and nights built
through the real services."""

from datetime import date

import pytest

from club_fixtures import *  # noqa: F403
from night_builders import NAMES
from scorebook.nights import services
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
