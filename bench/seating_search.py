"""The seating plans of long nights with tables of five, beside a short search of our own.

``scorebook/nights/seating.py`` draws a night's plan with a tabu search bounded by a count of
weighed moves. Is it any good where no construction helps (tables of five, many sessions)? This
compares its repeated meetings with those a plain simulated annealing finds, written here apart from
it, on the same rules: nobody at a table of five beyond his share rounded up plus one (a rule), then
as few repeated meetings as possible (each pair's m meetings cost m(m-1)/2). The annealing swaps two
players of one session at random, 400,000 times (about as long as the plan itself takes), from a
random seating; its temperature falls geometrically. Each figure is the median over three seeds, for
the plan and for the search alike; the plan's target is the search's figure.

    .venv/bin/python bench/seating_search.py      # only these figures (make bench prints them too)
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.report import figure
from scorebook.nights import seating

# the nights of issue 30: more repeats than a short search finds
LONG_NIGHTS = ((33, 8), (41, 10), (45, 11), (49, 12))
SEEDS = (0, 1, 2)
MOVES = 400_000


def annealing(players: int, sessions: int, seed: int, moves: int = MOVES) -> int:
    """The fewest repeated meetings the annealing finds (the limit at five kept)."""
    rng = random.Random(seed)
    sizes = seating.table_sizes(players)
    at_five = sum(n for n in sizes if n == 5) * sessions
    limit = -(-at_five // players) + 1
    over = 10**6  # a seat beyond the limit outweighs any meetings
    met = [[0] * players for _ in range(players)]
    fives = [0] * players
    plan, where = [], []
    for _ in range(sessions):
        order = list(range(players))
        rng.shuffle(order)
        tables, start = [], 0
        for n in sizes:
            tables.append(order[start : start + n])
            start += n
        plan.append(tables)
        where.append({p: i for i, t in enumerate(tables) for p in t})
        for t in tables:
            for i, a in enumerate(t):
                fives[a] += len(t) == 5
                for b in t[i + 1 :]:
                    met[a][b] += 1
                    met[b][a] += 1
    repeats = sum(max(0, met[a][b] - 1) for a in range(players) for b in range(a + 1, players))
    cost = sum(met[a][b] * (met[a][b] - 1) // 2 for a in range(players) for b in range(a + 1, players))
    cost += over * sum(max(0, f - limit) for f in fives)
    best = (cost, repeats)
    for k in range(moves):
        heat = 0.6 * (0.02 / 0.6) ** (k / moves)
        s = rng.randrange(sessions)
        p, q = rng.randrange(players), rng.randrange(players)
        ta, tb = where[s][p], where[s][q]
        if ta == tb:
            continue
        a, b = plan[s][ta], plan[s][tb]
        delta = sum(met[q][x] - met[p][x] + 1 for x in a if x != p) + sum(
            met[p][x] - met[q][x] + 1 for x in b if x != q
        )
        if len(a) != len(b):
            out, into = (p, q) if len(a) == 5 else (q, p)
            delta += over * (
                max(0, fives[into] + 1 - limit)
                - max(0, fives[into] - limit)
                + max(0, fives[out] - 1 - limit)
                - max(0, fives[out] - limit)
            )
        if delta > 0 and rng.random() >= math.exp(-delta / heat):
            continue
        for x in a:
            if x != p:
                repeats += (met[q][x] >= 1) - (met[p][x] >= 2)
                met[p][x] -= 1
                met[x][p] -= 1
                met[q][x] += 1
                met[x][q] += 1
        for x in b:
            if x != q:
                repeats += (met[p][x] >= 1) - (met[q][x] >= 2)
                met[q][x] -= 1
                met[x][q] -= 1
                met[p][x] += 1
                met[x][p] += 1
        if len(a) != len(b):
            out, into = (p, q) if len(a) == 5 else (q, p)
            fives[out] -= 1
            fives[into] += 1
        a[a.index(p)], b[b.index(q)] = q, p
        where[s][p], where[s][q] = tb, ta
        cost += delta
        best = min(best, (cost, repeats))
    return best[1]


def figures() -> None:
    for players, sessions in LONG_NIGHTS:
        started = time.process_time()
        plans = [seating.make_plan(players, sessions, seed=seed).repeats() for seed in SEEDS]
        plan_s = (time.process_time() - started) / len(SEEDS)
        started = time.process_time()
        searched = [annealing(players, sessions, seed) for seed in SEEDS]
        search_s = (time.process_time() - started) / len(SEEDS)
        name = f"seating_fives_{players}x{sessions}"
        reference = statistics.median(searched)
        figure(f"{name}_search_repeats", reference, "{:.0f}")
        figure(f"{name}_search_cpu_s", search_s)
        figure(f"{name}_plan_cpu_s", plan_s)
        figure(f"{name}_repeats", statistics.median(plans), "{:.0f}", target=reference)


if __name__ == "__main__":
    figures()
