"""The tables of the nights already made are run from their night (docs/rules/club-nights.md): their evenings are
marked ``managed``, with the night's deals per session as their limit."""

from django.db import migrations


def run_from_their_night(apps, schema_editor):
    Evening = apps.get_model("evenings", "Evening")
    NightTable = apps.get_model("nights", "NightTable")
    limits: dict = {}
    for evening, limit in NightTable.objects.values_list("evening_id", "session__night__deals_per_session"):
        limits.setdefault(limit, []).append(evening)
    for limit, evenings in limits.items():
        for start in range(0, len(evenings), 500):
            Evening.objects.filter(pk__in=evenings[start : start + 500]).update(managed=True, deal_limit=limit)


class Migration(migrations.Migration):
    dependencies = [
        ("nights", "0002_contract_names_alike"),
        ("evenings", "0005_evening_run_from_above"),
    ]

    operations = [migrations.RunPython(run_from_their_night, migrations.RunPython.noop)]
