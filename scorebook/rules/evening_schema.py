"""The evening file declared as a schema (pydantic): the published JSON Schema is generated from it
(``manage.py docs`` writes ``docs/evening-file.schema.json``), and the site checks every file it
imports against it (``evenings.creation.import_evening``).

What a schema cannot say stays with the engine's reader (``evening_file``), which words every
refusal in the reader's language: that a name in a deal is one of the players, that a contract is
one of the variant's, that the tricks of the two teams add up to 13. Where the schema does speak
(keys, types, lengths, the patterns of the stake, the date and the currency), it takes its bounds
from the reader's own constants, and a test runs every shipped example, every refused file of the
tests and random valid evenings through both: the schema never refuses a file the engine reads.

Imported only where a document from outside is checked (pydantic is not loaded by the pages).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

from . import evening_file, registry
from .model import MAX_TRICKS, Family, RulesError, Trump, to_dict
from .scoring import BETE

SCHEMA_URI = "https://json-schema.org/draft/2020-12/schema"
# the widest whole number a file may hold: MAX_NUMBER_CHARS characters, a minus sign included
LARGEST = 10**evening_file.MAX_NUMBER_CHARS - 1
SMALLEST = -(10 ** (evening_file.MAX_NUMBER_CHARS - 1) - 1)
# a name: no control character, no space at either end (the engine also refuses other unprintable letters)
NAME_PATTERN = r"^[^\s\x00-\x1f\x7f](?:[^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$"

Name = Annotated[
    str,
    StringConstraints(min_length=1, max_length=evening_file.MAX_PLAYER_NAME, pattern=NAME_PATTERN),
    Field(description="A player's name, exactly as in `players`."),
]
Points = Annotated[int, Field(ge=SMALLEST, le=LARGEST)]
Tricks = Annotated[int, Field(ge=0, le=MAX_TRICKS)]


class Document(BaseModel):
    """An object of the file: its keys are its fields, no other key is allowed, no value is coerced."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, regex_engine="python-re")


# --- contract games ---------------------------------------------------------------------------------


class ContractDeal(Document):
    """One contract played (``gand``, ``kleurenwiezen``, ``liege``, ``encheres``)."""

    model_config = ConfigDict(title="Contract deal")

    contract: Annotated[
        str,
        Field(
            min_length=1,
            pattern=r"^(?!pass$)",
            description="A contract key of the variant (`manage.py rules show KEY` lists them).",
        ),
    ]
    declarers: Annotated[list[Name], Field(min_length=1, max_length=4, description="The declaring players.")]
    tricks: Annotated[
        Tricks | dict[Name, Tricks],
        Field(description="Tricks taken by the declaring side, or per declarer for misère and piccolo kinds."),
    ]
    dealer: Name | None = Field(None, description="Who dealt (otherwise it follows from the rotation).")
    playing: Annotated[list[Name], Field(min_length=1, max_length=7)] | None = Field(
        None, description="The four who play (otherwise the four to the dealer's left)."
    )
    trump: Trump | None = Field(None, description="The trump suit, or `none`.")
    trump_changed: bool = Field(False, description="Troel: the trump was changed (the pair then needs 9 tricks).")
    exposed_fault: Name | None = Field(
        None, description="Enchères, misère in association: the opponent a failing partner made take a trick."
    )

    @field_validator("trump", mode="before")
    @classmethod
    def _trump(cls, value: Any) -> Any:  # strict mode takes an enum's member only: read its value
        return Trump(value) if isinstance(value, str) and value in Trump._value2member_map_ else value


class Pass(Document):
    """Everyone passed: the same dealer deals again."""

    model_config = ConfigDict(title="All pass")

    contract: Literal["pass"]
    dealer: Name | None = None
    playing: Annotated[list[Name], Field(min_length=1, max_length=7)] | None = None


class Adjustment(Document):
    """Points given to players by hand, with a reason (any variant)."""

    model_config = ConfigDict(title="Adjustment")

    adjustment: Annotated[dict[Name, Points], Field(min_length=1, description="Points per player.")]
    note: Annotated[str, Field(max_length=200, description="The reason: a revoke, a misdeal, a correction.")] = ""


# --- classic games --------------------------------------------------------------------------------


class Robre(Document):
    """The teams of a new robre, or (``mort``) the player who plays with the dummy."""

    model_config = ConfigDict(title="Robre", json_schema_extra={"minProperties": 1})

    teams: (
        Annotated[
            list[Annotated[list[Name], Field(min_length=2, max_length=2)]],
            Field(min_length=2, max_length=2, description="Team 0 and team 1, two players each."),
        ]
        | None
    ) = None
    dummy_partner: Name | None = Field(None, description="`mort`: who plays with the dummy in this robre.")

    @model_validator(mode="after")
    def _one(self) -> Robre:
        if self.teams is None and self.dummy_partner is None:
            raise ValueError("a robre names its teams or the dummy's partner")
        return self


class RobreStart(Document):
    """A new robre starts (``classique``, ``short``, ``francais``, ``mort``)."""

    model_config = ConfigDict(title="Robre start")

    robre: Robre


Pair = Annotated[list[Tricks], Field(min_length=2, max_length=2)]


