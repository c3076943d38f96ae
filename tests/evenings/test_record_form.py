"""The contract form's fields depend on the table and the language."""

from django.utils import translation

from scorebook.evenings.forms import ContractDealForm
from scorebook.rules import registry

PLAYERS = ["Anne", "Bert", "Carl", "Dina", "Eric"]


def test_it_builds_the_fields_of_each_table_and_language_apart():
    rules = registry.get("kleurenwiezen")
    with translation.override("en"):
        english = ContractDealForm(rules=rules, players=PLAYERS)
        four = ContractDealForm(rules=rules, players=PLAYERS[:4])
    with translation.override("nl"):
        dutch = ContractDealForm(rules=rules, players=PLAYERS)
    assert "tricks_4" in english.fields and "tricks_4" not in four.fields
    assert dict(english.fields["contract"].choices)["samen-8"] == "together 8"
    assert dict(dutch.fields["contract"].choices)["samen-8"] == "samen 8"
    assert str(dutch.fields["tricks_0"].label) != str(english.fields["tricks_0"].label)


def test_it_gives_each_form_fields_of_its_own():
    """Validating one form never changes the fields of another (no field is shared)."""
    rules = registry.get("kleurenwiezen")
    first = ContractDealForm({"contract": "nonsense", "declarers": ["Zed"]}, rules=rules, players=PLAYERS)
    assert not first.is_valid()
    first.fields["declarers"].choices = []
    second = ContractDealForm(
        {"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": "8"}, rules=rules, players=PLAYERS
    )
    assert second.is_valid() and second.cleaned_data["declarers"] == ["Anne", "Carl"]
