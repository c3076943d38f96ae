"""Scoring an evening: deals in, per-deal deltas, running totals, the bête and the robres out.

``score(evening)`` validates every deal as it goes (who deals, who sits out, how many
tricks) and raises ``DealError`` naming the deal number and the cause.

A ``Scorer`` is the evening's state after its last deal. ``Scorer.snapshot()`` gives that state
as JSON-ready data and ``restore(evening, snapshot)`` a scorer at that state without its deals,
so that ``restore(evening, s.snapshot()).then(deal)`` scores ``deal`` exactly as scoring every
deal again would: what lets a scorebook store the state after each deal and score the next one
alone. ``DealResult.as_dict()`` / ``DealResult.from_dict()`` do the same for one deal's result.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any, Self

from . import settlement
from .deals import Adjustment, Claim, ClassicDeal, ContractDeal, Deal, Evening, Pass, RobreStart
from .messages import EngineError, gettext_noop
from .model import MAX_TRICKS, BeteEnd, ClassicRules, ClassicScoring, Combination, Contract, ContractRules, Trump

BETE = "(bête)"  # the pot as a party of the settlement when carried over; no player may take this name


class DealError(EngineError):
    """A deal that breaks the rules. ``number`` is 1-based; 0 means the evening itself.

    ``template`` (marked with ``gettext_noop``) and ``params`` give the translatable
    message, ``message`` the English text; ``field`` names the input it is about.
    """

    def __init__(self, number: int, template: str, field: str = "", **params: object):
        self.number = number
        self.field = field
        super().__init__(template, params, f"deal {number}: " if number else "")


class SnapshotError(ValueError):
    """Stored data that does not fit the evening (another evening's, or an older engine's shape):
    the evening must be scored from its deals instead."""


@dataclass(frozen=True)
class Manche:
    winner: int
    value: int
    points: tuple[int, int]  # both sides' points when it ended (trick points in French whist)

    def as_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "value": self.value, "points": list(self.points)}

    @classmethod
    def from_dict(cls, data: Any) -> Manche:
        data = _keys(data, {"winner", "value", "points"})
        return cls(_side(data["winner"]), _int(data["value"]), _pair(data["points"]))


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
        data = _keys(data, set(cls.__dataclass_fields__))
        teams = data["teams"]
        if not isinstance(teams, list) or len(teams) != 2:
            raise SnapshotError("a robre has two teams")
        partner = data["dummy_partner"]
        if partner is not None and partner not in players:
            raise SnapshotError(f"{partner!r} is not at the table")
        return cls(
            number=_int(data["number"]),
            teams=(_names(teams[0], players), _names(teams[1], players)),
            points=_pair(data["points"]),
            honours_aside=_pair(data["honours_aside"]),
            manches=tuple(Manche.from_dict(m) for m in _list(data["manches"])),
            chelems=_pair(data["chelems"]),
            deals=_int(data["deals"]),
            winner=None if data["winner"] is None else _side(data["winner"]),
            result=None if data["result"] is None else _pair(data["result"]),
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
        data = _keys(data, set(cls.__dataclass_fields__) - {"number", "deal"})
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
            deltas=_by_player(data["deltas"], players),
            pot=_int(data["pot"]),
            dealer=dealer,
            playing=_names(data["playing"], players),
            sitting_out=_names(data["sitting_out"], players),
            multiplier=_int(data["multiplier"]),
            made=made,
            outcomes={name: outcomes[name] for name in _names(list(outcomes), players)},
            robre=None if data["robre"] is None else RobreState.from_dict(data["robre"], players),
            ended_robre=_bool(data["ended_robre"]),
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
    # The players who took part in the evening (rules.md 4), in seat order: who played at least
    # one deal (sat at the table for it, a pass included) or scored on any line (an adjustment
    # received; an ante paid while sitting out). The others "did not play": no money, no
    # transfer, and not an evening of theirs in standings and statistics. The one definition of
    # taking part: the summary, standings and pages read it from here.
    took_part: tuple[str, ...] = ()
    robres: tuple[RobreState, ...] = ()  # finished robres, in order
    bete_end: BeteEnd = BeteEnd.SHARE

    def money(self, stake: Decimal) -> dict[str, Decimal]:
        """Net money per player: (points - mean) x stake, in cents summing to zero (rules.md 4).

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


