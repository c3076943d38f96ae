"""The seating plan of a club night: who sits at which table in each session.

Plain Python, no Django. Players are numbered (any distinct positive integers; a new
night numbers them 1..N). Each session seats everyone at tables of four, and of five
only where N is not a multiple of four (N = 4t + r gives r tables of five; 6, 7 and 11
players cannot be seated so). Each table is listed in seat order from its first dealer.

What a plan aims at, in this order:

1. who sits at a table of five (and so sits out one deal in five) spreads evenly, a hard
   rule: each session the seats at the tables of five go to those who sat at one least
   often so far, so that counts never differ by more than one in a fresh plan, and no
   move of the search may widen them;
2. within that, two players never meet (share a table) twice in the night where that
   is possible, otherwise as few repeated meetings as possible, spread out (each pair's
   meetings cost ``m(m-1)/2``, a convex cost whose minimum spreads the unavoidable
   repeats);
3. the first dealers spread evenly (who dealt first least often deals first; then a
   first deal passes to a player of the table who dealt first two times fewer).

Everything is drawn from ``random.Random(seed)``: the same input and seed give the
same plan; the search is bounded by a count of moves, never by the clock.

How (the design theory behind it):

* N = 4m without tables of five: a *resolvable transversal design* built from a
  difference matrix. Players are (i, j), i in 0..3 (a group), j in a group G of order m;
  a row (d0, d1, d2, d3) of the matrix gives a round whose table b is
  {(i, b + d_i)}. Two players of different groups meet in the round of row d exactly
  when d_i - d_i' equals their difference, so if for every two columns the differences
  of the rows are all distinct, no two players ever meet twice (players of one group
  never meet at all). When m is a prime power, G = GF(m) and the rows
  (0, k*x1, k*x2, k*x3) for every k in GF(m) give m rounds (Bose's construction of
  MOLS / the affine plane); for m = 4 the four groups themselves are a fifth round:
  that is the affine plane of order 4, AG(2,4), whose 5 parallel classes seat 16
  players 5 times without a repeat (Kirkman-style resolvable 2-(16,4,1) design).
  Otherwise G = Z_m and the rows are found by a small deterministic backtracking search
  (a partial (m, 4, 1) difference matrix: for m = 10 it finds 8 rows, hence 40
  players x 8 sessions). References: C. J. Colbourn, J. H. Dinitz (eds.), Handbook of
  Combinatorial Designs, 2nd ed., ch. III.3 (MOLS), III.17 (difference matrices),
  II.7 (resolvable designs); the social golfer problem, CSPLib prob010.
* Everything else (tables of five, more sessions than a construction gives, or a plan
  redrawn from a session on with played sessions kept): a seeded greedy start, then a
  tabu search over swaps of two players of one session (as in I. Dotu and P. Van
  Hentenryck, "Scheduling social golfers locally", CPAIOR 2005): the move is the best
  swap involving a player who meets someone again, ties drawn at random, the players
  just swapped may not move back for a few steps unless that gives the best plan yet.
  The search stops at the least cost possible or after a fixed number of moves.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

MAX_PLAYERS = 400
MAX_SESSIONS = 20
SEARCH_MOVES = 4000
SAMPLE = 6  # conflicted players whose swaps are weighed at each move


class PlanError(ValueError):
    """The night cannot be seated (the message is a sentence for the director)."""


Table = tuple[int, ...]
Session = tuple[Table, ...]


@dataclass(frozen=True)
class Plan:
    sessions: tuple[Session, ...]

    def meetings(self) -> Counter:
        """How often each pair (low, high) shares a table."""
        met: Counter = Counter()
        for session in self.sessions:
            for table in session:
                met.update(combinations(sorted(table), 2))
        return met

    def repeats(self) -> int:
        """Meetings beyond the first of each pair."""
        return sum(n - 1 for n in self.meetings().values())

    def at_five(self) -> Counter:
        """How often each player sits at a table of five."""
        return Counter(p for s in self.sessions for t in s if len(t) == 5 for p in t)

    def first_deals(self) -> Counter:
        return Counter(t[0] for s in self.sessions for t in s)

    def as_dict(self) -> dict:
        return {"sessions": [{"tables": [list(t) for t in s]} for s in self.sessions]}


def table_sizes(n: int) -> list[int]:
    """Tables of five first, then of four; PlanError if ``n`` players cannot be seated so."""
    if n < 4:
        raise PlanError(f"A night needs at least 4 players to fill a table; {n} cannot be seated.")
    if n > MAX_PLAYERS:
        raise PlanError(f"A night seats at most {MAX_PLAYERS} players; {n} is too many.")
    tables, fives = divmod(n, 4)
    if fives > tables:
        raise PlanError(f"{n} players cannot be seated at tables of four and five (6, 7 and 11 cannot).")
    return [5] * fives + [4] * (tables - fives)


def make_plan(players: int | Sequence[int], sessions: int, seed: int = 0, played: Sequence[Session] = ()) -> Plan:
    """The plan of a night: ``players`` (a count, numbered 1..N, or the players' numbers),
    ``sessions`` in all; ``played`` sessions are kept as they are and the rest drawn for
    ``players`` (a late arrival, someone gone), counting the meetings already played."""
    ids = list(range(1, players + 1)) if isinstance(players, int) else list(players)
    if len(set(ids)) != len(ids):
        raise PlanError("Each player needs a number of his own.")
    if not 1 <= sessions <= MAX_SESSIONS:
        raise PlanError(f"A night has between 1 and {MAX_SESSIONS} sessions; {sessions} is not possible.")
    if len(played) > sessions:
        raise PlanError("More sessions are played than the night has.")
    sizes = table_sizes(len(ids))
    rng = random.Random(seed)
    todo = sessions - len(played)
    if todo == 0:
        return Plan(tuple(tuple(tuple(t) for t in s) for s in played))
    start: list[list[list[int]]] = []
    if not played and sizes[0] == 4:
        start = _constructed(ids, todo, rng)
    search = _Search(ids, sizes, [list(map(list, s)) for s in played], rng)
    drawn = search.run(start, todo)
    return Plan(tuple(tuple(tuple(t) for t in s) for s in list(played) + drawn))


# --- the constructions ------------------------------------------------------------------


def _prime_power(q: int) -> tuple[int, int] | None:
    for p in range(2, q + 1):
        if q % p == 0:
            k, rest = 0, q
            while rest % p == 0:
                rest //= p
                k += 1
            return (p, k) if rest == 1 else None
    return None


class _Field:
    """GF(p^k), elements 0..q-1 read as polynomials in base p."""

    def __init__(self, p: int, k: int):
        self.p, self.k, self.q = p, k, p**k
        self.modulus = self._irreducible() if k > 1 else None

    def _digits(self, a: int) -> list[int]:
        return [(a // self.p**i) % self.p for i in range(self.k)]

    def _number(self, digits: list[int]) -> int:
        return sum(d * self.p**i for i, d in enumerate(digits))

    def add(self, a: int, b: int) -> int:
        if self.k == 1:
            return (a + b) % self.p
        return self._number([(x + y) % self.p for x, y in zip(self._digits(a), self._digits(b), strict=True)])

    def _polymul(self, a: list[int], b: list[int]) -> list[int]:
        out = [0] * (len(a) + len(b) - 1)
        for i, x in enumerate(a):
            for j, y in enumerate(b):
                out[i + j] = (out[i + j] + x * y) % self.p
        return out

    def _reduce(self, c: list[int], modulus: list[int]) -> list[int]:
        c = list(c)
        deg = len(modulus) - 1  # monic
        for i in range(len(c) - 1, deg - 1, -1):
            f = c[i]
            if f:
                for j in range(deg + 1):
                    c[i - deg + j] = (c[i - deg + j] - f * modulus[j]) % self.p
        return (c + [0] * deg)[:deg]

    def _irreducible(self) -> list[int]:
        for low in range(self.p**self.k):
            modulus = [(low // self.p**i) % self.p for i in range(self.k)] + [1]
            if modulus[0] == 0:
                continue
            # no root and (for degree 4+) no factor: check that x has order dividing q - 1 alone
            # is overkill; a polynomial of degree k is irreducible iff it has no factor of degree <= k/2
            if all(self._reduce_nonzero(modulus, d) for d in range(1, self.k // 2 + 1)):
                return modulus
        raise AssertionError("no irreducible polynomial")  # pragma: no cover

    def _reduce_nonzero(self, modulus: list[int], degree: int) -> bool:
        """No monic factor of ``degree`` divides ``modulus``."""
        for low in range(self.p**degree):
            factor = [(low // self.p**i) % self.p for i in range(degree)] + [1]
            if not any(self._reduce(modulus, factor)):
                return False
        return True

    def mul(self, a: int, b: int) -> int:
        if self.k == 1:
            return a * b % self.p
        return self._number(self._reduce(self._polymul(self._digits(a), self._digits(b)), self.modulus))


def _field_rows(m: int) -> tuple[list[list[int]], callable] | None:
    pk = _prime_power(m)
    if pk is None or m < 4:
        return None
    f = _Field(*pk)
    rows = [[f.mul(k, x) for x in range(4)] for k in range(m)]
    return rows, f.add


def _cyclic_rows(m: int, wanted: int, budget: int = 200_000) -> list[list[int]]:
    """Up to ``wanted`` rows (0, a, b, c) over Z_m whose differences in every two columns
    are distinct: deterministic backtracking, the rows in increasing order of ``a``."""
    best: list[list[int]] = []
    rows: list[list[int]] = [[0, 0, 0, 0]]
    used = [{0} for _ in range(6)]  # a, b, c, b-a, c-a, c-b
    nodes = 0

    def go(min_a: int) -> bool:
        nonlocal best, nodes
        if len(rows) > len(best):
            best = [list(r) for r in rows]
        if len(rows) >= wanted:
            return True
        for a in range(min_a, m):
            if a in used[0]:
                continue
            for b in range(1, m):
                if b in used[1] or (b - a) % m in used[3]:
                    continue
                for c in range(1, m):
                    nodes += 1
                    if nodes > budget:
                        return True
                    keys = (c, (c - a) % m, (c - b) % m)
                    if keys[0] in used[2] or keys[1] in used[4] or keys[2] in used[5]:
                        continue
                    new = (a, b, c, (b - a) % m, keys[1], keys[2])
                    for u, v in zip(used, new, strict=True):
                        u.add(v)
                    rows.append([0, a, b, c])
                    if go(a + 1):
                        return True
                    rows.pop()
                    for u, v in zip(used, new, strict=True):
                        u.discard(v)
        return False

    go(1)
    return best[:wanted]


def _constructed(ids: list[int], wanted: int, rng: random.Random) -> list[list[list[int]]]:
    """Rounds without a repeated meeting for 4m players (as many as the construction has,
    at most ``wanted``), the players' numbers drawn at random onto the points."""
    m = len(ids) // 4
    if m < 2:
        return []
    found = _field_rows(m)
    if found is not None:
        rows, add = found
    else:
        rows, add = _cyclic_rows(m, wanted), (lambda a, b: (a + b) % m)
    rounds = [[[i * m + add(b, row[i]) for i in range(4)] for b in range(m)] for row in rows]
    if m == 4:  # AG(2,4): the four groups are the fifth parallel class
        rounds.append([[i * m + j for j in range(m)] for i in range(4)])
    if len(rounds) < 2:
        return []
    rng.shuffle(rounds)
    points = list(ids)
    rng.shuffle(points)
    return [[[points[x] for x in table] for table in r] for r in rounds[:wanted]]


# --- the search -----------------------------------------------------------------------------


class _Search:
    def __init__(self, ids: list[int], sizes: list[int], played: list[list[list[int]]], rng: random.Random):
        self.ids, self.sizes, self.rng = ids, sizes, rng
        everyone = sorted(set(ids) | {p for s in played for t in s for p in t})
        self.index = {p: i for i, p in enumerate(everyone)}
        size = len(everyone)
        self.met = [[0] * size for _ in range(size)]
        self.fives = [0] * size
        self.deals_first = [0] * size
        self.played = [[[self.index[p] for p in t] for t in s] for s in played]
        for s in self.played:
            self._count(s, +1)
            for t in s:
                self.deals_first[t[0]] += 1
        self.everyone = everyone

    def _count(self, session: list[list[int]], sign: int) -> None:
        for t in session:
            for a, b in combinations(t, 2):
                self.met[a][b] += sign
                self.met[b][a] += sign
            if len(t) == 5:
                for p in t:
                    self.fives[p] += sign

    def run(self, start: list[list[list[int]]], todo: int) -> list[list[list[int]]]:
        rng = self.rng
        sessions: list[list[list[int]]] = []
        for s in start[:todo]:
            s = [[self.index[p] for p in t] for t in s]
            self._count(s, +1)
            sessions.append(s)
        while len(sessions) < todo:
            s = self._greedy()
            self._count(s, +1)
            sessions.append(s)
        self._improve(sessions)
        for s in sessions:
            rng.shuffle(s)
            s.sort(key=len, reverse=True)
            for t in s:
                rng.shuffle(t)
            self._first_dealers(s)
        self._even_dealers(sessions)
        return [[[self.everyone[p] for p in t] for t in s] for s in sessions]

    def _greedy(self) -> list[list[int]]:
        rng, met = self.rng, self.met
        players = [self.index[p] for p in self.ids]
        rng.shuffle(players)
        players.sort(key=lambda p: self.fives[p])
        seats_at_five = sum(n for n in self.sizes if n == 5)
        groups = [
            (players[:seats_at_five], [n for n in self.sizes if n == 5]),
            (players[seats_at_five:], [n for n in self.sizes if n == 4]),
        ]
        session: list[list[int]] = []
        for group, sizes in groups:
            tables: list[list[int]] = [[] for _ in sizes]
            rng.shuffle(group)
            for p in group:
                row = met[p]
                choices = [(sum(row[x] for x in t), rng.random(), i) for i, t in enumerate(tables) if len(t) < sizes[i]]
                tables[min(choices)[2]].append(p)
            session.extend(tables)
        return session

    def _least_cost(self, sessions: list[list[list[int]]]) -> int:
        n = len(self.everyone)
        pairs = n * (n - 1) // 2
        total = sum(len(t) * (len(t) - 1) // 2 for s in self.played + sessions for t in s)
        q, r = divmod(total, pairs)
        return (pairs - r) * q * (q - 1) // 2 + r * (q + 1) * q // 2

    def _cost(self) -> int:
        n = len(self.met)
        return sum(c * (c - 1) // 2 for a in range(n) for c in self.met[a][a + 1 :])

    def _improve(self, sessions: list[list[list[int]]]) -> None:
        if not sessions:
            return
        rng, met, fives = self.rng, self.met, self.fives
        where = [{p: ti for ti, t in enumerate(s) for p in t} for s in sessions]
        cost, floor = self._cost(), self._least_cost(sessions)
        best_cost, best = cost, [[list(t) for t in s] for s in sessions]
        tabu: dict[tuple[int, int, int], int] = {}
        for step in range(SEARCH_MOVES):
            if cost <= floor:
                break
            conflicted = [
                (si, p)
                for si, s in enumerate(sessions)
                for t in s
                for p in t
                if any(met[p][x] > 1 for x in t if x != p)
            ]
            if not conflicted:
                break
            if len(conflicted) > SAMPLE:
                conflicted = rng.sample(conflicted, SAMPLE)
            moves = []
            for si, p in conflicted:
                s, w = sessions[si], where[si]
                a = s[w[p]]
                row_p = met[p]
                out_p = sum(row_p[x] - 1 for x in a if x != p)
                for ti, b in enumerate(s):
                    if ti == w[p]:
                        continue
                    for q in b:
                        five_p, five_q = len(a) == 5, len(b) == 5
                        if five_p != five_q:
                            losing, gaining = (p, q) if five_p else (q, p)
                            if fives[gaining] + 1 > fives[losing]:
                                continue
                        row_q = met[q]
                        delta = (
                            -out_p
                            + sum(row_q[x] for x in a if x != p)
                            + sum(row_p[x] for x in b if x != q)
                            - sum(row_q[x] - 1 for x in b if x != q)
                        )
                        is_tabu = tabu.get((si, p, ti), -1) >= step or tabu.get((si, q, w[p]), -1) >= step
                        if is_tabu and cost + delta >= best_cost:
                            continue
                        moves.append((delta, rng.random(), si, p, q))
            if not moves:
                continue
            delta, _, si, p, q = min(moves)
            s, w = sessions[si], where[si]
            ta, tb = w[p], w[q]
            self._swap(s[ta], s[tb], p, q)
            w[p], w[q] = tb, ta
            cost += delta
            tenure = 3 + rng.randrange(8)
            tabu[(si, p, ta)] = step + tenure
            tabu[(si, q, tb)] = step + tenure
            if cost < best_cost:
                best_cost, best = cost, [[list(t) for t in s] for s in sessions]
        if cost > best_cost:
            for s in sessions:
                self._count(s, -1)
            sessions[:] = best
            for s in sessions:
                self._count(s, +1)

    def _swap(self, a: list[int], b: list[int], p: int, q: int) -> None:
        met, fives = self.met, self.fives
        for x in a:
            if x != p:
                met[p][x] -= 1
                met[x][p] -= 1
                met[q][x] += 1
                met[x][q] += 1
        for x in b:
            if x != q:
                met[q][x] -= 1
                met[x][q] -= 1
                met[p][x] += 1
                met[x][p] += 1
        if len(a) != len(b):
            sign = 1 if len(a) == 5 else -1
            fives[p] -= sign
            fives[q] += sign
        a[a.index(p)] = q
        b[b.index(q)] = p

    def _first_dealers(self, session: list[list[int]]) -> None:
        """Each table turned to start from who dealt first least often so far."""
        for t in session:
            first = min(range(len(t)), key=lambda i: self.deals_first[t[i]])
            t[:] = t[first:] + t[:first]
            self.deals_first[t[0]] += 1

    def _even_dealers(self, sessions: list[list[list[int]]]) -> None:
        """Hands the first deal of a table to a player of it who dealt first at least two
        times fewer, until none is left (each hand-over lowers the sum of squares)."""
        count = self.deals_first
        changed = True
        while changed:
            changed = False
            for s in sessions:
                for t in s:
                    other = min(range(len(t)), key=lambda i: count[t[i]])
                    if count[t[other]] + 2 <= count[t[0]]:
                        count[t[0]] -= 1
                        count[t[other]] += 1
                        t[:] = t[other:] + t[:other]
                        changed = True
