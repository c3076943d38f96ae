"""``make bench-settle-up``: the club's settle-up (``scorebook.rules.settle_up``) against an independent
solver, on club months generated like real ones.

A club month: 25 to 30 members end the month with a balance, from evenings of 4 to 6 of them (a few
regulars come more often), each evening 20 to 40 kleurenwiezen deals scored by the engine at a stake
of €0.05 to €0.25 a point. For each month the table gives the members with a balance, the transfers
the site's search finds, whether it proved them the fewest, and its time; then the transfers Google
OR-Tools' CP-SAT finds given 20 seconds on one core (a model of its own: each member in one of as many
groups as there are members on either side, each group summing to zero, as many groups as possible),
whether it proved them, and its time. It also times the search on months of 60 members (the site
answers within 1 s). The exit status is 1 when the search needs more transfers than CP-SAT on any
month, or takes more than 1 s.

    .venv/bin/python bench/settle_up.py                 # 24 months, CP-SAT 20 s each (about 9 minutes)
    .venv/bin/python bench/settle_up.py --months 3 --seconds 2
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.synthetic import make_deals  # noqa: E402
from scorebook.rules import evening_file, settle_up  # noqa: E402
from scorebook.rules.scoring import score  # noqa: E402

STAKES = [Decimal(s) for s in ("0.05", "0.10", "0.15", "0.20", "0.25")]


def club_month(seed: int, members: int | None = None) -> list[int]:
    """The balances in cents of a club month with ``members`` (25 to 30 when not given) members."""
    rng = random.Random(seed)
    target = members or rng.randint(25, 30)
    names = [f"M{i:02d}" for i in range(target + 15)]
    weights = [rng.choice((1, 1, 2, 4)) for _ in names]
    balances: dict[str, Decimal] = {}
    while sum(1 for v in balances.values() if v) < target:
        table: list[str] = []
        while len(table) < rng.randint(4, 6):
            name = rng.choices(names, weights)[0]
            if name not in table:
                table.append(name)
        stake = rng.choice(STAKES)
        deals = make_deals(rng.randint(20, 40), rng, players=table, first_dealer=0)
        evening = evening_file.from_dict(
            {
                "format": evening_file.FORMAT,
                "ruleset": "kleurenwiezen",
                "players": table,
                "first_dealer": table[0],
                "deals": deals,
                "stake": str(stake),
            }
        )
        for name, amount in score(evening).money(stake).items():
            balances[name] = balances.get(name, Decimal(0)) + amount
        if sum(1 for v in balances.values() if v) > target:
            balances = {}  # too many: the month starts again
    return [int(v * 100) for v in balances.values() if v]


def ours(cents: list[int]) -> tuple[int, bool, float]:
    balances = {f"M{i}": Decimal(c) / 100 for i, c in enumerate(cents)}
    started = time.perf_counter()
    found = settle_up.fewest_transfers(balances)
    return len(found.transfers), found.proved, time.perf_counter() - started


def cp_sat(cents: list[int], seconds: float) -> tuple[int, bool, float]:
    """The fewest transfers CP-SAT finds: n minus the most zero-sum groups of its model."""
    from ortools.sat.python import cp_model

    n = len(cents)
    groups = min(sum(c > 0 for c in cents), sum(c < 0 for c in cents))
    model = cp_model.CpModel()
    x = {(i, g): model.new_bool_var(f"x{i}_{g}") for i in range(n) for g in range(groups) if g <= i}
    used = [model.new_bool_var(f"y{g}") for g in range(groups)]
    for i in range(n):
        model.add_exactly_one(x[i, g] for g in range(groups) if g <= i)
    for g in range(groups):
        members = [x[i, g] for i in range(n) if g <= i]
        model.add(sum(cents[i] * x[i, g] for i in range(n) if g <= i) == 0)
        model.add(sum(members) >= 2).only_enforce_if(used[g])
        model.add(sum(members) == 0).only_enforce_if(~used[g])
    model.maximize(sum(used))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = 1
    status = solver.solve(model)
    return n - int(solver.objective_value), status == cp_model.OPTIMAL, solver.wall_time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--months", type=int, default=24)
    parser.add_argument("--seconds", type=float, default=20.0, help="CP-SAT's time for each month")
    parser.add_argument("--large", type=int, default=5, help="months of 60 members timed")
    args = parser.parse_args()
    header = f"{'month':>5} {'members':>7} | {'found':>5} {'proved':>6} {'s':>6} | {'CP-SAT':>6} {'proved':>6} {'s':>6}"
    print(header)
    print("-" * len(header))
    worse, slowest, proved = 0, 0.0, 0
    for month in range(args.months):
        cents = club_month(month)
        found, ok, took = ours(cents)
        theirs, their_ok, their_time = cp_sat(cents, args.seconds)
        worse += found > theirs
        proved += ok
        slowest = max(slowest, took)
        print(
            f"{month:>5} {len(cents):>7} | {found:>5} {'yes' if ok else 'no':>6} {took:>6.2f} | "
            f"{theirs:>6} {'yes' if their_ok else 'no':>6} {their_time:>6.1f}",
            flush=True,
        )
    for month in range(args.large):
        cents = club_month(1000 + month, members=60)
        found, ok, took = ours(cents)
        slowest = max(slowest, took)
        print(
            f"{'60-' + str(month):>5} {len(cents):>7} | {found:>5} {'yes' if ok else 'no':>6} {took:>6.2f} |",
            flush=True,
        )
    print()
    print(f"months_where_the_search_needs_more_transfers: {worse} (target <= 0: {'OK' if not worse else 'MISS'})")
    print(f"months_proved_the_fewest: {proved} of {args.months}")
    print(f"settle_up_slowest_s: {slowest:.2f} (target <= 1: {'OK' if slowest <= 1 else 'MISS'})")
    return 1 if worse or slowest > 1 else 0


if __name__ == "__main__":
    sys.exit(main())
