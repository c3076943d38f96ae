import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scorebook.nights.seating import PlanError, make_plan


class Command(BaseCommand):
    help = (
        'Print a club night\'s seating plan as JSON: {"sessions": [{"tables": [[1, 5, 9, 13], ...]}, ...]}, '
        "players numbered 1..N, each table in seat order from its first dealer."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True, help="how many players (N, numbered 1..N)")
        parser.add_argument("--sessions", type=int, required=True, help="how many sessions")
        parser.add_argument("--seed", type=int, default=0, help="the same seed gives the same plan")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            plan = make_plan(options["players"], options["sessions"], seed=options["seed"])
        except PlanError as exc:
            self.stderr.write(str(exc))
            sys.exit(2)
        self.stdout.write(json.dumps(plan.as_dict()))
