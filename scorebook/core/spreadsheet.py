"""CSV for spreadsheets: a cell that a spreadsheet would read as a formula is written as text.

A cell starting with ``=``, ``+``, ``-``, ``@`` (or a tab or carriage return, which some
spreadsheets skip before them) gets a leading apostrophe, unless it is a plain number
such as ``-3`` or ``+1.50``, or a lone ``=`` (no formula: the standings' "no movement"):
a player called ``=HYPERLINK(…)`` stays a name.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import Any

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?\d+(?:[.,]\d+)?")


def safe_cell(value: Any) -> str:
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_START) and text != "=" and not PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


class SafeWriter:
    """``csv.writer`` whose every cell goes through ``safe_cell``."""

    def __init__(self, stream, **options):
        self._writer = csv.writer(stream, **options)

    def writerow(self, row: Iterable[Any]):
        return self._writer.writerow([safe_cell(cell) for cell in row])

    def writerows(self, rows: Iterable[Iterable[Any]]):
        for row in rows:
            self.writerow(row)


def writer(stream, **options) -> SafeWriter:
    return SafeWriter(stream, **options)
