"""Properties of the scoring engine over random, valid evenings (docs/rules/, docs/evening-file.md).

The strategies build evenings deal by deal: before each deal the prefix is scored
and ``result.next`` says who deals and who plays, so that every declarer is drawn
from the players at the table for that deal. Contract games get 4 to 7 players and
a mix of contracts (tricks 0..13, per declarer for misère and piccolo kinds),
passes, adjustments, and now and then a dealer or a table named by the scorer.
Classic games get 4 to 6 players (``mort``: 3), deals with valid honours, robre
lines between robres and claims when a side stands at 8. Some properties also run
on presets changed by house rules.

A failing example is printed as ``loads('<the evening file>')``.
SCOREBOOK_EXAMPLES=1000 runs a longer search than the default.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
from datetime import date
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from oracles import fewest_transfers
from scorebook.rules import registry
from scorebook.rules.deals import Adjustment, Claim, ClassicDeal, ContractDeal, Evening, Pass, RobreStart
from scorebook.rules.evening_file import FileError, dumps, loads, report
from scorebook.rules.evening_file import to_dict as evening_to_dict
from scorebook.rules.model import BeteEnd, ClassicRules, ContractRules, Trump, to_dict
from scorebook.rules.scoring import BETE, DealError, EveningResult, NextDeal, score, scorer

CONTRACT_PRESETS = ("gand", "kleurenwiezen", "liege", "encheres")
CLASSIC_PRESETS = ("classique", "short", "francais", "mort")
ALL_PRESETS = CONTRACT_PRESETS + CLASSIC_PRESETS
ZERO_SUM_PRESETS = ("gand", "kleurenwiezen", "classique", "short", "francais", "mort")
MAX_TRICKS = 13
CENT = Decimal("0.01")

# the default keeps the module well under 40 s
EXAMPLES = int(os.environ.get("SCOREBOOK_EXAMPLES", "60"))
PROPERTY = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def test_it_covers_every_preset() -> None:
    assert set(ALL_PRESETS) == set(registry.keys())


# --- strategies ------------------------------------------------------------------------

# "(bête)" is the name the settlement gives a carried bête: no player may take it (tested apart)
NAME_POOL = ["Anne", "Bert", "Carl", "Dina", "Eric", "Fien", "Gust", "Zoë", "Jérôme", "李", "O'Neil", "Anne Marie"]
names = st.one_of(
    st.sampled_from(NAME_POOL),
    st.text(st.characters(categories=("L", "N")), min_size=1, max_size=12),
)


def players_of(n: int) -> st.SearchStrategy[tuple[str, ...]]:
    return st.one_of(
        st.permutations(NAME_POOL).map(lambda names: tuple(names[:n])),
        st.lists(names, min_size=n, max_size=n, unique=True).map(tuple),
    )


def default_table(players: tuple[str, ...], dealer: str) -> tuple[str, ...]:
    """The four who play when ``dealer`` deals (docs/rules/README.md), computed independently of the engine."""
    n = len(players)
    if n == 4:
        return players
    seat = players.index(dealer)
    return tuple(players[(seat + i) % n] for i in range(1, 5))


@st.composite
def adjustments(draw, players: tuple[str, ...], zero_sum: bool) -> Adjustment:
    who = draw(st.lists(st.sampled_from(players), min_size=1, max_size=len(players), unique=True))
    values = draw(st.lists(st.integers(-60, 60), min_size=len(who), max_size=len(who)))
    if zero_sum:
        values[-1] = -sum(values[:-1])
    note_ = draw(st.sampled_from(["", "revoke", "misdeal", "correction"]))
    return Adjustment(dict(zip(who, values, strict=False)), note_)


@st.composite
def trick_counts(draw, needs: int, high: int) -> int:
    """0..high, often close to what the contract needs."""
    near = [t for t in (needs - 1, needs, needs + 1) if 0 <= t <= high]
    if near and draw(st.booleans()):
        return draw(st.sampled_from(near))
    return draw(st.integers(0, high))


@st.composite
def contracts(draw, rules: ContractRules, playing: tuple[str, ...]) -> dict:
    """The fields of a valid ContractDeal whose declarers are among ``playing``."""
    key = draw(st.sampled_from(sorted(rules.contracts)))
    c = rules.contracts[key]
    order = draw(st.permutations(playing))
    fields: dict = {"contract": key}
    if c.exact:
        count = 2 if c.declarers == 2 else draw(st.integers(1, c.simultaneous))
        declarers = tuple(order[:count])
        left, tricks = MAX_TRICKS, {}
        for d in draw(st.permutations(declarers)):
            tricks[d] = draw(trick_counts(c.needs, left))
            left -= tricks[d]
        tricks = {d: tricks[d] for d in declarers}
        if count == 1 and draw(st.booleans()):
            fields["tricks"] = tricks[declarers[0]]  # a lone declarer may give one number
        else:
            fields["tricks"] = tricks
        failed = any(t != c.needs for t in tricks.values())
        if c.exposed_fault and failed and draw(st.booleans()):
            fields["exposed_fault"] = draw(st.sampled_from([p for p in playing if p not in declarers]))
    else:
        declarers = tuple(order[: c.declarers])
        fields["tricks"] = draw(trick_counts(c.needs, MAX_TRICKS))
        if c.needs_if_trump_changed is not None:
            fields["trump_changed"] = draw(st.booleans())
    fields["declarers"] = declarers
    if c.trumps:
        fields["trump"] = draw(st.sampled_from([None, *Trump]))
    else:
        fields["trump"] = draw(st.sampled_from([None, Trump.NONE]))
    return fields


@st.composite
def contract_game_deals(draw, rules: ContractRules, players, nxt: NextDeal, zero_sum: bool, pin: bool):
    what = draw(st.sampled_from(["contract"] * 6 + ["pass", "adjustment"]))
    if what == "adjustment":
        return draw(adjustments(players, zero_sum))
    dealer, playing = nxt.dealer, nxt.playing
    table: dict = {}
    if pin:  # name the table explicitly, as the rotation gives it
        table = {"dealer": dealer, "playing": tuple(playing)}
    else:
        override = draw(st.integers(0, 9))
        if override == 0:  # the scorer names another dealer
            dealer = draw(st.sampled_from(players))
            playing = default_table(players, dealer)
            table = {"dealer": dealer}
        elif override == 1:  # the scorer names who plays (someone stepped away)
            playing = tuple(draw(st.permutations(players))[:4])
            table = {"playing": playing}
    if what == "pass":
        return Pass(**table)
    return ContractDeal(**draw(contracts(rules, playing)), **table)


@st.composite
def classic_game_deals(draw, rules: ClassicRules, players, nxt: NextDeal, zero_sum: bool):
    robre = nxt.robre
    options = ["deal"] * 8 + ["adjustment"]
    if robre.deals == 0 and not robre.manches:
        options += ["robre"] * 3
    at = [team for team in (0, 1) if rules.claim_at is not None and robre.points[team] == rules.claim_at]
    if at:
        options += ["claim"] * 8
    what = draw(st.sampled_from(options))
    if what == "adjustment":
        return draw(adjustments(players, zero_sum))
    if what == "robre":
        if rules.dummy:
            return RobreStart(dummy_partner=draw(st.sampled_from(players)))
        a, b, c, d = draw(st.permutations(players))[:4]
        return RobreStart(teams=((a, b), (c, d)))
    if what == "claim":
        return Claim(draw(st.sampled_from(at)))
    t0 = draw(st.one_of(st.integers(0, 13), st.sampled_from([0, 1, 2, 11, 12, 13])))
    h0 = draw(st.integers(0, rules.honours_cards))
    h1 = draw(st.integers(0, rules.honours_cards - h0))
    return ClassicDeal((t0, MAX_TRICKS - t0), (h0, h1))


@st.composite
def house_rules(draw, key: str) -> dict:
    """One or two real changes to preset ``key``, in the shape of its exported rules (docs/rules/README.md)."""
    rules = registry.get(key)
    base = to_dict(rules)
    changes: dict = {}
    if isinstance(rules, ContractRules):
        options = ["multiplier", "combination", "cell", "cell"]
        if rules.bete is not None:
            options += ["bete", "bete"]
    else:
        options = ["target", "bonus", "manches", "honours"]
    for option in draw(st.lists(st.sampled_from(options), min_size=1, max_size=2, unique=True)):
        if option == "multiplier":
            changes["all_pass_multiplier"] = draw(
                st.sampled_from([m for m in (1, 2, 3) if m != rules.all_pass_multiplier])
            )
        elif option == "combination":
            other = "failures-pay-others" if base["misere_combination"] == "each-vs-table" else "each-vs-table"
            changes["misere_combination"] = other
        elif option == "cell":
            contract = draw(st.sampled_from(sorted(rules.contracts)))
            table = draw(st.sampled_from(["made", "failed"]))
            cells = base["contracts"][contract][table]
            tricks = draw(st.sampled_from(sorted(cells)))
            if rules.bete is not None and table == "made":
                # with a bête the jetons only change hands: what the opponents pay, the declarers get
                c = rules.contracts[contract]
                opponents = 4 - c.declarers
                old, share = cells[tricks], (opponents, c.declarers)
                paid = draw(
                    st.integers(0, 80).filter(lambda v, old=old, share=share: [v * share[0] // share[1], -v] != old)
                )
                cell = [paid * opponents // c.declarers, -paid]
            elif rules.bete is not None:
                # a failure pays at least this much into the bête; the opponents get nothing
                old = cells[tricks]
                cell = [-draw(st.integers(0, 80).filter(lambda v, old=old: [-v, 0] != old)), 0]
            else:
                old = cells[tricks]
                cell = draw(st.lists(st.integers(-80, 80), min_size=2, max_size=2).filter(lambda c, old=old: c != old))
            changes.setdefault("contracts", {}).setdefault(contract, {}).setdefault(table, {})[tricks] = cell
        elif option == "bete":
            bete = draw(
                st.fixed_dictionaries(
                    {},
                    optional={
                        "ante": st.integers(1, 5),
                        "end": st.just("carry"),
                        "failure_floor": st.just(False),
                    },
                ).filter(bool)
            )
            changes["bete"] = bete
        elif option == "target":
            low = (rules.claim_at + 1) if rules.claim_at is not None else 3
            changes["manche_target"] = draw(st.integers(low, 12).filter(lambda t: t != rules.manche_target))
        elif option == "bonus":
            changes["robre_bonus"] = draw(st.integers(0, 5).filter(lambda b: b != rules.robre_bonus))
        elif option == "manches":
            changes["manches_to_win"] = draw(st.sampled_from([m for m in (1, 3) if m != rules.manches_to_win]))
        elif option == "honours":
            changes["honours"] = {"cards": 5, "points": {"5": 6}}
    return changes


stakes = st.one_of(
    st.decimals(min_value=Decimal("0.01"), max_value=Decimal("2.00"), places=2),
    st.decimals(min_value=Decimal("0.01"), max_value=Decimal("2.00"), places=3),
)


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class ShownEvening(Evening):
    """An Evening that a failing example prints as its evening file rather than as nested dataclasses."""

    def __repr__(self) -> str:
        return f"loads({json.dumps(evening_to_dict(self), ensure_ascii=False)!r})"

    def _repr_pretty_(self, printer, cycle) -> None:  # what Hypothesis prints
        printer.text(repr(self))


@st.composite
def evenings(
    draw, keys=ALL_PRESETS, zero_sum: bool = True, max_deals: int | None = None, pin: bool = False, house: bool = False
):
    """A valid evening of one of ``keys``, built deal by deal on the engine's rotation.

    With ``house``, half of the evenings play a preset changed by house rules.
    """
    key = draw(st.sampled_from(keys))
    overrides = draw(house_rules(key)) if house and draw(st.booleans()) else {}
    rules = registry.resolve(key, overrides)
    if isinstance(rules, ContractRules):
        n = draw(st.integers(4, 7))
        max_deals = 14 if max_deals is None else max_deals
    else:
        n = 3 if rules.dummy else draw(st.sampled_from([4, 4, 5, 6]))
        max_deals = 30 if max_deals is None else max_deals
    players = draw(players_of(n))
    stake = draw(st.none() | stakes)
    evening = ShownEvening(
        rules=rules,
        players=players,
        first_dealer=draw(st.sampled_from(players)),
        stake=stake,
        # the currency without a stake is covered by its own test below
        currency=draw(st.sampled_from(["EUR", "BEF", "CHF"])) if stake is not None else "EUR",
        date=draw(st.none() | st.dates(date(2000, 1, 1), date(2040, 12, 31))),
        overrides=overrides,
    )
    deals: list = []
    for _ in range(draw(st.integers(0, max_deals))):
        nxt = score(dataclasses.replace(evening, deals=tuple(deals))).next
        if isinstance(rules, ContractRules):
            deals.append(draw(contract_game_deals(rules, players, nxt, zero_sum, pin)))
        else:
            deals.append(draw(classic_game_deals(rules, players, nxt, zero_sum)))
    return dataclasses.replace(evening, deals=tuple(deals))


def with_stake(evening: Evening, stake: Decimal) -> Evening:
    return dataclasses.replace(evening, stake=stake)


def outcome(evening: Evening) -> EveningResult | tuple[str, int, str]:
    try:
        return score(evening)
    except DealError as exc:
        return ("DealError", exc.number, exc.message)


# --- zero sum, the bête ------------------------------------------------------------------


@PROPERTY
@given(evening=evenings(ZERO_SUM_PRESETS))
def test_it_keeps_every_deal_and_the_totals_zero_sum(evening: Evening) -> None:
    result = score(evening)
    assert len(result.deals) == len(evening.deals)
    for deal in result.deals:
        assert set(deal.deltas) == set(evening.players)
        assert sum(deal.deltas.values()) == 0, f"deal {deal.number} is not zero-sum: {dict(deal.deltas)}"
        assert deal.pot == 0
    assert sum(result.totals.values()) == 0
    assert result.pot == 0
    assert dict(result.totals) == {p: sum(d.deltas[p] for d in result.deals) for p in evening.players}
    event(f"{evening.ruleset}: {sum(r.ended_robre for r in result.deals)} robres ended")


@PROPERTY
@given(evening=evenings(("encheres",), house=True))
def test_it_keeps_totals_plus_the_bete_at_zero_in_encheres(evening: Evening) -> None:
    result = score(evening)
    running = result.running()
    for deal, totals in zip(result.deals, running, strict=True):
        assert deal.pot >= 0, f"the bête is negative after deal {deal.number}"
        assert sum(totals.values()) + deal.pot == 0, f"jetons created or lost at deal {deal.number}"
    assert result.pot >= 0
    assert sum(result.totals.values()) + result.pot == 0
    assert result.pot == (result.deals[-1].pot if result.deals else 0)
    assert dict(result.totals) == (running[-1] if running else dict.fromkeys(evening.players, 0))


# --- determinism and the evening file --------------------------------------------------


@PROPERTY
@given(evening=evenings(house=True))
def test_it_gives_the_same_totals_for_the_same_deals(evening: Evening) -> None:
    first, second = score(evening), score(evening)
    assert first == second
    assert report(evening) == report(evening)
    # a fresh Evening built from the same pieces
    fresh = Evening(
        rules=registry.resolve(evening.ruleset, evening.overrides),
        players=tuple(evening.players),
        first_dealer=evening.first_dealer,
        deals=tuple(evening.deals),
        stake=evening.stake,
    )
    assert score(fresh) == first


@PROPERTY
@given(evening=evenings(house=True))
def test_it_gives_the_same_result_when_the_deals_come_one_at_a_time(evening: Evening) -> None:
    """Recording a deal scores only that deal (``Scorer.then``): at every step, as a fresh score."""
    state = scorer(dataclasses.replace(evening, deals=()))
    for n, deal in enumerate(evening.deals, start=1):
        before, inside = state.result(), copy.deepcopy(vars(state))
        previous, state = state, state.then(deal)
        assert vars(previous) == inside, f"deal {n} changed the state it was added to"
        assert state.result() == score(dataclasses.replace(evening, deals=evening.deals[:n])), f"after deal {n}"
        assert state.evening.deals == evening.deals[:n]
        if n > 1:
            assert before == score(dataclasses.replace(evening, deals=evening.deals[: n - 1])), "an earlier state moved"
    assert state.result() == score(evening) == scorer(evening).result()


@st.composite
def any_deals(draw, rules, players):
    """A deal that may break the rules: any contract (or none known), declarers from the whole
    table, any number of tricks; classic deals whose tricks need not add up, claims, robre lines."""
    if isinstance(rules, ContractRules):
        key = draw(st.sampled_from([*sorted(rules.contracts), "nonsense"]))
        declarers = tuple(draw(st.lists(st.sampled_from(players), min_size=0, max_size=3)))
        tricks = draw(st.integers(-1, 15) | st.dictionaries(st.sampled_from(players), st.integers(-1, 14), max_size=3))
        return draw(
            st.sampled_from(
                [
                    ContractDeal(key, declarers, tricks),
                    Pass(dealer=draw(st.sampled_from(players))),
                    Adjustment({draw(st.sampled_from(players)): draw(st.integers(-200_000, 200_000))}),
                ]
            )
        )
    t = draw(st.integers(0, 14))
    return draw(
        st.sampled_from(
            [
                ClassicDeal((t, draw(st.integers(0, 14))), (draw(st.integers(0, 5)), 0)),
                Claim(draw(st.integers(0, 1))),
                RobreStart(teams=((players[0], players[-1]), (players[1], players[2]))),
                RobreStart(dummy_partner=players[0]),
            ]
        )
    )


@PROPERTY
@given(evening=evenings(house=True), data=st.data())
def test_it_keeps_the_state_as_it_was_when_one_more_deal_is_refused(evening: Evening, data) -> None:
    state = scorer(evening)
    before, inside = state.result(), copy.deepcopy(vars(state))
    deal = data.draw(any_deals(evening.rules, evening.players))
    expected = outcome(dataclasses.replace(evening, deals=evening.deals + (deal,)))
    try:
        got = state.then(deal).result()
    except DealError as exc:
        got = ("DealError", exc.number, exc.message)
    event("refused" if isinstance(expected, tuple) else "accepted")
    assert got == expected
    assert state.result() == before == score(evening)
    assert vars(state) == inside, "the new state shares something the deal changed"
    assert state.evening is evening


@PROPERTY
@given(evening=evenings(house=True))
def test_it_gives_the_same_totals_after_an_export_and_an_import(evening: Evening) -> None:
    text = dumps(evening)
    back = loads(text)
    assert dict(score(back).totals) == dict(score(evening).totals)
    assert report(back) == report(evening)
    assert json.loads(dumps(back)) == json.loads(text)  # the same file (objects compare without order)
    assert dumps(loads(dumps(back))) == dumps(back)  # and, once read, exported the same every time
    # an export followed by an import must give back an identical evening
    assert back.rules == evening.rules, "the rules changed through export and import"
    for name in ("players", "first_dealer", "deals", "stake", "currency", "date", "overrides"):
        assert getattr(back, name) == getattr(evening, name), name


def test_it_keeps_a_player_named_like_the_bete_apart_from_a_carried_bete() -> None:
    # A carried bête is a party of the settlement, shown as "(bête)" in the report. A player
    # may have that name too (nothing in the file format forbids it): either the file is
    # refused, or his points and his payments stay his own.
    name = "(bête)"
    text = json.dumps(
        {
            "format": "scorebook-evening/1",
            "ruleset": "encheres",
            "rules": {"bete": {"end": "carry"}},
            "players": [name, "Bert", "Carl", "Dina"],
            "stake": "1.00",
            "deals": [
                {"adjustment": {name: 10, "Bert": -10}},
                {"contract": "solo", "declarers": ["Bert"], "tricks": 3},  # Bert pays 8 into the bête
            ],
        }
    )
    try:
        evening = loads(text)
    except FileError as exc:
        assert name in exc.message
        return
    result = score(evening)
    assert dict(result.totals) == {name: 10, "Bert": -18, "Carl": 0, "Dina": 0} and result.pot == 8
    money = result.money(evening.stake)
    assert sum(money.values()) == 0
    shown = report(evening)
    # zero-sum points plus the carried bête: the mean is 0, each player's money is his points
    assert shown["money"] == {name: "10.00", "Bert": "-18.00", "Carl": "0.00", "Dina": "0.00"}
    # reading the printed transfers, every player's money line is settled by the payments naming him
    for player, amount in shown["money"].items():
        received = sum(Decimal(t["amount"]) for t in shown["transfers"] if t["to"] == player)
        paid = sum(Decimal(t["amount"]) for t in shown["transfers"] if t["from"] == player)
        assert received - paid == Decimal(amount), f"the transfers shown for {player!r} do not settle {amount}"


def test_it_keeps_the_currency_without_a_stake_through_export_and_import() -> None:
    # docs/evening-file.md: "an export followed by an import must give back an identical evening"
    evening = Evening(rules=registry.get("gand"), players=("A", "B", "C", "D"), first_dealer="A", currency="CHF")
    back = loads(dumps(evening))
    assert back.currency == "CHF"
    assert back == evening


# --- an edit is a re-score -------------------------------------------------------------


def pinned(evening: Evening, result: EveningResult) -> Evening:
    """The same evening with every contract and pass naming its dealer and its four players."""
    deals = []
    for deal, r in zip(evening.deals, result.deals, strict=True):
        if isinstance(deal, ContractDeal | Pass):
            deal = dataclasses.replace(deal, dealer=r.dealer, playing=tuple(r.playing))
        deals.append(deal)
    return dataclasses.replace(evening, deals=tuple(deals))


@PROPERTY
@given(evening=evenings(CONTRACT_PRESETS, max_deals=10, house=True), data=st.data())
def test_it_scores_an_edited_contract_deal_like_a_fresh_evening(evening: Evening, data) -> None:
    original = score(evening)
    if not evening.deals:
        return
    # naming each deal's table changes nothing, and keeps the later deals valid after an edit
    fixed = pinned(evening, original)
    fixed_result = score(fixed)
    assert [dict(d.deltas) for d in fixed_result.deals] == [dict(d.deltas) for d in original.deals]
    assert fixed_result.totals == original.totals and fixed_result.pot == original.pot

    k = data.draw(st.integers(0, len(evening.deals) - 1), label="k (0-based)")
    before = score(dataclasses.replace(fixed, deals=fixed.deals[:k])).next
    if isinstance(evening.deals[k], ContractDeal | Pass):
        before = dataclasses.replace(before, dealer=original.deals[k].dealer, playing=tuple(original.deals[k].playing))
    replacement = data.draw(
        contract_game_deals(evening.rules, evening.players, before, zero_sum=True, pin=True), label="replacement"
    )
    deals = fixed.deals[:k] + (replacement,) + fixed.deals[k + 1 :]
    edited = score(dataclasses.replace(fixed, deals=deals))
    fresh = score(fresh_evening(evening, deals))
    assert edited == fresh
    assert [dict(d.deltas) for d in edited.deals[:k]] == [dict(d.deltas) for d in original.deals[:k]]
    assert [d.pot for d in edited.deals[:k]] == [d.pot for d in original.deals[:k]]
    # and the file round trip of the edited evening agrees too
    assert report(loads(dumps(dataclasses.replace(fixed, deals=deals)))) == report(
        dataclasses.replace(fixed, deals=deals)
    )


@PROPERTY
@given(evening=evenings(CLASSIC_PRESETS, max_deals=20, house=True), data=st.data())
def test_it_scores_an_edited_classic_deal_like_a_fresh_evening(evening: Evening, data) -> None:
    original = score(evening)
    if not evening.deals:
        return
    k = data.draw(st.integers(0, len(evening.deals) - 1), label="k (0-based)")
    before = score(dataclasses.replace(evening, deals=evening.deals[:k])).next
    replacement = data.draw(
        classic_game_deals(evening.rules, evening.players, before, zero_sum=True), label="replacement"
    )
    deals = evening.deals[:k] + (replacement,) + evening.deals[k + 1 :]
    edited = outcome(dataclasses.replace(evening, deals=deals))
    fresh = outcome(fresh_evening(evening, deals))
    assert edited == fresh
    if isinstance(edited, tuple):
        # a later claim or robre line no longer fits the new score: the error names a later deal
        assert edited[1] > k + 1
        event("edit makes a later deal invalid")
        return
    assert [dict(d.deltas) for d in edited.deals[:k]] == [dict(d.deltas) for d in original.deals[:k]]
    assert [d.robre for d in edited.deals[:k]] == [d.robre for d in original.deals[:k]]


def fresh_evening(evening: Evening, deals) -> Evening:
    """The same table and rules, built anew around ``deals``: nothing carried over from ``evening``."""
    return Evening(
        rules=registry.resolve(evening.ruleset, evening.overrides),
        players=tuple(evening.players),
        first_dealer=evening.first_dealer,
        deals=tuple(deals),
    )


# --- money and transfers -----------------------------------------------------------------


def check_transfers(balances: dict[str, Decimal], transfers) -> None:
    left = dict(balances)
    for t in transfers:
        assert t.payer in balances and t.payee in balances, f"{t} names a party without a balance in {list(balances)}"
        assert t.payer != t.payee
        assert t.amount > 0 and t.amount == t.amount.quantize(CENT)
        left[t.payer] += t.amount
        left[t.payee] -= t.amount
    assert all(v == 0 for v in left.values()), f"unsettled: {left}"
    assert len(transfers) == fewest_transfers(balances)


@PROPERTY
@given(evening=evenings(zero_sum=False, house=True), stake=stakes)
def test_it_settles_money_to_exactly_zero_within_a_cent_of_the_exact_amount(evening: Evening, stake: Decimal) -> None:
    result = score(evening)
    money = result.money(stake)
    # docs/rules/money.md: the mean is over the players who took part: who sat at the table for a deal
    # or scored on a line (an adjustment); the others have 0.00. Read here from the deals.
    taking = (
        {p for r in result.deals for p in r.playing}
        | {p for d in evening.deals if isinstance(d, Adjustment) for p, v in d.points.items() if v}
        | {p for r in result.deals for p, v in r.deltas.items() if v}
    )
    if set(evening.players) - taking:
        event("a player took no part")
    points = {p: v for p, v in result.totals.items() if p in taking}
    if result.bete_end is BeteEnd.CARRY and result.pot:
        points[BETE] = result.pot  # a bête carried to the next evening keeps its part
    else:
        event("the bête is shared out" if result.pot else "no bête left")
    assert list(money) == list(evening.players) + [p for p in points if p == BETE]
    assert set(money) >= set(evening.players), "every player has a money line of his own"
    assert sum(money.values()) == Decimal("0.00")
    for player in set(evening.players) - taking:
        assert money[player] == Decimal("0.00"), f"{player} took no part but has {money[player]}"
    assert set(result.took_part) == taking
    mean = Fraction(sum(points.values()), len(points)) if points else Fraction(0)
    for player, amount in money.items():
        if player not in points:
            continue
        assert amount == amount.quantize(CENT)
        exact = (Fraction(points[player]) - mean) * Fraction(stake)
        # the largest remainder method keeps every amount strictly within one cent
        assert abs(Fraction(amount) - exact) < Fraction(1, 100), (player, amount, exact)
    # the evening file's report gives the same money
    if evening.stake is not None:
        reported = report(evening)
        assert reported["money"] == {p: str(result.money(evening.stake)[p]) for p in evening.players}


@PROPERTY
@given(evening=evenings(zero_sum=False, house=True), stake=stakes)
def test_it_settles_every_balance_with_the_fewest_transfers(evening: Evening, stake: Decimal) -> None:
    result = score(evening)
    money = result.money(stake)
    transfers = result.transfers(stake)
    check_transfers(money, transfers)
    assert result.transfers(stake) == transfers  # the same evening always gives the same list


@settings(max_examples=150, deadline=None)
@given(
    points=st.lists(st.integers(-300, 300), min_size=2, max_size=7),
    stake=stakes,
)
def test_it_settles_any_table_with_the_fewest_transfers(points: list[int], stake: Decimal) -> None:
    # small point values make several zero-sum groups likely, which evenings rarely do
    from scorebook.rules.settlement import min_transfers, money

    balances = money({f"P{i}": p for i, p in enumerate(points)}, stake)
    assert sum(balances.values()) == 0
    check_transfers(balances, min_transfers(balances))


# --- who plays, who sits out ---------------------------------------------------------------


@PROPERTY
@given(evening=evenings(CONTRACT_PRESETS, zero_sum=False))
def test_it_gives_nothing_to_a_player_sitting_out(evening: Evening) -> None:
    result = score(evening)
    n = len(evening.players)
    dealer = evening.first_dealer
    for deal, r in zip(evening.deals, result.deals, strict=True):
        if isinstance(deal, Adjustment):
            continue
        assert len(r.playing) == 4 and len(set(r.playing)) == 4
        assert set(r.sitting_out) == set(evening.players) - set(r.playing)
        for p in r.sitting_out:
            assert r.deltas[p] == 0, f"{p} sits out deal {r.number} but scores {r.deltas[p]}"
        if deal.dealer is not None:
            dealer = deal.dealer
        assert r.dealer == dealer, f"deal {r.number}: {r.dealer} deals, the rotation says {dealer}"
        if deal.playing is None:
            assert set(r.playing) == set(default_table(evening.players, dealer))
            if n >= 5:
                assert r.dealer not in r.playing, f"the dealer plays deal {r.number} with {n} players"
        else:
            assert set(r.playing) == set(deal.playing)
        if isinstance(deal, ContractDeal):  # the deal passes to the left; after a pass the same dealer deals again
            dealer = evening.players[(evening.players.index(dealer) + 1) % n]
    assert result.next.dealer == dealer
    if n >= 5:
        assert result.next.dealer not in result.next.playing


@PROPERTY
@given(evening=evenings(("classique", "short", "francais")))
def test_it_brings_in_the_players_who_sat_out_the_last_robre(evening: Evening) -> None:
    # docs/rules/classique.md: with 5 or 6 present the four who play the next robre can change
    # (default: the players who sat out come in)
    result = score(evening)
    lines: set[int] = set()  # robres started by a robre line
    robres: dict[int, tuple[str, ...]] = {}
    for deal, r in zip(evening.deals, result.deals, strict=True):
        if r.robre is None:
            continue
        if isinstance(deal, RobreStart):
            lines.add(r.robre.number)
        robres[r.robre.number] = r.robre.players
        if isinstance(deal, ClassicDeal | Claim):
            assert set(r.deltas) == set(evening.players)
            assert all(r.deltas[p] == 0 for p in evening.players if p not in r.robre.players)
            assert r.dealer in r.robre.players, f"deal {r.number}: {r.dealer} deals but sits out the robre"
    robres[result.next.robre.number] = result.next.robre.players  # the robre to come, or in progress
    for number in sorted(robres):
        if number - 1 in robres and number not in lines:
            sat_out = set(evening.players) - set(robres[number - 1])
            assert sat_out <= set(robres[number]), (
                f"robre {number}: {sorted(sat_out - set(robres[number]))} sat out robre {number - 1} and sit out again"
            )


def test_it_brings_in_the_player_who_sat_out_a_robre_named_by_a_robre_line() -> None:
    # Anne sits out the first robre (named by a robre line); the second robre is the default one
    deals = [RobreStart(teams=(("Bert", "Dina"), ("Carl", "Eric")))] + [ClassicDeal((13, 0))] * 2
    evening = Evening(
        rules=registry.get("short"),
        players=("Anne", "Bert", "Carl", "Dina", "Eric"),
        first_dealer="Anne",
        deals=tuple(deals),
    )
    result = score(evening)
    assert result.deals[-1].ended_robre
    assert "Anne" in result.next.robre.players, f"Anne sits out again: {result.next.robre.teams}"
    assert "Anne" not in result.next.sitting_out


# --- all-pass doubling -------------------------------------------------------------------------


@PROPERTY
@given(evening=evenings(("gand", "kleurenwiezen", "liege"), zero_sum=False, house=True))
def test_it_multiplies_the_contract_after_an_all_pass_exactly_once(evening: Evening) -> None:
    # docs/rules/kleurenwiezen.md: "several all-pass deals in a row still double only once"
    result = score(evening)
    factor = evening.rules.all_pass_multiplier
    pending = False
    for deal, r in zip(evening.deals, result.deals, strict=True):
        if isinstance(deal, Pass):
            pending = True
        elif isinstance(deal, ContractDeal):
            expected = factor if pending else 1
            pending = False
            assert r.multiplier == expected, f"deal {r.number}"
            alone = score(
                dataclasses.replace(
                    evening,
                    first_dealer=r.dealer,
                    deals=(dataclasses.replace(deal, dealer=r.dealer, playing=tuple(r.playing)),),
                )
            ).deals[0]
            assert alone.multiplier == 1
            assert dict(r.deltas) == {p: expected * v for p, v in alone.deltas.items()}, f"deal {r.number}"
    assert result.next.multiplier == (factor if pending else 1)


@PROPERTY
@given(evening=evenings(CONTRACT_PRESETS, zero_sum=False, house=True))
def test_it_tells_who_sits_out_for_any_dealer_and_after_an_all_pass_as_playing_the_pass_would(
    evening: Evening,
) -> None:
    # what the scoring page tells a phone without playing a deal: the next deal dealt by each
    # player in turn, and the deal after an all pass, as the engine says once the pass is played
    state = scorer(evening)
    for name in evening.players:
        told, played = state.next_deal_dealt_by(name), state.then(Pass(dealer=name)).next_deal()
        assert (told.dealer, told.playing, told.sitting_out) == (played.dealer, played.playing, played.sitting_out)
    assert state.next_deal_after_all_pass() == state.then(Pass()).next_deal()


# --- encheres: the bête deal by deal -----------------------------------------------------------

# docs/rules/encheres.md, copied from the reference: declarers, needs, value, per extra trick
ENCHERES_TABLE = {
    "solo-chelem-table": (1, 13, 200, 0),
    "chelem-a-deux": (2, 13, 25, 0),
    "solo-chelem": (1, 13, 100, 0),
    "grande-misere-table": (1, 0, 50, 0),
    "abondance-table": (1, 9, 44, 0),
    "grande-misere": (1, 0, 25, 0),
    "abondance": (1, 9, 22, 0),
    "petite-misere-table": (1, 0, 20, 0),
    "piccolo": (1, 1, 14, 0),
    "huit-seul": (1, 8, 16, 4),
    "piccolissimo": (1, 2, 14, 0),
    "sept-seul": (1, 7, 12, 3),
    "petite-misere-a-deux": (2, 0, 10, 0),
    "petite-misere": (1, 0, 10, 0),
    "solo": (1, 6, 8, 2),
    "huit-a-deux": (2, 8, 4, 1),
}
EXACT = {
    "grande-misere-table",
    "grande-misere",
    "petite-misere-table",
    "piccolo",
    "piccolissimo",
    "petite-misere-a-deux",
    "petite-misere",
}


def half_up(amount: int) -> int:
    return (amount + 1) // 2


@PROPERTY
@given(evening=evenings(("encheres",)))
def test_it_follows_the_bete_rules_of_encheres_deal_by_deal(evening: Evening) -> None:
    assert set(ENCHERES_TABLE) == set(evening.rules.contracts)
    result = score(evening)
    pot = 0
    for deal, r in zip(evening.deals, result.deals, strict=True):
        if not isinstance(deal, ContractDeal):
            assert r.pot == pot, f"deal {r.number}: only a contract moves the bête"
            continue
        count, needs, value, bonus = ENCHERES_TABLE[deal.contract]
        declarers = tuple(deal.declarers)
        tricks = dict(deal.tricks) if isinstance(deal.tricks, dict) else {declarers[0]: deal.tricks}
        opponents = [p for p in r.playing if p not in declarers]
        expected = dict.fromkeys(evening.players, 0)
        if deal.contract in EXACT:
            made = all(t == needs for t in tricks.values())
        else:
            made = deal.tricks >= needs
        assert r.made is made, f"deal {r.number}"
        if made:
            paid = value + (bonus * (deal.tricks - needs) if deal.contract not in EXACT else 0)
            share = pot // count  # an odd jeton stays in the bête
            for o in opponents:
                expected[o] = -paid
            for d in declarers:
                expected[d] = paid * len(opponents) // count + share
            pot -= share * count
        else:
            payment = max(pot, value)  # as much as the bête holds, at least the table value
            payers = list(declarers)
            if deal.contract == "petite-misere-a-deux":
                payers = [d for d in declarers if tricks[d] != needs]
            if deal.exposed_fault is not None:
                expected[deal.exposed_fault] = -half_up(payment)
                payment = half_up(payment)
            each = payment if len(payers) == 1 else half_up(payment)
            for payer in payers:
                expected[payer] = -each
            pot -= sum(expected.values())
        assert dict(r.deltas) == expected, f"deal {r.number}"
        assert r.pot == pot, f"deal {r.number}"


# --- Liège ----------------------------------------------------------------------------------


@PROPERTY
@given(evening=evenings(("liege",), zero_sum=False))
def test_it_gives_liege_opponents_nothing_on_a_made_contract(evening: Evening) -> None:
    result = score(evening)
    rules = evening.rules
    for deal, r in zip(evening.deals, result.deals, strict=True):
        if not isinstance(deal, ContractDeal):
            continue
        c = rules.contracts[deal.contract]
        opponents = [p for p in r.playing if p not in deal.declarers]
        if r.made:
            assert all(r.deltas[o] == 0 for o in opponents), f"deal {r.number}: {dict(r.deltas)}"
        # misère and piccolo: each non-declarer gets the opponents' figure once per failed declarer
        if c.exact:
            tricks = deal.tricks if isinstance(deal.tricks, dict) else {deal.declarers[0]: deal.tricks}
            gain = sum(c.failed[t].opponent for t in tricks.values() if t != c.needs)
            assert all(r.deltas[o] == gain for o in opponents)
        assert r.made == (all(r.outcomes.values()))


@pytest.mark.parametrize("key", ALL_PRESETS)
def test_it_scores_an_empty_evening_as_all_zero(key: str) -> None:
    rules = registry.get(key)
    players = ("Anne", "Bert", "Carl") if rules.min_players == 3 else ("Anne", "Bert", "Carl", "Dina")
    result = score(Evening(rules=rules, players=players, first_dealer="Anne"))
    assert dict(result.totals) == dict.fromkeys(players, 0)
    assert result.pot == 0 and result.deals == ()
