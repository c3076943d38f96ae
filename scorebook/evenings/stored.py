"""The evening as stored, read back for the pages: never a write, and no scoring of its deals.

Every write keeps, in its transaction, the engine's state after the evening's last deal in the
evening's row (``Evening.state``: the version it was written at and ``Scorer.snapshot()``) and,
on each deal's row, that deal's result (``Deal.result``) and the state after it (``Deal.state``).
``read_sheet`` gives a page what it shows from those: the standing after the last deal, the
state to take one more (who deals next after a pass...), and the last deals' results.

An evening whose stored state is missing or behind its version (written by an older release, or
loaded in bulk) is scored from its deals in memory, and nothing is written: the next write, or
``manage.py refresh_summaries``, stores it (``services.rebuild``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from typing import Any

from scorebook.rules import evening_file, registry
from scorebook.rules.deals import ContractDeal
from scorebook.rules.deals import Evening as EngineEvening
from scorebook.rules.model import Ruleset
from scorebook.rules.scoring import DealResult, EveningResult, Scorer, SnapshotError, Standing, restore, scorer

from .models import Deal, Evening


def players_of(evening: Evening) -> list[str]:
    return [seat.name for seat in evening.seats.all()]


def rules_of(evening: Evening) -> Ruleset:
    """The evening's rules, from its stored copy."""
    return registry.resolve(evening.ruleset, evening.rules)


def file_dict(
    evening: Evening, deal_data: list[dict] | None = None, *, full_rules: bool = True, players: list[str] | None = None
) -> dict[str, Any]:
    """The evening in the evening-file shape; ``full_rules`` keeps the whole copy of the rules.
    ``players``: the names at its table, when its seats are not written yet."""
    players = players_of(evening) if players is None else players
    if deal_data is None:
        deal_data = [d.data for d in evening.deals.all()]
    rules = evening.rules if full_rules else registry.diff(evening.ruleset, rules_of(evening))
    out = {
        "format": evening_file.FORMAT,
        "ruleset": evening.ruleset,
        "rules": rules,
        "date": evening.date.isoformat(),
        "players": players,
        "first_dealer": players[evening.first_dealer],
        "deals": deal_data,
    }
    if evening.stake is not None:
        out["stake"] = _stake_text(evening.stake)
        out["currency"] = evening.currency
    return out


def _stake_text(stake: Decimal) -> str:
    text = format(stake, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def engine_evening(evening: Evening, deal_data: list[dict] | None = None) -> EngineEvening:
    return evening_file.from_dict(file_dict(evening, deal_data))


def table_of(evening: Evening) -> EngineEvening:
    """The engine's evening without its deals: the rules, the players, the first dealer."""
    return engine_evening(evening, [])


# --- scored from the deals (a rebuild, a fallback, a check) -----------------------------------


class Scored:
    """An evening scored by the engine from its deals: the engine's state (which can take
    one more deal), its result, and the stored deals in order (their ids for the pages)."""

    def __init__(self, state: Scorer, deals: list[Deal] | None = None):
        self.state = state
        self.deals = deals or []

    @property
    def engine(self) -> EngineEvening:
        return self.state.evening

    @cached_property
    def result(self) -> EveningResult:
        return self.state.result()


def scored(evening: Evening) -> Scored:
    """The evening scored from its stored deals (two queries: the seats, the deals)."""
    deals = list(evening.deals.all())
    return Scored(scorer(engine_evening(evening, [d.data for d in deals])), deals)


def check(evening: Evening, deal_data: list[dict]) -> Scored:
    """Score a candidate list of deals; raises DealError or FileError naming the deal."""
    return Scored(scorer(engine_evening(evening, deal_data)))


# --- read back from what the writes stored -------------------------------------------------------


def state_of(evening: Evening, table: EngineEvening) -> Scorer | None:
    """The engine's state after the evening's last deal as the evening's row keeps it; None when the
    row keeps none for its current version (the evening must be scored from its deals)."""
    stored = evening.state or {}
    if stored.get("version") != evening.version:
        return None
    try:
        return restore(table, stored.get("engine"))
    except SnapshotError:
        return None


def result_of(deal: Deal, table: EngineEvening) -> DealResult | None:
    """The result a deal's row keeps (None when it keeps none that fits the table)."""
    if deal.result is None:
        return None
    try:
        return DealResult.from_dict(
            deal.number, evening_file.parse_deal(deal.data, table, deal.number), deal.result, table.players
        )
    except (SnapshotError, evening_file.FileError):
        return None


@dataclass(frozen=True)
class Sheet:
    """An evening as its pages show it: where it stands after its last deal (``standing``, and
    ``state`` to take one more), its last deals' results (``lines``, oldest first, with their stored
    rows ``deals``) and the line before them (``before``: a classic row says whether the deal won
    a manche by comparing with it), and how often each contract was played (``contracts``)."""

    table: EngineEvening
    state: Scorer
    standing: Standing
    lines: list[DealResult]
    deals: list[Deal]
    before: DealResult | None
    contracts: Counter

    @property
    def hidden(self) -> int:
        """The deals before the lines shown."""
        return self.standing.number - len(self.lines)

    def running(self) -> list[dict[str, int]]:
        """The totals after each line (for the chart: the evening read with all its deals)."""
        totals = dict(self.before_totals())
        out = []
        for line in self.lines:
            for player, delta in line.deltas.items():
                totals[player] += delta
            out.append(dict(totals))
        return out

    def before_totals(self) -> dict[str, int]:
        """The totals before the first line shown."""
        totals = dict(self.standing.totals)
        for line in self.lines:
            for player, delta in line.deltas.items():
                totals[player] -= delta
        return totals


LINE_FIELDS = ("pk", "number", "data", "result", "version", "evening_id")


def read_sheet(evening: Evening, last: int | None = None) -> Sheet:
    """The evening's sheet with its ``last`` deals (all when None), read from what the writes stored
    (the evening's row and the last deals' rows: one query besides the evening and its seats);
    scored from its deals in memory when they stored nothing for its version (nothing is written)."""
    table = table_of(evening)
    state = state_of(evening, table)
    if state is not None:
        newest = Deal.objects.filter(evening=evening).only(*LINE_FIELDS).order_by("-number")
        rows = list(newest if last is None else newest[: last + 1])[::-1]
        found = [result_of(row, table) for row in rows]
        results = [r for r in found if r is not None]
        numbers = [row.number for row in rows]
        count = state.number
        if len(results) == len(found) and numbers == list(range(count - len(rows) + 1, count + 1)):
            shown = rows if last is None else rows[-last:] if last else []
            before = None if len(shown) == len(rows) else results[0]
            contracts = Counter((evening.summary or {}).get("contracts") or {})
            return Sheet(table, state, state.standing(), results[len(rows) - len(shown) :], shown, before, contracts)
    return _scored_sheet(evening, last)


def _scored_sheet(evening: Evening, last: int | None) -> Sheet:
    s = scored(evening)
    result = s.result
    start = 0 if last is None else max(len(result.deals) - last, 0)
    contracts = Counter(d.deal.contract for d in result.deals if isinstance(d.deal, ContractDeal))
    before = result.deals[start - 1] if start else None
    return Sheet(
        table_of(evening), s.state, s.state.standing(), list(result.deals[start:]), s.deals[start:], before, contracts
    )
