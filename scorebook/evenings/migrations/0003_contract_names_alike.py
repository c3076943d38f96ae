"""The stored copies of the rules take the contract names the presets now give (issue 23): one
name per contract in each language across kleurenwiezen and the Liège grid. Names only: a
stored name is replaced only where it is still the old preset's, and no figure is touched."""

from django.db import migrations

# ruleset -> contract key -> (old names, new names), as (fr, nl, en)
RENAMED = {
    "kleurenwiezen": {
        **{
            f"alleen-{k}": ((f"seul {k}", f"alleen {k}", f"solo {k}"), (f"solo {k}", f"alleen {k}", f"solo {k}"))
            for k in range(5, 9)
        },
        "open-miserie": (
            ("misère étalée", "open miserie", "open misère"),
            ("grande misère étalée", "open miserie", "open misère"),
        ),
        "solo-slim": (("solo chelem", "solo slim", "solo slam"), ("grand chelem", "solo slim", "grand slam")),
    },
    "liege": {
        "grand-chelem": (("grand chelem", "groot slim", "grand slam"), ("grand chelem", "solo slim", "grand slam")),
    },
}


def renamed(ruleset: str, rules: dict, direction: int) -> bool:
    """Rename in place; True when something changed. ``direction`` 1: old -> new, 0: back."""
    changed = False
    contracts = (rules or {}).get("contracts") or {}
    for key, pair in RENAMED.get(ruleset, {}).items():
        stored = (contracts.get(key) or {}).get("names")
        was, now = pair if direction else pair[::-1]
        if isinstance(stored, dict) and (stored.get("fr"), stored.get("nl"), stored.get("en")) == was:
            contracts[key]["names"] = dict(zip(("fr", "nl", "en"), now, strict=True))
            changed = True
    return changed


def rename_in(model_name: str, direction: int):
    def run(apps, schema_editor):
        model = apps.get_model(*model_name.split("."))
        batch = []
        for row in model.objects.filter(ruleset__in=list(RENAMED)).only("pk", "ruleset", "rules").iterator():
            if renamed(row.ruleset, row.rules, direction):
                batch.append(row)
            if len(batch) >= 500:
                model.objects.bulk_update(batch, ["rules"])
                batch = []
        model.objects.bulk_update(batch, ["rules"])

    return run


class Migration(migrations.Migration):
    dependencies = [("evenings", "0002_who_closed_the_evening")]

    operations = [
        migrations.RunPython(rename_in("evenings.Evening", 1), rename_in("evenings.Evening", 0)),
    ]
