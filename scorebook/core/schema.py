"""JSON documents checked against a declared schema, each refusal one sentence naming its field.

The club backup (``league.backup_schema``, with its nights: ``nights.backup_schema``) is declared
with pydantic v2: a ``Schema`` class per kind of object, a field per key, a type per value.
Why pydantic rather than Django forms: a backup is a nested JSON document (lists of objects
holding lists of objects), and pydantic validates nested models and lists with the path of every
fault (``nights[0]: tables[2]: session``), in strict mode (no "1" taken for 1, no true for 1).
Django forms read flat HTML form data, where every value is a string to coerce; a nested document
would need a formset per list and hand-made paths, which is what this replaces.

The sentences are the site's own, not pydantic's: every value is read by a validator of this
module (``Text``, ``Whole``, ``Day``...) that raises ``fault(what)``; ``read`` turns the first
fault into ``"<where>: <what>."``, where is the field's path in the document. A ``Schema`` checks
the keys of its object before its fields (unknown key first, then a missing one), or refuses any
fault of its keys with one sentence of its own (``shape``). Relations between fields (a last
day after the first, a name given twice, a reference to another list) are ``model_validator`` or
``field_validator`` methods of the schema that holds both; they raise ``fault(what, *at)``, ``at``
naming the field below the one validated (``fault("...", 2, "account")``: ``players[2]: account``).

To extend a document: a new ``Schema`` class, and a field for it, with a default when older
documents lack it. The modules that declare a schema are imported when a document is read (not by
the pages or the other commands: pydantic is not loaded at every start).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from datetime import UTC, date, datetime, timedelta
from typing import Annotated, Any, ClassVar

from django.core.exceptions import ValidationError as FormError
from django.utils import timezone
from django.utils.dateparse import parse_date
from pydantic import BaseModel, ConfigDict, PlainValidator, ValidationError, model_validator
from pydantic_core import PydanticCustomError

from scorebook.core import cleaning
from scorebook.rules import registry

FAULT = "fault"


def fault(what: str, *at: str | int, of_object: bool = False) -> PydanticCustomError:
    """A fault of the value being validated, or of its part ``at`` (keys and list places); with
    ``of_object``, the sentence names the object that holds the value rather than its key."""
    return PydanticCustomError(FAULT, "{what}", {"what": what, "at": at, "of_object": of_object})


# --- the objects ------------------------------------------------------------------------------------


class Schema(BaseModel):
    """An object of the document. Its keys are its fields' names (or aliases): an unknown key, then a
    missing one, is refused before any value is read; ``shape``, when given, is the one sentence for
    any fault of the object's keys."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    shape: ClassVar[str] = ""  # "{keys}" in it: the object's keys

    @model_validator(mode="before")
    @classmethod
    def _keys(cls, data: Any) -> Any:
        keys = {field.alias or name: field.is_required() for name, field in cls.model_fields.items()}
        if cls.shape:
            required = {key for key, needed in keys.items() if needed}
            if not isinstance(data, dict) or not required <= set(data) <= set(keys):
                raise fault(cls.shape.format(keys=cls.keys_sentence()))
            return data
        if not isinstance(data, dict):
            raise fault("an object is expected")
        unknown = sorted(set(data) - set(keys))
        if unknown:
            raise fault(f"unknown key {unknown[0]!r}")
        missing = sorted(key for key, required in keys.items() if required and key not in data)
        if missing:
            raise fault(f"the key {missing[0]!r} is missing")
        return data

    @classmethod
    def keys_sentence(cls) -> str:
        """The object's keys, as a sentence names them."""
        return ", ".join(sorted(field.alias or name for name, field in cls.model_fields.items()))


# --- the values -----------------------------------------------------------------------------------


def value(check: Callable[[Any], Any]) -> PlainValidator:
    """A value read by ``check`` alone (it raises ``fault``; pydantic's own reading is not used)."""
    return PlainValidator(check)


def whole(raw: Any, low: int, high: int, *at: str | int) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        raise fault(f"a whole number from {low} to {high} is expected", *at)
    return raw


def Whole(low: int, high: int, *, none: bool = False) -> Any:
    """A whole number from ``low`` to ``high`` (or null, with ``none``)."""

    def check(raw: Any) -> int | None:
        return None if none and raw is None else whole(raw, low, high)

    return Annotated[int | None if none else int, value(check)]


def text(raw: Any, max_length: int, *, empty: bool = False) -> str:
    if not isinstance(raw, str):
        raise fault("a text is expected")
    if not empty and not raw.strip():
        raise fault("it cannot be empty")
    if len(raw) > max_length:
        raise fault(f"at most {max_length} characters")
    if not raw.isprintable():
        raise fault("it holds control characters")
    return raw


def _said(error: FormError) -> str:
    """A form's refusal as one sentence of a document's refusal (its final full stop left to ``read``)."""
    return " ".join(str(m) for m in error.messages).rstrip(".")


def Name(max_length: int, *, empty: bool = False) -> Any:
    """A name, cleaned as every form of the site cleans one (``core.cleaning.clean_name``: the same
    refusals in the same words; the name kept as the form keeps it)."""

    def check(raw: Any) -> str:
        if not isinstance(raw, str):
            raise fault("a text is expected")
        if empty and not raw.strip():
            return ""
        try:
            return cleaning.clean_name(raw, max_length=max_length)
        except FormError as error:
            raise fault(_said(error)) from None

    return Annotated[str, value(check)]


