"""The test of the tests' database groups (tests/write_path.py): on SQLite, a test that runs the site's write
path and is not marked ``both_databases`` fails, naming what it wrote; what a builder writes, what a test
writes itself through the ORM and what a test only reads do not count.

The tests below run a small suite of their own in another pytest process, on SQLite, with the plugin.
"""

import os
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent

SUITE = """
import pytest
from django.test import Client
from django.urls import reverse

from builders import club_evening
from scorebook.clubs.models import Club
from scorebook.evenings import services

PASS = {"contract": "pass"}


@pytest.fixture
def marie(django_user_model):
    return django_user_model.objects.create_user("marie", password="a-long-test-password")


@pytest.mark.django_db
def test_a_service_called_unmarked(marie):
    services.record_deal(club_evening(None, marie), PASS, marie)


@pytest.mark.django_db
def test_a_form_posted_unmarked(marie):
    client = Client()
    client.force_login(marie)
    evening = club_evening(None, marie)
    assert client.post(reverse("deal_record", args=[evening.pk]), PASS).status_code in (200, 302)


@pytest.mark.django_db
def test_a_decorated_save_called_unmarked():
    from scorebook.accounts.forms import SignupForm

    secret = "a-long-test-password"
    form = SignupForm({"username": "mia", "display_name": "Mia", "password1": secret, "password2": secret})
    assert form.is_valid(), form.errors
    form.save()  # @transaction.atomic: the user and the profile together


@pytest.mark.both_databases
@pytest.mark.django_db
def test_a_service_called_marked(marie):
    services.record_deal(club_evening(None, marie), PASS, marie)


@pytest.mark.django_db
def test_a_page_read_from_what_a_builder_wrote(marie):
    client = Client()
    client.force_login(marie)
    evening = club_evening(None, marie, deals=[PASS])
    assert client.get(reverse("evening", args=[evening.pk])).status_code == 200


@pytest.mark.django_db
def test_a_row_written_by_the_test_itself(marie):
    Club.objects.create(name="De Troef", slug="de-troef")


@pytest.fixture
def played(marie):
    evening = club_evening(None, marie)
    services.record_deal(evening, PASS, marie)  # a fixture's writes: the world, not the test
    return evening


@pytest.mark.django_db
def test_a_world_written_by_a_fixture(played):
    assert played.deals.count() == 1
"""


def test_it_fails_a_test_that_runs_the_write_path_on_one_database_only(pytester, monkeypatch):
    pytester.makeconftest('pytest_plugins = ["write_path"]\n')
    pytester.makepyfile(test_suite=SUITE)
    monkeypatch.delenv("DATABASE_URL", raising=False)  # SQLite, whatever database the outer run uses
    monkeypatch.delenv("SQLITE_TEST_DB", raising=False)
    monkeypatch.setenv("PYTHONPATH", f"{TESTS}{os.pathsep}{ROOT}")
    outcome = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--ds=scorebook.settings", "--no-migrations", "-rA"
    )
    text = "\n".join(outcome.outlines)
    failed = {line.split("::")[1].split()[0] for line in outcome.outlines if line.startswith("FAILED")}
    passed = {line.split("::")[1].split()[0] for line in outcome.outlines if line.startswith("PASSED")}
    assert failed == {
        "test_a_service_called_unmarked",
        "test_a_form_posted_unmarked",
        "test_a_decorated_save_called_unmarked",
    }, text
    assert passed == {
        "test_a_service_called_marked",
        "test_a_page_read_from_what_a_builder_wrote",
        "test_a_row_written_by_the_test_itself",
        "test_a_world_written_by_a_fixture",
    }, text
    assert "it runs the site's write path on SQLite only (locked rows of evenings.Evening, from tests/" in text
    assert "(inserted a row of accounts.Profile, from tests/test_suite.py:" in text
    assert "mark it @pytest.mark.both_databases" in text
