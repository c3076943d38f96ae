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
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass, field, replace
from typing import Any

from django import forms
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _

from scorebook.clubs.models.rules import changed_figures
from scorebook.core.engine_messages import localized, localized_with_path
from scorebook.rules import registry
from scorebook.rules.model import (
    MAX_TRICKS,
    BeteEnd,
    ClassicScoring,
    Combination,
    Contract,
    ContractRules,
    Kind,
    PayoutCells,
    RulesError,
    Ruleset,
    contract_from_dict,
    payout_cells,
    ruleset_from_dict,
    to_dict,
)

CELL_LIMIT = 100_000  # a payout beyond this is a typing slip, not a house rule
FIGURE_LIMIT = 1_000
EXTRA_MANCHE_ROWS = 2  # empty rows offered below the manche-value table
OUTCOMES = ("made", "failed")
SIDES = ("declarer", "opponent")

KIND_LABELS = {
    Kind.PAIR: gettext_lazy("pair"),
    Kind.SOLO: gettext_lazy("solo"),
    Kind.TROU: gettext_lazy("trou (pair)"),
    Kind.MISERE: gettext_lazy("misère"),
    Kind.PICCOLO: gettext_lazy("piccolo"),
}


def rules_version(overrides: dict | None) -> str:
    """A fingerprint of a club's stored overrides: a form saved over other changes is noticed."""
    text = json.dumps(overrides or {}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def cell_layout(contract: Contract, needs: int, needs_if_trump_changed: int | None) -> tuple[PayoutCells, ...]:
    """(tricks, made cell exists, failed cell exists) for 0..13 tricks with the needs being edited:
    the engine's own layout (``payout_cells``), the one its validation requires."""
    return payout_cells(replace(contract, needs=needs, needs_if_trump_changed=needs_if_trump_changed))


def cell_name(contract: str, outcome: str, tricks: int, side: str) -> str:
    return f"contracts.{contract}.{outcome}.{tricks}.{side}"


@dataclass
class Item:
    kind: str  # field, check, taps, row (inputs side by side), points, table (manche values)
    fields: list
    label: str = ""

    @property
    def field(self):
        return self.fields[0] if self.fields else None


@dataclass
class Section:
    legend: str
    items: list[Item]


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


def _int_or_none(raw: Any) -> int | None:
    try:
        return int(str(raw).strip())
    except (TypeError, ValueError):
        return None


class DoublingBox(forms.CheckboxInput):
    """A tick box for a multiplier of 1 or 2: ticked sends 2, unticked 1 (any other figure sent is kept)."""

    def __init__(self):
        super().__init__(check_test=lambda value: str(value) == "2")

    def format_value(self, value):
        return "2"

    def value_from_datadict(self, data, files, name):
        return data.get(name) or "1"


def zero_sum(contract: Contract, players: int = 4) -> bool:
    """Every row pays out exactly what it takes in: the declarers' figures balance the opponents'."""
    return all(
        p.declarer * contract.declarers + p.opponent * (players - contract.declarers) == 0
        for table in (contract.made, contract.failed)
        for p in table.values()
    )


def _per_opponent(payout) -> int:
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

    def cells(self, contract: Contract, layout) -> dict[tuple[str, int], tuple[int, int]]:
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


class HouseRulesForm(forms.Form):
    """Every figure of one variant. ``cleaned_rules`` is the validated ruleset after ``is_valid()``."""

    required_css_class = ""

    def __init__(self, key: str, current: Ruleset, data=None, *, editable: bool = True, open_contract: str = ""):
        super().__init__(data=data)
        self.key = key
        self.current = current
        self.current_dict = to_dict(current)
        self.preset_dict = to_dict(registry.get(key))
        self.editable = editable
        self.open_contract = open_contract
        self.cleaned_rules: Ruleset | None = None
        self.unbalanced: list[str] = []  # contracts no longer zero-sum where the preset is (to confirm)
        self.is_contract = isinstance(current, ContractRules)
        self._manche_rows: list[int] = []
        if self.is_contract:
            self._contract_fields()
        else:
            self._classic_fields()
        if not editable:
            for f in self.fields.values():
                f.disabled = True

    # --- building the fields --------------------------------------------------------

    def _number(
        self,
        name: str,
        label,
        initial,
        *,
        required: bool = True,
        low: int | None = None,
        high: int | None = None,
        help_text="",
        **attrs,
    ) -> None:
        widget_attrs = {"inputmode": "numeric"} if low is not None and low >= 0 else {}
        widget_attrs.update(attrs)
        self.fields[name] = forms.IntegerField(
            label=label,
            initial=initial,
            required=required,
            min_value=low,
            max_value=high,
            help_text=help_text,
            widget=forms.NumberInput(attrs=widget_attrs),
            error_messages={"required": _("Enter a whole number."), "invalid": _("Enter a whole number.")},
        )

    def _submitted_int(
        self, name: str, fallback: int | None, low: int, high: int, *, blank_is_none: bool = False
    ) -> int | None:
        """The layout follows what was submitted (a changed ``needs`` moves the cells), if usable."""
        if not self.is_bound:
            return fallback
        raw = self.data.get(name)
        if raw is None:
            return fallback
        if str(raw).strip() == "":
            return None if blank_is_none else fallback
        value = _int_or_none(raw)
        return value if value is not None and low <= value <= high else fallback

    def _contract_fields(self) -> None:
        rules: ContractRules = self.current  # type: ignore[assignment]
        self.fields["misere_combination"] = forms.ChoiceField(
            label=_("Several misère or piccolo declarers in one deal"),
            choices=[
                (str(Combination.EACH_VS_TABLE), _("each against the table")),
                (str(Combination.FAILURES_PAY_OTHERS), _("failures pay the others")),
            ],
            initial=str(rules.combination),
            help_text=_(
                "Each against the table: every declarer is settled on his own against the three others. "
                "Failures pay the others: each declarer scores his own result, and each player who is not "
                "a declarer receives the opponent figure once per failed declarer."
            ),
        )
        if rules.all_pass_multiplier in (1, 2):
            # the usual choice is yes or no: a tick box (a club with another multiplier keeps the number)
            self.fields["all_pass_multiplier"] = forms.IntegerField(
                label=_("After an all-pass, the next deal counts double"),
                initial=rules.all_pass_multiplier,
                min_value=1,
                max_value=10,
                widget=DoublingBox(),
            )
        else:
            self._number(
                "all_pass_multiplier",
                _("Multiplier of the deal after an all-pass"),
                rules.all_pass_multiplier,
                low=1,
                high=10,
                help_text=_("1: no doubling; 2: the next played deal counts double."),
            )
        if rules.bete is not None:
            self.fields["bete.failure_floor"] = forms.BooleanField(
                label=_("A failure pays at least the contract's value, even into an empty bête"),
                required=False,
                initial=rules.bete.failure_floor,
            )
            self._number(
                "bete.ante",
                _("Ante: jetons the dealer puts in the bête at each deal"),
                rules.bete.ante,
                low=0,
                high=FIGURE_LIMIT,
            )
            self.fields["bete.end"] = forms.ChoiceField(
                label=_("What is left in the bête at the end of the evening"),
                choices=[
                    (str(BeteEnd.SHARE), _("shared equally by the evening's players")),
                    (str(BeteEnd.CARRY), _("carried to the club's next evening")),
                ],
                initial=str(rules.bete.end),
            )
        self._layouts: dict[str, tuple[PayoutCells, ...]] = {}
        for key, contract in rules.contracts.items():
            needs_name = f"contracts.{key}.needs"
            exact = contract.kind.per_declarer
            self._number(
                needs_name,
                _("Tricks needed, exactly, by each declarer") if exact else _("Tricks needed (at least)"),
                contract.needs,
                low=None,
                high=None,
                inputmode="numeric",
            )
            changed = contract.needs_if_trump_changed
            if changed is not None:
                self._number(
                    f"contracts.{key}.needs_if_trump_changed",
                    _("Tricks needed when the trump was changed"),
                    changed,
                    required=False,
                    inputmode="numeric",
                )
            needs = self._submitted_int(needs_name, contract.needs, 0, MAX_TRICKS)
            if changed is not None:
                changed = self._submitted_int(
                    f"contracts.{key}.needs_if_trump_changed", changed, needs, MAX_TRICKS, blank_is_none=True
                )
            layout = cell_layout(contract, needs, changed)
            self._layouts[key] = layout
            for tricks, can_make, can_fail in layout:
                for outcome, exists in (("made", can_make), ("failed", can_fail)):
                    if not exists:
                        continue
                    table = contract.made if outcome == "made" else contract.failed
                    payout = table.get(tricks)
                    for side in SIDES:
                        label = (
                            _("Made with %(tricks)s tricks: %(who)s")
                            if outcome == "made"
                            else _("Failed with %(tricks)s tricks: %(who)s")
                        ) % {"tricks": tricks, "who": _("each declarer") if side == "declarer" else _("each opponent")}
                        self.fields[cell_name(key, outcome, tricks, side)] = forms.IntegerField(
                            label=label,
                            initial=None if payout is None else getattr(payout, side),
                            min_value=-CELL_LIMIT,
                            max_value=CELL_LIMIT,
                            error_messages={
                                "required": _("Enter the figure for %(tricks)s tricks.") % {"tricks": tricks},
                                "invalid": _("Enter a whole number."),
                            },
                        )
            self._schedule_fields(key, contract)
        self.fields["confirm_unbalanced"] = forms.BooleanField(
            label=_("Yes, save a grid that is not zero-sum: the points of a deal will not add up to 0."),
            required=False,
        )

    def _schedule_fields(self, key: str, contract: Contract) -> None:
        """One value (and a step per trick) that fills the contract's whole grid, or its family's."""
        schedule = Schedule.of(contract)
        per = _("each declarer") if contract.declarers == 2 else _("each opponent")
        specs = [
            ("made", _("Made: %(who)s, at the tricks needed") % {"who": per}, schedule.made),
            ("made_step", _("and for each extra trick"), schedule.made_step),
            ("failed", _("Failed: lost by %(who)s, one trick short") % {"who": per}, schedule.failed),
            ("failed_step", _("and for each further trick short"), schedule.failed_step),
        ]
        if contract.exact:
            specs = [
                ("made", _("Made: %(who)s") % {"who": per}, schedule.made),
                ("failed", _("Failed: lost by %(who)s") % {"who": per}, schedule.failed),
            ]
        for name, label, initial in specs:
            self.fields[f"schedule.{key}.{name}"] = forms.IntegerField(
                label=label,
                initial=initial,
                required=False,
                min_value=-CELL_LIMIT,
                max_value=CELL_LIMIT,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                error_messages={"invalid": _("Enter a whole number.")},
            )
        family = [c for c in self.current.contracts.values() if self._family(c) == self._family(contract)]
        choices = [("contract", _("this contract only"))]
        if len(family) > 1:
            choices.append(
                (
                    "family",
                    ngettext(
                        "its family: the %(n)s contract of this kind",
                        "its family: the %(n)s contracts of this kind",
                        len(family),
                    )
                    % {"n": len(family)},
                )
            )
        self.fields[f"schedule.{key}.scope"] = forms.ChoiceField(
            label=_("Apply to"), choices=choices, initial="contract", required=False, widget=forms.RadioSelect
        )

    @staticmethod
    def _family(contract: Contract) -> tuple:
        return (contract.kind, contract.declarers)

    def with_schedule(self, key: str) -> tuple[dict, list[str]]:
        """The submitted figures with the grid of ``key`` (or of its family) filled from its schedule,
        and the contracts filled: what the preview shows before anything is saved."""
        data = self.data.copy()
        rules: ContractRules = self.current  # type: ignore[assignment]
        source = rules.contracts[key]

        def value(name: str, default: int | None) -> int | None:
            raw = self.data.get(f"schedule.{key}.{name}")
            number = _int_or_none(raw)
            return number if number is not None and abs(number) <= CELL_LIMIT else default

        schedule = Schedule(value("made", None), value("made_step", 0), value("failed", None), value("failed_step", 0))
        family = self.data.get(f"schedule.{key}.scope") == "family"
        targets = [
            k for k, c in rules.contracts.items() if k == key or (family and self._family(c) == self._family(source))
        ]
        for target in targets:
            contract = rules.contracts[target]
            needs = self._submitted_int(f"contracts.{target}.needs", contract.needs, 0, MAX_TRICKS)
            contract = replace(contract, needs=needs)
            for (outcome, tricks), figures in schedule.cells(contract, self._layouts[target]).items():
                for side, figure in zip(SIDES, figures, strict=True):
                    data[cell_name(target, outcome, tricks, side)] = str(figure)
            if family and target != key:
                for name in ("made", "made_step", "failed", "failed_step"):
                    if f"schedule.{key}.{name}" in self.data:
                        data[f"schedule.{target}.{name}"] = self.data[f"schedule.{key}.{name}"]
        return data, targets

    def _classic_fields(self) -> None:
        d = self.current_dict
        self._number("manche_target", _("Points to win a manche"), d["manche_target"], low=1, high=100)
        self._number(
            "book",
            _("Tricks in the book"),
            d["book"],
            low=0,
            high=12,
            help_text=_("Each trick beyond these scores one point."),
        )
        self.fields["honours.cards"] = forms.TypedChoiceField(
            label=_("Honour cards in trumps"),
            choices=[(4, _("4: A K Q J")), (5, _("5: A K Q J 10"))],
            coerce=int,
            initial=d["honours"]["cards"],
            widget=forms.RadioSelect,
        )
        points = {int(k): v for k, v in d["honours"]["points"].items()}
        for held in sorted(set(range(3, 6)) | set(points)):
            self._number(
                f"honours.points.{held}",
                _("%(held)s honours held") % {"held": held},
                points.get(held),
                required=False,
                low=0,
                high=100,
            )
        self.fields["honours.towards_manche"] = forms.BooleanField(
            label=_("Honour points count towards the manche"),
            help_text=_("Off: they are kept aside and added when the manche ends (French rules)."),
            required=False,
            initial=d["honours"]["towards_manche"],
        )
        self.fields["honours.barred_at"] = forms.CharField(
            label=_("No honours for a side standing at"),
            help_text=_("Scores separated by commas, e.g. 4; empty: never barred."),
            required=False,
            initial=", ".join(str(v) for v in d["honours"]["barred_at"]),
            widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
        )
        claim = d["claim"]
        self.fields["claim.on"] = forms.BooleanField(
            label=_("A side at a given score may claim the manche by showing honours"),
            required=False,
            initial=claim is not None,
        )
        self._number("claim.at", _("Claim at (points)"), claim["at"] if claim else None, required=False, low=1, high=99)
        self._number(
            "claim.points",
            _("Points scored by the claim"),
            claim["points"] if claim else None,
            required=False,
            low=1,
            high=99,
        )
        self.fields["manche_scoring"] = forms.ChoiceField(
            label=_("How a won manche is valued"),
            choices=[
                (str(ClassicScoring.VALUE), _("by the table of values")),
                (str(ClassicScoring.DIFFERENCE), _("by difference (French)")),
            ],
            initial=d["manche_scoring"],
            help_text=_(
                "By difference: the winners' points minus the losers', plus the manche base, plus the table's value."
            ),
        )
        values = d["manche_values"]
        count = len(values) + EXTRA_MANCHE_ROWS
        if self.is_bound:
            while f"manche_values.{count}.from" in self.data and count < 20:
                count += 1
        for i in range(count):
            given = values[i] if i < len(values) else (None, None)
            self._number(f"manche_values.{i}.from", _("Losers' points from"), given[0], required=False, low=0, high=100)
            self._number(
                f"manche_values.{i}.value", _("Value of the manche"), given[1], required=False, low=0, high=100
            )
        self._manche_count = count
        self._number(
            "manche_base",
            _("Manche base (difference scoring)"),
            d["manche_base"],
            low=0,
            high=100,
            help_text=_("Points for winning the manche, added to the difference."),
        )
        self._number("manches_to_win", _("Manches to win the robre"), d["manches_to_win"], low=1, high=5)
        self._number("robre_bonus", _("Robre bonus"), d["robre_bonus"], low=0, high=100)
        self._number(
            "chelem_points",
            _("Chelem (all 13 tricks), outside the manche"),
            d["chelem_points"],
            required=False,
            low=0,
            high=FIGURE_LIMIT,
            help_text=_("Empty: a chelem scores as any other deal."),
        )

    # --- what the template walks ------------------------------------------------------

    def contracts(self) -> list[ContractBlock]:
        if not self.is_contract:
            return []
        lang = (get_language() or "fr")[:2]
        blocks = []
        current_contracts = self.current_dict["contracts"]
        preset_contracts = self.preset_dict["contracts"]
        for key, contract in self.current.contracts.items():
            rows = []
            preset = preset_contracts.get(key) or {}
            for tricks, can_make, can_fail in self._layouts[key]:
                cells = []
                half = False
                for outcome, exists in (("made", can_make), ("failed", can_fail)):
                    pair = [self[cell_name(key, outcome, tricks, side)] if exists else None for side in SIDES]
                    cells += pair
                    base = (preset.get(outcome) or {}).get(str(tricks))
                    if exists and base is not None:
                        differs = [_int_or_none(f.value()) != b for f, b in zip(pair, base, strict=True)]
                        half = half or differs[0] != differs[1]
                rows.append(Row(tricks, cells, half))
            trump = f"contracts.{key}.needs_if_trump_changed"
            blocks.append(
                ContractBlock(
                    key=key,
                    name=contract.names.get(lang),
                    kind=str(KIND_LABELS[contract.kind]),
                    exact=contract.kind.per_declarer,
                    needs=self[f"contracts.{key}.needs"],
                    trump_changed=self[trump] if trump in self.fields else None,
                    rows=rows,
                    changed=changed_figures(preset_contracts.get(key), current_contracts[key]),
                    schedule=[self[name] for name in self.fields if name.startswith(f"schedule.{key}.")],
                    unbalanced=key in self.unbalanced,
                )
            )
        errors = [b for b in blocks if b.has_errors or b.unbalanced]
        opened = errors[0].key if errors else self.open_contract
        for b in blocks:
            b.open = b.key == opened
        return blocks

    def sections(self) -> list[Section]:
        """The figures outside the payout grids, grouped for the page."""

        def item(kind: str, *names: str) -> Item:
            return Item(kind, [self[name] for name in names])

        if self.is_contract:
            out = [
                Section(
                    _("Whole game"),
                    [
                        item("field", "misere_combination"),
                        item(
                            "check" if isinstance(self.fields["all_pass_multiplier"].widget, DoublingBox) else "field",
                            "all_pass_multiplier",
                        ),
                    ],
                )
            ]
            if "bete.ante" in self.fields:
                out.append(
                    Section(
                        _("The bête"),
                        [item("check", "bete.failure_floor"), item("field", "bete.ante"), item("field", "bete.end")],
                    )
                )
            return out
        points = [name for name in self.fields if name.startswith("honours.points.")]
        return [
            Section(
                _("Manche and robre"),
                [
                    item("row", "manche_target", "book"),
                    item("field", "manche_scoring"),
                    item("table"),
                    item("field", "manche_base"),
                    item("row", "manches_to_win", "robre_bonus"),
                    item("field", "chelem_points"),
                ],
            ),
            Section(
                _("Honours"),
                [
                    item("taps", "honours.cards"),
                    Item("points", [self[name] for name in points], _("Points for the honours held")),
                    item("check", "honours.towards_manche"),
                    item("field", "honours.barred_at"),
                ],
            ),
            Section(
                _("Claiming the manche with honours"),
                [item("check", "claim.on"), item("row", "claim.at", "claim.points")],
            ),
        ]

    def manche_rows(self) -> list[list]:
        return [[self[f"manche_values.{i}.from"], self[f"manche_values.{i}.value"]] for i in range(self._manche_count)]

    def changed_names(self) -> set[str]:
        """The inputs whose figure (as the club has it now) differs from the preset's."""
        if not hasattr(self, "_changed_names"):
            preset = HouseRulesForm(self.key, registry.get(self.key))
            self._changed_names = {
                name
                for name, f in self.fields.items()
                if not name.startswith(("schedule.", "confirm_"))  # tools of the page, not figures
                and (name not in preset.fields or preset.fields[name].initial != f.initial)
            }
        return self._changed_names

    # --- validation ---------------------------------------------------------------------

    def error_field(self, path: str) -> str | None:
        """The input that shows an error about ``path``: itself, else the first input below it, else a parent's."""
        if path.startswith("manche_values.") and self._manche_rows:
            _head, _dot, rest = path.partition(".")
            index, _dot, tail = rest.partition(".")
            if index.isdigit() and int(index) < len(self._manche_rows):
                path = f"manche_values.{self._manche_rows[int(index)]}" + (f".{tail}" if tail else "")
        probe = path
        while probe:
            if probe in self.fields:
                return probe
            below = next((name for name in self.fields if name.startswith(probe + ".")), None)
            if below is not None:
                return below
            probe = probe.rpartition(".")[0]
        return None

    def add_rules_error(self, exc: RulesError) -> None:
        name = self.error_field(exc.path)
        if name is None:
            self.add_error(None, localized_with_path(exc))
        else:
            self.add_error(name, localized(exc))

    def clean(self):
        cleaned = super().clean()
        if not self.editable:
            raise forms.ValidationError(_("Only the club's admins can change its rules."))
        data = copy.deepcopy(self.current_dict)
        if self.is_contract:
            self._build_contract(data, cleaned)
        else:
            self._build_classic(data, cleaned)
        if self.errors:
            return cleaned
        try:
            rules = ruleset_from_dict(data)
            overrides = registry.diff(self.key, rules)
            resolved = registry.resolve(self.key, overrides)
        except RulesError as exc:
            self.add_rules_error(exc)
            return cleaned
        if isinstance(rules, ContractRules) and not cleaned.get("confirm_unbalanced"):
            preset = registry.get(self.key)
            self.unbalanced = [
                key
                for key, contract in rules.contracts.items()
                if key in preset.contracts and zero_sum(preset.contracts[key]) and not zero_sum(contract)
            ]
            for key in self.unbalanced:
                contract = rules.contracts[key]
                outcome, tricks, payout = next(
                    (o, t, p)
                    for o, table in (("made", contract.made), ("failed", contract.failed))
                    for t, p in sorted(table.items())
                    if p.declarer * contract.declarers + p.opponent * (4 - contract.declarers) != 0
                )
                won = payout.declarer * contract.declarers
                paid = -payout.opponent * (4 - contract.declarers)
                self.add_error(
                    cell_name(key, outcome, tricks, "declarer"),
                    _(
                        "Not zero-sum: with %(tricks)s tricks the declarers get %(won)s in all and the opponents "
                        "pay %(paid)s in all. The preset balances every row."
                    )
                    % {"tricks": tricks, "won": won, "paid": paid},
                )
            if self.unbalanced:
                self.add_error(
                    "confirm_unbalanced",
                    _("Correct the figures marked, or tick this box to save the grid as it is."),
                )
                return cleaned
        if to_dict(resolved) != to_dict(rules):  # pragma: no cover - diff and merge are each other's inverse
            raise forms.ValidationError(_("These rules cannot be stored as changes to the preset."))
        self.cleaned_rules = rules
        self.cleaned_overrides = overrides
        return cleaned

    def _build_contract(self, data: dict, cleaned: dict) -> None:
        data["misere_combination"] = cleaned.get("misere_combination")
        data["all_pass_multiplier"] = cleaned.get("all_pass_multiplier")
        if data.get("bete") is not None:
            data["bete"] = {
                "failure_floor": bool(cleaned.get("bete.failure_floor")),
                "ante": cleaned.get("bete.ante"),
                "end": cleaned.get("bete.end"),
            }
        for key, layout in self._layouts.items():
            c = data["contracts"][key]
            c["needs"] = cleaned.get(f"contracts.{key}.needs")
            trump = f"contracts.{key}.needs_if_trump_changed"
            if trump in self.fields:
                c["needs_if_trump_changed"] = cleaned.get(trump)
            ok = True
            for outcome in OUTCOMES:
                table = {}
                for tricks, can_make, can_fail in layout:
                    if not (can_make if outcome == "made" else can_fail):
                        continue
                    figures = [cleaned.get(cell_name(key, outcome, tricks, side)) for side in SIDES]
                    if None in figures:
                        ok = False
                        continue
                    table[str(tricks)] = figures
                c[outcome] = table
            if ok and c["needs"] is not None:
                # one error per contract at once, rather than one for the whole form
                try:
                    contract_from_dict(key, c, f"contracts.{key}")
                except RulesError as exc:
                    self.add_rules_error(exc)

    def _build_classic(self, data: dict, cleaned: dict) -> None:
        for name in (
            "manche_target",
            "book",
            "manche_scoring",
            "manche_base",
            "manches_to_win",
            "robre_bonus",
            "chelem_points",
        ):
            data[name] = cleaned.get(name)
        honours = data["honours"]
        honours["cards"] = cleaned.get("honours.cards")
        honours["towards_manche"] = bool(cleaned.get("honours.towards_manche"))
        honours["points"] = {
            name.rpartition(".")[2]: cleaned[name]
            for name in self.fields
            if name.startswith("honours.points.") and cleaned.get(name) is not None
        }
        barred = []
        for part in (cleaned.get("honours.barred_at") or "").replace(";", ",").split(","):
            if not part.strip():
                continue
            value = _int_or_none(part)
            if value is None or not 0 <= value <= 100:
                self.add_error("honours.barred_at", _("Give whole scores from 0 to 100, separated by commas."))
                break
            barred.append(value)
        honours["barred_at"] = sorted(set(barred))
        if cleaned.get("claim.on"):
            for name in ("claim.at", "claim.points"):
                if cleaned.get(name) is None and name not in self.errors:
                    self.add_error(name, _("Enter a whole number, or turn the claim off."))
            data["claim"] = {"at": cleaned.get("claim.at"), "points": cleaned.get("claim.points")}
        else:
            data["claim"] = None
        rows = []
        self._manche_rows = []
        for i in range(self._manche_count):
            low, value = cleaned.get(f"manche_values.{i}.from"), cleaned.get(f"manche_values.{i}.value")
            if low is None and value is None:
                continue
            if low is None or value is None:
                missing = f"manche_values.{i}.from" if low is None else f"manche_values.{i}.value"
                if missing not in self.errors:
                    self.add_error(missing, _("Fill in both figures of the row, or neither."))
                continue
            self._manche_rows.append(i)
            rows.append([low, value])
        data["manche_values"] = rows
        if not rows and not any(k.startswith("manche_values.") for k in self.errors):
            self.add_error("manche_values.0.from", _("The table needs at least one row, starting at 0."))
