"""The contract form's fields that depend on the table are built once and shared by the forms of
that table (``forms._table_fields``): validating and showing a form must leave them unchanged."""

import pickle

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from scorebook.evenings import forms
from scorebook.evenings.forms import ContractDealForm
from scorebook.rules import registry

PLAYERS = ["Anne", "Bert", "Carl", "Dina", "Eric"]


def state(fields) -> bytes:
    """Everything of the shared fields a form could change, as bytes to compare."""
    return pickle.dumps(
        {
            name: (str(f.label), f.required, list(map(str, getattr(f, "choices", []))), f.widget.attrs,
                   [str(c) for c in getattr(f.widget, "choices", [])], dict(f.error_messages), f.initial)
            for name, f in fields.items()
        }
    )


@pytest.mark.django_db
def test_it_leaves_the_shared_fields_as_they_were_after_forms_are_validated_and_shown():
    rules = registry.get("kleurenwiezen")
    with translation.override("en"):
        first = ContractDealForm(rules=rules, players=PLAYERS)
        shared = {name: first.fields[name] for name in ("contract", "declarers", "exposed_fault", "playing", "tricks_0")}
        before = state(shared)
        posts = [
            {"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": "8"},
            {"contract": "nonsense", "declarers": ["Zed"], "tricks": "99", "tricks_0": "-4", "exposed_fault": "Zed"},
            {"contract": "piccolo", "declarers": ["Bert"], "tricks_1": "1", "playing": ["Anne", "Bert"]},
        ]
        for data in posts:
            form = ContractDealForm(data, rules=rules, players=PLAYERS)
            form.is_valid()
            if form.errors:
                form.add_error("tricks", "one more error")
            render_to_string("evenings/_contract_fields.html", {"form": form, "players": PLAYERS, "sitting_out": ("Anne",)})
            assert all(form.fields[name] is field for name, field in shared.items())  # shared indeed
        assert state(shared) == before
        assert ContractDealForm({"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": "8"}, rules=rules, players=PLAYERS).is_valid()


def test_it_builds_the_fields_of_each_table_and_language_apart():
    rules = registry.get("kleurenwiezen")
    with translation.override("en"):
        english = ContractDealForm(rules=rules, players=PLAYERS)
        four = ContractDealForm(rules=rules, players=PLAYERS[:4])
    with translation.override("nl"):
        dutch = ContractDealForm(rules=rules, players=PLAYERS)
    assert "tricks_4" in english.fields and "tricks_4" not in four.fields
    assert dict(english.fields["contract"].choices)["samen-8"] == "proposal and acceptance 8"
    assert dict(dutch.fields["contract"].choices)["samen-8"] == "samen 8"
    assert str(dutch.fields["tricks_0"].label) != str(english.fields["tricks_0"].label)
    assert forms._table_fields.cache_info().currsize >= 3
