"""Shared fixtures: named users and evenings built through the real services."""

import os
import sys

import pytest
from hypothesis import settings as hypothesis_settings

# Playwright's sync API runs an event loop in the test thread; Django must allow that.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# No property test times its examples (hypothesis's default: 200 ms each): speed is make bench's,
# and on two processes of a busy machine an example may take longer and fail for nothing.
hypothesis_settings.register_profile("scorebook", deadline=None)
hypothesis_settings.load_profile("scorebook")

# the test of the tests' database groups (tests/write_path.py), and pytester for its own test
pytest_plugins = ["write_path", "pytester"]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On two processes, the modules with a slow test run first (in their own order, each module's
    tests together): a sweep of minutes collected last would otherwise run alone at the end of the
    pass while the other process waits."""
    if not config.getoption("numprocesses", default=None):
        return
    slow = {getattr(item, "module", None) for item in items if item.get_closest_marker("slow") is not None}
    items.sort(key=lambda item: getattr(item, "module", None) not in slow)


PASSWORD = "a-long-test-password"
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def english_by_default(settings):
    """The site speaks French by default; tests read English unless they ask for a language."""
    settings.LANGUAGE_CODE = "en"


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """Hashing with a slow algorithm is the password system's job, not the tests'."""
    settings.PASSWORD_HASHERS = FAST_HASHERS


@pytest.fixture
def make_user(django_user_model):
    def make(username, **extra):
        return django_user_model.objects.create_user(username=username, password=PASSWORD, **extra)

    return make


@pytest.fixture
def scorer(make_user):
    """Marie keeps the score: she owns the evenings."""
    return make_user("marie", first_name="Marie")


@pytest.fixture
def outsider(make_user):
    """Olivier has an account but nothing to do with Marie's evenings."""
    return make_user("olivier", first_name="Olivier")


@pytest.fixture
def staff(make_user):
    return make_user("admin", is_staff=True, is_superuser=True)


@pytest.fixture
def scorer_client(client, scorer):
    client.force_login(scorer)
    return client


@pytest.fixture
def outsider_client(client, outsider):
    client.force_login(outsider)
    return client


@pytest.fixture
def make_evening(scorer):
    """make_evening("kleurenwiezen", ["Anne", ...], deals=[...]): Marie's evening, with its read-only link
    (``share_token``), through the one evening builder (``builders.club_evening``)."""
    from builders import DAY, PLAYERS, club_evening

    def make(ruleset="kleurenwiezen", players=PLAYERS, deals=(), stake="0.10", **extra):
        club, user, day = extra.pop("club", None), extra.pop("user", scorer), extra.pop("date", DAY)
        return club_evening(club, user, day, deals, players, ruleset, stake, share=True, **extra)

    return make


def world_of_the_module(build):
    """A module-scoped fixture: the world ``build(make_user)`` makes through the real services, built once
    for a module whose tests only read it. It is built inside a transaction that stays open while the
    module's tests run and is rolled back after the last one; each test runs in a savepoint of it (its
    writes undone after it, as always). Give each test a copy (``copy.deepcopy``): the model instances a
    test changes in memory stay its own."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.test import override_settings
    from django.utils import translation

    @pytest.fixture(scope="module")
    def built(django_db_setup, django_db_blocker):
        def make_user(username, **extra):
            return get_user_model().objects.create_user(username=username, password=PASSWORD, **extra)

        with django_db_blocker.unblock():
            atomic = transaction.atomic()
            atomic.__enter__()
            try:
                # what the autouse fixtures give each test: English, quick password hashes
                with override_settings(LANGUAGE_CODE="en", PASSWORD_HASHERS=FAST_HASHERS), translation.override("en"):
                    world = build(make_user)
            except BaseException:
                atomic.__exit__(*sys.exc_info())
                raise
        yield world
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)

    return built
