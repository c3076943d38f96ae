"""Rebuild what is stored of evenings from their deals: each deal's result and the state after it,
the evening's state and summary, its seats' figures (``services.rebuild``).

python manage.py refresh_summaries               # every evening
python manage.py refresh_summaries --evening 12  # one evening
"""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorebook.evenings import services
from scorebook.evenings.models import Evening


class Command(BaseCommand):
    help = "Rebuild what evenings store of their deals (results, states, summaries, seat figures) from the deals."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--evening", type=int, metavar="PK", help="Only this evening.")

    def handle(self, *args: Any, evening: int | None = None, **options: Any) -> None:
        evenings = Evening.objects.order_by("pk")
        if evening is not None:
            evenings = evenings.filter(pk=evening)
            if not evenings.exists():
                raise CommandError(f"There is no evening {evening}.")
        changed = 0
        for item in evenings.iterator():
            before = item.summary
            try:
                services.rebuild(item)
            except services.Unscorable as unscorable:
                self.stderr.write(f"evening {item.pk}: its deals cannot be scored: {unscorable.error}")
                continue
            changed += before != item.summary
        self.stdout.write(f"{evenings.count()} evenings read, {changed} summaries rebuilt.")