def score(evening: Evening) -> EveningResult:
    return scorer(evening).result()


def scorer(evening: Evening) -> Scorer:
    """The evening scored through its last deal, ready to take one more (``Scorer.then``)."""
    s = _start(replace(evening, deals=()))
    for deal in evening.deals:
        s.add(deal)
    s.evening = evening
    return s


def restore(evening: Evening, snapshot: Any) -> Scorer:
    """The scorer of ``evening`` (its rules, players and first dealer; its deals are not read) at
    the state ``snapshot`` (``Scorer.snapshot()``) gives: it takes the next deals as the scorer
    that made the snapshot would. It has no results of the deals before (``results`` holds only
    the deals it scores; use ``standing()``, not ``result()``). SnapshotError when the snapshot
    does not fit the evening."""
    s = _start(replace(evening, deals=()))
    s.load(_keys(snapshot, s.snapshot_keys()))
    return s


def _start(evening: Evening) -> Scorer:
    return _ContractScorer(evening) if isinstance(evening.rules, ContractRules) else _ClassicScorer(evening)


# --- reading stored data ----------------------------------------------------------------------


def _keys(data: Any, keys: set[str]) -> dict[str, Any]:
    if not isinstance(data, dict) or set(data) != keys:
        raise SnapshotError(f"expected the keys {sorted(keys)}")
    return data


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SnapshotError(f"{value!r} is not a whole number")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise SnapshotError(f"{value!r} is not true or false")
    return value


def _side(value: Any) -> int:
    side = _int(value)
    if side not in (0, 1):
        raise SnapshotError(f"{value!r} is not a side (0 or 1)")
    return side


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise SnapshotError(f"{value!r} is not a list")
    return value


def _pair(value: Any) -> tuple[int, int]:
    if len(_list(value)) != 2:
        raise SnapshotError(f"{value!r} is not a pair")
    return (_int(value[0]), _int(value[1]))


def _names(value: Any, players: tuple[str, ...]) -> tuple[str, ...]:
    if any(name not in players for name in _list(value)):
        raise SnapshotError(f"{value!r} names someone who is not at the table")
    return tuple(value)


def _by_player(value: Any, players: tuple[str, ...]) -> dict[str, int]:
    """Whole numbers for exactly the players at the table, in seat order."""
    if not isinstance(value, dict) or set(value) != set(players):
        raise SnapshotError("expected a number for each player at the table")
    return {p: _int(value[p]) for p in players}


# --- shared -----------------------------------------------------------------------


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
        self.number = _int(data["deals"])
        self.dealer_seat = self.seat(data["dealer"])
        self.totals = _by_player(data["totals"], self.players)
        self.took_part = set(_names(data["took_part"], self.players))

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


# --- contract games ------------------------------------------------------------------


