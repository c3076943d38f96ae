"""The running-totals chart as plain geometry, drawn by templates/evenings/chart.html.

Plain geometry: the scores after each deal become polylines in a
``width`` x ``height`` box (the SVG ``viewBox``), with round y ticks that always
include 0, a few x ticks (deal numbers) and one label per player at the end of
the line ("Anne +42"), moved up or down as little as possible so that labels
never overlap and never leave the chart.

``chart_context(result)`` is the entry point for views and includes:
``{% include "evenings/chart.html#chart" %}`` with ``chart`` in the context.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scorebook.core.formatting import signed_points
from scorebook.rules.scoring import EveningResult

# Okabe & Ito's colour-blind safe palette, adapted to the dark background: the
# dark blue (too dark on #14171c) and black give way to a light grey, and the
# vermilion is lifted a little. Every colour has a contrast of at least 4.5:1 on
# --bg and --panel, and the dash pattern differs per player too, so that no one
# depends on colour alone.
PALETTE: tuple[str, ...] = (
    "#e69f00",  # orange
    "#56b4e9",  # sky blue
    "#00b68a",  # bluish green
    "#f0e442",  # yellow
    "#cc79a7",  # reddish purple
    "#ec6a2c",  # vermilion
    "#d9dde3",  # light grey
)
# stroke-dasharray per player ("" is a solid line); used with round caps.
DASHES: tuple[str, ...] = ("", "10 6", "1 7", "14 5 1 5", "5 5", "20 6", "1 6 8 6")

FONT_SIZE = 13  # viewBox units; at 360 px wide the chart is drawn 1:1
CHAR_WIDTH = 0.7 * FONT_SIZE  # a generous average glyph width for bold system fonts (DejaVu Sans is wide)
LABEL_GAP = FONT_SIZE + 3  # minimum distance between two label centres
MAX_NAME = 9  # longer names are shortened in the label (the table has them whole)


@dataclass(frozen=True)
class Box:
    left: float
    top: float
    right: float
    bottom: float

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.bottom - self.top


@dataclass(frozen=True)
class Tick:
    value: int
    pos: float  # y for a y tick, x for an x tick
    label: str
    baseline: float  # y of the label's baseline


@dataclass(frozen=True)
class Label:
    text: str  # the name, shortened if needed
    total: str  # the final total, signed ("+42", "−7", "0")
    x: float  # start of the text
    leader_x: float  # where the leader from the line end stops, just before the text
    y: float  # centre of the text (what the overlap rule is about)
    baseline: float  # y of the text baseline, for <text y=...>
    end_x: float  # the end of the line, where the leader starts
    end_y: float

    @property
    def moved(self) -> bool:
        return abs(self.y - self.end_y) > 0.5


@dataclass(frozen=True)
class Series:
    index: int
    name: str
    colour: str
    dash: str
    values: tuple[int, ...]  # one per deal, starting with 0 at deal 0
    points: tuple[tuple[float, float], ...]
    label: Label

    @property
    def points_attr(self) -> str:
        return " ".join(f"{_n(x)},{_n(y)}" for x, y in self.points)

    @property
    def css_class(self) -> str:
        return f"chart-series-{self.index}"

    @property
    def final(self) -> int:
        return self.values[-1]


@dataclass(frozen=True)
class Row:
    deal: int
    totals: tuple[int, ...]  # in seat order


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    plot: Box
    series: tuple[Series, ...]
    y_ticks: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...]
    zero_y: float
    deals: int
    ident: str = "chart"

    @property
    def view_box(self) -> str:
        return f"0 0 {self.width} {self.height}"

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.series)

    @property
    def rows(self) -> tuple[Row, ...]:
        """The totals after each deal, for the screen-reader table."""
        return tuple(Row(d, tuple(s.values[d] for s in self.series)) for d in range(1, self.deals + 1))

    @property
    def font_size(self) -> int:
        return FONT_SIZE

    @property
    def y_label_x(self) -> float:
        return _n(self.plot.left - 6)

    @property
    def x_tick_end(self) -> float:
        return _n(self.plot.bottom + 4)


def _n(value: float) -> float:
    """Round for the SVG source (one decimal is far below a pixel)."""
    rounded = round(value, 1)
    return int(rounded) if rounded == int(rounded) else rounded


def nice_step(raw: float, quarters: bool = False) -> int:
    """The smallest round step >= raw: 1, 2 or 5 x 10^k (and 25, 250, ... with ``quarters``)."""
    if raw <= 1:
        return 1
    power = 10 ** math.floor(math.log10(raw))
    mults = (1, 2, 2.5, 5, 10) if quarters and power >= 10 else (1, 2, 5, 10)
    for mult in mults:
        if mult * power >= raw - 1e-9:
            return int(mult * power)
    return int(10 * power)  # pragma: no cover


def y_range(low: int, high: int, max_ticks: int = 8) -> tuple[int, int, int]:
    """(bottom, top, step): round bounds that include 0 and low..high, at most ``max_ticks`` ticks."""
    low, high = min(low, 0), max(high, 0)
    if low == high:
        return -10, 10, 5
    step = nice_step((high - low) / (max_ticks - 1), quarters=True)
    while True:
        bottom, top = math.floor(low / step) * step, math.ceil(high / step) * step
        if (top - bottom) // step + 1 <= max_ticks:
            return bottom, top, step
        step = nice_step(step + 1, quarters=True)


def x_step(deals: int, max_ticks: int) -> int:
    """The step between deal-number ticks so that at most ``max_ticks`` are shown."""
    if deals <= 0:
        return 1
    step = nice_step(deals / max(max_ticks - 1, 1))
    while deals // step + 1 > max_ticks:
        step = nice_step(step + 1)
    return step


def spread(wanted: Sequence[float], gap: float, low: float, high: float) -> list[float]:
    """Positions as close as possible (least squares) to ``wanted``, each at least ``gap``
    from the next and all within [low, high], in the same order as ``wanted``.

    With q_i = p_i - i * gap the gap rule is "q is non-decreasing": an isotonic
    regression (pool adjacent violators) of the sorted wishes, then clipped to the
    box. When the labels cannot fit at ``gap`` they share the height evenly.
    """
    n = len(wanted)
    if n == 0:
        return []
    order = sorted(range(n), key=lambda i: (wanted[i], i))
    if n > 1 and (n - 1) * gap > high - low:
        gap = (high - low) / (n - 1)
    targets = [wanted[i] - k * gap for k, i in enumerate(order)]
    blocks: list[list[float]] = []  # [sum, count]
    for t in targets:
        blocks.append([t, 1])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            total, count = blocks.pop()
            blocks[-1][0] += total
            blocks[-1][1] += count
    fitted: list[float] = []
    for total, count in blocks:
        fitted.extend([total / count] * int(count))
    upper = high - (n - 1) * gap
    out = [0.0] * n
    for k, i in enumerate(order):
        out[i] = min(max(fitted[k], low), upper) + k * gap
    return out


def short_name(name: str, limit: int = MAX_NAME) -> str:
    return name if len(name) <= limit else name[: limit - 1].rstrip() + "\u2026"


@dataclass(frozen=True)
class _Scale:
    """Where a deal and a total fall in the plot's box (viewBox units)."""

    plot: Box
    span: int  # deals across the plot (at least 1)
    bottom_value: int
    top_value: int

    def x(self, deal: int) -> float:
        return self.plot.left + self.plot.width * deal / self.span

    def y(self, value: float) -> float:
        return self.plot.bottom - self.plot.height * (value - self.bottom_value) / (self.top_value - self.bottom_value)


