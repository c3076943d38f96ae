"""Words and rows for the pages: contract groups, a deal in one line, the rows of the deal list.

Only presentation: the points come from the engine's results.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import translation
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _

from collections.abc import Mapping

from scorebook.rules.deals import Adjustment, Claim, ClassicDeal, Pass, RobreStart
from scorebook.rules.model import Contract, ContractRules, Kind
from scorebook.rules.scoring import DealResult, EveningResult

BIG_SOLO_FROM = 9  # solo contracts needing this many tricks are shown with the abondances


def lang() -> str:
    code = (translation.get_language() or "fr")[:2]
    return code if code in ("fr", "nl", "en") else "fr"


def team_name(team) -> str:
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


def describe(result: DealResult, rules) -> str:
    """One line for a deal, in the variant's own words, from the engine's parsed deal (seat order)."""
    deal = result.deal
    if isinstance(deal, Adjustment):
        return _("Adjustment: %(note)s") % {"note": deal.note} if deal.note else _("Adjustment")
    if isinstance(deal, RobreStart):
        if deal.dummy_partner is not None:
            return _("New robre: %(name)s plays with the dummy") % {"name": deal.dummy_partner}
        a, b = deal.teams
        return _("New robre: %(a)s against %(b)s") % {"a": team_name(a), "b": team_name(b)}
    if isinstance(deal, Claim):
        return _("%(team)s show their honours at 8") % {"team": team_name(result.robre.teams[deal.team])}
    if isinstance(deal, ClassicDeal):
        teams = result.robre.teams
        t0, t1 = deal.tricks
        text = f"{team_name(teams[0])} {t0} – {t1} {team_name(teams[1])}"
        for side in (0, 1):
            if rules.honour_score(deal.honours[side]):
                text += " · " + _("%(n)s honours %(team)s") % {"n": deal.honours[side], "team": team_name(teams[side])}
        return text
    if isinstance(deal, Pass):
        return _("All pass")
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


@dataclass
class DealRow:
    number: int
    description: str
    dealer: str | None
    made: bool | None
    multiplier: int
    cells: list[tuple[str, int | None]]  # (player, delta) per seat; None = sat out
    pot: int
    ended_robre: bool
    state: str = ""  # classic games: the manche score after the deal, or the manche it won

    @property
    def moved_totals(self) -> bool:
        return any(delta for _, delta in self.cells)

    @property
    def shown(self) -> list[tuple[str, str, str]]:
        """(player, what the list shows, its tone) per seat: "–" for a player who sat out."""
        return [(name, "–", "out") if delta is None else (name, str(delta), tone(delta)) for name, delta in self.cells]

    @property
    def deltas_html(self) -> str:
        """The row's points per seat, as the deal list shows them. Written here rather than as
        a template loop: the list repeats it for every row, and the loop cost more than the rest
        of the row (``make bench``)."""
        return format_html_join(
            "", '<span class="delta {}"><span class="who">{}</span> {}</span>', ((t, n, x) for n, x, t in self.shown)
        )


def tone(value) -> str:
    """The class that colours a number of points or an amount of money."""
    return "pos" if value > 0 else "neg" if value < 0 else "zero"


def _classic_state(deal_result: DealResult, manches_before: int) -> str:
    robre = deal_result.robre
    if robre is None or isinstance(deal_result.deal, (Adjustment, RobreStart)):
        return ""
    if len(robre.manches) > manches_before:
        manche = robre.manches[-1]
        text = _("manche to %(team)s (%(value)s)") % {"team": team_name(robre.teams[manche.winner]), "value": manche.value}
        if robre.finished:
            text += " · " + _("robre %(a)s – %(b)s") % {"a": robre.result[0], "b": robre.result[1]}
        return text
    return _("manche %(a)s – %(b)s") % {"a": robre.points[0], "b": robre.points[1]}


def deal_rows(result: EveningResult, rules, last: int | None = None) -> list[DealRow]:
    """The rows of the deal list, oldest first; ``last``: only the rows of the last deals."""
    start = 0 if last is None else max(len(result.deals) - last, 0)
    manches: dict[int, int] = {}  # robre number -> manches won so far
    if start and result.deals[start - 1].robre is not None:  # only the deal before matters
        before = result.deals[start - 1].robre
        manches[before.number] = len(before.manches)
    rows = []
    for deal_result in result.deals[start:]:
        state = ""
        if deal_result.robre is not None:
            number = deal_result.robre.number
            state = _classic_state(deal_result, manches.get(number, 0))
            manches[number] = len(deal_result.robre.manches)
        out = set(deal_result.sitting_out)
        rows.append(
            DealRow(
                number=deal_result.number,
                description=describe(deal_result, rules),
                dealer=deal_result.dealer,
                made=_outcome(deal_result),
                multiplier=deal_result.multiplier,
                cells=[(p, None if p in out else deal_result.deltas[p]) for p in result.players],
                pot=deal_result.pot,
                ended_robre=deal_result.ended_robre,
                state=state,
            )
        )
    return rows


def _outcome(result: DealResult) -> bool | None:
    """Made (True), failed (False), or mixed (None: several misères, some made)."""
    outcomes = set(result.outcomes.values())
    return None if len(outcomes) > 1 else result.made


@dataclass
class TotalChip:
    name: str
    total: int
    leader: bool
    sitting_out: bool
    dealer: bool

    @property
    def css(self) -> str:
        return "chip" + " leader" * self.leader + " out" * self.sitting_out

    @property
    def tone(self) -> str:
        return tone(self.total)


def chips_html(chips: list[TotalChip]) -> str:
    """The running totals at the top of the scoring page (see ``DealRow.deltas_html`` for why here)."""
    crown = format_html('<span class="crown" aria-label="{}">★</span>', _("leads"))
    return format_html_join(
        "",
        '<div class="{}"><span class="chip-name">{}{}</span><span class="chip-total {}">{}</span></div>',
        ((c.css, crown if c.leader else "", c.name, c.tone, c.total) for c in chips),
    )


def total_chips(result: EveningResult) -> list[TotalChip]:
    best = max(result.totals.values()) if result.totals else 0
    any_points = any(result.totals.values())
    out = set(result.next.sitting_out)
    return [
        TotalChip(
            name=p,
            total=result.totals[p],
            leader=any_points and result.totals[p] == best,
            sitting_out=p in out,
            dealer=p == result.next.dealer,
        )
        for p in result.players
    ]
