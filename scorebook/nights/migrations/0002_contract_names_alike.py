"""A night's stored copy of the rules takes the contract names the presets now give (as
evenings.0003_contract_names_alike does for the evenings): names only, no figure."""

import importlib

from django.db import migrations

names = importlib.import_module("scorebook.evenings.migrations.0003_contract_names_alike")


class Migration(migrations.Migration):
    dependencies = [("nights", "0001_initial"), ("evenings", "0003_contract_names_alike")]

    operations = [
        migrations.RunPython(names.rename_in("nights.Night", 1), names.rename_in("nights.Night", 0)),
    ]
