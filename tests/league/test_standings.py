"""The standings and a player's figures, from evening summaries only (scorebook.league.standings).

Plain Python: summaries are written by hand in the shape ``summary.summarize`` gives them.
"""

from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction

import pytest

from scorebook.league import standings as st

DAY = date(2026, 9, 1)
IDS = {"Anne": 1, "Bert": 2, "Carl": 3, "Dina": 4, "Emma": 5}


def entry(name, points, *, played=10, sat_out=0, money=None, best=None, worst=None, declared=None, player=True):
    return {
        "seat": 0,
        "player": IDS[name] if player else None,
        "name": name,
        "points": points,
        "money": money,
        "played": played,
        "sat_out": sat_out,
        "best": best,
        "worst": worst,
        "declared": declared or {},
    }


def evening(n, deals=10, currency="EUR", ruleset="kleurenwiezen", **points):
    """Evening number ``n`` (a week apart), with ``name=points`` for each player."""
    players = [entry(name, value) for name, value in points.items()]
    return st.EveningSummary(
        DAY + timedelta(days=7 * n),
        {"deals": deals, "players": players, "transfers": []},
        id=100 + n,
        ruleset=ruleset,
        currency=currency,
    )


def names(table):
    return [row.name for row in table.ranked]


def ranks(table):
    return {row.name: row.rank for row in table.ranked}


# --- the three rankings --------------------------------------------------------------------------


def test_total_adds_up_the_points_of_every_evening():
    table = st.standings(
        st.Rules(ranking=st.Ranking.TOTAL),
        [evening(0, Anne=10, Bert=-4, Carl=-6), evening(1, Anne=-12, Bert=8, Carl=4)],
    )
    assert [(r.name, r.score, r.points, r.evenings) for r in table.ranked] == [
        ("Bert", 4, 4, 2),
        ("Anne", -2, -2, 2),
        ("Carl", -2, -2, 2),
    ]
    assert table.evenings == 2


def test_average_divides_by_the_evenings_played():
    table = st.standings(
        st.Rules(ranking=st.Ranking.AVERAGE),
        [
            evening(0, Anne=30, Bert=-10, Carl=-20),
            evening(1, Anne=-20, Bert=15, Carl=5),
            evening(2, Bert=9, Carl=-9),
        ],
    )
    by_name = {r.name: r for r in table.ranked}
    assert by_name["Anne"].score == Fraction(10, 2)
    assert by_name["Bert"].score == Fraction(14, 3)
    assert by_name["Carl"].score == Fraction(-24, 3)
    assert names(table) == ["Anne", "Bert", "Carl"]
    assert by_name["Anne"].average == Fraction(5)


def test_average_lists_the_players_under_the_minimum_apart_without_a_rank():
    table = st.standings(
        st.Rules(ranking=st.Ranking.AVERAGE, min_evenings=2),
        [evening(0, Anne=1, Bert=2, Emma=50), evening(1, Anne=3, Bert=4)],
    )
    assert names(table) == ["Bert", "Anne"]
    assert [(r.name, r.rank, r.qualified) for r in table.apart] == [("Emma", None, False)]
    assert [r.name for r in table.rows] == ["Bert", "Anne", "Emma"]
    assert table.apart[0].movement_text == ""


def test_the_minimum_of_evenings_is_for_the_average_only():
    table = st.standings(st.Rules(ranking=st.Ranking.TOTAL, min_evenings=5), [evening(0, Anne=1, Bert=-1)])
    assert names(table) == ["Anne", "Bert"] and table.apart == []


def test_league_gives_points_by_place_and_nothing_beyond_the_list():
    rules = st.Rules(ranking=st.Ranking.LEAGUE, league_points=(10, 6, 4))
    table = st.standings(
        rules,
        [
            evening(0, Anne=30, Bert=10, Carl=-15, Dina=-25),  # Anne 10, Bert 6, Carl 4, Dina 0
            evening(1, Anne=-5, Bert=20, Carl=5, Dina=-20),  # Bert 10, Carl 6, Anne 4, Dina 0
        ],
    )
    assert [(r.name, r.score) for r in table.ranked] == [("Bert", 16), ("Anne", 14), ("Carl", 10), ("Dina", 0)]
    assert table.row(IDS["Anne"]).league == 14