def FreeText(max_length: int) -> Any:
    """Free text (a note, a reason), cleaned as the forms clean it (``core.cleaning.clean_text``)."""

    def check(raw: Any) -> str:
        if not isinstance(raw, str):
            raise fault("a text is expected")
        if len(raw) > max_length:
            raise fault(f"at most {max_length} characters")
        try:
            return cleaning.clean_text(raw)
        except FormError as error:
            raise fault(_said(error)) from None

    return Annotated[str, value(check)]


def plain_strings(data: Any, *at: str | int) -> None:
    """Every text in ``data`` (a JSON value: its keys too) cleaned as free text (``FreeText``): rules
    and other documents of a document hold no control character or direction mark either."""
    if isinstance(data, str):
        try:
            cleaning.clean_text(data)
        except FormError as error:
            raise fault(_said(error), *at) from None
    elif isinstance(data, dict):
        for key, item in data.items():
            plain_strings(key, *at)
            plain_strings(item, *at, key)
    elif isinstance(data, list):
        for k, item in enumerate(data):
            plain_strings(item, *at, k)


EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)  # before any Scorebook


def moment(raw: Any) -> datetime:
    """A moment as a document writes it (ISO 8601 with its offset), within reason: from 2000 to
    tomorrow (what a record of the site can say of when something was done)."""
    if isinstance(raw, datetime):
        found = raw
    else:
        try:
            parsed = datetime.fromisoformat(raw) if isinstance(raw, str) else None
        except ValueError:
            parsed = None
        if parsed is None:
            raise fault("a date and time (ISO 8601) is expected")
        found = parsed
    if found.tzinfo is None:
        raise fault("a date and time with its offset is expected")
    if not EARLIEST <= found <= timezone.now() + timedelta(days=1):
        raise fault("a date and time from 2000 to today is expected")
    return found


Moment = Annotated[datetime, value(moment)]


def OneOf(choices: Iterable[str], sentence: str = "") -> Any:
    """One of ``choices`` (a list, or Django's ``TextChoices.values``)."""
    allowed = list(choices)

    def check(raw: Any) -> str:
        if raw not in allowed:
            raise fault(sentence or f"{raw!r} is not one of {', '.join(allowed)}")
        return raw

    return Annotated[str, value(check)]


def day(raw: Any) -> date:
    try:
        parsed = parse_date(raw) if isinstance(raw, str) else None
    except ValueError:  # well formed, but no such day
        parsed = None
    if parsed is None:
        raise fault("a date written YYYY-MM-DD is expected")
    return a_typed_date(parsed)


def a_typed_date(found: date) -> date:
    """A date within what a person may type on the site (``cleaning.check_date``: the same sentence)."""
    try:
        return cleaning.check_date(found)
    except FormError as error:
        raise fault(_said(error)) from None


Day = Annotated[date, value(day)]


def flag(raw: Any) -> bool:
    if not isinstance(raw, bool):
        raise fault("true or false is expected")
    return raw


Flag = Annotated[bool, value(flag)]


def variant(raw: Any) -> str:
    presets = registry.keys()
    if not isinstance(raw, str) or raw not in presets:
        raise fault(f"unknown variant {raw!r}")
    return raw


Variant = Annotated[str, value(variant)]  # the key of a preset


def among(raw: Any, known: Collection[int]) -> bool:
    """``raw`` is one of ``known`` whole numbers (whatever ``raw`` is: a list, a text, true...)."""
    return isinstance(raw, int) and not isinstance(raw, bool) and raw in known


def an_object(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise fault("an object is expected")
    return raw


Object = Annotated[dict[str, Any], value(an_object)]


def a_list(raw: Any) -> list[Any]:
    if not isinstance(raw, list):
        raise fault("a list is expected")
    return raw


RawList = Annotated[list[Any], value(a_list)]


# --- reading a document ---------------------------------------------------------------------------

_STRUCTURE = {  # pydantic's own faults, should a value reach one: the same sentences
    "list_type": "a list is expected",
    "dict_type": "an object is expected",
    "model_type": "an object is expected",
}


def place(path: Iterable[str | int], root: str) -> str:
    """A field's path as a sentence names it: ``evenings[3]: payments[0]: amount`` (``root``: the document)."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f": {part}" if out else str(part)
    return out or root


def read[S: BaseModel](schema: type[S], data: Any, *, root: str, refusal: Callable[[str, str], Exception]) -> S:
    """``data`` as ``schema``; its first fault raised as ``refusal(where, what)`` (a sentence naming the field)."""
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        path = tuple(error["loc"])
        if error["type"] == FAULT:
            path = path[:-1] if error["ctx"]["of_object"] else path + tuple(error["ctx"]["at"])
            what = error["ctx"]["what"]
        elif error["type"] == "missing":
            path, what = path[:-1], f"the key {path[-1]!r} is missing"
        elif error["type"] == "extra_forbidden":
            path, what = path[:-1], f"unknown key {path[-1]!r}"
        else:
            what = _STRUCTURE.get(error["type"], error["msg"])
        raise refusal(place(path, root), what) from None
