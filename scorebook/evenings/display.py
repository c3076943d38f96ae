"""Words and rows for the pages: contract groups, a deal in one line, the rows of the deal list.

Only presentation: the points come from the engine's results.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext as _

from scorebook.core.formatting import lang, party_label
from scorebook.rules import registry
from scorebook.rules.contract_scorer import ContractScorer
from scorebook.rules.deals import Adjustment, Claim, ClassicDeal, ContractDeal, Pass, RobreStart
from scorebook.rules.model import ClassicRules, Contract, ContractRules, Kind, Ruleset
from scorebook.rules.outcome import RobreState
from scorebook.rules.scoring import DealResult, Scorer, Standing

from .models import Deal

BIG_SOLO_FROM = 9  # solo contracts needing this many tricks are shown with the abondances


def team_name(team: Iterable[str]) -> str:
    return " & ".join(p for p in team if p)


@dataclass
class ContractButton:
    key: str
    label: str
    contract: Contract


@dataclass
class ContractGroup:
    label: str
    buttons: list[ContractButton]
    numbers: bool = False  # the buttons show only the number of tricks (e.g. "samen" 8 ... 13)

    def share_words(self) -> None:
        """When every name is the same words plus a different last word, say the words once."""
        heads = {b.label.rsplit(" ", 1)[0] for b in self.buttons if " " in b.label}
        if len(self.buttons) < 2 or len(heads) != 1 or any(" " not in b.label for b in self.buttons):
            return
        head = heads.pop()
        self.label = head[:1].upper() + head[1:]
        for b in self.buttons:
            b.label = b.label.rsplit(" ", 1)[1]
        self.numbers = all(b.label.isdigit() for b in self.buttons)


def _group_label(c: Contract) -> str:
    if c.kind is Kind.PAIR:
        return _("Together")
    if c.kind is Kind.TROU:
        return _("Three aces")
    if c.kind.per_declarer:
        return _("Misère and piccolo")
    if c.needs >= BIG_SOLO_FROM:
        return _("Abondance and slam")
    return _("Alone")


def contract_groups(rules: ContractRules) -> list[ContractGroup]:
    groups: dict[str, ContractGroup] = {}
    code = lang()
    for key, contract in rules.contracts.items():
        label = _group_label(contract)
        groups.setdefault(label, ContractGroup(label, []))
        groups[label].buttons.append(ContractButton(key, contract.names.get(code), contract))
    for group in groups.values():
        group.share_words()
    return list(groups.values())


QUICK = 8  # contracts on the record form's first screen; the others are one tap away


@dataclass
class ContractChoices:
    """The record form's contracts: the ``quick`` ones on the first screen (the most often
    played), the ``more`` groups one tap away."""

    quick: list[ContractButton]
    more: list[ContractGroup]


def contract_choices(
    rules: ContractRules, played: Counter[str] | None = None, quick: Sequence[str] = ()
) -> ContractChoices:
    """The preset's order of commonness first; a contract this table played (``played``) takes
    the place of the least common unplayed one, so that what the table plays stays one tap away.
    ``quick``: the quick buttons fixed when the evening started (their order stays all evening)."""
    played = played or Counter()
    contracts = rules.contracts
    common = [k for k in registry.common_contracts(rules.key) if k in contracts]
    ranked = common + [k for k in contracts if k not in common]
    if quick and all(k in contracts for k in quick):
        return _choices(rules, list(quick))
    quick = ranked[:QUICK]
    for key, _count in played.most_common():
        if key in contracts and key not in quick:
            spare = [k for k in quick if not played[k]]
            if not spare:
                break
            quick.remove(spare[-1])
            quick.append(key)
    quick.sort(key=ranked.index)
    return _choices(rules, quick)


def _choices(rules: ContractRules, quick: list[str]) -> ContractChoices:
    """The quick buttons ``quick``, the other contracts grouped under them."""
    contracts = rules.contracts
    code = lang()
    buttons = [ContractButton(k, contracts[k].names.get(code), contracts[k]) for k in quick]
    more: dict[str, ContractGroup] = {}
    for key, contract in contracts.items():
        if key in quick:
            continue
        label = _group_label(contract)
        more.setdefault(label, ContractGroup(label, []))
        more[label].buttons.append(ContractButton(key, contract.names.get(code), contract))
    for group in more.values():
        group.share_words()
    return ContractChoices(buttons, list(more.values()))


def short_names(players: Iterable[str]) -> dict[str, str]:
    """A name per player that fits his chip and tells him apart at the table: the whole name
    when short enough (8 letters up to five players, 5 beyond), else the shortest unique
    prefix (three letters at least); a long one of a compound name as its initials and the
    shortest unique prefix of its last part ("J-Pi" and "J-Pa" for Jean-Pierre and Jean-Paul)."""
    names = list(players)
    folded = [n.casefold() for n in names]
    room = 8 if len(names) <= 5 else 5
    out = {}
    for name, low in zip(names, folded, strict=True):
        if len(name) <= room:
            out[name] = name
            continue
        others = [o for o in folded if o != low]
        size = min(3, len(name))
        while size < len(name) and any(o.startswith(low[:size]) for o in others):
            size += 1
        short = name[:size]
        parts = [p for p in name.replace(" ", "-").split("-") if p]
        if len(short) > room and len(parts) > 1:
            head = "-".join(p[0] for p in parts[:-1]) + "-"
            last = parts[-1]
            for cut in range(1, len(last) + 1):
                candidate = head + last[:cut]
                if not any(
                    o.startswith(candidate.casefold()) or _initials(o).startswith(candidate.casefold()) for o in others
                ):
                    short = candidate
                    break
        out[name] = short
    return out


def _initials(folded: str) -> str:
    parts = [p for p in folded.replace(" ", "-").split("-") if p]
    return "-".join(p[0] for p in parts[:-1]) + "-" + parts[-1] if len(parts) > 1 else folded


def rotation(state: Scorer) -> dict:
    """Who deals the next deals and who sits out then, as the engine says from the state after the
    last deal: the page moves on with this while deals wait to be sent (offline). ``turns``: from
    the next dealer on, in order; ``redeal``: an all pass is dealt again by the same dealer;
    ``pass_multiplier``: what the next deal counts after an all pass."""
    nxt = state.next_deal()
    players = list(state.players)
    start = players.index(nxt.dealer)
    order = players[start:] + players[:start]
    data = {
        "number": state.number + 1,
        "turns": [],
        "redeal": False,
        "pass_multiplier": 1,
        "multiplier": nxt.multiplier,
    }
    if nxt.robre is not None or not isinstance(state, ContractScorer):  # classic: the robre's players deal in turn
        data["turns"] = [{"dealer": p, "out": list(nxt.sitting_out)} for p in order if p in nxt.playing]
        return data
    data["turns"] = [{"dealer": name, "out": list(state.next_deal_dealt_by(name).sitting_out)} for name in order]
    after_pass = state.next_deal_after_all_pass()
    data["redeal"] = after_pass.dealer == nxt.dealer
    data["pass_multiplier"] = after_pass.multiplier
    return data


def saved_words(result: DealResult, rules: Ruleset) -> str:
    """What a saved deal did, in a few words for the notice at the thumb: who gained most and how
    much ("Anne & Carl +4"), else the deal's line (an all pass, a robre's deal not yet counted)."""
    best = max(result.deltas.values(), default=0)
    if best <= 0:
        return describe(result, rules)
    winners = [p for p, delta in result.deltas.items() if delta == best]
    names = (
        winners[0]
        if len(winners) == 1
        else _("%(names)s & %(last)s") % {"names": ", ".join(winners[:-1]), "last": winners[-1]}
    )
    return f"{names} +{best}"


def describe(result: DealResult, rules: Ruleset) -> str:
    """One line for a deal, in the variant's own words, from the engine's parsed deal (seat order)."""
    deal = result.deal
    if isinstance(deal, Adjustment):
        return _("Adjustment: %(note)s") % {"note": deal.note} if deal.note else _("Adjustment")
    if isinstance(deal, RobreStart):
        if deal.dummy_partner is not None:
            return _("New robre: %(name)s plays with the dummy") % {"name": deal.dummy_partner}
        if deal.teams is None:
            raise ValueError("a new robre names its teams or the dummy's partner")
        a, b = deal.teams
        return _("New robre: %(a)s against %(b)s") % {"a": team_name(a), "b": team_name(b)}
    if isinstance(deal, Claim | ClassicDeal):
        return _classic_line(deal, result.robre, rules)
    if isinstance(deal, Pass):
        return _("All pass")
    if not isinstance(rules, ContractRules):
        raise ValueError("a contract deal is scored under a contract game's rules")
    parts = [rules.contracts[deal.contract].names.get(lang())]
    if isinstance(deal.tricks, Mapping):
        parts.append(", ".join(f"{name} {n}" for name, n in deal.tricks.items()))
    else:
        parts += [team_name(deal.declarers), _("%(n)s tricks") % {"n": deal.tricks}]
    if deal.trump_changed:
        parts.append(_("trump changed"))
    if deal.exposed_fault:
        parts.append(_("fault: %(name)s") % {"name": deal.exposed_fault})
    return " · ".join(parts)


def _classic_line(deal: Claim | ClassicDeal, robre: RobreState | None, rules: Ruleset) -> str:
    """A classic deal's line (a claim, the tricks and honours), with the teams of its robre."""
    if robre is None or not isinstance(rules, ClassicRules):
        raise ValueError("a classic deal is scored in its robre, under classic rules")
    if isinstance(deal, Claim):
        return _("%(team)s show their honours at 8") % {"team": team_name(robre.teams[deal.team])}
    teams = robre.teams
    t0, t1 = deal.tricks
    facts = [f"{team_name(teams[0])} {t0} – {t1} {team_name(teams[1])}"]
    for side in (0, 1):
        if rules.honour_score(deal.honours[side]):
            facts.append(_("%(n)s honours %(team)s") % {"n": deal.honours[side], "team": team_name(teams[side])})
    return " · ".join(facts)  # separate facts side by side, each a whole message


