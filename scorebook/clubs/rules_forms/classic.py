"""The house rules of classic whist (classique, short, français, mort): the manche and the robre,
the table of manche values, the honours, and claiming the manche with honours."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _

from scorebook.core.forms import Taps
from scorebook.rules.model import ClassicScoring

from .base import FIGURE_LIMIT, HouseRulesForm, Item, Section, int_or_none

EXTRA_MANCHE_ROWS = 2  # empty rows offered below the manche-value table


class ClassicRulesForm(HouseRulesForm):
    """Every figure of a classic game."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._manche_rows: list[int] = []  # the inputs' row of each row of the cleaned table
        super().__init__(*args, **kwargs)

    # --- building the fields --------------------------------------------------------

    def add_fields(self) -> None:
        """The manche, the honours, the claim, the value of a manche and the robre, in the order the
        page shows them."""
        d = self.current_dict
        self.number("manche_target", _("Points to win a manche"), d["manche_target"], low=1, high=100)
        self.number(
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
            widget=Taps(css="rules-taps"),
        )
        self._honours_fields(d["honours"])
        self._claim_fields(d["claim"])
        self._manche_fields(d)
        self.number("manches_to_win", _("Manches to win the robre"), d["manches_to_win"], low=1, high=5)
        self.number("robre_bonus", _("Robre bonus"), d["robre_bonus"], low=0, high=100)
        self.number(
            "chelem_points",
            _("Chelem (all 13 tricks), outside the manche"),
            d["chelem_points"],
            required=False,
            low=0,
            high=FIGURE_LIMIT,
            help_text=_("Empty: a chelem scores as any other deal."),
        )

    def _honours_fields(self, honours: dict) -> None:
        """The points of 3, 4 (and 5) honours held, whether they count towards the manche, when barred."""
        points = {int(k): v for k, v in honours["points"].items()}
        for held in sorted(set(range(3, 6)) | set(points)):
            self.number(
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
            initial=honours["towards_manche"],
        )
        self.fields["honours.barred_at"] = forms.CharField(
            label=_("No honours for a side standing at"),
            help_text=_("Scores separated by commas, e.g. 4; empty: never barred."),
            required=False,
            initial=", ".join(str(v) for v in honours["barred_at"]),
            widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
        )

    def _claim_fields(self, claim: dict | None) -> None:
        """Whether a side may claim the manche by showing its honours, at what score, for how much."""
        self.fields["claim.on"] = forms.BooleanField(
            label=_("A side at a given score may claim the manche by showing honours"),
            required=False,
            initial=claim is not None,
        )
        self.number("claim.at", _("Claim at (points)"), claim["at"] if claim else None, required=False, low=1, high=99)
        self.number(
            "claim.points",
            _("Points scored by the claim"),
            claim["points"] if claim else None,
            required=False,
            low=1,
            high=99,
        )

    def _manche_fields(self, d: dict) -> None:
        """How a won manche is valued: the table of values (a row more than the club has, and those
        a page added), or by difference with its base."""
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
            self.number(f"manche_values.{i}.from", _("Losers' points from"), given[0], required=False, low=0, high=100)
            self.number(f"manche_values.{i}.value", _("Value of the manche"), given[1], required=False, low=0, high=100)
        self._manche_count = count
        self.number(
            "manche_base",
            _("Manche base (difference scoring)"),
            d["manche_base"],
            low=0,
            high=100,
            help_text=_("Points for winning the manche, added to the difference."),
        )

    # --- what the template walks ------------------------------------------------------

    def sections(self) -> list[Section]:
        """The figures outside the payout grids, grouped for the page."""
        points = [name for name in self.fields if name.startswith("honours.points.")]
        return [
            Section(
                _("Manche and robre"),
                [
                    self.item("row", "manche_target", "book"),
                    self.item("field", "manche_scoring"),
                    self.item("table"),
                    self.item("field", "manche_base"),
                    self.item("row", "manches_to_win", "robre_bonus"),
                    self.item("field", "chelem_points"),
                ],
            ),
            Section(
                _("Honours"),
                [
                    self.item("taps", "honours.cards"),
                    Item("points", [self[name] for name in points], _("Points for the honours held")),
                    self.item("check", "honours.towards_manche"),
                    self.item("field", "honours.barred_at"),
                ],
            ),
            Section(
                _("Claiming the manche with honours"),
                [self.item("check", "claim.on"), self.item("row", "claim.at", "claim.points")],
            ),
        ]

    def manche_rows(self) -> list[list]:
        return [[self[f"manche_values.{i}.from"], self[f"manche_values.{i}.value"]] for i in range(self._manche_count)]

    # --- validation ---------------------------------------------------------------------

    def input_path(self, path: str) -> str:
        """The cleaned table skips the empty rows: its row ``i`` is shown on the inputs' row it came from."""
        if path.startswith("manche_values.") and self._manche_rows:
            _head, _dot, rest = path.partition(".")
            index, _dot, tail = rest.partition(".")
            if index.isascii() and index.isdigit() and int(index) < len(self._manche_rows):
                path = f"manche_values.{self._manche_rows[int(index)]}" + (f".{tail}" if tail else "")
        return path

    def fill(self, data: dict, cleaned: dict) -> None:
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
            value = int_or_none(part)
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
