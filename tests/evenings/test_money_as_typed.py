"""Money as people type it (issue 21, point 5): a decimal comma is a decimal point wherever money is
typed, in a text input with the phone's decimal keyboard (a number input let Chromium turn "0,10"
into "010": €10 a point), and a stake of €1 a point or more asks to confirm."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from pages import Page, body, field_errors
from scorebook.core.fields import AmountField, StakeField
from scorebook.evenings.models import Evening

pytestmark = pytest.mark.django_db

NEW = "/evenings/new/"


def form_data(**extra):
    data = {"ruleset": "kleurenwiezen", "first_dealer": "0", "stake": "0.05", "currency": "EUR", "date": "2026-11-20"}
    for seat, name in enumerate(("Anne", "Bert", "Carl", "Dina")):
        data[f"player_{seat}"] = name
    return data | extra


@pytest.mark.parametrize(
    ("typed", "value"),
    [("0,10", Decimal("0.10")), ("0.10", Decimal("0.10")), (" 0,05 ", Decimal("0.05")), ("€0,25", Decimal("0.25"))],
)
def test_it_reads_a_decimal_comma_as_a_decimal_point(typed, value):
    assert StakeField().clean(typed) == value
    assert AmountField().clean(typed) == value


def test_it_refuses_what_is_not_an_amount():
    for typed in ("1,2,3", "0,10.5", "ten", "0"):
        with pytest.raises(ValidationError):
            AmountField().clean(typed)


def test_it_asks_for_money_in_a_text_input_with_the_decimal_keyboard(scorer_client):
    stake = Page(body(scorer_client.get(NEW))).one("input[name=stake]")
    assert stake.attrs.get("type") == "text" and stake.attrs.get("inputmode") == "decimal"


@pytest.mark.both_databases
def test_it_starts_an_evening_with_a_stake_typed_with_a_comma(scorer_client):
    assert scorer_client.post(NEW, form_data(stake="0,10")).status_code == 302
    assert Evening.objects.get().stake == Decimal("0.10")


@pytest.mark.both_databases
def test_it_asks_to_confirm_a_stake_of_a_euro_a_point_or_more(scorer_client):
    response = scorer_client.post(NEW, form_data(stake="10"))
    assert response.status_code == 422
    html = body(response)
    assert "10 a point is a lot (a 30-point deal costs 300)" in field_errors(html, "stake")
    assert 'name="confirm_stake"' in html
    assert not Evening.objects.exists()
    assert scorer_client.post(NEW, form_data(stake="10", confirm_stake="on")).status_code == 302
    assert Evening.objects.get().stake == Decimal("10")
    assert 'name="confirm_stake"' not in body(scorer_client.get(NEW))