def test_it_keeps_every_figure_when_the_per_evening_results_are_left_out():
    rules = st.Rules(ranking=st.Ranking.LEAGUE, league_points=(10, 6, 4), drop_worst=1)
    table = st.standings(
        rules,
        [evening(n, Anne=10 - n, Bert=n, Carl=-10) for n in range(5)] + [evening(5, Anne=1, Emma=-1)],
    )
    light = table.without_results()
    fields = lambda t: [  # noqa: E731
        (r.key, r.name, r.rank, r.previous_rank, r.score, r.points, r.league, r.won, r.evenings, r.counted, r.tied)
        for r in t.rows
    ]
    assert fields(light) == fields(table)
    assert all(r.results == [] for r in light.rows) and all(r.results for r in table.rows)
    assert (light.evenings, light.last_date, light.previous_date) == (
        table.evenings,
        table.last_date,
        table.previous_date,
    )


def test_league_players_tied_in_an_evening_share_the_better_place():
    rules = st.Rules(ranking=st.Ranking.LEAGUE, league_points=(10, 6, 4, 2))
    # Anne and Bert tie for 1st: both get 10; Carl is 3rd (4), Dina 4th (2)
    # then Carl and Dina tie for 2nd: both get 6; Anne 1st 10; Bert 4th 2
    table = st.standings(
        rules,
        [evening(0, Anne=12, Bert=12, Carl=-4, Dina=-20), evening(1, Anne=20, Bert=-30, Carl=5, Dina=5)],
    )
    by_name = {r.name: r for r in table.ranked}
    assert [res.place for res in by_name["Anne"].results] == [1, 1]
    assert [res.place for res in by_name["Bert"].results] == [1, 4]
    assert [res.league for res in by_name["Carl"].results] == [4, 6]
    assert [res.league for res in by_name["Dina"].results] == [2, 6]
    assert (by_name["Anne"].score, by_name["Bert"].score, by_name["Carl"].score, by_name["Dina"].score) == (
        20,
        12,
        10,
        8,
    )
    assert by_name["Anne"].won == 2 and by_name["Bert"].won == 1  # a shared first place is a win for both


# --- worst evenings dropped ---------------------------------------------------------------------


def test_drop_worst_leaves_out_each_players_worst_evenings():
    rules = st.Rules(ranking=st.Ranking.TOTAL, drop_worst=1)
    table = st.standings(
        rules,
        [evening(0, Anne=-50, Bert=50), evening(1, Anne=20, Bert=-20), evening(2, Anne=10, Bert=-10)],
    )
    by_name = {r.name: r for r in table.ranked}
    assert by_name["Anne"].score == 30 and by_name["Anne"].points == -20  # -50 dropped; points keep everything
    assert by_name["Bert"].score == 40  # -20 dropped
    assert by_name["Anne"].dropped == 1 and by_name["Anne"].counted == 2
    assert names(table) == ["Bert", "Anne"]


def test_drop_worst_always_keeps_one_evening():
    table = st.standings(
        st.Rules(ranking=st.Ranking.TOTAL, drop_worst=3), [evening(0, Anne=-5, Bert=5), evening(1, Anne=-7, Bert=7)]
    )
    by_name = {r.name: r for r in table.ranked}
    assert (by_name["Anne"].score, by_name["Anne"].counted) == (-5, 1)
    assert (by_name["Bert"].score, by_name["Bert"].counted) == (7, 1)


def test_drop_worst_with_the_average_and_with_league_points():
    evenings = [evening(0, Anne=-30, Bert=30), evening(1, Anne=10, Bert=-10), evening(2, Anne=20, Bert=-20)]
    average = st.standings(st.Rules(ranking=st.Ranking.AVERAGE, drop_worst=1), evenings)
    assert {r.name: r.score for r in average.ranked} == {"Anne": Fraction(15), "Bert": Fraction(10)}
    league = st.standings(st.Rules(ranking=st.Ranking.LEAGUE, league_points=(3, 1), drop_worst=1), evenings)
    assert {r.name: r.score for r in league.ranked} == {"Anne": 6, "Bert": 4}


