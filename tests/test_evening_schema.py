"""The evening file's JSON Schema (docs/evening-file.schema.json) and the engine agree.

The schema is generated from ``scorebook.rules.evening_schema`` (``make docs``); the engine's reader is
``scorebook.rules.evening_file``. Every file the engine reads, the published schema accepts: the
engine's worked examples, the examples of the docs, the evenings the demo exports, random valid
evenings. Files that break the format's shape are refused by both. The site's import checks every
file against the schema as well.
"""

from __future__ import annotations

import importlib.util
import json
import re
import tomllib
from io import StringIO
from pathlib import Path

import jsonschema
import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings

from scorebook.evenings import creation
from scorebook.evenings.models import Evening
from scorebook.rules import evening_file, evening_schema
from scorebook.rules.evening_file import FORMAT, FileError
from scorebook.rules.scoring import DealError, score
from tools.docs import examples

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "docs" / "evening-file.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
JSON_BLOCK = re.compile(r"```json\n(\{\s*\"format\": \"scorebook-evening/1\".*?)\n```", re.S)


def engine_reads(data) -> bool:
    try:
        score(evening_file.from_dict(data))
    except (FileError, DealError):
        return False
    return True


def published_schema_accepts(data) -> bool:
    return VALIDATOR.is_valid(data)


def declared_schema_accepts(data) -> bool:
    try:
        evening_schema.validate(data)
    except evening_schema.SchemaError:
        return False
    return True


def test_it_publishes_the_schema_the_code_declares():
    assert evening_schema.json_schema() == SCHEMA, "run `make docs`"
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


# --- what the project ships --------------------------------------------------------------------------


def _sheets():
    """Every worked example of tests/rules/cases, as the docs read one (``tools.docs.examples.Sheet``)."""
    for path in sorted(examples.CASES.glob("*.toml")):
        data = tomllib.loads(path.read_text())
        for case in data["case"]:
            sheet = examples.Sheet(path.name, data["ruleset"], case, data)
            yield pytest.param(sheet, id=f"{path.name}: {case['name']}")


@pytest.mark.parametrize("case", list(_sheets()))
def test_it_accepts_every_worked_example_the_engine_reads(case):
    data = case.evening()
    if engine_reads(data):
        assert published_schema_accepts(data), list(VALIDATOR.iter_errors(data))[:1]
        assert declared_schema_accepts(data)


def _doc_examples():
    for page in sorted((ROOT / "docs").rglob("*.md")):
        for n, match in enumerate(JSON_BLOCK.finditer(page.read_text())):
            yield pytest.param(match[1], id=f"{page.relative_to(ROOT)}#{n}")


@pytest.mark.parametrize("text", list(_doc_examples()))
def test_it_accepts_every_evening_file_of_the_docs(text):
    data = json.loads(text)
    assert engine_reads(data)
    assert published_schema_accepts(data), list(VALIDATOR.iter_errors(data))[:1]


def test_it_finds_the_examples_of_the_docs():
    assert len(list(_doc_examples())) >= 25


@pytest.mark.both_databases
@pytest.mark.django_db
def test_it_accepts_every_evening_the_demo_exports(settings):
    settings.DEBUG = True  # seed_demo is for development sites
    call_command("seed_demo", stdout=StringIO())
    exported = [json.loads(creation.export_text(evening)) for evening in Evening.objects.all()]
    assert len(exported) >= 5
    for data in exported:
        assert published_schema_accepts(data), list(VALIDATOR.iter_errors(data))[:1]
        assert engine_reads(data)


# --- random evenings ---------------------------------------------------------------------------------


