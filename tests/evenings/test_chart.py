"""The running-totals chart: its geometry (plain Python) and the page."""

import re
from itertools import pairwise

import pytest
from django.template.loader import get_template
from django.urls import reverse

from scorebook.evenings import charts
from scorebook.evenings.charts import DASHES, LABEL_GAP, PALETTE, build, chart_context, spread

SIX = ["Anne", "Bert", "Carl", "Dina", "Eva", "Fien"]


def label_ys(chart):
    return sorted(s.label.y for s in chart.series)


def assert_labels_apart(chart, gap=LABEL_GAP):
    ys = label_ys(chart)
    for a, b in pairwise(ys):
        assert b - a >= gap - 0.11, ys  # 0.1 of rounding for the SVG source


def assert_inside(chart):
    for s in chart.series:
        for x, y in s.points:
            assert 0 <= x <= chart.width and 0 <= y <= chart.height
            assert chart.plot.left <= x <= chart.plot.right
            assert chart.plot.top <= y <= chart.plot.bottom
        half = chart.font_size / 2
        assert s.label.y - half >= -0.1 and s.label.y + half <= chart.height + 0.1
        assert s.label.end_x < s.label.x < chart.width
        if chart.deals:
            assert s.label.x > chart.plot.right  # in the margin, clear of the lines
        text = len(s.label.text) + 1 + len(s.label.total)
        assert s.label.x + text * charts.CHAR_WIDTH <= chart.width


# --- geometry ------------------------------------------------------------------------


def test_six_players_all_ending_at_zero_get_separate_labels():
    running = [dict.fromkeys(SIX, 0)] * 8
    chart = build(SIX, running)
    assert_labels_apart(chart)
    assert_inside(chart)
    # the stack is centred on the zero line: as little moving as possible
    ys = label_ys(chart)
    assert ys[0] < chart.zero_y < ys[-1]
    assert sum(ys) / len(ys) == pytest.approx(chart.zero_y, abs=0.5)


