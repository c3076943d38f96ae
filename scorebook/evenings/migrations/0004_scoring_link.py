"""Scoring links (a table scored without an account) and the failed attempts that limit guessing."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("evenings", "0003_seat_took_part_payments_as_paid"),
    ]

    operations = [
        migrations.CreateModel(
            name="LinkAttempt",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("address", models.CharField(max_length=45)),
                ("at", models.DateTimeField(auto_now_add=True, db_index=True)),
            ],
            options={
                "indexes": [models.Index(fields=["address", "at"], name="link_attempt_address")],
            },
        ),
        migrations.CreateModel(
            name="ScoringLink",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("token_hash", models.CharField(max_length=64, unique=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("revoked_at", models.DateTimeField(blank=True, null=True)),
                (
                    "evening",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="scoring_links",
                        to="evenings.evening",
                    ),
                ),
            ],
            options={
                "ordering": ["pk"],
            },
        ),
    ]
