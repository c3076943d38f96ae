"""Scoring the classic games (French whist and its kin: tricks, honours, manches and robres)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Self

from .deals import Adjustment, Claim, ClassicDeal, Deal, Evening, RobreStart
from .messages import gettext_noop
from .model import MAX_TRICKS, ClassicRules, ClassicScoring
from .outcome import Manche, NextDeal, RobreState, Standing
from .scorer import Scorer
from .snapshots import (
    read_by_player,
    read_list,
)


class ClassicScorer(Scorer):
    rules: ClassicRules

    def __init__(self, evening: Evening):
        super().__init__(evening)
        self.robre: RobreState | None = None
        self.streak = dict.fromkeys(self.players, 0)  # robres played in a row
        self.next_robre: RobreState = self.default_robre(1, None)
        self.finished: list[RobreState] = []

    def default_robre(self, number: int, previous: RobreState | None) -> RobreState:
        """The next robre when the scorer names none (docs/rules/classique.md).

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
        self.streak = read_by_player(data["streak"], self.players)
        self.finished = [RobreState.from_dict(robre, self.players) for robre in read_list(data["robres"])]

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
        if isinstance(deal, Claim):
            points, winner = self._claimed(deal, points)
        else:
            points, aside, winner = self._scored(deal, points, aside, chelems)
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

    def _claimed(self, deal: Claim, points: list[int]) -> tuple[list[int], int | None]:
        """A side at the claim's score claims the manche by showing its honours: its points after the
        claim, and the side that won the manche by it (None: not yet)."""
        rules = self.rules
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
        return points, deal.team if points[deal.team] >= rules.manche_target else None

    def _scored(
        self, deal: ClassicDeal, points: list[int], aside: list[int], chelems: list[int]
    ) -> tuple[list[int], list[int], int | None]:
        """A deal's tricks and honours on the manche under way: the points after it, the honours kept
        aside, and the side that won the manche (None: not yet). A chelem scored outside the manche
        goes to ``chelems``."""
        rules = self.rules
        tricks, honours = self.check_classic(deal)
        if rules.chelem_points is not None and MAX_TRICKS in tricks:
            chelems[tricks.index(MAX_TRICKS)] += rules.chelem_points  # outside the manche
            return points, aside, None
        trick_points = [max(0, t - rules.book) for t in tricks]
        honour_points = [
            0 if points[side] in rules.honours_barred_at else rules.honour_score(honours[side]) for side in (0, 1)
        ]
        points = [points[s] + trick_points[s] for s in (0, 1)]
        winner = _reached(points, rules.manche_target)
        if not rules.honours_towards_manche:
            aside = [aside[s] + honour_points[s] for s in (0, 1)]
        elif winner is None:  # tricks are scored before honours
            points = [points[s] + honour_points[s] for s in (0, 1)]
            winner = _reached(points, rules.manche_target)
        return points, aside, winner

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
