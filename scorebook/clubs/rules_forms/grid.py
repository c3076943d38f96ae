"""A contract's payout grid on the page: which cells exist, their input names, the rows and blocks the
template walks, and the schedule (one value and a step per trick) that fills a whole grid."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from django.utils.translation import gettext_lazy

from scorebook.rules.model import Contract, Kind, Payout, PayoutCells, payout_cells

CELL_LIMIT = 100_000  # a payout beyond this is a typing slip, not a house rule
OUTCOMES = ("made", "failed")
SIDES = ("declarer", "opponent")

KIND_LABELS = {
    Kind.PAIR: gettext_lazy("pair"),
    Kind.SOLO: gettext_lazy("solo"),
    Kind.TROU: gettext_lazy("trou (pair)"),
    Kind.MISERE: gettext_lazy("misère"),
    Kind.PICCOLO: gettext_lazy("piccolo"),
}


def cell_layout(contract: Contract, needs: int, needs_if_trump_changed: int | None) -> tuple[PayoutCells, ...]:
    """(tricks, made cell exists, failed cell exists) for 0..13 tricks with the needs being edited:
    the engine's own layout (``payout_cells``), the one its validation requires."""
    return payout_cells(replace(contract, needs=needs, needs_if_trump_changed=needs_if_trump_changed))


def cell_name(contract: str, outcome: str, tricks: int, side: str) -> str:
    return f"contracts.{contract}.{outcome}.{tricks}.{side}"


def zero_sum(contract: Contract, players: int = 4) -> bool:
    """Every row pays out exactly what it takes in: the declarers' figures balance the opponents'."""
    return all(
        p.declarer * contract.declarers + p.opponent * (players - contract.declarers) == 0
        for table in (contract.made, contract.failed)
        for p in table.values()
    )


@dataclass
class Row:
    tricks: int
    cells: list  # four BoundFields or None: made declarer, made opponent, failed declarer, failed opponent
    half: bool = False  # one figure of an outcome differs from the preset, the other not: half edited

    @property
    def errors(self) -> list:
        return [cell for cell in self.cells if cell is not None and cell.errors]


@dataclass
class ContractBlock:
    key: str
    name: str
    kind: str
    exact: bool
    needs: Any  # BoundField
    trump_changed: Any  # BoundField or None
    rows: list[Row] = field(default_factory=list)
    changed: int = 0
    open: bool = False
    schedule: list = field(default_factory=list)  # the schedule's BoundFields
    unbalanced: bool = False  # not zero-sum where the preset is

    @property
    def half_rows(self) -> int:
        return sum(r.half for r in self.rows)

    @property
    def bound_fields(self) -> list:
        out = [self.needs] + ([self.trump_changed] if self.trump_changed is not None else [])
        return out + [cell for row in self.rows for cell in row.cells if cell is not None]

    @property
    def has_errors(self) -> bool:
        return any(f.errors for f in self.bound_fields)


def _per_opponent(payout: Payout) -> int:
    """The figure a schedule speaks in: what each opponent pays (a pair's declarer wins the same)."""
    return -payout.opponent


@dataclass
class Schedule:
    """A contract's figures as its presets declare them (``rules/presets/_build.py``): the value made
    at the tricks needed and a step per extra trick, the value lost one trick short and a step per
    trick missing; per opponent (a pair's declarers each win it, a lone declarer three times)."""

    made: int | None
    made_step: int
    failed: int | None
    failed_step: int

    @classmethod
    def of(cls, contract: Contract) -> Schedule:
        base = contract.needs * 2 if contract.exact and contract.declarers == 2 else contract.needs
        made = contract.made.get(base)
        above = contract.made.get(base + 1)
        failed = contract.failed.get(base - 1) or next(iter(contract.failed.values()), None)
        below = contract.failed.get(base - 2)
        return cls(
            made=_per_opponent(made) if made else None,
            made_step=_per_opponent(above) - _per_opponent(made) if made and above and not contract.exact else 0,
            failed=-_per_opponent(failed) if failed else None,
            failed_step=(-_per_opponent(below)) - (-_per_opponent(failed))
            if failed and below and not contract.exact
            else 0,
        )

    def cells(self, contract: Contract, layout: tuple[PayoutCells, ...]) -> dict[tuple[str, int], tuple[int, int]]:
        """(outcome, tricks) -> (declarer, opponent) for every cell of ``layout``."""
        base = contract.needs * 2 if contract.exact and contract.declarers == 2 else contract.needs

        def side(value: int) -> tuple[int, int]:
            return (value, -value) if contract.declarers == 2 else (3 * value, -value)

        out = {}
        for tricks, can_make, can_fail in layout:
            if can_make and self.made is not None:
                extra = 0 if contract.exact else max(0, tricks - base)
                out[("made", tricks)] = side(self.made + self.made_step * extra)
            if can_fail and self.failed is not None:
                missing = 0 if contract.exact else max(0, base - 1 - tricks)
                out[("failed", tricks)] = side(-(self.failed + self.failed_step * missing))
        return out
