"""What every house-rules form shares: figure inputs, the page's sections, errors placed by path, and
the validation that turns the inputs back into a ruleset (``scorebook.rules.reading.ruleset_from_dict``)
and into the club's overrides (``registry.diff``)."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext as _

from scorebook.core import cleaning
from scorebook.core.engine_messages import localized, localized_with_path
from scorebook.rules import registry
from scorebook.rules.model import RulesError, Ruleset, to_dict
from scorebook.rules.reading import ruleset_from_dict

FIGURE_LIMIT = 1_000


def int_or_none(raw: Any) -> int | None:
    """A submitted figure as a whole number (in the digits 0-9), or None when it is not one."""
    return cleaning.whole_number(raw) if isinstance(raw, str) else raw if isinstance(raw, int) else None


@dataclass
class Item:
    kind: str  # field, check, taps, row (inputs side by side), points, table (manche values)
    fields: list
    label: str = ""

    @property
    def field(self) -> forms.BoundField | None:
        return self.fields[0] if self.fields else None


@dataclass
class Section:
    legend: str
    items: list[Item]


class HouseRulesForm(forms.Form):
    """Every figure of one variant. ``cleaned_rules`` (and ``cleaned_overrides``, what differs from the
    preset) hold the validated ruleset after ``is_valid()``.

    A subclass per family of games adds the inputs (``add_fields``), puts the cleaned figures back
    into the rules' dict shape (``fill``), and may hold a valid ruleset back (``confirmed``).
    ``house_rules_form`` picks the subclass for a ruleset.
    """

    required_css_class = ""

    def __init__(
        self, key: str, current: Ruleset, data: Any = None, *, editable: bool = True, open_contract: str = ""
    ) -> None:
        super().__init__(data=data)
        self.key = key
        self.current = current
        self.current_dict = to_dict(current)
        self.preset_dict = to_dict(registry.get(key))
        self.editable = editable
        self.open_contract = open_contract
        self.cleaned_overrides: dict[str, Any] = {}
        self.unbalanced: list[str] = []  # contracts no longer zero-sum where the preset is (to confirm)
        self.add_fields()
        if not editable:
            for f in self.fields.values():
                f.disabled = True

    # --- building the fields (the subclasses) ---------------------------------------------

    def add_fields(self) -> None:
        raise NotImplementedError

    def number(
        self,
        name: str,
        label: str,
        initial: int | None,
        *,
        required: bool = True,
        low: int | None = None,
        high: int | None = None,
        help_text: str = "",
        **attrs: str,
    ) -> None:
        """A whole-number input named after its path in the rules."""
        widget_attrs = {"inputmode": "numeric"} if low is not None and low >= 0 else {}
        widget_attrs.update(attrs)
        self.fields[name] = cleaning.IntegerField(
            label=label,
            initial=initial,
            required=required,
            min_value=low,
            max_value=high,
            help_text=help_text,
            widget=forms.NumberInput(attrs=widget_attrs),
            error_messages={"required": _("Enter a whole number."), "invalid": _("Enter a whole number.")},
        )

    # --- what the template walks ------------------------------------------------------

    def contracts(self) -> list:
        """The payout grids, one block per contract (contract games only)."""
        return []

    def sections(self) -> list[Section]:
        """The figures outside the payout grids, grouped for the page."""
        raise NotImplementedError

    def item(self, kind: str, *names: str) -> Item:
        return Item(kind, [self[name] for name in names])

    def changed_names(self) -> set[str]:
        """The inputs whose figure (as the club has it now) differs from the preset's."""
        if not hasattr(self, "_changed_names"):
            preset = type(self)(self.key, registry.get(self.key))
            self._changed_names = {
                name
                for name, f in self.fields.items()
                if not name.startswith(("schedule.", "confirm_"))  # tools of the page, not figures
                and (name not in preset.fields or preset.fields[name].initial != f.initial)
            }
        return self._changed_names

    # --- validation ---------------------------------------------------------------------

    def input_path(self, path: str) -> str:
        """The path of the inputs an error about ``path`` of the cleaned rules is shown on."""
        return path

    def error_field(self, path: str) -> str | None:
        """The input that shows an error about ``path``: itself, else the first input below it, else a parent's."""
        probe = self.input_path(path)
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

    def fill(self, data: dict, cleaned: dict) -> None:
        """Put the cleaned figures into ``data``, the rules' dict shape (a copy of the current rules)."""
        raise NotImplementedError

    def confirmed(self, rules: Ruleset, cleaned: dict) -> bool:
        """Whether valid ``rules`` may be saved as they are (else the errors say what to confirm)."""
        return True

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if not self.editable:
            raise forms.ValidationError(_("Only the club's admins can change its rules."))
        data = copy.deepcopy(self.current_dict)
        self.fill(data, cleaned)
        if self.errors:
            return cleaned
        try:
            rules = ruleset_from_dict(data)
            overrides = registry.diff(self.key, rules)
            resolved = registry.resolve(self.key, overrides)
        except RulesError as exc:
            self.add_rules_error(exc)
            return cleaned
        if not self.confirmed(rules, cleaned):
            return cleaned
        if to_dict(resolved) != to_dict(rules):  # pragma: no cover - diff and merge are each other's inverse
            raise forms.ValidationError(_("These rules cannot be stored as changes to the preset."))
        self.cleaned_overrides = overrides
        return cleaned
