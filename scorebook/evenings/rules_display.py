"""Which rules an evening was played with: the preset, the house-rule differences in a few words,
and the full grid as played (the evening's own copy of its rules, never the club's current ones).

Presentation only: the figures come from the stored copy (``stored.rules_of``) and the
preset (``registry``); the differences from ``registry.diff``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scorebook.clubs.models.rules import changed_figures
from scorebook.core.formatting import lang, signed_points
from scorebook.rules import registry
from scorebook.rules.model import ContractRules, Payout, Ruleset, payout_cells, to_dict

SHOWN_DIFFERENCES = 4  # the short list; the rules page shows every figure


def _classic_labels() -> dict[str, str]:
    return {
        "manche_target": _("Points to win a manche"),
        "book": _("Tricks in the book"),
        "manche_scoring": _("How a won manche is valued"),
        "manche_values": _("Values of the manche"),
        "manche_base": _("Manche base (difference scoring)"),
        "manches_to_win": _("Manches to win the robre"),
        "robre_bonus": _("Robre bonus"),
        "chelem_points": _("Chelem (all 13 tricks), outside the manche"),
        "honours": _("Honours"),
        "claim": _("Claiming the manche with honours"),
    }


@dataclass
class RulesSummary:
    key: str
    preset: str  # the preset's name in the reader's language
    differences: list[str] = field(default_factory=list)
    origin: str = ""  # Evening.rules_from: "" as started, "club" or "file" for an imported evening

    @property
    def origin_label(self) -> str:
        """Where the rules of an imported evening came from, in a few words ("": as it started)."""
        return {"club": _("the club's house rules"), "file": _("the rules of the imported file")}.get(self.origin, "")

    @property
    def changed(self) -> bool:
        return bool(self.differences)

    @property
    def short(self) -> list[str]:
        return self.differences[:SHOWN_DIFFERENCES]

    @property
    def more(self) -> int:
        return max(0, len(self.differences) - SHOWN_DIFFERENCES)


def differences(key: str, rules: Ruleset) -> list[str]:
    """The house-rule differences from the preset, one short line each."""
    diff = registry.diff(key, rules)
    preset = to_dict(registry.get(key))
    played = to_dict(rules)
    out = []
    if "all_pass_multiplier" in diff:
        n = played["all_pass_multiplier"]
        out.append(
            _("No doubling after an all-pass")
            if n == 1
            else _("After an all-pass the next deal counts ×%(n)s") % {"n": n}
        )
    if "misere_combination" in diff:
        out.append(
            _("Several misère declarers: each against the table")
            if played["misere_combination"] == "each-vs-table"
            else _("Several misère declarers: failures pay the others")
        )
    if "bete" in diff:
        n = changed_figures(preset.get("bete"), played.get("bete"))
        out.append(ngettext("The bête: %(n)s setting changed", "The bête: %(n)s settings changed", n) % {"n": n})
    out += _contract_lines(key, rules, diff.get("contracts") or {}, preset, played)
    out += _classic_lines(diff, preset, played)
    if "players" in diff:
        low, high = played["players"]["min"], played["players"]["max"]
        out.append(
            ngettext("Played by %(n)s player", "Played by %(n)s players", low) % {"n": low}
            if low == high
            else _("Played by %(low)s to %(high)s players") % {"low": low, "high": high}
        )
    return out


def _contract_lines(key: str, rules: Ruleset, changed: dict, preset: dict, played: dict) -> list[str]:
    """A line for each contract the house rules change: its needs when they moved, else how many
    of its figures changed."""
    code, out = lang(), []
    for contract_key in changed:
        contract = rules.contracts[contract_key]  # type: ignore[union-attr]
        n = changed_figures(preset["contracts"].get(contract_key), played["contracts"][contract_key])
        name = contract.names.get(code)
        base = registry.get(key).contracts.get(contract_key)  # type: ignore[union-attr]
        if base is not None and base.needs != contract.needs:
            out.append(
                ngettext(
                    "%(contract)s: %(tricks)s trick needed (preset: %(preset)s)",
                    "%(contract)s: %(tricks)s tricks needed (preset: %(preset)s)",
                    contract.needs,
                )
                % {"contract": name, "tricks": contract.needs, "preset": base.needs}
            )
        else:
            out.append(
                ngettext("%(contract)s: %(n)s figure changed", "%(contract)s: %(n)s figures changed", n)
                % {"contract": name, "n": n}
            )
    return out


def _classic_lines(diff: dict, preset: dict, played: dict) -> list[str]:
    """A line for each classic figure the house rules change: its value beside the preset's, or how
    many of its figures changed."""
    out = []
    for name, label in _classic_labels().items():
        if name in diff:
            n = changed_figures(preset.get(name), played.get(name))
            if isinstance(played.get(name), int) and isinstance(preset.get(name), int):
                out.append(
                    _("%(what)s: %(value)s (preset: %(preset)s)")
                    % {"what": label, "value": played[name], "preset": preset[name]}
                )
            else:
                out.append(
                    ngettext("%(what)s: %(n)s figure changed", "%(what)s: %(n)s figures changed", n)
                    % {"what": label, "n": n}
                )
    return out


def summary(key: str, rules: Ruleset, origin: str = "") -> RulesSummary:
    """``origin``: the evening's ``rules_from`` (which rules an imported evening was scored with)."""
    return RulesSummary(key, registry.get(key).names.get(lang()), differences(key, rules), origin)


