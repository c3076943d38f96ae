"""The tests build tables from the models (--no-migrations); this keeps the migrations in step with them.
The migrations themselves run in the fresh-clone test of `make run` (tests/test_readme.py)."""

from io import StringIO

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_it_has_a_migration_for_every_model_change(settings):
    settings.MIGRATION_MODULES = {}  # read the real migrations, which --no-migrations hides
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as exit:  # makemigrations --check exits 1 when a migration is missing
        pytest.fail(f"missing migration (exit {exit.code}):\n{out.getvalue()}")
