import json

from django.core.management.base import BaseCommand, CommandError

from scorebook.league.backup import BackupError, import_club
from scorebook.rules.evening_file import FileError
from scorebook.rules.scoring import DealError


class Command(BaseCommand):
    help = "Restore a club written by export_club (into a database that does not hold it yet)."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file, **options):
        try:
            with open(file, encoding="utf-8") as fh:
                data = json.load(fh)
            club = import_club(data)
        except (OSError, json.JSONDecodeError, KeyError, TypeError, BackupError, FileError, DealError) as exc:
            raise CommandError(f"{file}: {exc}") from None
        self.stdout.write(f"{club.name}: {club.evenings.count()} evenings, {club.memberships.count()} members restored")