def test_close_endings_are_nudged_apart_but_keep_their_order():
    final = {"Anne": 10, "Bert": 11, "Carl": 9, "Dina": 12, "Eva": -40, "Fien": 10}
    running = [{p: v // 2 for p, v in final.items()}, final]
    chart = build(SIX, running)
    assert_labels_apart(chart)
    assert_inside(chart)
    by_name = {s.name: s.label for s in chart.series}
    # a higher total is drawn higher (smaller y), also after nudging
    assert by_name["Dina"].y < by_name["Bert"].y < by_name["Carl"].y
    assert by_name["Eva"].moved is False  # far from the crowd: stays at its line end
    assert by_name["Eva"].y == by_name["Eva"].end_y


def test_labels_crowded_at_the_top_and_bottom_stay_inside_the_chart():
    players = SIX + ["Gust"]
    top = dict.fromkeys(players[:4], 100) | dict.fromkeys(players[4:], -100)
    chart = build(players, [top])
    assert_labels_apart(chart)
    assert_inside(chart)
    assert max(label_ys(chart)) <= chart.plot.bottom + 2.1  # clear of the deal numbers


def test_a_tiny_chart_squeezes_the_labels_evenly_rather_than_leaving_it():
    chart = build(SIX, [dict.fromkeys(SIX, 0)], width=360, height=60)
    ys = label_ys(chart)
    assert all(0 <= y <= 60 for y in ys)
    assert len(set(ys)) == len(ys)


@pytest.mark.parametrize(
    ("wanted", "gap", "low", "high"),
    [
        ([50, 50, 50], 10, 0, 100),
        ([0, 1, 2, 3], 10, 5, 100),
        ([100, 99, 98], 10, 0, 100),
        ([10, 80, 12, 81, 11], 15, 0, 200),
    ],
)
def test_spread_keeps_the_gap_the_order_and_the_bounds(wanted, gap, low, high):
    placed = spread(wanted, gap, low, high)
    order = sorted(range(len(wanted)), key=lambda i: (wanted[i], i))
    for a, b in pairwise(order):
        assert placed[b] - placed[a] >= gap - 1e-9
    assert all(low - 1e-9 <= p <= high + 1e-9 for p in placed)


def test_spread_leaves_labels_alone_when_they_fit():
    assert spread([10, 50, 90], 12, 0, 100) == [10, 50, 90]


def test_points_stay_within_the_view_box_and_start_at_zero():
    players = ["Anne", "Bert", "Carl", "Dina"]
    running = [
        {"Anne": 20, "Bert": -20, "Carl": 20, "Dina": -20},
        {"Anne": -37, "Bert": 111, "Carl": -37, "Dina": -37},
        {"Anne": -1234, "Bert": 1000, "Carl": 117, "Dina": 117},
    ]
    chart = build(players, running)
    assert_inside(chart)
    for s in chart.series:
        assert len(s.points) == 4  # deal 0 is added
        assert s.values[0] == 0
        assert s.points[0] == (chart.plot.left, chart.zero_y)
        assert s.points[-1][0] == chart.plot.right
    assert chart.view_box == "0 0 360 280"


def test_the_zero_line_is_at_the_y_of_zero():
    chart = build(["A", "B", "C", "D"], [{"A": 30, "B": -10, "C": -10, "D": -10}])
    zero = next(t for t in chart.y_ticks if t.value == 0)
    assert chart.zero_y == zero.pos
    top, bottom = chart.y_ticks[-1], chart.y_ticks[0]
    expected = chart.plot.bottom - chart.plot.height * (0 - bottom.value) / (top.value - bottom.value)
    assert chart.zero_y == pytest.approx(expected, abs=0.1)
    # a player who never scores draws along the zero line
    chart = build(["A", "B"], [{"A": 0, "B": 5}, {"A": 0, "B": -5}])
    assert {y for _, y in chart.series[0].points} == {chart.zero_y}


@pytest.mark.parametrize(
    ("low", "high"),
    [(0, 0), (-3, 4), (0, 57), (-53, 57), (-78, 71), (-1234, 1000), (5, 9), (-9, -5), (-1, 1)],
)
def test_y_ticks_are_round_and_include_zero(low, high):
    chart = build(["A", "B"], [{"A": low, "B": high}])
    values = [t.value for t in chart.y_ticks]
    assert 0 in values
    assert values[0] <= min(low, 0) and values[-1] >= max(high, 0)
    steps = {b - a for a, b in pairwise(values)}
    assert len(steps) == 1
    step = steps.pop()
    assert re.fullmatch(r"(1|2|25|5)0*", str(step))
    assert 3 <= len(values) <= 8
    # ticks go up the screen: larger values have smaller y
    assert [t.pos for t in chart.y_ticks] == sorted((t.pos for t in chart.y_ticks), reverse=True)


@pytest.mark.parametrize("deals", [0, 1, 2, 7, 15, 24, 40, 99, 250])
def test_x_ticks_are_deal_numbers_and_not_too_many(deals):
    players = ["A", "B", "C"]
    running = [{"A": i, "B": -i, "C": 0} for i in range(1, deals + 1)]
    chart = build(players, running)
    values = [t.value for t in chart.x_ticks]
    assert values[0] == 0
    assert all(0 <= v <= deals for v in values)
    assert len(values) <= 10
    if deals:
        assert len(values) >= 2
    # far enough apart for their numbers
    assert all(b.pos - a.pos >= 20 for a, b in pairwise(chart.x_ticks))


def test_a_zero_deal_evening_has_everyone_at_zero():
    chart = build(["Anne", "Bert", "Carl", "Dina"], [])
    assert chart.deals == 0 and chart.rows == ()
    assert [t.value for t in chart.x_ticks] == [0]
    assert 0 in [t.value for t in chart.y_ticks]
    for s in chart.series:
        assert s.values == (0,) and s.points == ((chart.plot.left, chart.zero_y),)
        assert s.label.total == "0"
        assert s.label.x == chart.plot.left + 10  # beside the start, not across an empty chart
    assert_labels_apart(chart)
    assert_inside(chart)


def test_a_single_deal_evening():
    chart = build(["Anne", "Bert", "Carl", "Dina"], [{"Anne": 15, "Bert": -5, "Carl": -5, "Dina": -5}])
    assert chart.deals == 1
    assert [t.value for t in chart.x_ticks] == [0, 1]
    anne = chart.series[0]
    assert anne.values == (0, 15) and anne.label.total == "+15"
    assert chart.series[1].label.total == "\u22125"
    assert chart.rows == (charts.Row(1, (15, -5, -5, -5)),)
    assert_labels_apart(chart)
    assert_inside(chart)


def test_each_player_has_a_colour_and_a_dash_of_their_own():
    players = SIX + ["Gust"]
    chart = build(players, [dict.fromkeys(players, 0)])
    assert len(PALETTE) == len(set(PALETTE)) == 7
    assert len({s.colour for s in chart.series}) == 7
    assert len({s.dash for s in chart.series}) == len(DASHES) == 7
    assert [s.css_class for s in chart.series] == [f"chart-series-{i}" for i in range(7)]


def _luminance(hex_colour):
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


@pytest.mark.parametrize("background", ["#14171c", "#1e232b"])  # --bg and --panel
def test_the_palette_is_readable_on_the_dark_theme(background):
    for colour in PALETTE:
        ratio = (_luminance(colour) + 0.05) / (_luminance(background) + 0.05)
        assert ratio >= 4.5, colour


def test_long_names_are_shortened_in_the_label_only():
    players = ["Anne-Catherine de Wilde", "Bert"]
    chart = build(players, [{players[0]: 3, "Bert": -3}])
    assert chart.series[0].name == players[0]
    assert chart.series[0].label.text.endswith("\u2026") and len(chart.series[0].label.text) <= 9
    assert chart.width - chart.plot.right <= chart.width * 0.4


# --- template and page --------------------------------------------------------------


def five_player_deals():
    """A few valid kleurenwiezen deals for five players (the dealer sits out)."""
    players = ["Anne", "Bert", "Carl", "Dina", "Evelien"]
    plan = [("samen-9", (0, 2), 10), ("alleen-6", (1,), 7), ("samen-8", (0, 1), 6), ("alleen-5", (3,), 4)]
    deals = []
    for k, (contract, seats, tricks) in enumerate(plan):
        playing = [players[(k + 1 + i) % 5] for i in range(4)]
        deals.append({"contract": contract, "declarers": [playing[s] for s in seats], "tricks": tricks})
    return players, deals


@pytest.fixture
def evening(make_evening):
    players, deals = five_player_deals()
    return make_evening("kleurenwiezen", players, deals=deals)


@pytest.mark.django_db
def test_owner_sees_the_svg_with_every_name(scorer_client, evening):
    from scorebook.evenings.stored import scored

    response = scorer_client.get(reverse("evening_chart", args=[evening.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count("<svg") == 1
    svg = html[html.index("<svg") : html.index("</svg>")]
    assert 'role="img"' in svg and "<title" in svg and 'viewBox="0 0 360 280"' in svg
    totals = scored(evening).result.totals
    for name, total in totals.items():
        assert f">{name}</tspan>" in svg
        assert f"<td>{total}</td>" in html  # the screen-reader table
    assert html.count("<polyline") == 5
    assert 'class="chart-sr-only"' in html
    assert "css/chart.css" in html
    # the Content Security Policy forbids these: no style attribute, no script written in the page
    # (the page's one script is the site's file that keeps deals offline, as on every page)
    assert "style=" not in html
    assert re.findall(r"<script[^>]*>", html) == ['<script src="/static/js/scoring.js" defer>']
    # coordinates are never localised ("12,5" in French)
    for points in re.findall(r'points="([^"]*)"', svg):
        assert re.fullmatch(r"-?[\d.]+,-?[\d.]+( -?[\d.]+,-?[\d.]+)*", points)


@pytest.mark.django_db
def test_a_zero_deal_evening_page(scorer_client, make_evening):
    evening = make_evening("kleurenwiezen", ["Anne", "Bert", "Carl", "Dina"])
    response = scorer_client.get(reverse("evening_chart", args=[evening.pk]))
    assert response.status_code == 200
    assert response.content.decode().count("<polyline") == 4


@pytest.mark.django_db
def test_outsider_gets_404(outsider_client, evening):
    assert outsider_client.get(reverse("evening_chart", args=[evening.pk])).status_code == 404


@pytest.mark.django_db
def test_htmx_gets_only_the_chart(scorer_client, evening):
    response = scorer_client.get(reverse("evening_chart", args=[evening.pk]), headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.lstrip().startswith('<figure class="chart"') and "<html" not in html


@pytest.mark.django_db
def test_the_partial_can_be_included_with_a_chart(evening):
    from scorebook.evenings.stored import scored

    chart = chart_context(scored(evening).result, ident="mini")
    html = get_template("evenings/chart.html#chart").render({"chart": chart})
    assert 'id="mini-title"' in html and 'aria-labelledby="mini-title"' in html
    assert html.count("<polyline") == 5
