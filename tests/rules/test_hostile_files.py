"""Hostile evening files (issue 13, finding 9): deep nesting, huge numbers, a key given twice,
a currency that is no ISO code. The parser, ``manage.py score`` and the site's import all
refuse them with a sentence, never a traceback, and write nothing."""

import json

import pytest

from rules.test_commands import evening, manage, write
from scorebook.evenings.models import Evening
from scorebook.rules.evening_file import FileError, loads

GOOD = evening("kleurenwiezen", ["Anne", "Bert", "Carl", "Dina"], [{"contract": "pass"}], stake="0.10", currency="EUR")
DEEP = '{"format": "scorebook-evening/1", "rules": ' + "[" * 100_000 + "]" * 100_000 + "}"
HUGE = json.dumps(GOOD).replace('"deals": [', '"first_dealer": ' + "9" * 5000 + ', "deals": [')
TWICE = json.dumps(GOOD)[:-1] + ', "stake": "5.00"}'

HOSTILE = [
    (DEEP, "nests deeper than 12 levels"),
    (HUGE, "has more than 15 characters"),
    (TWICE, "the key 'stake' is given twice in one object"),
    (json.dumps(GOOD | {"currency": "EURO$"}), "currency must be three capital letters"),
    (json.dumps(GOOD | {"currency": "eur"}), "currency must be three capital letters"),
    (json.dumps(GOOD).replace('"deals": [', '"first_dealer": NaN, "deals": ['), "NaN is not a number"),
]


@pytest.mark.parametrize("text, words", HOSTILE)
def test_it_refuses_a_hostile_file_with_a_sentence(text, words):
    with pytest.raises(FileError) as refused:
        loads(text)
    assert words in str(refused.value)


def test_it_still_reads_a_well_formed_file():
    assert loads(json.dumps(GOOD)).currency == "EUR"


@pytest.mark.slow
@pytest.mark.parametrize("text, words", HOSTILE[:3])
def test_it_exits_with_status_2_and_a_sentence_from_the_score_command(tmp_path, text, words):
    done = manage("score", str(write(tmp_path, text)))
    assert done.returncode == 2
    assert words in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


@pytest.mark.django_db
@pytest.mark.parametrize("text, words", HOSTILE)
def test_it_answers_422_with_the_reason_on_the_site_import(scorer_client, text, words):
    response = scorer_client.post("/evenings/import/", {"text": text})
    assert response.status_code == 422
    assert any(words in error for error in response.context["form"].errors["text"])
    assert not Evening.objects.exists()


@pytest.mark.django_db
def test_it_refuses_a_currency_that_is_no_iso_code_on_the_new_evening_form(scorer_client):
    from evenings.test_new_evening import form_data

    response = scorer_client.post("/evenings/new/", form_data(currency="EURO$"))
    assert response.status_code == 422
    assert "Three capital letters" in str(response.context["form"].errors["currency"])
    assert not Evening.objects.exists()
