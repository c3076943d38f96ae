"""The engine's input: an evening and its deals, as small immutable records."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from .model import Ruleset, Trump


@dataclass(frozen=True)
class ContractDeal:
    """One contract played (contract games)."""

    contract: str
    declarers: tuple[str, ...]
    tricks: int | Mapping[str, int]  # the side's tricks, or per declarer for misère and piccolo
    dealer: str | None = None
    playing: tuple[str, ...] | None = None
    trump: Trump | None = None
    trump_changed: bool = False
    exposed_fault: str | None = None


@dataclass(frozen=True)
class Pass:
    """Everyone passed: the same dealer deals again."""

    dealer: str | None = None
    playing: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Adjustment:
    """Explicit points per player, with a reason (a revoke, a misdeal fine, a correction)."""

    points: Mapping[str, int]
    note: str = ""


@dataclass(frozen=True)
class RobreStart:
    """Classic games: a new robre with its teams (or, for ``mort``, the dummy's partner)."""

    teams: tuple[tuple[str, str], tuple[str, str]] | None = None
    dummy_partner: str | None = None


@dataclass(frozen=True)
class ClassicDeal:
    """Classic games: the tricks won by team 0 and team 1 and the honours each held."""

    tricks: tuple[int, int]
    honours: tuple[int, int] = (0, 0)
    dealer: str | None = None


@dataclass(frozen=True)
class Claim:
    """Classic games: a side standing at 8 shows its honours and takes the manche."""

    team: int
    dealer: str | None = None


Deal = ContractDeal | Pass | Adjustment | RobreStart | ClassicDeal | Claim


@dataclass(frozen=True)
class Evening:
    rules: Ruleset
    players: tuple[str, ...]
    first_dealer: str
    deals: tuple[Deal, ...] = ()
    stake: Decimal | None = None
    currency: str = "EUR"
    date: date | None = None
    overrides: Mapping[str, Any] = field(default_factory=dict)  # the house rules as given, for export

    @property
    def ruleset(self) -> str:
        return self.rules.key
