"""How the benchmark prints: one ``name: value`` line per figure, with its shape (what was measured:
seats, deals, tables...) in brackets, and its target and OK or MISS.

A number meets ``target`` when it is at most the target (``at_least``: at least it); a text target
(``"no"``, ``"yes"``) must be met exactly. A figure with a target that could not be measured
("unavailable ...") is a MISS: the benchmark exits 0 only when every target was measured and met.
Lines printed by a child process (PostgreSQL, the club night) are read back with ``relay``.
"""

from __future__ import annotations

import sys
from typing import Any

LINES: list[str] = []
MISSES: list[str] = []
SHAPES: dict[str, str] = {}  # a figure's shape by the start of its name (the longest that fits), when none is given


def shape_of(name: str) -> str:
    starts = [start for start in SHAPES if name.startswith(start)]
    return SHAPES[max(starts, key=len)] if starts else ""


def figure(
    name: str, value: Any, fmt: str = "{:.2f}", *, target: Any = None, at_least: float | None = None, shape: str = ""
) -> None:
    """Print ``name: value [shape]``, and ``(target <= X: OK|MISS)`` when the figure has a target
    (``(target >= X: ...)`` with ``at_least``)."""
    bound = f">= {at_least}" if at_least is not None else None if target is None else _target(target)
    shape = shape or shape_of(name)
    shown = f" [{shape}]" if shape else ""
    if value is None or (isinstance(value, str) and value.startswith("unavailable")):
        line = f"{name}: {value or 'unavailable'}{shown}"
        if bound is not None:
            line += f" (target {bound}: MISS, not measured)"
            MISSES.append(name)
    else:
        line = f"{name}: {fmt.format(value) if isinstance(value, float) else value}{shown}"
        if bound is not None:
            if at_least is not None:
                ok = value >= at_least
            else:
                ok = value == target if isinstance(target, str) else value <= target
            line += f" (target {bound}: {'OK' if ok else 'MISS'})"
            if not ok:
                MISSES.append(name)
    LINES.append(line)
    print(line, flush=True)


def _target(target) -> str:
    return target if isinstance(target, str) else f"<= {target}"


def relay(output: str) -> None:
    """Figures printed by a child benchmark, printed again here and their MISSes counted."""
    for line in output.splitlines():
        name, _, value = line.partition(": ")
        if not (name and value) or " " in name:
            continue
        LINES.append(line)
        print(line, flush=True)
        if ": MISS" in value:
            MISSES.append(name)


def finish() -> int:
    """The last line: every MISS by name; the exit status (0: every target met)."""
    print()
    figure("misses", " ".join(MISSES) if MISSES else "none")
    sys.stdout.flush()
    return 1 if MISSES else 0
