import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scorebook.rules import registry
from scorebook.rules.model import RulesError, to_dict


class Command(BaseCommand):
    help = "List the presets, or show one preset's rules in the shape the evening file's 'rules' field accepts."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        sub.add_parser("list", help="list the presets")
        show = sub.add_parser("show", help="print a preset's rules as JSON")
        show.add_argument("key")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["action"] == "list":
            for rules in registry.all_presets():
                players = f"{rules.min_players}-{rules.max_players}"
                self.stdout.write(f"{rules.key:<14} {rules.family:<9} {players} players  {rules.names.en}")
            return
        try:
            rules = registry.get(options["key"])
        except RulesError as exc:
            self.stderr.write(exc.message)
            sys.exit(2)
        self.stdout.write(json.dumps(to_dict(rules), ensure_ascii=False, indent=2))