class ClassicDeal(Document):
    """One deal of classic whist: what each team took and held."""

    model_config = ConfigDict(title="Classic deal")

    tricks: Annotated[Pair, Field(description="Tricks won by team 0 and team 1 (they add up to 13).")]
    honours: Annotated[
        list[Annotated[int, Field(ge=0, le=5)]],
        Field(min_length=2, max_length=2, description="Honours held by team 0 and team 1."),
    ] = [0, 0]
    dealer: Name | None = None


class Claim(Document):
    """A team standing at the claim score shows its honours and takes the manche without playing."""

    model_config = ConfigDict(title="Claim")

    claim: Annotated[int, Field(ge=0, le=1, description="The team that claims: 0 or 1.")]
    dealer: Name | None = None


Line = ContractDeal | Pass | Adjustment | RobreStart | ClassicDeal | Claim
CONTRACT_LINES = (ContractDeal, Pass, Adjustment)
CLASSIC_LINES = (RobreStart, ClassicDeal, Claim, Adjustment)


def _keys_of(family: Family) -> list[str]:
    return [rules.key for rules in registry.all_presets() if rules.family is family]


def _rules_keys() -> list[str]:
    keys: dict[str, None] = {}
    for rules in registry.all_presets():
        keys.update(dict.fromkeys(to_dict(rules)))
    return list(keys)


def _family_deals(schema: dict[str, Any]) -> None:
    """In the JSON Schema, the deals a variant's family allows (pydantic checks it in ``_family``)."""

    def lines(models: tuple[type[BaseModel], ...]) -> dict[str, Any]:
        return {"items": {"anyOf": [{"$ref": f"#/$defs/{model.__name__}"} for model in models]}}

    schema["allOf"] = [
        {
            "if": {"properties": {"ruleset": {"enum": _keys_of(family)}}},
            "then": {"properties": {"deals": lines(models)}},
        }
        for family, models in ((Family.CONTRACT, CONTRACT_LINES), (Family.CLASSIC, CLASSIC_LINES))
    ]


class EveningFile(Document):
    """One evening: who sat where, the rules, and every deal in order."""

    model_config = ConfigDict(title="Scorebook evening file")

    format: Literal["scorebook-evening/1"]
    ruleset: Annotated[str, Field(json_schema_extra={"enum": registry.keys()}, description="The variant's preset.")]
    rules: (
        Annotated[
            dict[str, Any],
            Field(
                json_schema_extra={"propertyNames": {"enum": _rules_keys()}},
                description="House rules: any part of the preset's rules (`manage.py rules show KEY`), merged on top.",
            ),
        ]
        | None
    ) = None
    date: (
        Annotated[str, Field(pattern=evening_file.DATE.pattern, description="The evening's day, YYYY-MM-DD.")] | None
    ) = None
    players: Annotated[
        list[Annotated[Name, Field(json_schema_extra={"not": {"const": BETE}})]],
        Field(
            min_length=3,
            max_length=7,
            json_schema_extra={"uniqueItems": True},
            description="The players in clockwise order of their seats; each name once.",
        ),
    ]
    first_dealer: Name | None = Field(None, description="Who deals first (by default the first player).")
    stake: (
        Annotated[
            str,
            Field(
                pattern=evening_file.STAKE.pattern,
                description='Money per point (per jeton), a decimal written as text: "0.05". No stake, no money.',
            ),
        ]
        | None
    ) = None
    currency: Annotated[
        str, Field(pattern=evening_file.CURRENCY.pattern, description="ISO 4217, three capital letters.")
    ] = "EUR"
    deals: Annotated[
        list[Line],
        Field(max_length=evening_file.MAX_DEALS, description="Every deal, in the order played."),
    ]

    @field_validator("ruleset")
    @classmethod
    def _preset(cls, value: str) -> str:
        try:
            return registry.get(value).key
        except RulesError:
            raise ValueError(f"unknown variant {value!r}") from None

    @field_validator("players")
    @classmethod
    def _unique(cls, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise ValueError("player names must be unique within the evening")
        if BETE in value:
            raise ValueError(f"{BETE} is the name of the pot, not of a player")
        return value

    @model_validator(mode="after")
    def _family(self) -> EveningFile:
        allowed = CONTRACT_LINES if registry.family(self.ruleset) is Family.CONTRACT else CLASSIC_LINES
        for number, deal in enumerate(self.deals, start=1):
            if not isinstance(deal, allowed):
                raise ValueError(f"deal {number}: a {type(deal).__name__} line has no place in {self.ruleset}")
        return self


class SchemaError(ValueError):
    """A document the schema refuses: ``where`` (its path, such as ``deals[2].tricks``) and ``what``."""

    def __init__(self, where: str, what: str):
        self.where, self.what = where, what
        super().__init__(f"{where}: {what}" if where else what)


def validate(data: Any) -> EveningFile:
    """``data`` (the parsed JSON) as the schema reads it; raises SchemaError naming the first fault."""
    from pydantic import ValidationError

    try:
        return EveningFile.model_validate(data)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        where = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in error["loc"]).lstrip(".")
        raise SchemaError(where, error["msg"]) from None


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the evening file, as ``docs/evening-file.schema.json`` holds it."""
    schema = EveningFile.model_json_schema(mode="validation")
    _family_deals(schema)
    return {"$schema": SCHEMA_URI, **schema}