# --- ties ------------------------------------------------------------------------------------------


def tied_evenings():
    """Anne and Bert end with 10 points each; Anne won 2 evenings out of 3, Bert 1 out of 2."""
    return [
        evening(0, Anne=20, Bert=-20),
        evening(1, Anne=5, Carl=-5),
        evening(2, Anne=-15, Carl=15),
        evening(3, Bert=30, Carl=-30),
    ]


def test_tie_break_most_evenings_won():
    table = st.standings(st.Rules(tie_break=st.TieBreak.EVENINGS_WON), tied_evenings())
    assert names(table)[:2] == ["Anne", "Bert"]
    assert table.ranked[0].won == 2 and table.ranked[1].won == 1
    assert table.ranked[0].tied and table.ranked[1].tied and not table.ranked[2].tied


def test_tie_break_fewer_evenings_played():
    table = st.standings(st.Rules(tie_break=st.TieBreak.FEWER_EVENINGS), tied_evenings())
    assert names(table)[:2] == ["Bert", "Anne"]  # 2 evenings against 3


def test_tie_break_most_points_in_all_decides_league_ties():
    rules = st.Rules(ranking=st.Ranking.LEAGUE, league_points=(5, 3), tie_break=st.TieBreak.TOTAL_POINTS)
    # each wins once: 8 league points each; Bert's points add up to more
    table = st.standings(rules, [evening(0, Anne=2, Bert=-2), evening(1, Anne=-30, Bert=30)])
    assert names(table) == ["Bert", "Anne"]
    assert [r.score for r in table.ranked] == [8, 8]


def test_it_shares_the_place_when_the_tie_break_is_equal_too():
    table = st.standings(st.Rules(tie_break=st.TieBreak.EVENINGS_WON), [evening(0, Dina=0, Carl=0, Anne=0)])
    assert names(table) == ["Anne", "Carl", "Dina"]  # listed by name within the shared place
    assert [r.rank for r in table.ranked] == [1, 1, 1]
    assert all(r.shared for r in table.ranked)


def test_it_skips_the_places_a_shared_place_takes():
    # Anne and Bert: 10 points each, one evening won each; Carl 5; Dina -25
    evenings = [evening(0, Anne=20, Carl=5, Dina=-25), evening(1, Bert=10, Anne=-10)]
    table = st.standings(st.Rules(tie_break=st.TieBreak.EVENINGS_WON), evenings)
    assert [(r.rank, r.name, r.shared) for r in table.ranked] == [
        (1, "Anne", True),
        (1, "Bert", True),
        (3, "Carl", False),
        (4, "Dina", False),
    ]
    # the tie-break that can separate them does: Bert played fewer evenings
    table = st.standings(st.Rules(tie_break=st.TieBreak.FEWER_EVENINGS), evenings)
    assert [(r.rank, r.name, r.shared, r.tied) for r in table.ranked[:2]] == [
        (1, "Bert", False, True),
        (2, "Anne", False, True),
    ]


def test_the_name_order_ignores_case():
    table = st.standings(
        st.Rules(),
        [st.EveningSummary(DAY, {"deals": 1, "players": [entry("Bert", 0), entry("anne", 0, player=False)]})],
    )
    assert names(table) == ["anne", "Bert"]


# --- movement ------------------------------------------------------------------------------------


def test_movement_compares_with_the_standings_before_the_last_date():
    table = st.standings(
        st.Rules(),
        [
            evening(0, Anne=10, Bert=5, Carl=-15),  # Anne 1, Bert 2, Carl 3
            evening(1, Anne=-20, Bert=-5, Carl=25, Dina=0),  # Carl 10, Bert 0, Dina 0, Anne -10
        ],
    )
    assert names(table) == ["Carl", "Bert", "Dina", "Anne"]
    moves = {r.name: (r.movement, r.movement_text) for r in table.ranked}
    assert moves == {"Carl": (2, "▲2"), "Bert": (0, "="), "Dina": (None, "new"), "Anne": (-3, "▼3")}
    assert table.previous_date == DAY and table.last_date == DAY + timedelta(days=7)


