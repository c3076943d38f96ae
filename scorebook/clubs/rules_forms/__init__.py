"""The house-rules editor: one input per figure of a variant, built from the rules as data.

Every input is named after the key it fills in the rules' dict shape
(``scorebook.rules.model.to_dict``), so that a ``RulesError`` naming a path such as
``contracts.samen-8.made.9`` lands on the input that holds it:

- a payout cell: ``contracts.<key>.made.<tricks>.declarer`` (and ``.opponent``);
- a contract's needs: ``contracts.<key>.needs``;
- the other figures: their path, e.g. ``all_pass_multiplier``, ``bete.ante``,
  ``honours.points.3``, ``claim.at``, ``manche_values.1.from``.

An error about a whole row (``contracts.k.made.9``) or a whole object goes on the first
input below that path. The form keeps everything that is not a figure (names, kinds,
declarers) from the club's current rules.

By what they edit:

- ``base``: what every form shares (figure inputs, errors placed by path, validation into
  a ruleset and the club's overrides);
- ``contract``: a contract game's whole-game figures, the bête, needs and payout grids;
- ``grid``: a payout grid's cells, rows and blocks, and the schedule that fills one;
- ``classic``: classic whist's manche, robre, manche values, honours and claim.
"""

from __future__ import annotations

from typing import Any

from scorebook.rules.model import ContractRules, Ruleset

from .base import HouseRulesForm
from .classic import ClassicRulesForm
from .contract import ContractRulesForm
from .grid import OUTCOMES, SIDES, cell_name

__all__ = [
    "OUTCOMES",
    "SIDES",
    "ClassicRulesForm",
    "ContractRulesForm",
    "HouseRulesForm",
    "cell_name",
    "house_rules_form",
]


def house_rules_form(key: str, current: Ruleset, data: Any = None, **options: Any) -> HouseRulesForm:
    """The editor of every figure of ``current`` (the club's rules of preset ``key``)."""
    form_class = ContractRulesForm if isinstance(current, ContractRules) else ClassicRulesForm
    return form_class(key, current, data, **options)
