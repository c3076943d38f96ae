"""Invitations: used a limited number of times, until they expire, stored as a digest; a membership
remembers the link it came with. Links made before this (tokens in clear) are dropped."""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


def drop_clear_links(apps, schema_editor):
    apps.get_model("clubs", "Invitation").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0002_season_archived_formerslug_playerclaim"),
    ]

    operations = [
        migrations.RunPython(drop_clear_links, migrations.RunPython.noop),
        migrations.RemoveField(model_name="invitation", name="token"),
        migrations.AddField(
            model_name="invitation",
            name="token_hash",
            field=models.CharField(default="", max_length=64),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="invitation",
            name="token_hash",
            field=models.CharField(max_length=64, unique=True),
        ),
        migrations.AddField(
            model_name="invitation",
            name="expires_at",
            field=models.DateTimeField(default=django.utils.timezone.now),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="invitation",
            name="max_uses",
            field=models.PositiveSmallIntegerField(default=1),
        ),
        migrations.AddField(
            model_name="invitation",
            name="uses",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="membership",
            name="invitation",
            field=models.ForeignKey(
                blank=True,
                help_text="The link this member joined (or took his role) with: revoked when he is removed or demoted.",
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="memberships",
                to="clubs.invitation",
            ),
        ),
    ]
