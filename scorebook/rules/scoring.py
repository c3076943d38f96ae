"""Scoring an evening: deals in, per-deal deltas, running totals, the bête and the robres out.

``score(evening)`` validates every deal as it goes (who deals, who sits out, how many
tricks) and raises ``DealError`` naming the deal number and the cause.

A ``Scorer`` is the evening's state after its last deal. ``Scorer.snapshot()`` gives that state
as JSON-ready data and ``restore(evening, snapshot)`` a scorer at that state without its deals,
so that ``restore(evening, s.snapshot()).then(deal)`` scores ``deal`` exactly as scoring every
deal again would: what lets a scorebook store the state after each deal and score the next one
alone. ``DealResult.as_dict()`` / ``DealResult.from_dict()`` do the same for one deal's result.

The engine's parts: ``outcome`` (results as data), ``scorer`` (the state shared by both
families), ``contract_scorer`` and ``classic_scorer`` (the two families' rules),
``snapshots`` (reading stored data back). This module is the engine's entry: the names below
are what the rest of the site imports.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .classic_scorer import ClassicScorer
from .contract_scorer import ContractScorer
from .deals import Evening
from .model import ContractRules
from .outcome import BETE, DealResult, EveningResult, Manche, NextDeal, RobreState, Standing
from .scorer import DealError, Scorer
from .snapshots import SnapshotError, read_keys

__all__ = [
    "BETE",
    "DealError",
    "DealResult",
    "EveningResult",
    "Manche",
    "NextDeal",
    "RobreState",
    "Scorer",
    "SnapshotError",
    "Standing",
    "restore",
    "score",
    "scorer",
]


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
    s.load(read_keys(snapshot, s.snapshot_keys()))
    return s


def _start(evening: Evening) -> Scorer:
    return ContractScorer(evening) if isinstance(evening.rules, ContractRules) else ClassicScorer(evening)
