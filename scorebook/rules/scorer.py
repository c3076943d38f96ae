"""The state of an evening after its deals, shared by both families of games."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any, Self

from .deals import Adjustment, Deal, Evening
from .messages import EngineError, gettext_noop
from .outcome import BETE, DealResult, EveningResult, NextDeal, Standing
from .snapshots import (
    SnapshotError,
    read_by_player,
    read_int,
    read_names,
)


class DealError(EngineError):
    """A deal that breaks the rules. ``number`` is 1-based; 0 means the evening itself.

    ``template`` (marked with ``gettext_noop``) and ``params`` give the translatable
    message, ``message`` the English text; ``field`` names the input it is about.
    """

    def __init__(self, number: int, template: str, field: str = "", **params: object):
        self.number = number
        self.field = field
        super().__init__(template, params, f"deal {number}: " if number else "")


class Scorer:
    """The state of an evening after its deals: totals, dealer, pot, robre, results so far.

    ``then(deal)`` gives the state after one more deal without scoring the others again
    (what recording a deal needs); ``standing()`` the evening after its last deal, ``result()``
    with every deal's result; ``snapshot()`` the state as data, for ``restore``.
    """

    def __init__(self, evening: Evening):
        self.evening = evening
        self.rules = evening.rules
        self.players = evening.players
        n = len(self.players)
        if len(set(self.players)) != n:
            raise DealError(0, gettext_noop("player names must be unique"))
        if BETE in self.players:
            raise DealError(0, gettext_noop("%(name)s is the name of the pot, not of a player"), name=BETE)
        if not self.rules.min_players <= n <= self.rules.max_players:
            low, high = self.rules.min_players, self.rules.max_players
            if low == high:
                raise DealError(
                    0,
                    gettext_noop("%(variant)s is played by %(count)s players, not %(n)s"),
                    variant=self.rules.key,
                    count=low,
                    n=n,
                )
            raise DealError(
                0,
                gettext_noop("%(variant)s is played by %(low)s to %(high)s players, not %(n)s"),
                variant=self.rules.key,
                low=low,
                high=high,
                n=n,
            )
        if evening.first_dealer not in self.players:
            raise DealError(0, gettext_noop("the first dealer %(name)r is not at the table"), name=evening.first_dealer)
        self.dealer_seat = self.players.index(evening.first_dealer)
        self.totals = dict.fromkeys(self.players, 0)
        self.took_part: set[str] = set()
        self.results: list[DealResult] = []  # the deals this scorer scored (since its start, or ``restore``)
        self.number = 0  # the deals scored, before it too when restored

    def then(self, deal: Deal) -> Scorer:
        """A new state: this one plus ``deal`` (validated; DealError names it). ``self`` is unchanged."""
        new = self._copy()
        new.evening = replace(self.evening, deals=self.evening.deals + (deal,))
        new.add(deal)
        return new

    def _copy(self) -> Self:
        new = copy.copy(self)
        new.totals = dict(self.totals)
        new.took_part = set(self.took_part)
        new.results = list(self.results)
        return new

    def add(self, deal: Deal) -> None:
        raise NotImplementedError

    def next_deal(self) -> NextDeal:
        raise NotImplementedError

    def standing(self) -> Standing:
        return Standing(
            players=self.players,
            number=self.number,
            totals=dict(self.totals),
            pot=0,
            next=self.next_deal(),
            took_part=tuple(p for p in self.players if p in self.took_part),
        )

    def result(self) -> EveningResult:
        """The standing and every deal's result (a scorer that scored the evening from its start)."""
        if len(self.results) != self.number:
            raise ValueError("a restored scorer has not the results of the deals before it: use standing()")
        standing = self.standing()
        return EveningResult(
            **{f: getattr(standing, f) for f in Standing.__dataclass_fields__}, deals=tuple(self.results)
        )

    def snapshot(self) -> dict[str, Any]:
        """The state after the last deal as JSON-ready data: ``restore`` takes it back."""
        return {
            "deals": self.number,
            "dealer": self.players[self.dealer_seat],
            "totals": dict(self.totals),
            "took_part": [p for p in self.players if p in self.took_part],
        }

    def snapshot_keys(self) -> set[str]:
        return {"deals", "dealer", "totals", "took_part"}

    def load(self, data: dict[str, Any]) -> None:
        """Take the state of ``snapshot()``'s ``data`` (its keys checked): SnapshotError if it does not fit."""
        if data["dealer"] not in self.players:
            raise SnapshotError(f"{data['dealer']!r} is not at the table")
        self.number = read_int(data["deals"])
        self.dealer_seat = self.seat(data["dealer"])
        self.totals = read_by_player(data["totals"], self.players)
        self.took_part = set(read_names(data["took_part"], self.players))

    def not_a_deal(self, deal: object) -> DealError:
        """What this variant says of a deal of another family (a classic deal in a contract game)."""
        return self.error(
            gettext_noop("a %(kind)s is not a deal of %(variant)s"), kind=type(deal).__name__, variant=self.rules.key
        )

    def error(self, template: str, field: str = "", **params: object) -> DealError:
        return DealError(self.number, template, field, **params)

    def known(self, name: str, field: str) -> str:
        if name not in self.players:
            raise self.error(gettext_noop("%(name)r is not at the table"), field, name=name)
        return name

    def seat(self, name: str) -> int:
        return self.players.index(name)

    def record(self, deal: Deal, deltas: dict[str, int], **kwargs: Any) -> None:
        for player, delta in deltas.items():
            self.totals[player] += delta
        full = {p: deltas.get(p, 0) for p in self.players}
        result = DealResult(number=self.number, deal=deal, deltas=full, **kwargs)
        self.took_part.update(result.playing)
        self.took_part.update(name for name, delta in full.items() if delta)
        self.results.append(result)

    def adjustment(self, deal: Adjustment) -> dict[str, int]:
        if not deal.points:
            raise self.error(gettext_noop("an adjustment gives points to at least one player"), "points")
        deltas = {}
        for name, points in deal.points.items():
            self.known(name, "points")
            if isinstance(points, bool) or not isinstance(points, int):
                raise self.error(
                    gettext_noop("the adjustment for %(name)s must be a whole number"), "points", name=name
                )
            if abs(points) > 100_000:
                raise self.error(gettext_noop("the adjustment for %(name)s is too large"), "points", name=name)
            deltas[name] = points
        return deltas