def build(
    players: Sequence[str],
    running: Sequence[Mapping[str, int]],
    width: int = 360,
    height: int = 280,
    *,
    ident: str = "chart",
) -> Chart:
    """The chart of ``running`` (the totals after each deal; deal 0 is added at 0)."""
    players = list(players)
    totals = [dict.fromkeys(players, 0), *running]
    deals = len(running)
    values = {p: tuple(int(t.get(p, 0)) for t in totals) for p in players}
    everything = [v for vs in values.values() for v in vs] or [0]
    bottom_value, top_value, step = y_range(min(everything), max(everything))
    finals = {p: signed_points(values[p][-1]) for p in players}
    names = _label_names(players, finals, width)
    longest_label = max((len(names[p]) + 1 + len(finals[p]) for p in players), default=4)
    longest_tick = max(len(signed_points(bottom_value)), len(signed_points(top_value)))
    left = 8 + longest_tick * CHAR_WIDTH
    right = width - min(12 + longest_label * CHAR_WIDTH, width * 0.4)
    plot = Box(left=left, top=FONT_SIZE, right=right, bottom=height - FONT_SIZE - 12)
    scale = _Scale(plot, max(deals, 1), bottom_value, top_value)
    y_ticks = tuple(
        Tick(v, _n(scale.y(v)), signed_points(v), _n(scale.y(v) + 0.35 * FONT_SIZE))
        for v in range(bottom_value, top_value + 1, step)
    )
    max_x_ticks = max(2, int(plot.width // (CHAR_WIDTH * 3 + 10)))
    every = x_step(deals, max_x_ticks)
    x_baseline = _n(plot.bottom + FONT_SIZE + 6)
    x_ticks = tuple(Tick(d, _n(scale.x(d)), str(d), x_baseline) for d in range(0, deals + 1, every))
    return Chart(
        width=width,
        height=height,
        plot=Box(_n(plot.left), _n(plot.top), _n(plot.right), _n(plot.bottom)),
        series=_series(players, values, names, finals, scale, deals),
        y_ticks=y_ticks,
        x_ticks=x_ticks,
        zero_y=_n(scale.y(0)),
        deals=deals,
        ident=ident,
    )


def _label_names(players: list[str], finals: dict[str, str], width: int) -> dict[str, str]:
    """The names of the labels: they take at most 40% of the width, names shortened until the
    longest fits, never the totals (a clipped total would read as another number)."""
    room = int((width * 0.4 - 12) // CHAR_WIDTH)
    limit = MAX_NAME
    while limit > 3 and max((min(len(p), limit) + 1 + len(finals[p]) for p in players), default=0) > room:
        limit -= 1
    return {p: short_name(p, limit) for p in players}


def _series(
    players: list[str],
    values: dict[str, tuple[int, ...]],
    names: dict[str, str],
    finals: dict[str, str],
    scale: _Scale,
    deals: int,
) -> tuple[Series, ...]:
    """Each player's line, its colour and dash, and its label at its end (spread so that no two
    labels overlap, clear of the deal numbers)."""
    end_x = scale.x(deals)
    ends = [scale.y(values[p][-1]) for p in players]
    half = FONT_SIZE / 2
    centres = spread(ends, LABEL_GAP, half, scale.plot.bottom + 2)  # clear of the deal numbers
    series = []
    for i, player in enumerate(players):
        label = Label(
            text=names[player],
            total=finals[player],
            x=_n(end_x + 10),  # the right edge of the plot, or beside the start without deals
            leader_x=_n(end_x + 7),
            y=_n(centres[i]),
            baseline=_n(centres[i] + 0.35 * FONT_SIZE),
            end_x=_n(end_x),
            end_y=_n(ends[i]),
        )
        points = tuple((_n(scale.x(d)), _n(scale.y(v))) for d, v in enumerate(values[player]))
        series.append(
            Series(
                index=i,
                name=player,
                colour=PALETTE[i % len(PALETTE)],
                dash=DASHES[i % len(DASHES)],
                values=values[player],
                points=points,
                label=label,
            )
        )
    return tuple(series)


def chart_context(result: EveningResult, width: int = 360, height: int = 280, *, ident: str = "chart") -> Chart:
    """The ``chart`` context variable for ``evenings/chart.html#chart`` from an EveningResult."""
    return build(result.players, result.running(), width, height, ident=ident)


__all__ = ["DASHES", "PALETTE", "Chart", "Label", "Row", "Series", "Tick", "build", "chart_context", "spread"]