def _properties():
    """The random valid evenings of the engine's property tests (tests/rules/test_properties.py)."""
    spec = importlib.util.spec_from_file_location("_schema_properties", ROOT / "tests/rules/test_properties.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PROPERTIES = _properties()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(evening=PROPERTIES.evenings(zero_sum=False, house=True))
def test_it_accepts_every_random_evening_the_engine_exports(evening):
    data = evening_file.to_dict(evening)
    assert published_schema_accepts(data), list(VALIDATOR.iter_errors(data))[:1]
    assert declared_schema_accepts(data)


# --- what both refuse --------------------------------------------------------------------------------

GOOD = {
    "format": FORMAT,
    "ruleset": "kleurenwiezen",
    "players": ["Anne", "Bert", "Carl", "Dina"],
    "stake": "0.10",
    "deals": [{"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": 9}],
}
DEAL = GOOD["deals"][0]
BROKEN = {
    "an unknown key": {**GOOD, "stakes": "0.10"},
    "a missing key": {k: v for k, v in GOOD.items() if k != "players"},
    "another format": {**GOOD, "format": "scorebook-evening/2"},
    "an unknown variant": {**GOOD, "ruleset": "bridge"},
    "house rules that are not an object": {**GOOD, "rules": []},
    "a stake as a number": {**GOOD, "stake": 0.1},
    "a stake with an exponent": {**GOOD, "stake": "1e-1"},
    "a stake with a comma": {**GOOD, "stake": "0,10"},
    "a date without its dashes": {**GOOD, "date": "20261120"},
    "a currency in small letters": {**GOOD, "currency": "eur"},
    "a name twice": {**GOOD, "players": ["Anne", "Bert", "Carl", "Anne"]},
    "a name with a space at its end": {**GOOD, "players": ["Anne ", "Bert", "Carl", "Dina"]},
    "a name of 41 letters": {**GOOD, "players": ["A" * 41, "Bert", "Carl", "Dina"]},
    "the bête's name": {**GOOD, "players": ["(bête)", "Bert", "Carl", "Dina"]},
    "two players": {**GOOD, "players": ["Anne", "Bert"]},
    "an unknown key in a deal": {**GOOD, "deals": [{**DEAL, "trick": 9}]},
    "tricks as text": {**GOOD, "deals": [{**DEAL, "tricks": "9"}]},
    "14 tricks": {**GOOD, "deals": [{**DEAL, "tricks": 14}]},
    "a pass with declarers": {**GOOD, "deals": [{"contract": "pass", "declarers": ["Anne"]}]},
    "an empty adjustment": {**GOOD, "deals": [{"adjustment": {}}]},
    "an adjustment in halves": {**GOOD, "deals": [{"adjustment": {"Anne": 0.5}}]},
    "a classic deal in a contract game": {**GOOD, "deals": [{"tricks": [7, 6]}]},
    "a contract in a classic game": {**GOOD, "ruleset": "classique", "stake": None},
    "a robre of one team": {**GOOD, "ruleset": "classique", "deals": [{"robre": {"teams": [["Anne", "Carl"]]}}]},
    "an empty robre": {**GOOD, "ruleset": "classique", "deals": [{"robre": {}}]},
    "honours of three teams": {**GOOD, "ruleset": "classique", "deals": [{"tricks": [7, 6], "honours": [0, 0, 0]}]},
}


def test_it_starts_from_a_file_both_accept():
    assert engine_reads(GOOD) and published_schema_accepts(GOOD) and declared_schema_accepts(GOOD)


@pytest.mark.parametrize("data", BROKEN.values(), ids=BROKEN.keys())
def test_it_refuses_what_breaks_the_format_in_the_engine_and_the_schema(data):
    assert not engine_reads(data)
    assert not published_schema_accepts(data)
    assert not declared_schema_accepts(data)


# --- the site's import -------------------------------------------------------------------------------


@pytest.mark.both_databases
@pytest.mark.django_db
def test_it_imports_nothing_the_schema_refuses(monkeypatch, make_user):
    """Should the engine ever read a file the schema refuses, the site does not store it."""
    scorer = make_user("scorer")
    monkeypatch.setattr(
        evening_schema, "validate", lambda data: (_ for _ in ()).throw(evening_schema.SchemaError("x", "y"))
    )
    with pytest.raises(FileError, match="does not match the evening file's schema: x: y"):
        creation.import_evening(json.dumps(GOOD), scorer)
    assert not Evening.objects.exists()
    monkeypatch.undo()
    assert creation.import_evening(json.dumps(GOOD), scorer).deals.count() == 1
