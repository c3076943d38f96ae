"""CSV for spreadsheets: a cell that a spreadsheet would read as a formula is written as text.

A cell is read as a spreadsheet reads it before it is judged: folded (NFKC: a full-width ``＝`` is
``=``) and without what comes before its first visible character (spaces, tabs, line breaks,
invisible characters such as a byte order mark or a zero-width space). If that starts with ``=``,
``+``, ``-`` or ``@``, the cell gets a leading apostrophe, unless it is a plain number such as
``-3`` or ``+1.50``, or a lone ``=`` (no formula: the standings' "no movement"): a player called
``=HYPERLINK(…)`` stays a name, and so does a note ``\ufeff=1``.
"""

from __future__ import annotations

import csv
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.http import HttpResponse
from django.utils.http import content_disposition_header
from django.utils.text import slugify

from .formatting import lang

FORMULA_START = ("=", "+", "-", "@")
PLAIN_NUMBER = re.compile(r"[+-]?\d+(?:[.,]\d+)?")


def _unseen(char: str) -> bool:
    """What a spreadsheet passes over before a formula: white space, controls, invisible characters."""
    return char.isspace() or unicodedata.category(char) in {"Cc", "Cf", "Zl", "Zp", "Zs"}


def read_as(text: str) -> str:
    """The cell as a spreadsheet reads its start: folded (NFKC), from its first visible character."""
    folded = unicodedata.normalize("NFKC", text)
    start = next((i for i, char in enumerate(folded) if not _unseen(char)), len(folded))
    return folded[start:]


def safe_cell(value: Any) -> str:
    text = "" if value is None else str(value)
    seen = read_as(text)
    if seen.startswith(FORMULA_START) and text != "=" and not PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


class SafeWriter:
    """``csv.writer`` whose every cell goes through ``safe_cell``."""

    def __init__(self, stream: Any, **options: Any) -> None:  # a file, or an HttpResponse: anything with write()
        self._writer = csv.writer(stream, **options)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow([safe_cell(cell) for cell in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def writer(stream: Any, **options: Any) -> SafeWriter:
    return SafeWriter(stream, **options)


# --- in the reader's language ----------------------------------------------------------------


@dataclass(frozen=True)
class Format:
    """How a spreadsheet of the language reads a CSV file: Belgian and French Excel split
    columns on ``;`` and read ``1,50`` as a number; English ones use ``,`` and ``1.50``."""

    delimiter: str
    decimal: str


LOCAL_FORMATS = {"fr": Format(";", ","), "nl": Format(";", ",")}
ENGLISH = Format(",", ".")


def local_format(code: str | None = None) -> Format:
    return LOCAL_FORMATS.get(code or lang(), ENGLISH)


def number(value: Decimal | Fraction | int | None, places: int | None = None, fmt: Format | None = None) -> str:
    """A number as the language's spreadsheet reads it: ``-1.5`` -> ``-1,50`` in French and Dutch
    (no grouping, a plain minus: the cell stays a number). ``places`` None: as it is."""
    if value is None:
        return ""
    fmt = fmt or local_format()
    if isinstance(value, Fraction):
        value = Decimal(value.numerator) / Decimal(value.denominator)
    if places is not None:
        value = round(Decimal(value), places)
    text = format(value, "f") if isinstance(value, Decimal) else str(value)
    return text.replace(".", fmt.decimal)


def csv_download(
    filename: str, header: Iterable[Any], rows: Iterable[Iterable[Any]], fmt: Format | None = None
) -> HttpResponse:
    """A CSV attachment in the language's format, with a byte order mark (spreadsheets then read
    UTF-8 names right), never a formula (``safe_cell``), never kept by a cache."""
    fmt = fmt or local_format()
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(as_attachment=True, filename=filename)
    response["Cache-Control"] = "private, no-store"
    response.write("\ufeff")
    out = writer(response, delimiter=fmt.delimiter)
    out.writerow(header)
    out.writerows(rows)
    return response


def file_name(*parts: str, extension: str = "csv") -> str:
    """``de-troef``, ``Saison 2026``, ``klassement`` -> ``de-troef-saison-2026-klassement.csv``."""
    words = [slugify(p) for p in parts if p and slugify(p)]
    return "-".join(words) + "." + extension