@dataclass
class Cell:
    """One player's points in one deal: ``delta`` None when he sat out."""

    name: str
    delta: int | None

    @property
    def out(self) -> bool:
        return self.delta is None


@dataclass
class DealRow:
    """One deal as every list shows it (the scoring page, the print sheet, the public page)."""

    number: int
    description: str
    dealer: str | None
    made: bool | None
    outcome: str  # contract deals: "made", "failed" or "mixed" (several misères); else ""
    multiplier: int
    cells: list[Cell]  # per seat, in seat order
    pot: int
    ended_robre: bool
    state: str = ""  # classic games: the manche score after the deal, or the manche it won
    note: str = ""  # several misères: who made it and who failed
    deal_id: int | None = None  # the stored deal's id (guards a number that moved since the page was shown)
    deal_version: int | None = None  # and its version (guards a deal corrected since)
    reseat: tuple[str, str] | None = None  # deleting it: the next deal's dealer now, and then

    @property
    def moved_totals(self) -> bool:
        return any(cell.delta for cell in self.cells)

    @property
    def effects(self) -> list[Cell]:
        """The players whose totals the deal moved."""
        return [cell for cell in self.cells if cell.delta]


def _classic_state(deal_result: DealResult, manches_before: int) -> str:
    robre = deal_result.robre
    if robre is None or isinstance(deal_result.deal, (Adjustment, RobreStart)):
        return ""
    if len(robre.manches) > manches_before:
        manche = robre.manches[-1]
        winner = team_name(robre.teams[manche.winner])
        facts = [_("manche to %(team)s (%(value)s)") % {"team": winner, "value": manche.value}]
        if robre.finished and robre.result is not None:
            facts.append(_("robre %(a)s – %(b)s") % {"a": robre.result[0], "b": robre.result[1]})
        return " · ".join(facts)
    return _("manche %(a)s – %(b)s") % {"a": robre.points[0], "b": robre.points[1]}


