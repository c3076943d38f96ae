"""The live ranking's link stored as a digest, like every other link: each existing night keeps the
link it had (its token's SHA-256 is kept, the token itself dropped), so a ranking already on a hall's
screen or in a phone goes on working until its director makes a new link."""

import hashlib

from django.db import migrations, models


def digests(apps, schema_editor):
    Night = apps.get_model("nights", "Night")
    for night in Night.objects.exclude(ranking_token="").only("pk", "ranking_token", "created_at").iterator():
        Night.objects.filter(pk=night.pk).update(
            ranking_hash=hashlib.sha256(night.ranking_token.encode()).hexdigest(), ranking_link_at=night.created_at
        )


class Migration(migrations.Migration):
    dependencies = [
        ("nights", "0007_night_payments_outlive_it"),
    ]

    operations = [
        migrations.AddField(
            model_name="night",
            name="ranking_hash",
            field=models.CharField(blank=True, editable=False, max_length=64, null=True, unique=True),
        ),
        migrations.AddField(
            model_name="night",
            name="ranking_link_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        # irreversible: a digest gives no token back
        migrations.RunPython(digests, elidable=False),
        migrations.RemoveField(
            model_name="night",
            name="ranking_token",
        ),
    ]