# --- the full grid --------------------------------------------------------------------------------


@dataclass
class Cell:
    text: str
    changed: bool


@dataclass
class GridRow:
    tricks: int
    made: list[Cell] | None  # declarer, opponent; None: the contract cannot be made with these tricks
    failed: list[Cell] | None


@dataclass
class ContractGrid:
    key: str
    name: str
    needs: int
    exact: bool
    changed: bool
    rows: list[GridRow]


def _cells(payout: Payout, base: Payout | None) -> list[Cell]:
    return [
        Cell(signed_points(payout.declarer), base is None or base.declarer != payout.declarer),
        Cell(signed_points(payout.opponent), base is None or base.opponent != payout.opponent),
    ]


def contract_grids(key: str, rules: Ruleset) -> list[ContractGrid]:
    """Each contract's payout table as played, the figures that differ from the preset marked."""
    if not isinstance(rules, ContractRules):
        return []
    preset = registry.get(key)
    code = lang()
    grids = []
    for contract_key, contract in rules.contracts.items():
        base = preset.contracts.get(contract_key)  # type: ignore[union-attr]
        rows = []
        for tricks, can_make, can_fail in payout_cells(contract):
            made = contract.made.get(tricks) if can_make else None
            failed = contract.failed.get(tricks) if can_fail else None
            rows.append(
                GridRow(
                    tricks,
                    _cells(made, base.made.get(tricks) if base else None) if made else None,
                    _cells(failed, base.failed.get(tricks) if base else None) if failed else None,
                )
            )
        grids.append(
            ContractGrid(
                contract_key,
                contract.names.get(code),
                contract.needs,
                contract.exact,
                any(c.changed for r in rows for c in (r.made or []) + (r.failed or [])),
                rows,
            )
        )
    return grids


def classic_figures(key: str, rules: Ruleset) -> list[dict[str, Any]]:
    """The figures of a classic variant as played: label, value, changed."""
    if isinstance(rules, ContractRules):
        return []
    played, preset = to_dict(rules), to_dict(registry.get(key))
    out = []
    for name, label in _classic_labels().items():
        value: Any = played.get(name)
        if name == "honours":
            text = ", ".join(f"{k}: {v}" for k, v in value["points"].items())
        elif name == "claim":
            text = "–" if value is None else f"{value['at']} → {value['points']}"
        elif name == "manche_scoring":
            text = _("by the table of values") if value == "value" else _("by difference (French)")
        elif name == "manche_values":
            text = ", ".join(f"{a}+ → {b}" for a, b in value)
        else:
            text = "–" if value is None else str(value)
        out.append({"label": label, "text": text, "changed": value != preset.get(name)})
    return out
