"""Seatings of 4g players at tables of four in which nobody meets anyone twice: the
constructions of design theory that the seating plan (``seating.py``) starts from.

Plain Python, no Django. ``design(n)`` gives the most such sessions known for ``n`` players
(points 0..n-1), ``constructed(ids, wanted, rng)`` the same for a night's players, drawn at
random onto the points.

How (the design theory behind it). For N = 4g players at tables of four, a night of S
sessions without a repeated meeting is a set of S parallel classes of a packing of
blocks of size 4 (the social golfer problem g-4-S, CSPLib prob010); each player meets 3
others a session, so S <= (N - 1) / 3. The plans below reach the largest S known:

* N = 4^n (16, 64, 256): the affine geometry AG(n, 4). Its lines are blocks of 4 that
  cover every pair exactly once, and the lines of one direction partition the points:
  (4^n - 1) / 3 sessions (5 for 16 players, 21 for 64), the bound itself. Handbook of
  Combinatorial Designs (C. J. Colbourn, J. H. Dinitz eds., 2nd ed., 2007), VII.2.
* N = 20, 24, 28, 36, 40, 48, 52, 60: a *rotational* design found for Scorebook by a
  computer search (see ``_ROTATIONAL``). The points are Z_r x {levels} plus N mod r fixed
  points; one base session is stored and the r sessions are its translates x -> x + t
  (the fixed points stay). The translates never repeat a meeting exactly when every
  (level, level, difference) is met at most once in the base session and each fixed
  point sits with one point of each level (the method of differences, Handbook VI.16 and
  VI.17; 1-rotational resolvable designs, M. Buratti and F. Zuanni, "G-invariantly
  resolvable Steiner 2-designs which are 1-rotational over G", Bull. Belg. Math. Soc. 5,
  1998). With one fixed point and 3 levels (N = 3r + 1: 28, 40, 52) the design covers
  every pair exactly once: a Kirkman-type resolvable (N, 4, 1)-BIBD, whose existence
  for every N = 4 (mod 12) is H. Hanani, D. K. Ray-Chaudhuri, R. M. Wilson, "On
  resolvable designs", Discrete Math. 3 (1972); with three fixed points (N = 3r + 3:
  24, 36, 48, 60) every pair but those of a partition into triples: a resolvable 4-GDD
  of type 3^(N/3) (Handbook IV.5), r = (N - 3) / 3 sessions, again the bound.
  20 players: the 5 sessions of Z_5 x 4 levels (the social golfer 5-4-5, best known:
  5-4-6 has no solution, D. Lamken and R. Mullin's 4-RGDD of type 2^10 does not exist).
  How the base sessions were found: a randomised depth-first search (offline, a few
  seconds each) over the base blocks, with the base session invariant under the turn
  of the levels (x, l) -> (x, l + 1) for 36 to 60; each design is checked in the tests.
* N = 32: the 10 sessions A. Aguado published in 2004 (``_PUBLISHED``), the bound; the
  transversal design below gives 9.
* N = 4m otherwise: a resolvable transversal design from a difference matrix (players
  (i, j), i in 0..3, j in GF(m) or Z_m; Bose's construction of MOLS, Handbook III.3
  and III.17): m sessions when m is a prime power, fewer otherwise.
"""

from __future__ import annotations

import random

