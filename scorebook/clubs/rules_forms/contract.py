"""The house rules of a contract game (kleurenwiezen, liège, gand, enchères): the figures of the whole
game (several misère declarers, the deal after an all-pass), the bête, and each contract's needs and
payout grid, with the schedule that fills a grid from one value and a step per trick."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, overload

from django import forms
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from scorebook.clubs.models.rules import changed_figures
from scorebook.core import cleaning
from scorebook.core.forms import ChoiceRows
from scorebook.rules import registry
from scorebook.rules.model import (
    MAX_TRICKS,
    Bete,
    BeteEnd,
    Combination,
    Contract,
    ContractRules,
    PayoutCells,
    RulesError,
    Ruleset,
)
from scorebook.rules.reading import contract_from_dict

from .base import FIGURE_LIMIT, HouseRulesForm, Section, int_or_none
from .grid import (
    CELL_LIMIT,
    KIND_LABELS,
    OUTCOMES,
    SIDES,
    ContractBlock,
    Row,
    Schedule,
    cell_layout,
    cell_name,
    zero_sum,
)


class DoublingBox(forms.CheckboxInput):
    """A tick box for a multiplier of 1 or 2: ticked sends 2, unticked 1 (any other figure sent is kept)."""

    def __init__(self) -> None:
        super().__init__(check_test=lambda value: str(value) == "2")

    def format_value(self, value: object) -> str:
        return "2"

    def value_from_datadict(self, data: Any, files: Any, name: str) -> Any:
        return data.get(name) or "1"


class ContractRulesForm(HouseRulesForm):
    """Every figure of a contract game."""

    current: ContractRules  # (``house_rules_form`` gives it a contract game's rules)

    # --- building the fields --------------------------------------------------------

    def add_fields(self) -> None:
        """The whole game's figures, the bête's, then each contract's needs, grid and schedule, in
        the order the page shows them."""
        rules = self.current
        self._game_fields(rules)
        if rules.bete is not None:
            self._bete_fields(rules.bete)
        self._layouts: dict[str, tuple[PayoutCells, ...]] = {}
        for key, contract in rules.contracts.items():
            self._layouts[key] = layout = self._needs_fields(key, contract)
            self._payout_fields(key, contract, layout)
            self._schedule_fields(key, contract)
        self.fields["confirm_unbalanced"] = forms.BooleanField(
            label=_("Yes, save a grid that is not zero-sum: the points of a deal will not add up to 0."),
            required=False,
        )

    def _game_fields(self, rules: ContractRules) -> None:
        """Several misère declarers in one deal, and the deal after an all-pass."""
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
            self.fields["all_pass_multiplier"] = cleaning.IntegerField(
                label=_("After an all-pass, the next deal counts double"),
                initial=rules.all_pass_multiplier,
                min_value=1,
                max_value=10,
                widget=DoublingBox(),
            )
        else:
            self.number(
                "all_pass_multiplier",
                _("Multiplier of the deal after an all-pass"),
                rules.all_pass_multiplier,
                low=1,
                high=10,
                help_text=_("1: no doubling; 2: the next played deal counts double."),
            )

    def _bete_fields(self, bete: Bete) -> None:
        self.fields["bete.failure_floor"] = forms.BooleanField(
            label=_("A failure pays at least the contract's value, even into an empty bête"),
            required=False,
            initial=bete.failure_floor,
        )
        self.number(
            "bete.ante",
            _("Ante: jetons the dealer puts in the bête at each deal"),
            bete.ante,
            low=0,
            high=FIGURE_LIMIT,
        )
        self.fields["bete.end"] = forms.ChoiceField(
            label=_("What is left in the bête at the end of the evening"),
            choices=[
                (str(BeteEnd.SHARE), _("shared equally by the evening's players")),
                (str(BeteEnd.CARRY), _("carried to the club's next evening")),
            ],
            initial=str(bete.end),
        )

    def _needs_fields(self, key: str, contract: Contract) -> tuple[PayoutCells, ...]:
        """The tricks a contract needs (and needs when the trump was changed); the layout of its grid
        for the needs submitted (the cells follow them), else the stored ones."""
        needs_name = f"contracts.{key}.needs"
        exact = contract.kind.per_declarer
        self.number(
            needs_name,
            _("Tricks needed, exactly, by each declarer") if exact else _("Tricks needed (at least)"),
            contract.needs,
            low=None,
            high=None,
            inputmode="numeric",
        )
        changed = contract.needs_if_trump_changed
        if changed is not None:
            self.number(
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
        return cell_layout(contract, needs, changed)

    def _payout_fields(self, key: str, contract: Contract, layout: tuple[PayoutCells, ...]) -> None:
        """A contract's grid: the declarer's and the opponent's figure for each number of tricks it
        can be made or fail with."""
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
                    self.fields[cell_name(key, outcome, tricks, side)] = cleaning.IntegerField(
                        label=label,
                        initial=None if payout is None else getattr(payout, side),
                        min_value=-CELL_LIMIT,
                        max_value=CELL_LIMIT,
                        error_messages={
                            "required": _("Enter the figure for %(tricks)s tricks.") % {"tricks": tricks},
                            "invalid": _("Enter a whole number."),
                        },
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
            self.fields[f"schedule.{key}.{name}"] = cleaning.IntegerField(
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
            label=_("Apply to"), choices=choices, initial="contract", required=False, widget=ChoiceRows
        )

    @staticmethod
    def _family(contract: Contract) -> tuple:
        return (contract.kind, contract.declarers)

    def with_schedule(self, key: str) -> tuple[dict, list[str]]:
        """The submitted figures with the grid of ``key`` (or of its family) filled from its schedule,
        and the contracts filled: what the preview shows before anything is saved."""
        # a QueryDict or a dict, both copied so (django-stubs types a form's data as a read-only Mapping)
        data = self.data.copy()  # type: ignore[attr-defined]
        rules = self.current
        source = rules.contracts[key]

        def value(name: str) -> int | None:
            raw = self.data.get(f"schedule.{key}.{name}")
            number = int_or_none(raw)
            return number if number is not None and abs(number) <= CELL_LIMIT else None

        schedule = Schedule(value("made"), value("made_step") or 0, value("failed"), value("failed_step") or 0)
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

    @overload
    def _submitted_int(self, name: str, fallback: int, low: int, high: int) -> int: ...

    @overload
    def _submitted_int(
        self, name: str, fallback: int | None, low: int, high: int, *, blank_is_none: bool
    ) -> int | None: ...

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
        value = int_or_none(raw)
        return value if value is not None and low <= value <= high else fallback

    # --- what the template walks ------------------------------------------------------

    def contracts(self) -> list[ContractBlock]:
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
                        differs = [
                            int_or_none(f.value()) != b for f, b in zip(pair, base, strict=True) if f is not None
                        ]
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
        out = [
            Section(
                _("Whole game"),
                [
                    self.item("field", "misere_combination"),
                    self.item(
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
                    [
                        self.item("check", "bete.failure_floor"),
                        self.item("field", "bete.ante"),
                        self.item("field", "bete.end"),
                    ],
                )
            )
        return out

    # --- validation ---------------------------------------------------------------------

    def fill(self, data: dict, cleaned: dict) -> None:
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

    def confirmed(self, rules: Ruleset, cleaned: dict) -> bool:
        """A grid no longer zero-sum where the preset is is saved only once the admin ticks the box."""
        if not isinstance(rules, ContractRules) or cleaned.get("confirm_unbalanced"):
            return True
        preset = registry.get(self.key)
        preset_grids = preset.contracts if isinstance(preset, ContractRules) else {}
        self.unbalanced = [
            key
            for key, contract in rules.contracts.items()
            if key in preset_grids and zero_sum(preset_grids[key]) and not zero_sum(contract)
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
            return False
        return True
