"""The seating plan (scorebook.nights.seating): plain Python, no database."""

import time
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorebook.nights.seating import PlanError, make_plan, table_sizes

# The cases the clubs asked for, each known to have a plan without a repeated meeting.
REQUIRED = [(16, 5), (28, 5), (32, 5), (40, 5), (40, 8)]


def seated_once_per_session(plan, players):
    for session in plan.sessions:
        everyone = [p for table in session for p in table]
        assert sorted(everyone) == sorted(players)


@pytest.mark.parametrize(("players", "sessions"), REQUIRED)
def test_it_seats_the_required_nights_without_a_repeated_meeting_within_seconds(players, sessions):
    started = time.perf_counter()
    plan = make_plan(players, sessions, seed=7)
    assert time.perf_counter() - started < 3
    assert len(plan.sessions) == sessions
    seated_once_per_session(plan, range(1, players + 1))
    assert all(len(table) == 4 for session in plan.sessions for table in session)
    assert plan.repeats() == 0


def test_it_seats_16_players_five_times_so_that_everyone_meets_everyone_exactly_once():
    # AG(2,4): 5 parallel classes of 4 lines cover the 120 pairs exactly once
    met = make_plan(16, 5).meetings()
    assert len(met) == 120 and set(met.values()) == {1}


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (4, [4]),
        (5, [5]),
        (8, [4, 4]),
        (9, [5, 4]),
        (10, [5, 5]),
        (15, [5, 5, 5]),
        (41, [5] + [4] * 9),
        (163, [5, 5, 5] + [4] * 37),
    ],
)
def test_it_uses_tables_of_five_only_where_the_count_is_not_a_multiple_of_four(players, sizes):
    assert table_sizes(players) == sizes
    for session in make_plan(players, 3, seed=1).sessions:
        assert sorted(len(t) for t in session) == sorted(sizes)


@pytest.mark.parametrize(
    ("players", "sessions"), [(3, 2), (0, 1), (6, 2), (7, 2), (11, 2), (16, 0), (16, 21), (401, 2)]
)
def test_it_refuses_a_night_that_cannot_be_seated_with_a_sentence(players, sessions):
    with pytest.raises(PlanError) as exc:
        make_plan(players, sessions)
    assert str(exc.value).endswith(".")


def test_it_gives_the_same_plan_for_the_same_seed_and_another_for_another_seed():
    assert make_plan(41, 5, seed=3) == make_plan(41, 5, seed=3)
    assert make_plan(41, 5, seed=3) != make_plan(41, 5, seed=4)
    assert make_plan(40, 8, seed=3) == make_plan(40, 8, seed=3)


@pytest.mark.parametrize(("players", "sessions"), [(41, 5), (45, 5), (150, 5), (25, 4), (37, 6)])
def test_it_spreads_the_tables_of_five_and_avoids_repeats_where_there_is_room(players, sessions):
    plan = make_plan(players, sessions, seed=2)
    at_five = plan.at_five()
    counts = [at_five.get(p, 0) for p in range(1, players + 1)]
    assert max(counts) - min(counts) <= 1
    assert plan.repeats() == 0


def test_it_keeps_the_played_sessions_and_seats_a_late_arrival_from_the_next_session():
    first = make_plan(40, 5, seed=1)
    played = first.sessions[:2]
    redrawn = make_plan(list(range(1, 42)), 5, seed=1, played=played)
    assert redrawn.sessions[:2] == played
    rest = type(redrawn)(redrawn.sessions[2:])
    seated_once_per_session(rest, range(1, 42))
    assert rest.at_five()[41] <= 1
    assert redrawn.repeats() == 0


def test_it_repeats_as_little_as_the_counting_allows_when_there_is_no_room():
    # 16 players meet 3 others a session: after 5 sessions everyone has met everyone,
    # so a sixth session repeats 24 meetings and no fewer
    assert make_plan(16, 6, seed=1).repeats() == 24


def test_it_keeps_the_tables_of_five_even_at_the_cost_of_the_repeats_this_forces():
    # 21 players x 3 sessions: the three tables of five hold 15 different players; the 5
    # of one session's table of five sit at 4 tables of four in each other session, so two
    # of them meet twice: 6 repeats at least, and the search finds 6
    plan = make_plan(21, 3, seed=2)
    assert set(plan.at_five().values()) == {1}
    assert plan.repeats() == 6


def test_it_spreads_the_first_deal():
    deals = make_plan(40, 5, seed=1).first_deals()
    assert sum(deals.values()) == 50
    assert max(deals.values()) <= 2


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(4, 60).filter(lambda n: n not in (6, 7, 11)),
    sessions=st.integers(1, 6),
    seed=st.integers(0, 2**32),
)
def test_it_always_seats_everyone_once_per_session_at_tables_of_four_or_five(players, sessions, seed):
    plan = make_plan(players, sessions, seed=seed)
    assert len(plan.sessions) == sessions
    seated_once_per_session(plan, range(1, players + 1))
    for session in plan.sessions:
        sizes = Counter(len(t) for t in session)
        assert set(sizes) <= {4, 5} and sizes[5] == players % 4
    at_five = plan.at_five()
    counts = [at_five.get(p, 0) for p in range(1, players + 1)]
    assert max(counts) - min(counts) <= 1
    assert plan == make_plan(players, sessions, seed=seed)


@settings(max_examples=15, deadline=None)
@given(players=st.integers(4, 12).map(lambda m: 4 * m), sessions=st.integers(1, 4), seed=st.integers(0, 1000))
def test_it_never_repeats_a_meeting_for_four_m_players_and_few_sessions(players, sessions, seed):
    assert make_plan(players, sessions, seed=seed).repeats() == 0
