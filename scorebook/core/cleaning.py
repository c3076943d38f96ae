"""What people type, cleaned once for every form of the site: names, free text and numbers.

**Names** (of players, clubs, seasons, nights, and the display names of accounts) go through
``clean_name``: control characters are refused; the text is folded by NFKC (a full-width
``Ａｎｎｅ`` is ``Anne``, a superscript ``²`` is ``2``); runs of spaces become one space;
invisible characters and direction marks (a right-to-left override turns ``ennA`` into
what reads as ``Anne``; zero-width spaces hide a difference) are refused, and so is a word that
mixes look-alike letters of two alphabets (a Cyrillic ``А`` in ``Аnne``). Two names are the
same person's to a reader when they share one of their ``skeletons``: the name folded (case, width
and look-alike letters: ``Anne``, ``ANNE``, ``Ａｎｎｅ``), or read as written before its case is
folded (a capital ``I`` is a small ``l`` to the eye, so ``aIice`` is ``Alice``; ``rn`` is ``m``),
each character by its prototype in the Unicode confusables. ``looks_like`` finds the name a new
one would be confused with, ``Names`` holds the names already taken.

**Free text** (a note, a reason, a name) goes through ``clean_text``: control characters other
than line breaks, and the bidi controls (embeddings, overrides, isolates and the marks LRM, RLM,
ALM: they turn the rest of a line around), are refused; so are the invisible characters (Unicode's
format characters: a zero-width space, a byte order mark, a word joiner, a soft hyphen...) and the
line and paragraph separators U+2028 and U+2029 (a line break a reader does not see where a
spreadsheet or a log does). A zero-width joiner stays (an emoji is written with one).

**Dates** a person types to record them (an evening's, a night's, a season's, an expense's) go
through ``DateField``: from 1 January 2000 (``EARLIEST_DATE``: older paper records are not kept
here) to the last day of the year after next (a club plans its next season, which the site proposes
from the end of the last one, and its nights ahead), else refused in words naming both ends; the
phone's date picker offers no other. (A filter's dates record nothing, and find what they find.)

**Numbers** are written with the digits 0 to 9 only: Python's ``int`` also reads ``١٢`` and
``１２`` (and ``str.isdigit`` says yes to ``²``, which ``int`` then refuses with an exception).
``IntegerField`` and ``DecimalField`` are Django's with that rule (and no NaN, infinity or
exponent); ``whole_number`` reads a number a view takes from a request by hand.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterable
from datetime import date
from decimal import Decimal
from functools import lru_cache
from typing import Any

from confusable_homoglyphs import confusables
from confusable_homoglyphs.confusables import confusables_data
from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Field, Model
from django.utils import formats, timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

LINE_BREAKS = "\n\r"
# Unicode's Bidi_Control characters: the marks ALM, LRM, RLM; embeddings, overrides, isolates
DIRECTION = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# what a reader does not see in free text: format characters (zero-width space, byte order mark, word
# joiner, soft hyphen...; the bidi controls are among them) and the line and paragraph separators
INVISIBLE_CATEGORIES = {"Cf", "Zl", "Zp"}
ZERO_WIDTH_JOINER = "\u200d"
_DIGITS_TO_LETTERS = str.maketrans({"0": "o", "1": "l", "|": "l"})
# the plain characters the confusables table reads as others: I and 1 as l, 0 as O, m as rn...
_ASCII_LOOKALIKES = {
    c: glyphs[0]["c"]
    for c in map(chr, range(0x21, 0x7F))
    if len(glyphs := confusables_data.get(c, ())) == 1 and glyphs[0]["c"].isascii()
}
_WHOLE = re.compile(r"[+-]?[0-9]+\Z")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)\Z")


def _has_control(value: str, allowed: str = "\t" + LINE_BREAKS) -> bool:
    return any(unicodedata.category(c) == "Cc" and c not in allowed for c in value)


def clean_name(value: str, *, max_length: int = 40) -> str:
    """The name as it is kept, or a ValidationError that says what is wrong with it."""
    if _has_control(value):
        raise ValidationError(_("A name cannot hold control characters."), code="control")
    name = " ".join(unicodedata.normalize("NFKC", value).split())
    if not name.isprintable():
        raise ValidationError(
            _("A name cannot hold invisible characters or direction marks: type it again."), code="invisible"
        )
    mixed = next((word for word in name.split() if confusables.is_dangerous(word)), None)
    if mixed is not None:
        raise ValidationError(
            _("“%(word)s” mixes letters of different alphabets that look alike: type it in one."),
            code="mixed_script",
            params={"word": mixed},
        )
    if not name:
        raise ValidationError(_("Type a name."), code="required")
    if len(name) > max_length:
        raise ValidationError(
            _("At most %(limit_value)d characters (this name has %(show_value)d): shorten it."),
            code="max_length",
            params={"limit_value": max_length, "show_value": len(name)},
        )
    return name


def shown(text: str) -> str:
    """Text typed by someone, safe to repeat in a message: every control, invisible or direction
    character replaced by U+FFFD (an override would turn the rest of the message around)."""
    return "".join(c if c == " " or c.isprintable() else "\ufffd" for c in text)


def _invisible(char: str) -> bool:
    """A character a reader does not see: a format character (but the zero-width joiner of an emoji)
    or a line or paragraph separator."""
    return unicodedata.category(char) in INVISIBLE_CATEGORIES and char != ZERO_WIDTH_JOINER


def clean_text(value: str, *, multiline: bool = False) -> str:
    """Free text (a note, a reason): no control characters (line breaks when ``multiline``), no
    bidi controls, no invisible characters nor line separators; stripped."""
    if _has_control(value, allowed=("\t" + LINE_BREAKS) if multiline else "\t") or DIRECTION & set(value):
        raise ValidationError(_("This text cannot hold control characters or direction marks."), code="control")
    if any(_invisible(c) for c in value):
        raise ValidationError(
            _("This text holds an invisible character or a line separator (pasted with it, perhaps): type it again."),
            code="invisible",
        )
    return value.strip()


@lru_cache(maxsize=4096)
def _plain(char: str) -> str:
    if char.isascii():
        return char
    glyphs = [g["c"] for g in confusables_data.get(char, ())]
    ascii_glyphs = sorted(g for g in glyphs if g.isascii())
    if ascii_glyphs:
        return ascii_glyphs[0]
    return min([char, *glyphs])  # one representative for a group of non-Latin look-alikes


def skeleton(name: str) -> str:
    """What a name looks like: folded (NFKC, case), each character replaced by a plain ASCII one
    it can be confused with (the Unicode confusables table), 0 read as o and 1 as l, spaces
    made single. Two names with one skeleton are one name to a reader."""
    # look-alikes are mapped before and after case folding: a capital's look-alike may differ
    plain = "".join(_plain(c) for c in unicodedata.normalize("NFKC", name))
    folded = unicodedata.normalize("NFKC", plain).casefold()
    return " ".join("".join(_plain(c) for c in folded).translate(_DIGITS_TO_LETTERS).split())


def _as_written(name: str) -> str:
    """The skeleton of the name as written: each character by its look-alike before the case is
    folded (``aIice``: ``alice``), so a capital that passes for a small letter is read as one."""
    plain = "".join(_ASCII_LOOKALIKES.get(c) or _plain(c) for c in unicodedata.normalize("NFKC", name))
    folded = unicodedata.normalize("NFKC", plain).casefold()
    return " ".join("".join(_plain(c) for c in folded).translate(_DIGITS_TO_LETTERS).split())


def skeletons(name: str) -> frozenset[str]:
    """Every way a reader may see the name: folded (``skeleton``) and as written (a capital I read as
    a small l). Two names look alike when they share one."""
    return frozenset((skeleton(name), _as_written(name)))


def looks_like(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` a reader would take for ``name`` (itself, in other capitals, or a
    look-alike), or None."""
    wanted = skeletons(name)
    return next((other for other in others if not wanted.isdisjoint(skeletons(other))), None)


