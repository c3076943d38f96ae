import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scorebook.rules.evening_file import FileError, score_file
from scorebook.rules.scoring import DealError


class Command(BaseCommand):
    help = "Score an evening file (docs/evening-file.md) and print the totals as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the evening file, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            if path == "-":
                text = sys.stdin.buffer.read()
            else:
                with open(path, "rb") as fh:
                    text = fh.read()
        except OSError as exc:
            self.stderr.write(f"cannot read {path}: {exc.strerror}")
            sys.exit(2)
        try:
            report = score_file(text)
        except (FileError, DealError) as exc:
            self.stderr.write(f"{path}: {exc}")
            sys.exit(2)
        self.stdout.write(json.dumps(report, ensure_ascii=False, indent=2))
