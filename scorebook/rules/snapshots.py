"""Reading a stored snapshot back: each reader returns the value or raises ``SnapshotError``
(another evening's data, or an older engine's shape: score the evening from its deals instead)."""

from __future__ import annotations

from typing import Any


class SnapshotError(ValueError):
    """Stored data that does not fit the evening (another evening's, or an older engine's shape):
    the evening must be scored from its deals instead."""


def read_keys(data: Any, keys: set[str]) -> dict[str, Any]:
    if not isinstance(data, dict) or set(data) != keys:
        raise SnapshotError(f"expected the keys {sorted(keys)}")
    return data


def read_int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SnapshotError(f"{value!r} is not a whole number")
    return value


def read_bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise SnapshotError(f"{value!r} is not true or false")
    return value


def read_side(value: Any) -> int:
    side = read_int(value)
    if side not in (0, 1):
        raise SnapshotError(f"{value!r} is not a side (0 or 1)")
    return side


def read_list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise SnapshotError(f"{value!r} is not a list")
    return value


def read_pair(value: Any) -> tuple[int, int]:
    if len(read_list(value)) != 2:
        raise SnapshotError(f"{value!r} is not a pair")
    return (read_int(value[0]), read_int(value[1]))


def read_names(value: Any, players: tuple[str, ...]) -> tuple[str, ...]:
    if any(name not in players for name in read_list(value)):
        raise SnapshotError(f"{value!r} names someone who is not at the table")
    return tuple(value)


def read_by_player(value: Any, players: tuple[str, ...]) -> dict[str, int]:
    """Whole numbers for exactly the players at the table, in seat order."""
    if not isinstance(value, dict) or set(value) != set(players):
        raise SnapshotError("expected a number for each player at the table")
    return {p: read_int(value[p]) for p in players}
