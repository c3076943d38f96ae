"""What scoring gives, as data: a deal's result, who deals next, the standing after the last deal,
the whole evening's result; each with ``as_dict``/``from_dict`` where a scorebook stores it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from . import settlement
from .deals import Deal
from .model import BeteEnd
from .snapshots import (
    SnapshotError,
    read_bool,
    read_by_player,
    read_int,
    read_keys,
    read_list,
    read_names,
    read_pair,
    read_side,
)

BETE = "(bête)"  # the pot as a party of the settlement when carried over; no player may take this name


@dataclass(frozen=True)
class Manche:
    winner: int
    value: int
    points: tuple[int, int]  # both sides' points when it ended (trick points in French whist)

    def as_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "value": self.value, "points": list(self.points)}

    @classmethod
    def from_dict(cls, data: Any) -> Manche:
        data = read_keys(data, {"winner", "value", "points"})
        return cls(read_side(data["winner"]), read_int(data["value"]), read_pair(data["points"]))


@dataclass(frozen=True)
class RobreState:
    number: int
    teams: tuple[tuple[str, ...], tuple[str, ...]]
    points: tuple[int, int] = (0, 0)
    honours_aside: tuple[int, int] = (0, 0)
    manches: tuple[Manche, ...] = ()
    chelems: tuple[int, int] = (0, 0)
    deals: int = 0
    winner: int | None = None
    result: tuple[int, int] | None = None  # each side's manche values + bonus + chelems
    dummy_partner: str | None = None

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def manches_won(self) -> tuple[int, int]:
        return (sum(m.winner == 0 for m in self.manches), sum(m.winner == 1 for m in self.manches))

    @property
    def players(self) -> tuple[str, ...]:
        return self.teams[0] + self.teams[1]

    def as_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "teams": [list(self.teams[0]), list(self.teams[1])],
            "points": list(self.points),
            "honours_aside": list(self.honours_aside),
            "manches": [m.as_dict() for m in self.manches],
            "chelems": list(self.chelems),
            "deals": self.deals,
            "winner": self.winner,
            "result": None if self.result is None else list(self.result),
            "dummy_partner": self.dummy_partner,
        }

    @classmethod
    def from_dict(cls, data: Any, players: tuple[str, ...]) -> RobreState:
        data = read_keys(data, set(cls.__dataclass_fields__))
        teams = data["teams"]
        if not isinstance(teams, list) or len(teams) != 2:
            raise SnapshotError("a robre has two teams")
        partner = data["dummy_partner"]
        if partner is not None and partner not in players:
            raise SnapshotError(f"{partner!r} is not at the table")
        return cls(
            number=read_int(data["number"]),
            teams=(read_names(teams[0], players), read_names(teams[1], players)),
            points=read_pair(data["points"]),
            honours_aside=read_pair(data["honours_aside"]),
            manches=tuple(Manche.from_dict(m) for m in read_list(data["manches"])),
            chelems=read_pair(data["chelems"]),
            deals=read_int(data["deals"]),
            winner=None if data["winner"] is None else read_side(data["winner"]),
            result=None if data["result"] is None else read_pair(data["result"]),
            dummy_partner=partner,
        )


@dataclass(frozen=True)
class DealResult:
    number: int
    deal: Deal
    deltas: Mapping[str, int]
    pot: int = 0
    dealer: str | None = None
    playing: tuple[str, ...] = ()
    sitting_out: tuple[str, ...] = ()
    multiplier: int = 1
    made: bool | None = None
    outcomes: Mapping[str, bool] = field(default_factory=dict)  # per declarer
    robre: RobreState | None = None
    ended_robre: bool = False

    def as_dict(self) -> dict[str, Any]:
        """The result as JSON-ready data, without the deal itself (which is the input: keep it apart)."""
        return {
            "deltas": dict(self.deltas),
            "pot": self.pot,
            "dealer": self.dealer,
            "playing": list(self.playing),
            "sitting_out": list(self.sitting_out),
            "multiplier": self.multiplier,
            "made": self.made,
            "outcomes": dict(self.outcomes),
            "robre": None if self.robre is None else self.robre.as_dict(),
            "ended_robre": self.ended_robre,
        }

    @classmethod
    def from_dict(cls, number: int, deal: Deal, data: Any, players: tuple[str, ...]) -> DealResult:
        """Deal ``number`` (``deal``) as ``as_dict`` gave it; SnapshotError when it does not fit ``players``."""
        data = read_keys(data, set(cls.__dataclass_fields__) - {"number", "deal"})
        made, dealer, outcomes = data["made"], data["dealer"], data["outcomes"]
        if made is not None and not isinstance(made, bool):
            raise SnapshotError("made is true, false or null")
        if dealer is not None and dealer not in players:
            raise SnapshotError(f"{dealer!r} is not at the table")
        if not isinstance(outcomes, dict) or not all(isinstance(v, bool) for v in outcomes.values()):
            raise SnapshotError("outcomes map declarers to true or false")
        return cls(
            number=number,
            deal=deal,
            deltas=read_by_player(data["deltas"], players),
            pot=read_int(data["pot"]),
            dealer=dealer,
            playing=read_names(data["playing"], players),
            sitting_out=read_names(data["sitting_out"], players),
            multiplier=read_int(data["multiplier"]),
            made=made,
            outcomes={name: outcomes[name] for name in read_names(list(outcomes), players)},
            robre=None if data["robre"] is None else RobreState.from_dict(data["robre"], players),
            ended_robre=read_bool(data["ended_robre"]),
        )


@dataclass(frozen=True)
class NextDeal:
    dealer: str
    playing: tuple[str, ...]
    sitting_out: tuple[str, ...]
    multiplier: int = 1
    robre: RobreState | None = None


@dataclass(frozen=True)
class Standing:
    """The evening after its last deal, without the deals: the totals, the bête, who deals next,
    the robres finished, who took part so far. What a restored ``Scorer`` knows."""

    players: tuple[str, ...]
    number: int  # the deals scored
    totals: Mapping[str, int]
    pot: int
    next: NextDeal
    # The players who took part in the evening (docs/rules/money.md), in seat order: who played at least
    # one deal (sat at the table for it, a pass included) or scored on any line (an adjustment
    # received; an ante paid while sitting out). The others "did not play": no money, no
    # transfer, and not an evening of theirs in standings and statistics. The one definition of
    # taking part: the summary, standings and pages read it from here.
    took_part: tuple[str, ...] = ()
    robres: tuple[RobreState, ...] = ()  # finished robres, in order
    bete_end: BeteEnd = BeteEnd.SHARE

    def money(self, stake: Decimal) -> dict[str, Decimal]:
        """Net money per player: (points - mean) x stake, in cents summing to zero (docs/rules/money.md).

        The mean is over the players who took part (``took_part``); a player who took no
        part has 0.00 and no transfer. With the bête shared out this is the same as sharing
        it equally among them; when it is carried to the next evening it is a party of its
        own and keeps its part. Every player has a line, in seat order (then the bête).
        """
        taking = set(self.took_part)
        points: dict[str, int] = {p: self.totals[p] for p in self.players if p in taking}
        if self.bete_end is BeteEnd.CARRY and self.pot:
            points[BETE] = self.pot
        shares = settlement.money(points, stake)
        out = {p: shares.get(p, settlement.ZERO) for p in self.players}
        if BETE in shares:
            out[BETE] = shares[BETE]
        return out

    def transfers(self, stake: Decimal) -> list[settlement.Transfer]:
        return settlement.min_transfers(self.money(stake))


@dataclass(frozen=True)
class EveningResult(Standing):
    """The evening scored from its first deal: the standing after it and every deal's result."""

    deals: tuple[DealResult, ...] = ()

    def running(self) -> list[dict[str, int]]:
        """The totals after each deal (for the chart)."""
        running, out = dict.fromkeys(self.players, 0), []
        for deal in self.deals:
            for player, delta in deal.deltas.items():
                running[player] += delta
            out.append(dict(running))
        return out
