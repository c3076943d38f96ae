"""Payments are what was paid (the same amount may be paid twice); a seat says whether its player
took part in the evening (rules.md 4), and so does the evening's summary.

Existing summaries are brought up to date from what they hold: a player took part when he
played a deal or ended with points (an adjustment). ``manage.py refresh_summaries`` rebuilds
them from the deals exactly (an adjustment that nets to 0 is taking part too).
"""

from django.db import migrations, models


def took_part_from_summaries(apps, schema_editor):
    Evening = apps.get_model("evenings", "Evening")
    Seat = apps.get_model("evenings", "Seat")
    for evening in Evening.objects.only("id", "summary").iterator(chunk_size=500):
        players = (evening.summary or {}).get("players") or []
        absent = []
        for entry in players:
            if "took_part" not in entry:
                entry["took_part"] = int(entry.get("played") or 0) > 0 or int(entry.get("points") or 0) != 0
            if not entry["took_part"]:
                absent.append(entry.get("seat"))
        if players:
            Evening.objects.filter(pk=evening.pk).update(summary=evening.summary)
        if absent:
            Seat.objects.filter(evening_id=evening.pk, position__in=absent).update(took_part=False)


class Migration(migrations.Migration):

    dependencies = [
        ('evenings', '0002_evening_archived'),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='payment',
            options={'ordering': ['marked_at', 'pk']},
        ),
        migrations.RemoveConstraint(
            model_name='payment',
            name='payment_unique',
        ),
        migrations.AddField(
            model_name='seat',
            name='took_part',
            field=models.BooleanField(default=True, help_text='Derived from the deals with the summary: False when the player took no part (rules.md 4).'),
        ),
        migrations.RunPython(took_part_from_summaries, migrations.RunPython.noop),
    ]
