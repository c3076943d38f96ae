"""``python -m tools.docs``: see the package's docstring."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import pages, translations


def _report(paths: list[Path], what: str) -> None:
    for path in paths:
        print(f"{what}: {path.relative_to(pages.ROOT)}")  # noqa: T201


def _translations() -> int:
    """Which translations are behind their English page (and what changed in English), or depart from
    its outline."""
    behind = translations.out_of_date()
    for path, why in behind.items():
        print(f"out of date: {path.relative_to(pages.ROOT)} ({why})")  # noqa: T201
        print(translations.changes_since(path))  # noqa: T201
    departing = {path: translations.mismatches(path) for path in translations.translations()}
    for path, faults in departing.items():
        for fault in faults:
            print(f"not the English page's outline: {path.relative_to(pages.ROOT)}: {fault}")  # noqa: T201
    if behind:
        print("Bring each translation up to date, then: python -m tools.docs stamp FILE...")  # noqa: T201
    return 1 if behind or any(departing.values()) else 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.docs", description=__doc__)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file is out of date")
    parser.add_argument("command", nargs="?", choices=["translations", "stamp"])
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args(argv)
    if args.command == "translations":
        return _translations()
    if args.command == "stamp":
        for path in args.files:
            translations.stamp(path.resolve())
        _report([path.resolve() for path in args.files], "stamped")
        return 0
    if args.check:
        stale = pages.stale()
        _report(stale, "out of date")
        if stale:
            print("Run `make docs` and commit the files.", file=sys.stderr)  # noqa: T201
        return 1 if stale else 0
    _report(pages.write(), "written")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
