"""Issue 32, item 6: money typed with thousands separators as people write them in the page's
language is read right ("1.000,50" in French and Dutch, "1,000.50" in English; spaces too), and an
amount that could be read two ways ("1.000": a thousand, or one) is refused with a sentence that
shows how to write it. Every money field goes through ``core.fields.read_money``."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from pages import every_error
from scorebook.core.fields import AmountField, StakeField
from scorebook.evenings.models import Evening

READ = {
    "fr": {"1.000,50": "1000.50", "1 000,50": "1000.50", "1\u202f000,50": "1000.50", "0,10": "0.10", "0.10": "0.10"},
    "nl": {"1.000,50": "1000.50", "12.345.678,9": "12345678.9", "€ 2,50": "2.50", "1000": "1000"},
    "en": {"1,000.50": "1000.50", "1,000,000": "1000000", "0,10": "0.10", "2.5": "2.5"},
}


@pytest.mark.parametrize("lang, typed, read", [(lang, t, r) for lang, cases in READ.items() for t, r in cases.items()])
def test_it_reads_money_as_the_page_language_writes_it(lang, typed, read):
    with translation.override(lang):
        assert AmountField().clean(typed) == Decimal(read)


@pytest.mark.parametrize(
    "lang, typed, said",
    [
        ("fr", "1.000", "«\u00a01.000\u00a0»\u00a0: 1000 ou 1,00\u00a0? Tapez 1000, ou 1,00."),
        ("nl", "2,500", "„2,500”: 2500 of 2,50? Typ 2500, of 2,50."),
        ("en", "1,000", "“1,000”: 1000 or 1.00? Type 1000, or 1.00."),
    ],
)
def test_it_asks_how_to_read_an_amount_that_reads_two_ways(lang, typed, said):
    with translation.override(lang):
        with pytest.raises(ValidationError) as refused:
            AmountField().clean(typed)
        assert said in " ".join(refused.value.messages)


@pytest.mark.parametrize("lang, example", [("fr", "1.000,50"), ("nl", "1.000,50"), ("en", "1,000.50")])
def test_it_shows_how_to_write_an_amount_it_cannot_read(lang, example):
    with translation.override(lang):
        for typed in ("1.00,50", "1,0.000,5", "twelve"):
            with pytest.raises(ValidationError) as refused:
                AmountField().clean(typed)
            assert example in " ".join(refused.value.messages), typed


def test_it_keeps_a_stake_of_three_decimals_that_cannot_be_a_thousand():
    with translation.override("fr"):
        assert StakeField().clean("0,125") == Decimal("0.125")


@pytest.mark.both_databases
@pytest.mark.django_db
def test_it_starts_an_evening_at_a_stake_typed_with_a_thousands_separator_in_dutch(client, scorer):
    client.force_login(scorer)
    data = {"ruleset": "kleurenwiezen", "first_dealer": "0", "currency": "EUR", "date": "2026-11-20"}
    data |= {"player_0": "Anne", "player_1": "Bert", "player_2": "Carl", "player_3": "Dina", "confirm_stake": "on"}
    headers = {"Accept-Language": "nl"}
    refused = client.post(reverse("evening_new"), data | {"stake": "1.000"}, headers=headers)
    assert refused.status_code == 422 and "1000 of 1,00?" in every_error(refused.content.decode())
    assert client.post(reverse("evening_new"), data | {"stake": "1.000,50"}, headers=headers).status_code == 302
    assert Evening.objects.get().stake == Decimal("1000.50")
