import sys

from django.core.management.base import BaseCommand

from scorebook.core import docs


class Command(BaseCommand):
    help = (
        "Write the parts of docs/ made from the code (the presets' grids, the worked examples, the evening "
        "file's JSON Schema); with --check, only say which files are out of date (exit status 1)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file is out of date")

    def handle(self, *args, check=False, **options):
        paths = docs.stale() if check else docs.write()
        for path in paths:
            self.stdout.write(f"{'out of date' if check else 'written'}: {path.relative_to(docs.ROOT)}")
        if check and paths:
            self.stderr.write("Run `make docs` and commit the files.")
            sys.exit(1)
