"""How the benchmark prints: one ``name: value`` line per figure, with its target and OK or MISS.

A number meets ``target`` when it is at most the target; a text target (``"no"``, ``"yes"``) must be
met exactly. A figure with a target that could not be measured ("unavailable ...") is a MISS: the
benchmark exits 0 only when every target was measured and met. Lines printed by a child process
(PostgreSQL, the club night) are read back with ``relay``.
"""

from __future__ import annotations

import sys

LINES: list[str] = []
MISSES: list[str] = []


def figure(name: str, value, fmt: str = "{:.2f}", *, target=None) -> None:
    """Print ``name: value``, and ``(target <= X: OK|MISS)`` when the figure has a target."""
    if value is None or (isinstance(value, str) and value.startswith("unavailable")):
        text = value or "unavailable"
        line = f"{name}: {text}"
        if target is not None:
            line += f" (target {_target(target)}: MISS, not measured)"
            MISSES.append(name)
    else:
        text = fmt.format(value) if isinstance(value, float) else str(value)
        line = f"{name}: {text}"
        if target is not None:
            ok = value == target if isinstance(target, str) else value <= target
            line += f" (target {_target(target)}: {'OK' if ok else 'MISS'})"
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