class Names:
    """Names already taken (a roster, a list being typed), found by any of their skeletons:
    ``names.like(name)`` is the one taken that ``name`` would be read as, or None."""

    def __init__(self, names: Iterable[str] = ()) -> None:
        self._by_skeleton: dict[str, str] = {}
        for name in names:
            self.add(name)

    def add(self, name: str) -> None:
        for key in skeletons(name):
            self._by_skeleton.setdefault(key, name)

    def like(self, name: str) -> str | None:
        return next((self._by_skeleton[k] for k in sorted(skeletons(name)) if k in self._by_skeleton), None)

    def __contains__(self, name: str) -> bool:
        return self.like(name) is not None


HEADERS = {
    "name",
    "names",
    "player",
    "players",
    "nom",
    "noms",
    "joueur",
    "joueurs",
    "naam",
    "namen",
    "speler",
    "spelers",
}


def pasted_names(text: str) -> list[str]:
    """The names in a pasted list, each as typed (``clean_name`` cleans them): one name a line; a
    row copied from two spreadsheet columns (first name, last name: a tab between) is one name;
    semicolons separate names on one line. Empty lines and cells are left out."""
    names = []
    for line in text.removeprefix("\ufeff").splitlines():
        for part in line.split(";"):
            name = " ".join(cell.strip() for cell in part.split("\t") if cell.strip())
            if name:
                names.append(name)
    return names


