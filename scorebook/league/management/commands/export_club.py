import json
import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorebook.clubs.models import Club
from scorebook.league.backup import export_club


class Command(BaseCommand):
    help = (
        "Write a club (members, players, rules, seasons, every evening as an evening file) as JSON. "
        "A file is readable by its owner only (0600)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", help="a file to write (default: standard output)")
        parser.add_argument(
            "--with-secrets",
            action="store_true",
            help="also write the members' password hashes and e-mail addresses, so that they can log in "
            "after a restore into another database (keep such a file like a password)",
        )

    def handle(
        self, *args: Any, slug: str, output: str | None = None, with_secrets: bool = False, **options: Any
    ) -> None:
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise CommandError(f"no club {slug!r}")
        text = json.dumps(export_club(club, with_secrets=with_secrets), ensure_ascii=False, indent=1) + "\n"
        if not output:
            self.stdout.write(text, ending="")
            return
        try:
            fd = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.fchmod(fd, 0o600)  # an existing file too: a backup is for its owner's eyes only
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
        except OSError as exc:
            raise CommandError(f"cannot write {output}: {exc.strerror}") from None
        self.stderr.write(f"{club.name}: written to {output} (readable by its owner only)")
