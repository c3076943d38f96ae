"""How every form of the site is drawn: one field template, and the widgets for a choice among a few.

A page writes ``{{ form.name.as_field_group }}`` for each field: ``templates/core/field.html`` (set once
as the default by ``settings.FORM_RENDERER``) draws its label, the input, the errors next to it (announced
to a screen reader) and the help text, whose ids are the ones Django writes into the input's
``aria-describedby``. A radio or checkbox list is a ``<fieldset>`` with the field's label as its legend;
its choices are drawn by the widget the form picks: ``Taps`` (big buttons), ``ChoiceRows`` (rows with the
radio showing) or ``Checks`` (boxes with their names).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.forms.renderers import TemplatesSetting


class FormRenderer(TemplatesSetting):
    """The site's templates first (``templates/core/field.html``), then Django's own (``django.forms``)."""

    field_template_name = "core/field.html"


@dataclass(frozen=True)
class Choice:
    """The label of a choice with a second line under its name (``Taps`` writes it small)."""

    name: str
    detail: str = ""

    def __str__(self) -> str:
        return str(self.name)


class _Choices(forms.widgets.ChoiceWidget):
    """A list of choices, each a label around its input and its text; ``css`` adds classes to the list,
    ``option_css`` to each choice."""

    template_name = "core/widgets/choices.html"
    list_class = ""
    option_class = ""

    def __init__(
        self, attrs: dict[str, Any] | None = None, choices: Any = (), *, css: str = "", option_css: str = ""
    ) -> None:
        super().__init__(attrs, choices)
        self.css, self.option_css = css, option_css

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        context["widget"]["list_class"] = f"{self.list_class} {self.css}".strip()
        context["widget"]["option_class"] = f"{self.option_class} {self.option_css}".strip()
        return context


class Taps(_Choices, forms.RadioSelect):
    """One choice among a few, each a big button (``.taps .tap``)."""

    list_class = "taps"
    option_class = "tap"


class ChoiceRows(_Choices, forms.RadioSelect):
    """One choice among a few with long names: a row each, the radio showing (``.choice-list .choice``)."""

    list_class = "choice-list"
    option_class = "choice"


class Checks(_Choices, forms.CheckboxSelectMultiple):
    """Any number of choices: a box and its name each (``.checks .check``)."""

    list_class = "checks"
    option_class = "check"


def field_of[F: forms.Field](form: forms.BaseForm, name: str, kind: type[F]) -> F:
    """The form's field ``name``, of the kind it was declared (what a form sets when it is made: the
    choices of a list, the queryset of a model's list)."""
    field = form.fields[name]
    if not isinstance(field, kind):
        raise TypeError(f"{name} is not a {kind.__name__}")
    return field


def choice_field(form: forms.BaseForm, name: str) -> forms.ChoiceField:
    """The form's field ``name``, a list of choices: a form sets its ``choices`` when it is made."""
    return field_of(form, name, forms.ChoiceField)