def csv_names(text: str) -> list[str]:
    """The names in a CSV file's first column (comma, semicolon or tab between columns, as a
    spreadsheet writes them); a first row that reads Name, Nom, Naam (or Player...) is a header."""
    text = text.removeprefix("\ufeff")
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    rows = [row for row in csv.reader(io.StringIO(text), dialect) if row and row[0].strip()]
    if rows and rows[0][0].strip().casefold() in HEADERS:
        rows = rows[1:]
    return [row[0].strip() for row in rows]


def whole_number(raw: object, *, low: int | None = None, high: int | None = None) -> int | None:
    """A whole number written with the digits 0-9 (within ``low``..``high``), or None."""
    if not isinstance(raw, str) or not _WHOLE.match(raw.strip()) or len(raw.strip()) > 20:
        return None
    number = int(raw)
    if (low is not None and number < low) or (high is not None and number > high):
        return None
    return number


def decimal_number(raw: object) -> Decimal | None:
    """A decimal number written with the digits 0-9 and a point (no NaN, infinity or exponent), or None."""
    if not isinstance(raw, str) or not _DECIMAL.match(raw.strip()) or len(raw.strip()) > 30:
        return None
    return Decimal(raw.strip())


def max_length(model: type[Model], field: str) -> int:
    """The most characters a model's text field holds (what a name typed for it is cleaned to)."""
    found = model._meta.get_field(field)
    length = found.max_length if isinstance(found, Field) else None
    if length is None:
        raise ValueError(f"{model.__name__}.{field} has no length")
    return length


class NameField(forms.CharField):
    """A name, cleaned by ``clean_name`` (its error said next to the field)."""

    def __init__(self, *, max_length: int = 40, **kwargs: Any) -> None:
        super().__init__(max_length=None, **kwargs)
        self.name_length = max_length

    def to_python(self, value: Any) -> str:
        value = super().to_python(value)
        if value in self.empty_values:
            return value
        return clean_name(value, max_length=self.name_length)


class IntegerField(forms.IntegerField):
    """Django's, refusing anything but the digits 0-9 (``²``, ``١٢``, ``１２`` are no numbers here)."""

    def to_python(self, value: Any) -> int | None:
        if value not in self.empty_values and not isinstance(value, int):
            text = str(value).strip()
            if self.localize:
                text = formats.sanitize_separators(text)
            if not _WHOLE.match(self.re_decimal.sub("", text)):
                raise ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)


class DecimalField(forms.DecimalField):
    """Django's, refusing anything but the digits 0-9 and one decimal point (no NaN, infinity or
    exponent)."""

    # Django's DecimalField subclasses its IntegerField and returns a Decimal: django-stubs ignores the same override
    def to_python(self, value: Any) -> Decimal | None:  # type: ignore[override]
        if value not in self.empty_values and isinstance(value, str):
            text = formats.sanitize_separators(value.strip()) if self.localize else value.strip()
            if not _DECIMAL.match(text):
                raise ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)


EARLIEST_DATE = date(2000, 1, 1)
YEARS_AHEAD = 2  # to the end of the year after next


def date_bounds() -> tuple[date, date]:
    """The first and the last date a person may type today."""
    return EARLIEST_DATE, date(timezone.localdate().year + YEARS_AHEAD, 12, 31)


class DateInput(forms.DateInput):
    """The phone's date picker (ISO dates), offering only the dates ``DateField`` takes."""

    input_type = "date"

    def __init__(self, attrs: dict[str, Any] | None = None):
        super().__init__(attrs, format="%Y-%m-%d")

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        low, high = date_bounds()
        return super().get_context(name, value, {"min": low.isoformat(), "max": high.isoformat(), **(attrs or {})})


class DateField(forms.DateField):
    """A date a person types: from ``EARLIEST_DATE`` to the end of the year after next."""

    widget = DateInput

    def validate(self, value: date | None) -> None:
        super().validate(value)
        if value is None or value in self.empty_values:
            return
        check_date(value)


def check_date(value: date) -> date:
    """A date a person may type (``date_bounds``), else the sentence next to his field: what a form's
    date and a date in a file (a club's backup) go through."""
    low, high = date_bounds()
    if not low <= value <= high:
        raise ValidationError(
            _("Choose a date from %(low)s to %(high)s."),
            code="out_of_range",
            params={"low": date_format(low, "DATE_FORMAT"), "high": date_format(high, "DATE_FORMAT")},
        )
    return value