def rows_of(
    lines: Sequence[DealResult],
    players: Sequence[str],
    rules: Ruleset,
    deals: Sequence[Deal] = (),
    before: DealResult | None = None,
) -> list[DealRow]:
    """The rows of ``lines`` (deals' results in order), oldest first; ``deals``: their stored deals
    (ids and versions for the rows' actions); ``before``: the line before them, if any."""
    manches: dict[int, int] = {}  # robre number -> manches won so far
    if before is not None and before.robre is not None:  # only the deal before matters
        manches[before.robre.number] = len(before.robre.manches)
    rows = []
    for index, deal_result in enumerate(lines):
        state = ""
        if deal_result.robre is not None:
            number = deal_result.robre.number
            state = _classic_state(deal_result, manches.get(number, 0))
            manches[number] = len(deal_result.robre.manches)
        out = set(deal_result.sitting_out)
        outcome, note = _outcome(deal_result)
        stored = deals[index] if index < len(deals) else None
        rows.append(
            DealRow(
                number=deal_result.number,
                description=describe(deal_result, rules),
                dealer=deal_result.dealer,
                made=True if outcome == "made" else False if outcome == "failed" else None,
                outcome=outcome,
                multiplier=deal_result.multiplier,
                cells=[Cell(p, None if p in out else deal_result.deltas[p]) for p in players],
                pot=deal_result.pot,
                ended_robre=deal_result.ended_robre,
                state=state,
                note=note,
                deal_id=stored.pk if stored is not None else None,
                deal_version=stored.version if stored is not None else None,
            )
        )
    for row, later in itertools.pairwise(rows):
        # deleting ``row`` moves every later deal up one place: the next one is then dealt
        # by whoever dealt this one (when this one moved the deal on)
        if row.dealer and later.dealer and row.dealer != later.dealer:
            row.reseat = (later.dealer, row.dealer)
    return rows


