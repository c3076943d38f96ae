import json

from django.core.management.base import BaseCommand, CommandError

from scorebook.league.backup import export_club
from scorebook.clubs.models import Club


class Command(BaseCommand):
    help = "Write a club (members, players, rules, seasons, every evening as an evening file) as JSON."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", help="a file to write (default: standard output)")

    def handle(self, *args, slug, output=None, **options):
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise CommandError(f"no club {slug!r}")
        text = json.dumps(export_club(club), ensure_ascii=False, indent=1)
        if output:
            with open(output, "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
            self.stderr.write(f"{club.name}: written to {output}")
        else:
            self.stdout.write(text)
