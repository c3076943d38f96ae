"""Building the tests' club nights through the real services: the one night builder of the tests, and the
club-night tests' helpers.

``night`` makes a night (its sessions seated, its ranking's link made) and ``play`` records deals at its
tables as their phones would; ``nights/conftest.make_night`` is the same builder bound to the club and its
director. The evenings' builder is ``builders.club_evening``. What a builder writes is the world a test
reads, not the write path it checks (``write_path.builder``).
"""

import re
from datetime import date

from scorebook.evenings import services as evenings
from scorebook.nights import services
from write_path import builder

NAMES = [f"P{n:02d}" for n in range(1, 41)]
EIGHT = ["Anne", "Bert", "Carl", "Dina", "Emma", "Fien", "Gust", "Hilde"]


@builder
def night(
    club,
    user,
    players=16,
    sessions=2,
    deals=8,
    *,
    ranking="total",
    place_points=(),
    stake=None,
    currency="EUR",
    name="Kaartavond",
    day=date(2026, 3, 14),
    ruleset="kleurenwiezen",
    seed=1,
    ranking_link=True,
):
    """A night of ``club`` directed by ``user``: ``players`` (a number: P01, P02...; or the names) seated at
    tables of four or five for ``sessions`` sessions of ``deals`` deals each. Its live ranking's link is made
    as the director makes it (unless not ``ranking_link``); only a digest is stored, so the token is kept on the
    night (``ranking_token``)."""
    names = NAMES[:players] if isinstance(players, int) else list(players)
    made = services.create_night(
        club=club,
        user=user,
        name=name,
        date=day,
        ruleset=ruleset,
        sessions=sessions,
        deals_per_session=deals,
        ranking=ranking,
        place_points=list(place_points),
        stake=stake,
        currency=currency,
        players=names,
        seed=seed,
    )
    if ranking_link:
        made.ranking_token = services.new_ranking_link(made)
    return made


@builder
def play(night, user, session=1, deals=1, made=True, at=None):
    """``deals`` deals recorded by ``user`` at every table of ``session`` (or at the tables ``at``), each the
    samen-9 of the table's second and fourth seats (``deal``), made or not."""
    for table in tables(night, session) if at is None else at:
        for _ in range(deals):
            evenings.record_deal(table.evening, deal(table.evening, made), user)


def samen(evening, made=True):
    """A samen-9 of the second and fourth seats (never the dealer of the first deal)."""
    names = [s.name for s in evening.seats.all()]
    return {"contract": "samen-9", "declarers": [names[1], names[3]], "tricks": "9" if made else "7"}


def tables(night, session=1):
    return list(night.night_sessions.get(number=session).tables.select_related("evening").order_by("number"))


def card_links(html: str) -> list[str]:
    return re.findall(r'<a href="https?://[^/"]+(/t/[^/"]+/)">', html)


def deal(evening, made=True):
    """The same deal as the engine reads it (for the services)."""
    return {**samen(evening, made), "tricks": 9 if made else 7}