# Rotational designs: N -> (r, base session). Points 0..N-1; a point p < N - N % r is
# (x, level) = (p % r, p // r) and its translate by t is (x + t mod r, level); the last
# N % r points are fixed. The r translates of the base session seat N players r times
# without a repeated meeting (checked in tests/nights/test_seating.py). Found by
# Scorebook's own offline search (a randomised depth-first search over base blocks
# whose (level, level, difference) triples are all distinct; see the module docstring).
_ROTATIONAL: dict[int, tuple[int, tuple[tuple[int, ...], ...]]] = {
    # 5-4-5 (best known: 5 sessions)
    20: (5, ((0, 1, 16, 9), (2, 10, 15, 7), (3, 13, 14, 17), (4, 5, 11, 6), (8, 19, 18, 12))),
    # 4-RGDD of type 3^8: 7 sessions, the bound (23 - 2) / 3
    24: (7, ((21, 0, 13, 16), (22, 7, 20, 2), (23, 14, 6, 9), (1, 3, 4, 12), (8, 10, 11, 19), (15, 17, 18, 5))),
    # Kirkman-type resolvable (28, 4, 1)-BIBD: 9 sessions, every pair exactly once
    28: (9, ((27, 0, 23, 12), (1, 25, 17, 16), (2, 18, 11, 7), (3, 14, 6, 4), (5, 10, 24, 22), (8, 20, 21, 26),
             (9, 13, 19, 15))),
    # 4-RGDD of type 3^12: 11 sessions, the bound
    36: (11, ((33, 0, 21, 26), (34, 11, 32, 4), (35, 22, 10, 15), (1, 28, 30, 9), (12, 6, 8, 20), (23, 17, 19, 31),
              (2, 27, 3, 7), (13, 5, 14, 18), (24, 16, 25, 29))),
    # resolvable (40, 4, 1)-BIBD: 13 sessions, every pair exactly once
    40: (13, ((0, 13, 26, 39), (1, 21, 18, 12), (14, 34, 31, 25), (27, 8, 5, 38), (2, 23, 16, 11), (15, 36, 29, 24),
              (28, 10, 3, 37), (4, 32, 9, 33), (17, 6, 22, 7), (30, 19, 35, 20))),
    # 4-RGDD of type 3^16: 15 sessions, the bound
    48: (15, ((45, 0, 29, 36), (46, 15, 44, 6), (47, 30, 14, 21), (1, 13, 40, 11), (16, 28, 10, 26), (31, 43, 25, 41),
              (2, 39, 35, 22), (17, 9, 5, 37), (32, 24, 20, 7), (3, 4, 38, 12), (18, 19, 8, 27), (33, 34, 23, 42))),
    # resolvable (52, 4, 1)-BIBD: 17 sessions, every pair exactly once
    52: (17, ((0, 17, 34, 51), (1, 15, 16, 45), (18, 32, 33, 11), (35, 49, 50, 28), (2, 43, 8, 47), (19, 9, 25, 13),
              (36, 26, 42, 30), (3, 40, 21, 29), (20, 6, 38, 46), (37, 23, 4, 12), (5, 10, 41, 48), (22, 27, 7, 14),
              (39, 44, 24, 31))),
    # 4-RGDD of type 3^20: 19 sessions, the bound
    60: (19, ((57, 0, 34, 48), (58, 19, 53, 10), (59, 38, 15, 29), (1, 52, 45, 50), (20, 14, 7, 12), (39, 33, 26, 31),
              (2, 24, 3, 6), (21, 43, 22, 25), (40, 5, 41, 44), (4, 35, 51, 27), (23, 54, 13, 46), (42, 16, 32, 8),
              (9, 55, 49, 18), (28, 17, 11, 37), (47, 36, 30, 56))),
}  # fmt: skip


# Published solutions, as their authors wrote them (a letter a player, a word a table, a line a
# session), checked in tests/nights/test_seating.py.
# 32 players in 10 sessions (the social golfer 8-4-10, the original CSPLib instance, open until
# then): A. Aguado, "A 10 days solution to the social golfer problem" (2004), as tabulated in the
# Wolfram Demonstrations Project's "Social Golfer Problem" (E. Pegg Jr.). It leaves unmet exactly
# the 16 pairs A-a, B-b, ... p-P: a resolvable 4-GDD of type 2^16, (32 - 2) / 3 = 10 sessions, the bound.
_PUBLISHED: dict[int, str] = {
    32: """
        ABCD EFGH IJKL MNOP abcd efgh ijkl mnop
        AEIm BcgH DFKp dfkP aeiM bCGh jLNo JlnO
        Aflo Bhkm DGiN aFLO bHKM CeJP cEjp dgIn
        AciL BdjK bDJk FgoP fGOp aCIl EhMn eHmN
        AgKN BElP DHIo dhiO beLp Cfjm cFJM aGkn
        AhJp BFin cDmO bfIN eGKl CdMo EgkL aHjP
        AdeF BGJo aDEf chlN iKmP CHLn bgjO IkMp
        AbnP aBNp DglM ceko fHiJ CEKO FhIj dGLm
        AGjM BeIO DhLP agJm cfKn CFkN bEio dHlp
        AHkO BfLM Dejn bFlm cGIP Cgip dEJN ahKo
    """,
}
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _published(n: int) -> list[list[list[int]]]:
    """A published solution as sessions of tables of points 0..n-1 (the letters in order)."""
    lines = _PUBLISHED[n].strip().splitlines()
    point = {letter: i for i, letter in enumerate(sorted(set("".join(lines[0].split())), key=_LETTERS.index))}
    return [[[point[c] for c in table] for table in line.split()] for line in lines]


def _rotational(n: int) -> list[list[list[int]]]:
    r, base = _ROTATIONAL[n]
    moving = n - n % r
    return [[[p if p >= moving else p - p % r + (p % r + t) % r for p in block] for block in base] for t in range(r)]