def test_two_evenings_on_the_last_date_count_as_one_step():
    last = DAY + timedelta(days=7)
    table = st.standings(
        st.Rules(),
        [
            evening(0, Anne=10, Bert=-10),
            st.EveningSummary(last, {"deals": 3, "players": [entry("Anne", -30), entry("Bert", 30)]}),
            st.EveningSummary(last, {"deals": 3, "players": [entry("Carl", 5), entry("Dina", -5)]}),
        ],
    )
    assert {r.name: r.movement_text for r in table.ranked} == {"Bert": "▲1", "Carl": "new", "Dina": "new", "Anne": "▼3"}


def test_everyone_is_new_after_the_first_evening():
    table = st.standings(st.Rules(), [evening(0, Anne=1, Bert=-1)])
    assert [r.movement_text for r in table.ranked] == ["new", "new"]
    assert table.previous_date is None


def test_a_player_who_reaches_the_minimum_enters_the_table_as_new():
    rules = st.Rules(ranking=st.Ranking.AVERAGE, min_evenings=2)
    table = st.standings(rules, [evening(0, Anne=5, Bert=-5), evening(1, Anne=-1, Bert=1, Carl=3)])
    assert [(r.name, r.movement_text) for r in table.ranked] == [("Anne", "new"), ("Bert", "new")]
    assert [r.name for r in table.apart] == ["Carl"]


# --- what counts -----------------------------------------------------------------------------------


def test_evenings_without_a_deal_are_left_out():
    table = st.standings(st.Rules(), [evening(0, Anne=3, Bert=-3), evening(1, deals=0, Anne=0, Bert=0, Carl=0)])
    assert names(table) == ["Anne", "Bert"]
    assert table.ranked[0].evenings == 1 and table.evenings == 1


def test_the_order_of_the_list_does_not_matter():
    evenings = [evening(2, Anne=1, Bert=-1), evening(0, Anne=-9, Bert=9), evening(1, Anne=4, Bert=-4)]
    assert [(r.name, r.score, r.movement) for r in st.standings(st.Rules(), evenings).ranked] == [
        (r.name, r.score, r.movement) for r in st.standings(st.Rules(), sorted(evenings, key=lambda e: e.date)).ranked
    ]


def test_deals_sat_out_and_money_add_up_per_currency():
    a = st.EveningSummary(
        DAY,
        {
            "deals": 9,
            "players": [
                entry("Anne", 5, played=8, sat_out=1, money="0.50"),
                entry("Bert", -5, played=9, money="-0.50"),
            ],
        },
        currency="EUR",
    )
    b = st.EveningSummary(
        DAY + timedelta(days=1),
        {"deals": 4, "players": [entry("Anne", 2, played=4, money="0.20"), entry("Bert", -2, played=4, money="-0.20")]},
        currency="EUR",
    )
    c = st.EveningSummary(
        DAY + timedelta(days=2),
        {
            "deals": 4,
            "players": [entry("Anne", 1, played=3, sat_out=1, money=None), entry("Bert", -1, played=4, money=None)],
        },
        currency="EUR",
    )
    d = st.EveningSummary(
        DAY + timedelta(days=3),
        {"deals": 2, "players": [entry("Anne", -1, played=2, money="-1.00"), entry("Bert", 1, played=2, money="1.00")]},
        currency="USD",
    )
    anne = st.standings(st.Rules(), [a, b, c, d]).row(IDS["Anne"])
    assert (anne.deals, anne.sat_out, anne.evenings) == (17, 2, 4)
    assert anne.money == {"EUR": Decimal("0.70"), "USD": Decimal("-1.00")}


def test_current_names_replace_the_names_at_the_table():
    table = st.standings(st.Rules(), [evening(0, Anne=1, Bert=-1)], names={IDS["Anne"]: "Anne-Marie"})
    assert names(table) == ["Anne-Marie", "Bert"]


def test_unknown_rules_are_refused():
    with pytest.raises(ValueError):
        st.Rules(ranking="best-of")
    with pytest.raises(ValueError):
        st.Rules(tie_break="coin")


