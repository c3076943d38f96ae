"""``manage.py seed_demo``: a demo account with past evenings that the engine accepts."""

from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core.management import CommandError, call_command
from django.utils import timezone

from scorebook.evenings import stored
from scorebook.evenings.models import Deal, Evening
from scorebook.rules import evening_file

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def development(settings):
    """seed_demo is for development sites (tests run with DEBUG=false, a real site's setting)."""
    settings.DEBUG = True


def seed(*args) -> str:
    out = StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


def by_variant() -> dict[str, Evening]:
    return {e.ruleset: e for e in Evening.objects.all()}


@pytest.mark.both_databases
def test_it_creates_the_demo_user_and_says_so():
    output = seed()
    assert "demo / password demo-scorebook" in output
    user = authenticate(username="demo", password="demo-scorebook")
    assert user is not None and user.is_active and not user.is_staff


@pytest.mark.both_databases
def test_it_creates_evenings_of_several_variants_that_all_score():
    seed()
    evenings = by_variant()
    assert set(evenings) == {"kleurenwiezen", "liege", "encheres", "classique", "gand"}
    for evening in evenings.values():
        assert evening.owner.username == "demo"
        result = stored.scored(evening).result  # raises DealError if the engine refused a deal
        assert len(result.deals) == evening.deals.count() >= 8
        assert evening_file.report(stored.engine_evening(evening))["totals"] == dict(result.totals)


@pytest.mark.both_databases
def test_it_plays_kleurenwiezen_with_five_including_a_pass_and_a_misere_with_two_declarers():
    seed()
    evening = by_variant()["kleurenwiezen"]
    assert len(stored.players_of(evening)) == 5
    datas = [d.data for d in evening.deals.all()]
    assert 18 <= len(datas) <= 24
    assert {"contract": "pass"} in datas
    misere = [d for d in datas if d.get("contract") == "kleine-miserie" and len(d["declarers"]) == 2]
    assert misere
    result = stored.scored(evening).result
    sat_out = {p for r in result.deals for p in r.sitting_out}
    assert len(sat_out) == 5  # everyone dealt and sat out in turn
    assert sum(result.totals.values()) == 0


@pytest.mark.both_databases
def test_it_lets_the_bete_grow_in_encheres():
    seed()
    result = stored.scored(by_variant()["encheres"]).result
    pots = [r.pot for r in result.deals]
    assert result.pot > 0
    assert pots[-1] > pots[-2] > pots[-3]  # it is growing at the end of the evening
    assert 0 in pots[1:]  # a made contract took it once
    assert sum(result.totals.values()) + result.pot == 0


@pytest.mark.both_databases
def test_it_finishes_a_robre_in_classique():
    seed()
    result = stored.scored(by_variant()["classique"]).result
    assert len(result.robres) >= 1 and result.robres[0].finished
    assert result.robres[0].manches_won == (2, 1)
    assert result.next.robre.deals > 0  # the next robre is under way
    assert any(result.totals.values())


@pytest.mark.both_databases
def test_it_dates_the_evenings_over_the_last_weeks_and_closes_some():
    seed()
    today = timezone.localdate()
    evenings = list(Evening.objects.all())
    assert all(today - timedelta(days=42) <= e.date <= today for e in evenings)
    assert len({e.date for e in evenings}) == len(evenings)
    statuses = [e.status for e in evenings]
    assert statuses.count(Evening.Status.CLOSED) >= 3
    assert Evening.Status.OPEN in statuses


@pytest.mark.both_databases
def test_it_does_nothing_with_if_empty_when_an_evening_exists():
    seed("--if-empty")
    counts = (Evening.objects.count(), Deal.objects.count())
    assert counts[0] == 5
    output = seed("--if-empty")
    assert "nothing seeded" in output
    assert (Evening.objects.count(), Deal.objects.count()) == counts


def test_it_respects_if_empty_for_anyone_s_evening(make_evening):
    make_evening()
    seed("--if-empty")
    assert Evening.objects.count() == 1
    assert not Evening.objects.filter(owner__username="demo").exists()


@pytest.mark.both_databases
def test_it_keeps_a_single_demo_user_when_run_again():
    seed()
    with pytest.raises(CommandError, match="exists already"):
        seed()  # it never touches an existing account, its own included
    assert get_user_model().objects.filter(username="demo").count() == 1
    assert Evening.objects.count() == 5
