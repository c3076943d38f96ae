"""Small builders that expand a schedule (a start and a step, a list per trick) into explicit tables."""

from collections.abc import Callable, Sequence
from typing import Any

from ..model import MAX_TRICKS, Contract, Kind, Names, Payout

Side = Callable[[int], Payout]  # a value -> the payout for one declarer and one opponent


def pair(value: int) -> Payout:
    """Each declarer scores the value, each opponent pays it."""
    return Payout(value, -value)


def solo(value: int) -> Payout:
    """The value is per opponent; the lone declarer scores it three times."""
    return Payout(3 * value, -value)


def by_tricks(first: int, values: Sequence[int]) -> dict[int, int]:
    """Values for first, first+1, ... tricks; the last value holds up to 13 tricks."""
    return {t: values[min(t - first, len(values) - 1)] for t in range(first, MAX_TRICKS + 1)}


def stepping_down(below: int, first: int, step: int, lowest: int = 0) -> dict[int, int]:
    """``first`` at below-1 tricks, then ``step`` more for each trick fewer, down to ``lowest``."""
    return {t: first + step * (below - 1 - t) for t in range(lowest, below)}


def flat(tricks: range, value: int) -> dict[int, int]:
    return dict.fromkeys(tricks, value)


def contract(
    key: str,
    names: tuple[str, str, str],
    kind: Kind,
    needs: int,
    made: dict[int, Payout],
    failed: dict[int, Payout],
    *,
    trumps: bool = True,
    declarers: int | None = None,
    **extra: Any,
) -> Contract:
    if declarers is None:
        declarers = 2 if kind in (Kind.PAIR, Kind.TROU) else 1
    return Contract(
        key=key,
        names=Names(*names),
        kind=kind,
        declarers=declarers,
        needs=needs,
        trumps=trumps,
        made=made,
        failed=failed,
        **extra,
    )


def apply(side: Side, values: dict[int, int]) -> dict[int, Payout]:
    return {t: side(v) for t, v in values.items()}


def exact(needs: int, made: Payout, failed: Payout) -> tuple[dict[int, Payout], dict[int, Payout]]:
    """Tables of a misère or piccolo: made with exactly ``needs`` tricks, failed otherwise."""
    return {needs: made}, {t: failed for t in range(MAX_TRICKS + 1) if t != needs}