def test_no_evening_no_row():
    table = st.standings(st.Rules(), [])
    assert table.rows == [] and table.last_date is None and table.evenings == 0


def test_two_thousand_evenings_are_ranked():
    """How long the season's page takes at 2,000 evenings is `make bench`'s (standings_2000)."""
    players = ["Anne", "Bert", "Carl", "Dina", "Emma"]
    evenings = []
    for n in range(2000):
        seated = [players[(n + k) % 5] for k in range(4)]
        evenings.append(evening(n, **{name: ((n * 7 + i * 13) % 41) - 20 for i, name in enumerate(seated)}))
    table = st.standings(st.Rules(ranking=st.Ranking.LEAGUE, league_points=(10, 6, 4, 2), drop_worst=5), evenings)
    assert sum(r.evenings for r in table.rows) == 8000


# --- one player ---------------------------------------------------------------------------------------


def test_player_stats_gather_deals_contracts_records_and_the_running_total():
    e1 = st.EveningSummary(
        DAY,
        {
            "deals": 12,
            "players": [
                entry(
                    "Anne",
                    14,
                    played=10,
                    sat_out=2,
                    money="1.40",
                    best=14,
                    worst=-8,
                    declared={"samen-9": [2, 1], "alleen-5": [1, 1]},
                ),
                entry("Bert", -14, played=12, money="-1.40", best=6, worst=-14),
            ],
        },
        id=1,
        ruleset="kleurenwiezen",
        currency="EUR",
    )
    e2 = st.EveningSummary(
        DAY + timedelta(days=7),
        {
            "deals": 8,
            "players": [
                entry("Anne", -30, played=8, money="-3.00", best=4, worst=-16, declared={"samen-9": [1, 1]}),
                entry("Bert", 30, played=8, money="3.00", best=16, worst=-4),
            ],
        },
        id=2,
        ruleset="kleurenwiezen",
        currency="EUR",
    )
    e3 = st.EveningSummary(DAY + timedelta(days=14), {"deals": 0, "players": [entry("Anne", 0)]}, id=3)
    stats = st.player_stats([e2, e1, e3], IDS["Anne"])
    assert (stats.evenings, stats.deals, stats.sat_out, stats.points, stats.won) == (2, 18, 2, -16, 1)
    assert stats.average == Fraction(-8)
    assert stats.money == {"EUR": Decimal("-1.60")}
    assert [(c.contract, c.declared, c.made, c.percent) for c in stats.contracts] == [
        ("samen-9", 3, 2, 67),
        ("alleen-5", 1, 1, 100),
    ]
    assert (stats.declared, stats.made) == (4, 3)
    assert stats.best_evening == st.Mark(14, DAY, 1)
    assert stats.worst_evening == st.Mark(-30, DAY + timedelta(days=7), 2)
    assert stats.best_deal == st.Mark(14, DAY, 1)
    assert stats.worst_deal == st.Mark(-16, DAY + timedelta(days=7), 2)
    assert [(s.points, s.cumulative) for s in stats.steps] == [(14, 14), (-30, -16)]


def test_no_win_no_biggest_win():
    e = st.EveningSummary(DAY, {"deals": 2, "players": [entry("Anne", -4, best=-1, worst=-3), entry("Bert", 4)]})
    stats = st.player_stats([e], IDS["Anne"])
    assert stats.best_evening is None and stats.best_deal is None
    assert stats.worst_evening.value == -4 and stats.worst_deal.value == -3


def test_a_player_who_sat_out_every_deal_played_none():
    e = st.EveningSummary(
        DAY, {"deals": 5, "players": [entry("Anne", 0, played=0, sat_out=5), entry("Bert", 0, played=5)]}
    )
    stats = st.player_stats([e], IDS["Anne"])
    assert (stats.deals, stats.sat_out, stats.best_deal, stats.worst_deal) == (0, 5, None, None)


def test_deals_without_a_contract_are_not_counted_as_declared():
    e = st.EveningSummary(
        DAY, {"deals": 5, "players": [entry("Anne", 3, declared={"null": [5, 3]}), entry("Bert", -3)]}
    )
    assert st.player_stats([e], IDS["Anne"]).contracts == []
