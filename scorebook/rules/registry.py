"""The registry of presets: look a variant up by key, and resolve house rules on top of it."""

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from .messages import gettext_noop
from .model import Family, RulesError, Ruleset, to_dict
from .presets import COMMON, PRESETS
from .reading import merge, ruleset_from_dict

_BY_KEY: dict[str, Ruleset] = {rules.key: rules for rules in PRESETS}


def keys() -> list[str]:
    return list(_BY_KEY)


def all_presets() -> list[Ruleset]:
    return list(_BY_KEY.values())


def get(key: str) -> Ruleset:
    try:
        return _BY_KEY[key]
    except KeyError:
        raise RulesError(
            "ruleset", gettext_noop("unknown variant %(key)r (known: %(known)s)"), key=key, known=", ".join(_BY_KEY)
        ) from None


def common_contracts(key: str) -> tuple[str, ...]:
    """The variant's contracts, most often played first (as its preset declares them)."""
    return COMMON.get(key, ())


def choices(lang: str = "fr") -> list[tuple[str, str]]:
    """(key, name) pairs for a form or a model field."""
    return [(rules.key, rules.names.get(lang)) for rules in _BY_KEY.values()]


def family(key: str) -> Family:
    return get(key).family


def resolve(key: str, overrides: Mapping[str, Any] | None = None) -> Ruleset:
    """The preset ``key`` with house-rule ``overrides`` merged on top, validated.

    Rulesets are immutable, so a result is kept for the same (key, overrides): every
    page of an evening resolves the same stored copy of its rules.
    """
    preset = get(key)
    if not overrides:
        return preset
    if not isinstance(overrides, Mapping):
        raise RulesError("rules", gettext_noop("must be an object"))
    try:
        text = json.dumps(overrides, sort_keys=True)
    except (TypeError, ValueError):
        raise RulesError("rules", gettext_noop("must be JSON data")) from None
    return _resolve(key, text)


@lru_cache(maxsize=256)
def _resolve(key: str, overrides_json: str) -> Ruleset:
    preset = get(key)
    overrides = json.loads(overrides_json)
    base = to_dict(preset)
    if set(overrides) >= set(base):
        # a complete copy of the rules (what an evening keeps) is read as it is: merged on
        # the preset, a trick cell its house rules removed would come back from the preset.
        # Its keys were sorted for the cache: put them back in the preset's order.
        merged = _in_order_of(base, overrides)
    else:
        merged = merge(base, overrides)
    for fixed in ("key", "family"):
        if merged[fixed] != base[fixed]:
            raise RulesError(fixed, gettext_noop("cannot be changed (the preset is %(key)r)"), key=preset.key)
    return ruleset_from_dict(merged)


def _in_order_of(base: Any, value: Any) -> Any:
    """``value`` with the keys of its objects in the order of ``base`` (keys it adds last)."""
    if not isinstance(value, dict) or not isinstance(base, dict):
        return value
    keys = [k for k in base if k in value] + [k for k in value if k not in base]
    return {k: _in_order_of(base.get(k), value[k]) for k in keys}


def diff(key: str, rules: Ruleset) -> dict[str, Any]:
    """The smallest override that turns preset ``key`` into ``rules`` (for export)."""
    override: dict[str, Any] = _diff(to_dict(get(key)), to_dict(rules))
    return override


def _diff(base: Any, new: Any) -> Any:
    if isinstance(base, dict) and isinstance(new, dict):
        out = {}
        for k in new:
            if k not in base:
                out[k] = new[k]
            elif base[k] != new[k]:
                out[k] = _diff(base[k], new[k])
        for k in base:
            if k not in new:
                out[k] = None  # a removed trick cell
        return out
    return new