# GF(4) = {0, 1, w, w + 1} as 0..3 (bits of a polynomial in w, w^2 = w + 1): addition is xor
_GF4_MUL = ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2))


def _affine(dim: int) -> list[list[list[int]]]:
    """The parallel classes of lines of AG(dim, 4): a point is a number whose base-4 digits
    are its coordinates; a direction is a nonzero vector whose first nonzero coordinate is 1."""
    points = 4**dim

    def coords(p: int) -> list[int]:
        return [(p >> (2 * i)) & 3 for i in range(dim)]

    def number(c: list[int]) -> int:
        return sum(x << (2 * i) for i, x in enumerate(c))

    classes = []
    for d in range(1, points):
        dc = coords(d)
        if next(x for x in reversed(dc) if x) != 1:
            continue
        seen: set[int] = set()
        lines = []
        for p in range(points):
            if p in seen:
                continue
            pc = coords(p)
            line = [number([a ^ _GF4_MUL[k][b] for a, b in zip(pc, dc, strict=True)]) for k in range(4)]
            seen.update(line)
            lines.append(line)
        classes.append(lines)
    return classes


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
        """The first monic polynomial of degree k with no monic factor of degree <= k/2."""
        for low in range(self.p**self.k):
            modulus = [(low // self.p**i) % self.p for i in range(self.k)] + [1]
            if modulus[0] == 0:
                continue
            if all(self._no_factor(modulus, d) for d in range(1, self.k // 2 + 1)):
                return modulus
        raise AssertionError("no irreducible polynomial")  # pragma: no cover

    def _no_factor(self, modulus: list[int], degree: int) -> bool:
        for low in range(self.p**degree):
            factor = [(low // self.p**i) % self.p for i in range(degree)] + [1]
            if not any(self._reduce(modulus, factor)):
                return False
        return True

    def mul(self, a: int, b: int) -> int:
        if self.modulus is None:  # k == 1: the integers mod p
            return a * b % self.p
        return self._number(self._reduce(self._polymul(self._digits(a), self._digits(b)), self.modulus))


def _cyclic_rows(m: int, budget: int = 20_000) -> list[list[int]]:
    """Rows (0, a, b, c) over Z_m whose differences in every two columns are distinct (a
    partial difference matrix): a deterministic backtracking search, a bounded one."""
    best: list[list[int]] = []
    rows: list[list[int]] = [[0, 0, 0, 0]]
    used = [{0} for _ in range(6)]  # a, b, c, b-a, c-a, c-b
    nodes = 0

    def go(min_a: int) -> bool:
        nonlocal best, nodes
        if len(rows) > len(best):
            best = [list(r) for r in rows]
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
    return best


def _transversal(n: int) -> list[list[list[int]]]:
    """The resolvable transversal design of 4 groups of m = n / 4: player (i, j) is i*m + j; when
    4 divides m, the groups are seated by the design for m players in further sessions."""
    m = n // 4
    pk = _prime_power(m)
    if pk is not None:
        f = _Field(*pk)
        rows, add = [[f.mul(k, x) for x in range(4)] for k in range(m)], f.add
    else:
        rows, add = _cyclic_rows(m), (lambda a, b: (a + b) % m)
    rounds = [[[i * m + add(b, row[i]) for i in range(4)] for b in range(m)] for row in rows]
    if m % 4 == 0:  # the four groups never met: they hold sessions of their own
        rounds += [[[i * m + p for p in t] for i in range(4) for t in r] for r in design(m)]
    return rounds


def design(n: int) -> list[list[list[int]]]:
    """The most sessions without a repeated meeting the constructions give ``n`` = 4g
    players: each a list of tables of points 0..n-1. (Worked out each time: at most 0.13 s,
    for 256 players; a few milliseconds for a club's nights.)"""
    if n in _PUBLISHED:
        return _published(n)
    if n in _ROTATIONAL:
        return _rotational(n)
    if n in (16, 64, 256):
        return _affine({16: 2, 64: 3, 256: 4}[n])
    if n >= 16:
        rows = _transversal(n)
        if len(rows) > 1:
            return rows
    return [[list(range(i, i + 4)) for i in range(0, n, 4)]]


def constructed(ids: list[int], wanted: int, rng: random.Random) -> list[list[list[int]]]:
    """Sessions without a repeated meeting (as many as the construction has, at most
    ``wanted``), the players' numbers drawn at random onto the points."""
    rounds = design(len(ids))
    rng.shuffle(rounds)
    points = list(ids)
    rng.shuffle(points)
    return [[[points[x] for x in table] for table in r] for r in rounds[:wanted]]
