"""A club's backup carries its nights: the tables as evening files, the plan, the participants."""

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from builders import lose_the_site
from night_builders import deal, tables
from scorebook.clubs.models import Club
from scorebook.evenings import services as evenings
from scorebook.evenings.models import Evening
from scorebook.nights import services
from scorebook.nights.models import Night
from scorebook.nights.results import results

pytestmark = pytest.mark.django_db


def picture(night):
    r = results(night)
    return {
        "plan": night.plan,
        "participants": list(night.participants.values_list("number", "name", "first_session", "last_session")),
        "ranking": [(row.rank, row.number, row.name, row.points) for row in r.rows],
        "tables": [(t.session, t.table, t.deals, [(p["name"], p["points"]) for p in t.players]) for t in r.tables],
        "final": r.final,
    }


@pytest.mark.both_databases
def test_it_restores_a_night_with_its_tables_plan_and_ranking(make_night, director, club, tmp_path):
    night = make_night(players=8, sessions=2)
    for t in tables(night):
        evenings.record_deal(t.evening, deal(t.evening), director)
    services.close_session(night, 1, director)
    services.substitute(night, night.participants.get(number=2), "Zoë", director)
    before = picture(Night.objects.get(pk=night.pk))
    path = tmp_path / "club.json"
    call_command("export_club", club.slug, "-o", str(path))
    backup = json.loads(path.read_text())
    assert len(backup["nights"]) == 1 and len(backup["nights"][0]["tables"]) == 4
    lose_the_site()
    call_command("import_club", str(path))
    restored = Night.objects.get()
    assert picture(restored) == before
    assert restored.participants.get(number=9).replaces.number == 2
    # its tables are run from the night again: locked to it, at most its deals per session each
    restored_tables = Evening.objects.filter(night_table__session__night=restored)
    assert {(e.managed, e.deal_limit) for e in restored_tables} == {(True, 8)}


def test_it_refuses_a_backup_whose_night_points_at_an_evening_it_does_not_have(make_night, club, tmp_path):
    make_night(players=8, sessions=1)
    path = tmp_path / "club.json"
    call_command("export_club", club.slug, "-o", str(path))
    backup = json.loads(path.read_text())
    backup["nights"][0]["tables"][0]["evening"] = 99
    path.write_text(json.dumps(backup))
    lose_the_site()
    with pytest.raises(CommandError, match=r"nights\[0\]: tables\[0\]: evening"):
        call_command("import_club", str(path))
    assert not Club.objects.exists()