class _ContractScorer(Scorer):
    rules: ContractRules

    def __init__(self, evening: Evening):
        super().__init__(evening)
        self.pot = 0
        self.double_pending = False

    def default_playing(self, dealer_seat: int) -> tuple[str, ...]:
        n = len(self.players)
        if n == 4:
            return self.players
        return tuple(self.players[(dealer_seat + i) % n] for i in range(1, 5))

    def table(self, deal: ContractDeal | Pass) -> tuple[str, tuple[str, ...]]:
        if deal.dealer is not None:
            self.dealer_seat = self.seat(self.known(deal.dealer, "dealer"))
        dealer = self.players[self.dealer_seat]
        if deal.playing is None:
            return dealer, self.default_playing(self.dealer_seat)
        playing = tuple(self.known(p, "playing") for p in deal.playing)
        if len(playing) != 4 or len(set(playing)) != 4:
            raise self.error(gettext_noop("four different players play a deal"), "playing")
        return dealer, tuple(p for p in self.players if p in playing)  # seat order

    def ante(self, dealer: str, deltas: dict[str, int]) -> None:
        if self.rules.bete is not None and self.rules.bete.ante:
            deltas[dealer] = deltas.get(dealer, 0) - self.rules.bete.ante
            self.pot += self.rules.bete.ante

    def add(self, deal: Deal) -> None:
        self.number += 1
        if isinstance(deal, Adjustment):
            self.record(deal, self.adjustment(deal), pot=self.pot)
        elif isinstance(deal, Pass):
            dealer, playing = self.table(deal)
            deltas: dict[str, int] = {}
            self.ante(dealer, deltas)
            if self.rules.all_pass_multiplier > 1:
                self.double_pending = True
            self.record(deal, deltas, pot=self.pot, dealer=dealer, playing=playing, sitting_out=self.out(playing))
        elif isinstance(deal, ContractDeal):
            self.contract_deal(deal)
        else:
            raise self.not_a_deal(deal)

    def next_deal(self) -> NextDeal:
        playing = self.default_playing(self.dealer_seat)
        multiplier = self.rules.all_pass_multiplier if self.double_pending else 1
        return NextDeal(self.players[self.dealer_seat], playing, self.out(playing), multiplier)

    def standing(self) -> Standing:
        end = self.rules.bete.end if self.rules.bete else BeteEnd.SHARE
        return replace(super().standing(), pot=self.pot, bete_end=end)

    def snapshot(self) -> dict[str, Any]:
        return super().snapshot() | {"pot": self.pot, "double_pending": self.double_pending}

    def snapshot_keys(self) -> set[str]:
        return super().snapshot_keys() | {"pot", "double_pending"}

    def load(self, data: dict[str, Any]) -> None:
        super().load(data)
        self.pot = _int(data["pot"])
        self.double_pending = _bool(data["double_pending"])

    def out(self, playing: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(p for p in self.players if p not in playing)

    def contract_deal(self, deal: ContractDeal) -> None:
        contract = self.rules.contracts.get(deal.contract)
        if contract is None:
            raise self.error(
                gettext_noop("unknown contract %(contract)r in %(variant)s"),
                "contract",
                contract=deal.contract,
                variant=self.rules.key,
            )
        dealer, playing = self.table(deal)
        declarers = self.check_declarers(contract, deal, playing)
        tricks = self.check_tricks(contract, deal, declarers)
        self.check_options(contract, deal, playing, declarers, tricks)
        multiplier = self.rules.all_pass_multiplier if self.double_pending else 1
        self.double_pending = False
        deltas: dict[str, int] = {}
        self.ante(dealer, deltas)
        sides = [declarers] if contract.declarers == 2 else [(d,) for d in declarers]
        outcomes = {}
        for side in sides:
            side_tricks = sum(tricks[d] for d in side)
            if contract.exact:
                made = all(tricks[d] == contract.needs for d in side)
            else:
                made = contract.succeeds(side_tricks, deal.trump_changed)
            outcomes.update(dict.fromkeys(side, made))
            payout = contract.payout(side_tricks, made)
            if self.rules.bete is not None:
                self.bete_side(
                    contract,
                    deal,
                    side,
                    tricks,
                    made,
                    payout.declarer * multiplier,
                    payout.opponent * multiplier,
                    playing,
                    deltas,
                )
                continue
            if self.rules.combination is Combination.EACH_VS_TABLE:
                others = [p for p in playing if p not in side]
            else:
                others = [p for p in playing if p not in declarers]
            for d in side:
                deltas[d] = deltas.get(d, 0) + payout.declarer * multiplier
            for o in others:
                deltas[o] = deltas.get(o, 0) + payout.opponent * multiplier
        self.record(
            deal,
            deltas,
            pot=self.pot,
            dealer=dealer,
            playing=playing,
            sitting_out=self.out(playing),
            multiplier=multiplier,
            made=all(outcomes.values()),
            outcomes=outcomes,
        )
        self.dealer_seat = (self.seat(dealer) + 1) % len(self.players)

    def bete_side(
        self,
        contract: Contract,
        deal: ContractDeal,
        side: tuple[str, ...],
        tricks: dict[str, int],
        made: bool,
        declarer_value: int,
        opponent_value: int,
        playing: tuple[str, ...],
        deltas: dict[str, int],
    ) -> None:
        """``encheres``: a made contract is paid by each opponent and takes the bête; a failure feeds it."""
        opponents = [p for p in playing if p not in side]
        if made:
            for o in opponents:
                deltas[o] = deltas.get(o, 0) + opponent_value
            share = self.pot // len(side)  # an odd jeton stays in the bête
            for d in side:
                deltas[d] = deltas.get(d, 0) + declarer_value + share
            self.pot -= share * len(side)
            return
        assert self.rules.bete is not None  # called for a game with a bête only
        payment = max(self.pot, -declarer_value) if self.rules.bete.failure_floor else self.pot
        payers = list(side)
        if contract.exact and len(side) == 2:  # in association: the partner(s) who took a trick pay
            payers = [d for d in side if tricks[d] != contract.needs]
        parts: dict[str, int] = {}
        side_payment = payment
        if deal.exposed_fault:
            parts[deal.exposed_fault] = _half_up(payment)
            side_payment = _half_up(payment)
        each = side_payment if len(payers) == 1 else _half_up(side_payment)
        for payer in payers:
            parts[payer] = each
        for payer, amount in parts.items():
            deltas[payer] = deltas.get(payer, 0) - amount
            self.pot += amount

    def check_declarers(self, contract: Contract, deal: ContractDeal, playing: tuple[str, ...]) -> tuple[str, ...]:
        declarers = tuple(deal.declarers)
        for d in declarers:
            self.known(d, "declarers")
            if d not in playing:
                raise self.error(
                    gettext_noop("%(player)s is sitting out this deal and cannot declare"), "declarers", player=d
                )
        if len(set(declarers)) != len(declarers):
            raise self.error(gettext_noop("a player is named twice among the declarers"), "declarers")
        n = len(declarers)
        if contract.declarers == 2 and n != 2:
            raise self.error(
                gettext_noop("%(contract)s is played by 2 declarers, not %(n)s"),
                "declarers",
                contract=deal.contract,
                n=n,
            )
        if contract.declarers == 1 and not 1 <= n <= contract.simultaneous:
            if contract.simultaneous == 1:
                raise self.error(
                    gettext_noop("%(contract)s is played by 1 declarer, not %(n)s"),
                    "declarers",
                    contract=deal.contract,
                    n=n,
                )
            raise self.error(
                gettext_noop("%(contract)s is played by 1 to %(most)s declarers, not %(n)s"),
                "declarers",
                contract=deal.contract,
                most=contract.simultaneous,
                n=n,
            )
        return declarers

    def check_tricks(self, contract: Contract, deal: ContractDeal, declarers: tuple[str, ...]) -> dict[str, int]:
        raw = deal.tricks
        if contract.exact:
            if isinstance(raw, Mapping):
                if set(raw) != set(declarers):
                    raise self.error(
                        gettext_noop("give the tricks of each declarer, and only of the declarers"), "tricks"
                    )
                tricks = dict(raw)
            elif len(declarers) == 1:
                tricks = {declarers[0]: raw}
            else:
                raise self.error(
                    gettext_noop("%(contract)s: give the tricks of each declarer"), "tricks", contract=deal.contract
                )
        else:
            if isinstance(raw, Mapping):
                raise self.error(
                    gettext_noop("%(contract)s: give the tricks of the declaring side as one number"),
                    "tricks",
                    contract=deal.contract,
                )
            # the side's tricks, kept on the first declarer
            tricks = {declarers[0]: raw} | dict.fromkeys(declarers[1:], 0)
        for value in tricks.values():
            if isinstance(value, bool) or not isinstance(value, int):
                raise self.error(gettext_noop("tricks must be a whole number"), "tricks")
            if value < 0:
                raise self.error(
                    gettext_noop("%(tricks)s tricks: a number of tricks cannot be negative"), "tricks", tricks=value
                )
            if value > MAX_TRICKS:
                raise self.error(gettext_noop("%(tricks)s tricks: a deal has only 13"), "tricks", tricks=value)
        if sum(tricks.values()) > MAX_TRICKS:
            raise self.error(
                gettext_noop("%(tricks)s tricks in all: a deal has only 13"), "tricks", tricks=sum(tricks.values())
            )
        return tricks

    def check_options(
        self,
        contract: Contract,
        deal: ContractDeal,
        playing: tuple[str, ...],
        declarers: tuple[str, ...],
        tricks: dict[str, int],
    ) -> None:
        if deal.trump_changed and contract.needs_if_trump_changed is None:
            raise self.error(gettext_noop("%(contract)s has no changed trump"), "trump_changed", contract=deal.contract)
        if deal.trump not in (None, Trump.NONE) and not contract.trumps:
            raise self.error(gettext_noop("%(contract)s is played without trumps"), "trump", contract=deal.contract)
        if deal.exposed_fault is not None:
            if not contract.exposed_fault:
                raise self.error(
                    gettext_noop("%(contract)s has no exposed fault"), "exposed_fault", contract=deal.contract
                )
            if deal.exposed_fault not in playing or deal.exposed_fault in declarers:
                raise self.error(
                    gettext_noop("%(player)s is not an opponent in this deal"),
                    "exposed_fault",
                    player=deal.exposed_fault,
                )
            if all(tricks[d] == contract.needs for d in declarers):
                raise self.error(gettext_noop("an exposed fault needs a failed misère"), "exposed_fault")


def _half_up(amount: int) -> int:
    return -(-amount // 2)


# --- classic games -------------------------------------------------------------------


class _ClassicScorer(Scorer):
    rules: ClassicRules

    def __init__(self, evening: Evening):
        super().__init__(evening)
        self.robre: RobreState | None = None
        self.streak = dict.fromkeys(self.players, 0)  # robres played in a row
        self.next_robre: RobreState = self.default_robre(1, None)
        self.finished: list[RobreState] = []

    def default_robre(self, number: int, previous: RobreState | None) -> RobreState:
        """The next robre when the scorer names none (rules.md 2.1).

        Four players keep their teams. With 5 or 6 present, those who sat out come in
        and the players with the longest run at the table leave (seat order on ties);
        the four are crossed in seat order from the seat after the last one to leave.
        """
        seats, n = self.players, len(self.players)
        if self.rules.dummy:
            if previous is None:
                partner = seats[0]
            else:
                assert previous.dummy_partner is not None  # every robre of a dummy game has one
                partner = seats[(self.seat(previous.dummy_partner) + 1) % n]
            return self.dummy_robre(number, partner)
        if previous is None:
            w = seats[:4]
            return RobreState(number, ((w[0], w[2]), (w[1], w[3])))
        if n == 4:
            return RobreState(number, previous.teams)
        stayed = sorted(previous.players, key=lambda p: (-self.streak[p], self.seat(p)))
        leaving = stayed[: n - 4]
        start = max(self.seat(p) for p in leaving) + 1
        w = tuple(seats[(start + i) % n] for i in range(n) if seats[(start + i) % n] not in leaving)
        return RobreState(number, ((w[0], w[2]), (w[1], w[3])))

    def dummy_robre(self, number: int, partner: str) -> RobreState:
        others = tuple(p for p in self.players if p != partner)
        return RobreState(number, ((partner,), others), dummy_partner=partner)

    def current(self) -> RobreState:
        if self.robre is None or self.robre.finished:
            return self.next_robre
        return self.robre

    def _copy(self) -> Self:
        new = super()._copy()
        new.streak = dict(self.streak)
        new.finished = list(self.finished)
        return new

    def add(self, deal: Deal) -> None:
        self.number += 1
        if isinstance(deal, Adjustment):
            self.record(deal, self.adjustment(deal), robre=self.robre)
        elif isinstance(deal, RobreStart):
            self.start_robre(deal)
            self.record(deal, {}, robre=self.next_robre)
        elif isinstance(deal, ClassicDeal | Claim):
            self.play(deal)
        else:
            raise self.not_a_deal(deal)

    def next_deal(self) -> NextDeal:
        robre = self.current()
        dealer = self.dealer_for(robre, None)
        return NextDeal(dealer, robre.players if not self.rules.dummy else self.players, self.out(robre), 1, robre)

    def standing(self) -> Standing:
        return replace(super().standing(), robres=tuple(self.finished))

    def snapshot(self) -> dict[str, Any]:
        return super().snapshot() | {
            "robre": None if self.robre is None else self.robre.as_dict(),
            "next_robre": self.next_robre.as_dict(),
            "streak": dict(self.streak),
            "robres": [robre.as_dict() for robre in self.finished],
        }

    def snapshot_keys(self) -> set[str]:
        return super().snapshot_keys() | {"robre", "next_robre", "streak", "robres"}

    def load(self, data: dict[str, Any]) -> None:
        super().load(data)
        self.robre = None if data["robre"] is None else RobreState.from_dict(data["robre"], self.players)
        self.next_robre = RobreState.from_dict(data["next_robre"], self.players)
        self.streak = _by_player(data["streak"], self.players)
        self.finished = [RobreState.from_dict(robre, self.players) for robre in _list(data["robres"])]

    def out(self, robre: RobreState) -> tuple[str, ...]:
        if self.rules.dummy:
            return ()
        return tuple(p for p in self.players if p not in robre.players)

    def start_robre(self, deal: RobreStart) -> None:
        if self.robre is not None and not self.robre.finished:
            raise self.error(gettext_noop("the robre in progress is not finished"), "robre")
        number = len(self.finished) + 1
        if self.rules.dummy:
            if deal.teams is not None or deal.dummy_partner is None:
                raise self.error(gettext_noop("a robre of whist with a dummy names the dummy's partner"), "robre")
            self.next_robre = self.dummy_robre(number, self.known(deal.dummy_partner, "robre"))
            return
        if deal.dummy_partner is not None or deal.teams is None:
            raise self.error(gettext_noop("a robre names its two teams"), "robre")
        teams = deal.teams
        names = [p for team in teams for p in team]
        if len(teams) != 2 or any(len(team) != 2 for team in teams) or len(set(names)) != 4:
            raise self.error(gettext_noop("a robre has two teams of two different players"), "robre")
        for name in names:
            self.known(name, "robre")
        self.next_robre = RobreState(number, (tuple(teams[0]), tuple(teams[1])))

    def dealer_for(self, robre: RobreState, named: str | None) -> str:
        if named is not None:
            self.known(named, "dealer")
            return named
        n = len(self.players)
        for i in range(n):
            candidate = self.players[(self.dealer_seat + i) % n]
            if self.rules.dummy or candidate in robre.players:
                return candidate
        raise AssertionError("a robre always has players")

    def play(self, deal: ClassicDeal | Claim) -> None:
        robre = self.current()
        dealer = self.dealer_for(robre, deal.dealer)
        rules = self.rules
        points, aside, chelems = list(robre.points), list(robre.honours_aside), list(robre.chelems)
        winner = None
        if isinstance(deal, Claim):
            if rules.claim_at is None:
                raise self.error(gettext_noop("a claim at 8 is not part of %(variant)s"), "claim", variant=rules.key)
            if deal.team not in (0, 1):
                raise self.error(gettext_noop("the claiming team is 0 or 1"), "claim")
            if points[deal.team] != rules.claim_at:
                raise self.error(
                    gettext_noop("team %(team)s stands at %(points)s, not %(claim_at)s: it cannot claim"),
                    "claim",
                    team=deal.team,
                    points=points[deal.team],
                    claim_at=rules.claim_at,
                )
            points[deal.team] += rules.claim_points
            winner = deal.team if points[deal.team] >= rules.manche_target else None
        else:
            tricks, honours = self.check_classic(deal)
            if rules.chelem_points is not None and MAX_TRICKS in tricks:
                chelems[tricks.index(MAX_TRICKS)] += rules.chelem_points  # outside the manche
            else:
                trick_points = [max(0, t - rules.book) for t in tricks]
                honour_points = [
                    0 if points[side] in rules.honours_barred_at else rules.honour_score(honours[side])
                    for side in (0, 1)
                ]
                points = [points[s] + trick_points[s] for s in (0, 1)]
                winner = _reached(points, rules.manche_target)
                if not rules.honours_towards_manche:
                    aside = [aside[s] + honour_points[s] for s in (0, 1)]
                elif winner is None:  # tricks are scored before honours
                    points = [points[s] + honour_points[s] for s in (0, 1)]
                    winner = _reached(points, rules.manche_target)
        manches = robre.manches
        if winner is not None:
            manches += (Manche(winner, self.manche_value(winner, points, aside), (points[0], points[1])),)
            points, aside = [0, 0], [0, 0]
        robre = RobreState(
            robre.number,
            robre.teams,
            (points[0], points[1]),
            (aside[0], aside[1]),
            manches,
            (chelems[0], chelems[1]),
            robre.deals + 1,
            dummy_partner=robre.dummy_partner,
        )
        deltas: dict[str, int] = {}
        won = robre.manches_won
        if max(won) >= rules.manches_to_win:
            robre, deltas = self.settle(robre, 0 if won[0] > won[1] else 1)
        self.robre = robre
        if robre.finished:
            for player in self.players:
                self.streak[player] = self.streak[player] + 1 if player in robre.players else 0
            self.finished.append(robre)
            self.next_robre = self.default_robre(robre.number + 1, robre)
        self.record(
            deal,
            deltas,
            dealer=dealer,
            playing=robre.players if not rules.dummy else self.players,
            sitting_out=self.out(robre),
            robre=robre,
            ended_robre=robre.finished,
        )
        self.dealer_seat = (self.seat(dealer) + 1) % len(self.players)

    def manche_value(self, winner: int, points: list[int], aside: list[int]) -> int:
        loser = 1 - winner
        if self.rules.scoring is ClassicScoring.VALUE:
            return self.rules.manche_value(points[loser])
        return (
            points[winner]
            + aside[winner]
            - points[loser]
            - aside[loser]
            + self.rules.manche_base
            + self.rules.manche_value(points[loser])
        )

    def settle(self, robre: RobreState, winner: int) -> tuple[RobreState, dict[str, int]]:
        totals = [
            sum(m.value for m in robre.manches if m.winner == side)
            + robre.chelems[side]
            + (self.rules.robre_bonus if side == winner else 0)
            for side in (0, 1)
        ]
        d = totals[winner] - totals[1 - winner]
        deltas: dict[str, int] = {}
        if self.rules.dummy:
            sign = 1 if winner == 0 else -1
            assert robre.dummy_partner is not None  # every robre of a dummy game has one
            deltas[robre.dummy_partner] = 2 * d * sign
            for other in robre.teams[1]:
                deltas[other] = -d * sign
        else:
            for p in robre.teams[winner]:
                deltas[p] = d
            for p in robre.teams[1 - winner]:
                deltas[p] = -d
        finished = RobreState(
            robre.number,
            robre.teams,
            robre.points,
            robre.honours_aside,
            robre.manches,
            robre.chelems,
            robre.deals,
            winner=winner,
            result=(totals[0], totals[1]),
            dummy_partner=robre.dummy_partner,
        )
        return finished, deltas

    def check_classic(self, deal: ClassicDeal) -> tuple[list[int], list[int]]:
        tricks, honours = list(deal.tricks), list(deal.honours)
        if len(tricks) != 2 or len(honours) != 2:
            raise self.error(gettext_noop("give the tricks and the honours of the two teams"), "tricks")
        for value in tricks + honours:
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise self.error(gettext_noop("tricks and honours are whole numbers, 0 or more"), "tricks")
        if max(tricks) > MAX_TRICKS:
            raise self.error(gettext_noop("%(tricks)s tricks: a deal has only 13"), "tricks", tricks=max(tricks))
        if sum(tricks) != MAX_TRICKS:
            raise self.error(gettext_noop("the tricks add up to %(tricks)s, not 13"), "tricks", tricks=sum(tricks))
        cards = self.rules.honours_cards
        if max(honours) > cards or sum(honours) > cards:
            raise self.error(gettext_noop("there are only %(cards)s honours"), "honours", cards=cards)
        return tricks, honours


def _reached(points: list[int], target: int) -> int | None:
    for side in (0, 1):
        if points[side] >= target:
            return side
    return None
