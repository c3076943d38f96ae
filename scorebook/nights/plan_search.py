"""The search that draws a night's sessions (``seating.make_plan``): a tabu search over swaps of two
players of one session, the meetings and seats at five counted incrementally (``seating``'s
docstring says what a plan aims at and how the search goes). Plain Python, no Django."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from random import Random

Table = tuple[int, ...]
Session = tuple[Table, ...]

WORK = 300_000  # swaps weighed by one search, whatever the size of the night
# players whose swaps are weighed at each move, and moves without a better plan before a few
# random swaps (16 and 400 rather than 6 and 200: at the same work, the long nights with tables
# of five meet again about half as often, e.g. 33 x 8: 9 -> 5, 41 x 10: 10 -> 6; bench/run.py
# prints them beside a search of its own, bench/seating_search.py)
SAMPLE = 16
TABLES = 24  # tables (of the session) a player's swaps are weighed with at each move
STALL = 400
PATIENCE = 2000  # moves without a better plan before the search gives up

# The weights of the aims (each larger than anything the ones after it can change in a move)
OVER_LIMIT = 1 << 80  # a seat at a table of five beyond the player's limit (above any meetings)
MEETING = 1 << 32  # the cost of the meetings
REDRAWN_OVER_LIMIT = 1 << 12  # the same seat in a redraw (the tables kept weigh more)


class _Tabu:
    """The state of one tabu search: where each player sits in each session, the moves forbidden
    for a while (player p may not go back to table ``table[si][p]`` of session si before step
    ``until[si][p]``), the step, and the work done (swaps weighed)."""

    def __init__(self, sessions: list[list[list[int]]], size: int):
        self.where = [{p: ti for ti, t in enumerate(s) for p in t} for s in sessions]
        self.table = [[-1] * size for _ in sessions]
        self.until = [[0] * size for _ in sessions]
        self.step = 0
        self.work = 0


class Search:
    """The sessions to draw, player indices 0..n-1 into ``everyone`` (those playing and those
    of the played sessions), with the meetings and seats at five counted incrementally."""

    def __init__(self, ids: list[int], sizes: list[int], played: list[list[list[int]]], todo: int, rng: Random):
        self.ids, self.sizes, self.rng, self.todo = ids, sizes, rng, todo
        self.keep = False  # a redraw from the plan drawn before: change as few tables as possible
        self.over_limit = OVER_LIMIT  # what a seat at five beyond a player's limit costs
        everyone = sorted(set(ids) | {p for s in played for t in s for p in t})
        self.everyone = everyone
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
        # the limit of seats at five: each player's share over the sessions he plays, rounded
        # up, plus one (those of the played sessions counted, and never below them)
        seats = sum(n for n in sizes if n == 5)
        playing = {self.index[p] for p in ids}
        self.limit = [0] * size
        for p in range(size):
            sessions = sum(1 for s in self.played if any(p in t for t in s)) + (todo if p in playing else 0)
            self.limit[p] = max(self.fives[p], -(-seats * sessions // len(ids)) + 1)

    def _count(self, session: list[list[int]], sign: int) -> None:
        met, fives = self.met, self.fives
        for t in session:
            for a, b in combinations(t, 2):
                met[a][b] += sign
                met[b][a] += sign
            if len(t) == 5:
                for p in t:
                    fives[p] += sign

    # --- starts

    def newcomers(self, previous: Sequence[Session]) -> dict[int, list[int]]:
        """For each player absent from the plan drawn before (a late arrival), the table of
        each session he joins: tables of four whose players he has not met and that share
        nobody, one per session, where a short exhaustive search finds them (else those
        sharing the fewest). {player: [table index per session]}; {} when the count of
        tables changes (the repair then seats him)."""
        here = set(self.ids)
        sessions = [[[p for p in t if p in here] for t in s] for s in previous]
        if any(len(s) != len(self.sizes) for s in sessions):
            return {}
        places: dict[int, list[int]] = {}
        for newcomer in [p for p in self.ids if not any(p in t for s in sessions for t in s)]:
            row = self.met[self.index[newcomer]]
            options: list[list[int]] = []
            for s in sessions:
                fours = [i for i, t in enumerate(s) if len(t) == 4]
                self.rng.shuffle(fours)
                options.append(sorted(fours, key=lambda i, s=s: sum(row[self.index[x]] for x in s[i])))  # type: ignore[misc]  # (a default binds the session: mypy infers no lambda with one)
            if any(not o for o in options):
                return {}
            best = self._disjoint_tables(sessions, options, row)
            places[newcomer] = best
            for s, i in zip(sessions, best, strict=True):
                s[i].append(newcomer)
        return places

    def _disjoint_tables(self, sessions: list[list[list[int]]], options: list[list[int]], row: list[int]) -> list[int]:
        """One table per session (indices from ``options``) whose players share nobody and were
        not met before (``row``), or else the fewest such meetings found in 20 000 steps."""
        index = self.index
        best: list = [None, []]
        chosen: list[int] = []
        nodes = 0

        def go(k: int, seen: Counter, cost: int) -> None:
            nonlocal nodes
            nodes += 1
            if best[0] is not None and (cost >= best[0] or nodes > 20_000):
                return
            if k == len(sessions):
                best[0], best[1] = cost, list(chosen)
                return
            for i in options[k]:
                t = sessions[k][i]
                extra = sum(seen[x] for x in t) + sum(row[index[x]] for x in t)
                chosen.append(i)
                seen.update(t)
                go(k + 1, seen, cost + extra)
                seen.subtract(t)
                chosen.pop()
                if best[0] == 0:
                    return

        go(0, Counter(), 0)
        return best[1]

    def repaired(self, previous: Session, seats: dict[int, int] | None = None) -> list[list[int]]:
        """A session drawn before, fitted to the players now and the table sizes: those gone
        leave, the smallest tables are dissolved (or empty ones added) until the count of
        tables is right, who has no seat sits where he meets least (a table of four takes a
        fifth while tables of five are missing, those whose players sat at five least often
        first), and a table too full gives a player to one too small. Player numbers."""
        rng, met, index, fives = self.rng, self.met, self.index, self.fives
        here = set(self.ids)
        tables = [[p for p in t if p in here] for t in previous]
        tables = sorted((t for t in tables if t), key=len)
        loose = [p for p in self.ids if not any(p in t for t in tables)]
        while len(tables) > len(self.sizes):
            loose += tables.pop(0)
        tables += [[] for _ in range(len(self.sizes) - len(tables))]
        five_tables = self.sizes.count(5)

        def cost(p: int, table: list[int]) -> int:
            row = met[index[p]]
            return sum(row[index[x]] for x in table if x != p)

        def at_five(table: list[int]) -> int:
            return sum(fives[index[x]] for x in table)

        for p, i in (seats or {}).items():
            if p in loose and i < len(tables):
                # the table chosen for him, found again by its players (the tables were sorted)
                wanted = [x for x in previous[i] if x in here]
                target = next((t for t in tables if t == wanted), None)
                if target is not None and len(target) == 4:
                    target.append(p)
                    loose.remove(p)
        rng.shuffle(loose)
        for p in loose:
            fifth = sum(1 for t in tables if len(t) >= 5) < five_tables
            room = [t for t in tables if len(t) < 4 or (len(t) == 4 and fifth)]
            min(room, key=lambda t: (len(t) >= 4, cost(p, t), at_five(t), rng.random())).append(p)
        tables.sort(key=len, reverse=True)
        while True:
            big = [t for t, n in zip(tables, self.sizes, strict=True) if len(t) > n]
            small = [t for t, n in zip(tables, self.sizes, strict=True) if len(t) < n]
            if not big:
                return tables
            t = big[0]
            p, dest = min(
                ((p, d) for p in t for d in small), key=lambda m: (cost(m[0], m[1]) - cost(m[0], t), rng.random())
            )
            t.remove(p)
            dest.append(p)
            tables.sort(key=len, reverse=True)

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

    # --- costs

    def _meeting_cost(self) -> int:
        n = len(self.met)
        return sum(c * (c - 1) // 2 for a in range(n) for c in self.met[a][a + 1 :])

    def _five_cost(self) -> int:
        return sum(
            self.over_limit * max(0, c - lim) + c * c for c, lim in zip(self.fives, self.limit, strict=True) if c or lim
        )

    def _floor(self, sessions: list[list[list[int]]]) -> int:
        """No plan costs less: the meetings spread as evenly as the counting allows (and no
        fewer than the played sessions already cost), the seats at five likewise."""
        n = len(self.everyone)
        pairs = n * (n - 1) // 2
        total = sum(len(t) * (len(t) - 1) // 2 for s in self.played + sessions for t in s)
        q, r = divmod(total, pairs)
        spread = (pairs - r) * q * (q - 1) // 2 + r * (q + 1) * q // 2
        played = [[0] * n for _ in range(n)]
        for s in self.played:
            for t in s:
                for a, b in combinations(t, 2):
                    played[a][b] += 1
        already = sum(c * (c - 1) // 2 for row in played for c in row)
        counts = [0] * n
        for s in self.played:
            for t in s:
                if len(t) == 5:
                    for p in t:
                        counts[p] += 1
        seats = sum(len(t) for s in sessions for t in s if len(t) == 5)
        # water-filling: each new seat at five to a player of the night with the fewest
        playing = sorted((counts[self.index[p]], self.index[p]) for p in self.ids)
        low = [c for c, _ in playing]
        per_player = len(sessions)
        added = [0] * len(low)
        for _ in range(seats):
            i = min((i for i in range(len(low)) if added[i] < per_player), key=lambda i: low[i] + added[i])
            added[i] += 1
        sq = (
            sum(c * c for c in counts)
            - sum(c * c for c in low)
            + sum((c + a) ** 2 for c, a in zip(low, added, strict=True))
        )
        return MEETING * max(spread, already) + sq

    # --- the search

    def run(self, start: list[list[list[int]]]) -> list[list[list[int]]]:
        rng = self.rng
        sessions: list[list[list[int]]] = []
        for s in start[: self.todo]:
            s = [[self.index[p] for p in t] for t in s]
            self._count(s, +1)
            sessions.append(s)
        while len(sessions) < self.todo:
            s = self._greedy()
            self._count(s, +1)
            sessions.append(s)
        self._improve(sessions)
        for s in sessions:
            s.sort(key=len, reverse=True)
            for t in s:
                t.sort()
                rng.shuffle(t)
            self._first_dealers(s)
        self._even_dealers(sessions)
        return [[[self.everyone[p] for p in t] for t in s] for s in sessions]

    def _improve(self, sessions: list[list[list[int]]]) -> None:
        """The tabu search over ``sessions`` (changed in place): the best plan it finds is kept."""
        if not sessions:
            return
        rng = self.rng
        tabu = _Tabu(sessions, len(self.everyone))
        cost = MEETING * self._meeting_cost() + self._five_cost()
        floor = self._floor(sessions)
        if self.keep:  # a redraw: the seats at five are not worth changing tables once no repeat is left
            floor = floor // MEETING * MEETING + self._five_cost() if cost // MEETING <= floor // MEETING else floor
        best_cost, best = cost, [[list(t) for t in s] for s in sessions]
        # a redraw keeps the tables drawn before unless fewer meetings are found (an evener spread of
        # the seats at five is not worth changing tables, and their cards); a new night weighs all
        better = (lambda a, b: a // MEETING < b // MEETING) if self.keep else (lambda a, b: a < b)
        # tables where two players meet again, kept up to date after every swap
        clashes = {(si, ti) for si, s in enumerate(sessions) for ti, t in enumerate(s) if self._clash(t)}
        since_best = 0
        while tabu.work < WORK and cost > floor and since_best < PATIENCE:
            tabu.step += 1
            candidates = self._candidates(sessions, clashes)
            if not candidates:
                break
            if since_best >= STALL and best_cost // MEETING <= floor // MEETING:
                break  # the meetings are as few as they can be, and the seats at five settled
            if since_best and since_best % STALL == 0:
                self._shake(sessions, tabu.where, clashes, candidates)
                cost = MEETING * self._meeting_cost() + self._five_cost()
                since_best += 1
                continue
            best_move = self._best_move(sessions, tabu, candidates, cost, best_cost)
            if best_move is None:
                since_best += 1
                continue
            delta, si, p, q = best_move
            ta, tb = tabu.where[si][p], tabu.where[si][q]
            self._swap(sessions, tabu.where, clashes, si, p, q)
            cost += delta
            tenure = 3 + rng.randrange(8)
            tabu.table[si][p], tabu.until[si][p] = ta, tabu.step + tenure
            tabu.table[si][q], tabu.until[si][q] = tb, tabu.step + tenure
            if better(cost, best_cost):
                best_cost, best = cost, [[list(t) for t in s] for s in sessions]
                since_best = 0
            else:
                since_best += 1
        if cost != best_cost or self.keep:
            for s in sessions:
                self._count(s, -1)
            sessions[:] = best
            for s in sessions:
                self._count(s, +1)

    def _best_move(
        self, sessions: list[list[list[int]]], tabu: _Tabu, candidates: list[tuple[int, int]], cost: int, best_cost: int
    ) -> tuple[int, int, int, int] | None:
        """The best swap of a candidate (session, player) with a player of another table of his
        session: (change of cost, session, p, q), ties drawn at random; a swap back to a table the
        player left a few steps ago only when it gives the best plan yet. None: no swap allowed.
        Every swap weighed counts as work (``tabu.work``)."""
        rng, met, fives, limit = self.rng, self.met, self.fives, self.limit
        over_limit, step, work = self.over_limit, tabu.step, tabu.work
        best_move, ties = None, 0
        for si, p in candidates:
            s, w = sessions[si], tabu.where[si]
            ta = w[p]
            a = s[ta]
            a_others = [x for x in a if x != p]
            row_p = met[p]
            out_p = sum(map(row_p.__getitem__, a_others)) - len(a_others)
            back_p = tabu.table[si][p] if tabu.until[si][p] >= step else -1
            t_table, t_until = tabu.table[si], tabu.until[si]
            others = [ti for ti in range(len(s)) if ti != ta]
            if len(others) > TABLES:
                others = rng.sample(others, TABLES)
            for tb in others:
                b = s[tb]
                join_p = sum(map(row_p.__getitem__, b))
                stay_b = len(b) - 1
                five_p, five_b = len(a) == 5, len(b) == 5
                for q in b:
                    work += 1
                    row_q = met[q]
                    delta = MEETING * (
                        sum(map(row_q.__getitem__, a_others))
                        - out_p
                        + join_p
                        - row_p[q]
                        - sum(map(row_q.__getitem__, b))
                        + stay_b
                    )
                    if five_p != five_b:
                        out, into = (p, q) if five_p else (q, p)
                        co, ci = fives[out], fives[into]
                        delta += 2 * (ci - co + 1)
                        delta += over_limit * (
                            max(0, ci + 1 - limit[into])
                            - max(0, ci - limit[into])
                            + max(0, co - 1 - limit[out])
                            - max(0, co - limit[out])
                        )
                    if (tb == back_p or (t_table[q] == ta and t_until[q] >= step)) and cost + delta >= best_cost:
                        continue
                    if best_move is None or delta < best_move[0]:
                        best_move, ties = (delta, si, p, q), 1
                    elif delta == best_move[0]:
                        ties += 1
                        if rng.randrange(ties) == 0:
                            best_move = (delta, si, p, q)
        tabu.work = work
        return best_move

    def _clash(self, table: list[int]) -> bool:
        met = self.met
        return any(met[a][b] > 1 for a, b in combinations(table, 2))

    def _candidates(self, sessions: list[list[list[int]]], clashes: set[tuple[int, int]]) -> list[tuple[int, int]]:
        """(session, player) pairs whose swaps are weighed next: a sample of the players who
        meet someone again, and of those who sit at a table of five beyond their limit or
        two times more often than someone else."""
        rng, met, fives, limit = self.rng, self.met, self.fives, self.limit
        out = []
        if clashes:
            for si, ti in rng.sample(sorted(clashes), min(SAMPLE, len(clashes))):
                t = sessions[si][ti]
                out.append((si, rng.choice([p for p in t if any(met[p][x] > 1 for x in t if x != p)])))
        if self.sizes[0] == 5:
            low = min(fives[self.index[p]] for p in self.ids)
            uneven = [
                (si, p)
                for si, s in enumerate(sessions)
                for t in s
                if len(t) == 5
                for p in t
                if fives[p] > limit[p] or fives[p] >= low + 2
            ]
            out += rng.sample(uneven, min(SAMPLE - len(out) if not out else 2, len(uneven)))
        return out

    def _swap(
        self,
        sessions: list[list[list[int]]],
        where: list[dict[int, int]],
        clashes: set[tuple[int, int]],
        si: int,
        p: int,
        q: int,
    ) -> None:
        met, fives = self.met, self.fives
        s, w = sessions[si], where[si]
        ta, tb = w[p], w[q]
        a, b = s[ta], s[tb]
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
        w[p], w[q] = tb, ta
        # a pair whose count changed has p or q in it: only their tables can gain or lose a clash
        for sj, (s2, w2) in enumerate(zip(sessions, where, strict=True)):
            for player in (p, q):
                tj = w2[player]
                if self._clash(s2[tj]):
                    clashes.add((sj, tj))
                else:
                    clashes.discard((sj, tj))

    def _shake(
        self,
        sessions: list[list[list[int]]],
        where: list[dict[int, int]],
        clashes: set[tuple[int, int]],
        candidates: list[tuple[int, int]],
    ) -> None:
        """A few random swaps of the players in question, to leave a dead end."""
        rng = self.rng
        for si, p in candidates[:3]:
            s = sessions[si]
            ta = where[si][p]
            tb = rng.choice([ti for ti in range(len(s)) if ti != ta and len(s[ti]) == len(s[ta])] or [ta])
            if tb == ta:
                continue
            self._swap(sessions, where, clashes, si, p, rng.choice(s[tb]))

    # --- first dealers

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
