"""Shared fixtures: named users and evenings built through the real services."""

import os
from datetime import date
from decimal import Decimal

import pytest
from hypothesis import settings as hypothesis_settings

# Playwright's sync API runs an event loop in the test thread; Django must allow that.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# No property test times its examples (hypothesis's default: 200 ms each): speed is make bench's,
# and on two processes of a busy machine an example may take longer and fail for nothing.
hypothesis_settings.register_profile("scorebook", deadline=None)
hypothesis_settings.load_profile("scorebook")

PASSWORD = "a-long-test-password"


@pytest.fixture(autouse=True)
def english_by_default(settings):
    """The site speaks French by default; tests read English unless they ask for a language."""
    settings.LANGUAGE_CODE = "en"


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """Hashing with a slow algorithm is the password system's job, not the tests'."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


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
    """make_evening("kleurenwiezen", ["Anne", ...], deals=[...]) through the real services."""
    from scorebook.evenings import creation, services

    def make(ruleset="kleurenwiezen", players=("Anne", "Bert", "Carl", "Dina"), deals=(), stake="0.10", **extra):
        evening = creation.create_evening(
            ruleset=ruleset,
            players=list(players),
            first_dealer=extra.pop("first_dealer", 0),
            stake=Decimal(stake) if stake is not None else None,
            currency=extra.pop("currency", "EUR"),
            date=extra.pop("date", date(2026, 11, 20)),
            user=extra.pop("user", scorer),
            rules=extra.pop("rules", None),
            club=extra.pop("club", None),
        )
        for deal in deals:
            services.record_deal(evening, deal, scorer)
        # its read-only link, as the owner makes it on the share page; only a digest is stored,
        # so the tests keep the token here
        evening.share_token = services.new_share_link(evening)
        return evening

    return make