def _outcome(result: DealResult) -> tuple[str, str]:
    """A contract deal's outcome (made, failed, or mixed: several misères, some made), and for a
    mixed one who made it and who failed."""
    if not isinstance(result.deal, ContractDeal) or not result.outcomes:
        return "", ""
    outcomes = set(result.outcomes.values())
    if len(outcomes) == 1:
        return ("made" if outcomes == {True} else "failed"), ""
    note = ", ".join((_("%s made") if made else _("%s failed")) % name for name, made in result.outcomes.items())
    return "mixed", note


@dataclass
class TotalChip:
    name: str
    total: int
    leader: bool
    sitting_out: bool
    dealer: bool
    short: str = ""  # a name that tells him apart on a small screen

    @property
    def shortened(self) -> bool:
        return self.short != self.name

    @property
    def css(self) -> str:
        return "chip" + " leader" * self.leader + " out" * self.sitting_out


def total_chips(result: Standing) -> list[TotalChip]:
    best = max(result.totals.values()) if result.totals else 0
    any_points = any(result.totals.values())
    out = set(result.next.sitting_out)
    short = short_names(result.players)
    return [
        TotalChip(
            name=p,
            total=result.totals[p],
            leader=any_points and result.totals[p] == best,
            sitting_out=p in out,
            dealer=p == result.next.dealer,
            short=short[p],
        )
        for p in result.players
    ]


class TransferWords:
    """What a transfer shows of its ``payer``, ``payee`` and ``amount`` (the settlement's rows,
    the ledger's open transfers)."""

    payer: str
    payee: str
    amount: Decimal
    # the roster's names of the two players now, where the line knows them ("": the name at the
    # table): a player merged since is named by the record kept
    payer_name = ""
    payee_name = ""

    @property
    def payer_label(self) -> str:
        return self.payer_name or party_label(self.payer)

    @property
    def payee_label(self) -> str:
        return self.payee_name or party_label(self.payee)

    @property
    def amount_value(self) -> str:
        """The amount as the paid form posts it."""
        return format(self.amount, "f")
