"""Scoring the contract games (Belgian whist: solo, together, misère, abondance, the bête)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .deals import Adjustment, ContractDeal, Deal, Evening, Pass
from .messages import gettext_noop
from .model import MAX_TRICKS, BeteEnd, Combination, Contract, ContractRules, Trump
from .outcome import NextDeal, Standing
from .scorer import Scorer
from .snapshots import (
    read_bool,
    read_int,
)


class ContractScorer(Scorer):
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

    def next_deal_dealt_by(self, dealer: str) -> NextDeal:
        """The next deal, were it dealt by ``dealer``: who plays it and who sits out (no deal is
        played to know it)."""
        playing = self.default_playing(self.seat(self.known(dealer, "dealer")))
        return replace(self.next_deal(), dealer=dealer, playing=playing, sitting_out=self.out(playing))

    def next_deal_after_all_pass(self) -> NextDeal:
        """The deal after an all pass of the next one: dealt again by the same dealer, counted
        ``all_pass_multiplier`` times when the rules multiply after an all pass."""
        pending = self.double_pending or self.rules.all_pass_multiplier > 1
        return replace(self.next_deal(), multiplier=self.rules.all_pass_multiplier if pending else 1)

    def standing(self) -> Standing:
        end = self.rules.bete.end if self.rules.bete else BeteEnd.SHARE
        return replace(super().standing(), pot=self.pot, bete_end=end)

    def snapshot(self) -> dict[str, Any]:
        return super().snapshot() | {"pot": self.pot, "double_pending": self.double_pending}

    def snapshot_keys(self) -> set[str]:
        return super().snapshot_keys() | {"pot", "double_pending"}

    def load(self, data: dict[str, Any]) -> None:
        super().load(data)
        self.pot = read_int(data["pot"])
        self.double_pending = read_bool(data["double_pending"])

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
