from django.core.management.base import BaseCommand, CommandError

from scorebook.league.backup import BackupError, import_club
from scorebook.rules.evening_file import FileError, parse_json

MAX_BYTES = 50 * 1024 * 1024


class Command(BaseCommand):
    help = (
        "Restore a club written by export_club (into a database that does not hold it yet). "
        "Every field is checked first; nothing is written when anything is wrong."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument(
            "--account",
            action="append",
            default=[],
            metavar="FILE_NAME=USER",
            help="attach the backup's account FILE_NAME to the existing user USER here (with the backup's role "
            "for it); without it, an account whose user name exists here stops the restore",
        )

    def handle(self, *args, file, account, **options):
        mapping = {}
        for item in account:
            name, sep, target = item.partition("=")
            if not sep or not name or not target:
                raise CommandError(f"--account {item!r}: write it FILE_NAME=USER.")
            mapping[name] = target
        try:
            with open(file, "rb") as fh:
                raw = fh.read(MAX_BYTES + 1)
        except OSError as exc:
            raise CommandError(f"{file}: cannot read it: {exc.strerror}.") from None
        if len(raw) > MAX_BYTES:
            raise CommandError(f"{file}: larger than {MAX_BYTES // (1024 * 1024)} MB; not a club backup.")
        try:
            club = import_club(parse_json(raw), account_map=mapping)
        except FileError as exc:
            raise CommandError(f"{file}: {exc}") from None
        except BackupError as exc:
            raise CommandError(f"{file}: {exc} Nothing was restored.") from None
        self.stdout.write(f"{club.name}: {club.evenings.count()} evenings, {club.memberships.count()} members restored")
