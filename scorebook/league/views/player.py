"""A player's page: his evenings in the club, per variant, his records and contracts, his money.

Points of different grids (kleurenwiezen, Liège, …) are never added up: totals, averages,
money and statistics are given per variant; only counts (evenings, deals) have an overall
line. An evening in which he took no part (docs/rules/money.md, the summary's ``took_part``) is not one
of his evenings ("did not play"); the deals he sat out are counted apart.

Every figure is added up by the database from the figures each seat keeps (``Seat.points``,
``place``, ``played``, ``money``, ``unpaid``…, written with the evening's summary by the same
transaction): a fixed number of queries, none of them reading a summary. The contracts come
from each of his seats' ``declared`` (a few bytes), for the evenings shown only. His money is the
ledger's (``scorebook.ledger.books``): his balance, his lines in the club's settle-up, and the newest
evenings and nights where something remains for him. Long lists are capped, with links to the rest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Sum
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scorebook.clubs.access import club_for_user
from scorebook.clubs.models import Club, Player, Season
from scorebook.clubs.season_forms import FiguresForm
from scorebook.core.cleaning import whole_number
from scorebook.core.formatting import decimal_text, lang, money_text, signed_points, tone
from scorebook.core.http import AuthenticatedHttpRequest
from scorebook.evenings import charts
from scorebook.evenings.models import Seat
from scorebook.ledger import books
from scorebook.ledger.books import variant_name
from scorebook.ledger.winnings import COUNTED  # one of his evenings: deals were played and he took part
from scorebook.nights import results as night_results
from scorebook.rules import registry
from scorebook.rules.model import RulesError

from .. import standings as st
from .seasons import purse_text, purse_tone

SHOWN_EVENINGS = 20  # the latest evenings listed per variant; the club's list (filtered on him) has the rest
SHOWN_UNPAID = 10  # the newest evenings where something remains for him; the club's ledger has the rest
SHOWN_NIGHTS = 5  # the same for his nights
CHART_POINTS = 250  # a chart of more evenings draws every n-th (and always the last)


def _seats(club: Club, player: Player, season: Season | None = None) -> QuerySet[Seat]:
    seats = Seat.objects.filter(player=player, evening__club=club)
    if season is not None:
        seats = seats.filter(evening__ruleset=season.ruleset, evening__date__range=(season.start, season.end))
    return seats


def _latest_season(club: Club, player: Player, seasons: list[Season]) -> Season | None:
    """The first of ``seasons`` with one of his evenings (one query)."""
    his = Seat.objects.filter(
        COUNTED,
        player=player,
        evening__club=club,
        evening__ruleset=OuterRef("ruleset"),
        evening__date__gte=OuterRef("start"),
        evening__date__lte=OuterRef("end"),
    )
    played = set(Season.objects.filter(club=club).filter(Exists(his)).values_list("pk", flat=True))
    return next((s for s in seasons if s.pk in played), None)


@dataclass
class Figures:
    """What the page reads of the seats' stored figures (``Seat``, kept with each evening's summary)."""

    season: int | None  # the season shown (None: all evenings)
    variants: list[st.PlayerStats] = field(default_factory=list)  # one per variant, the most played first
    rulesets: list[str] = field(default_factory=list)
    night_urls: dict[int, str] = field(default_factory=dict)  # evening id standing for a night -> his line

    @property
    def evenings(self) -> int:
        return sum(v.evenings for v in self.variants)

    @property
    def deals(self) -> int:
        return sum(v.deals for v in self.variants)

    @property
    def sat_out(self) -> int:
        return sum(v.sat_out for v in self.variants)

    @property
    def won(self) -> int:
        return sum(v.won for v in self.variants)


def _counts(found: dict[str, st.PlayerStats], player: Player, seats: QuerySet[Seat]) -> None:
    """His counts and points per variant, added up by the database (one query), and his winnings
    (the ledger's, one query)."""
    for ruleset, evenings, won, deals, sat_out, absent, points in (
        seats.values("evening__ruleset")
        .annotate(
            evenings=Count("id", filter=COUNTED),
            won=Count("id", filter=Q(place=1)),
            deals=Sum("played", filter=COUNTED),
            sat_outs=Sum("sat_out"),
            # no part in an evening with deals: he sat out every one (and only then is it counted)
            absent=Count("id", filter=Q(took_part=False, sat_out__gt=0)),
            total=Sum("points", filter=COUNTED),
        )
        .values_list("evening__ruleset", "evenings", "won", "deals", "sat_outs", "absent", "total")
        .order_by()
    ):
        stats = found.setdefault(ruleset, st.PlayerStats(key=player.pk))
        stats.evenings += evenings
        stats.won += won
        stats.deals += deals or 0
        stats.sat_out += sat_out or 0
        stats.absent += absent
        stats.points += points or 0
    for ruleset, purse in books.variant_winnings(seats).items():
        for currency, amount in purse.items():
            books.add_money(found[ruleset].money, currency, amount)


Line = tuple  # (ruleset, date, created, evening, points, best deal, worst deal) of one of his evenings


def _nights(
    found: dict[str, st.PlayerStats], player: Player, nights: list[int], lines: list[Line], declarations: list
) -> dict[int, str]:
    """His club nights, one result each (docs/rules/club-nights.md: three queries for all of them),
    added to ``found``, ``lines`` and ``declarations``; {evening id: address} for the evenings that
    stand for a night (his line on its ranking)."""
    urls: dict[int, str] = {}
    for outcome in night_results.outcomes(nights).values():
        entry = next((e for e in outcome.summary["players"] if e.get("player") == player.pk), None)
        if entry is None:
            continue
        stats = found.setdefault(outcome.ruleset, st.PlayerStats(key=player.pk))
        stats.sat_out += int(entry.get("sat_out") or 0)
        if not st.took_part(entry) or entry.get("night_place") is None:
            stats.absent += int(entry.get("sat_out") or 0) > 0
            continue
        points = int(entry.get("points") or 0)
        stats.evenings += 1
        stats.won += entry["night_place"] == 1  # a shared first place is a win for each
        stats.deals += int(entry.get("played") or 0)
        stats.points += points
        books.add_money(stats.money, outcome.currency, books.money_of(entry))
        lines.append(
            (
                outcome.ruleset,
                outcome.date,
                outcome.created_at,
                outcome.evening,
                points,
                entry.get("best"),
                entry.get("worst"),
            )
        )
        declarations.append((outcome.ruleset, entry.get("declared") or {}))
        number = outcome.numbers.get(player.pk)
        urls[outcome.evening] = reverse("night_results_line", args=[outcome.pk, number]) if number else ""
    return urls


def _steps(found: dict[str, st.PlayerStats], lines: list[Line]) -> None:
    """His evenings in the standings' order, with his running total and records, per variant."""
    lines.sort(key=lambda line: (line[1], line[2], line[3]))  # the standings' order of evenings
    running: dict[str, int] = {}
    for ruleset, day, _created, evening, points, best, worst in lines:
        stats = found[ruleset]
        running[ruleset] = running.get(ruleset, 0) + points
        stats.steps.append(st.Step(day, evening, points, running[ruleset]))
        mark = st.Mark(points, day, evening)
        if points > 0 and (stats.best_evening is None or points > stats.best_evening.value):
            stats.best_evening = mark
        if points < 0 and (stats.worst_evening is None or points < stats.worst_evening.value):
            stats.worst_evening = mark
        if best is not None and best > 0 and (stats.best_deal is None or best > stats.best_deal.value):
            stats.best_deal = st.Mark(best, day, evening)
        if worst is not None and worst < 0 and (stats.worst_deal is None or worst < stats.worst_deal.value):
            stats.worst_deal = st.Mark(worst, day, evening)


def _contracts(found: dict[str, st.PlayerStats], declarations: list) -> None:
    contracts: dict[tuple[str, str], st.ContractStat] = {}
    for ruleset, declared in declarations:
        for contract, (times, made) in (declared or {}).items():
            if contract in (None, "", "null", "None"):
                continue  # a deal without a contract (classic whist) declares nothing
            stat = contracts.setdefault((ruleset, contract), st.ContractStat(ruleset, contract))
            stat.declared += int(times)
            stat.made += int(made)
    for stat in sorted(contracts.values(), key=lambda c: (c.ruleset, -c.declared, c.contract)):
        found[stat.ruleset].contracts.append(stat)


def _variants(player: Player, seats: QuerySet[Seat]) -> tuple[dict[str, st.PlayerStats], dict[int, str]]:
    """His figures per variant, added up by the database (a query for the counts, one for his
    winnings, one for his evenings in order with their records of one deal, one for the contracts),
    then his club nights, one result each. Also {evening id: address} for the evenings that stand for
    a night (his line on its ranking)."""
    found: dict[str, st.PlayerStats] = {}
    nights = list(
        seats.filter(evening__night_table__isnull=False)
        .values_list("evening__night_table__session__night_id", flat=True)
        .distinct()
        .order_by()
    )
    seats = seats.filter(evening__night_table__isnull=True)  # a night's tables are one result, below
    _counts(found, player, seats)
    counted = seats.filter(COUNTED)
    lines: list[Line] = list(
        counted.values_list(
            "evening__ruleset",
            "evening__date",
            "evening__created_at",
            "evening_id",
            "points",
            "best_deal",
            "worst_deal",
        )
    )
    declarations = list(counted.exclude(declared={}).values_list("evening__ruleset", "declared"))
    urls = _nights(found, player, nights, lines, declarations)
    _steps(found, lines)
    _contracts(found, declarations)
    return found, urls


def money(club: Club, player: Player) -> dict[str, Any]:
    """His money as the ledger has it: his balance (one figure, docs/rules/money.md), what he pays and receives
    in the club's settle-up (the fewest payments that clear the club, the kitty apart) and what he
    owes the kitty, and the newest evenings and nights where something remains for him."""
    all_balances = books.balances(club)
    balance = next((b for b in all_balances if b.key == player.pk), None) or books.Balance(
        player.pk, player.name, player.pk
    )
    settled = books.settle(all_balances, with_kitty=False)
    evenings, evening_count = books.open_evenings(club, player, limit=SHOWN_UNPAID)
    nights, _nights = books.open_nights(club, player, limit=SHOWN_NIGHTS)
    items: list[dict[str, Any]] = [
        {
            "date": e.date,
            "label": e.variant,
            "url": reverse("evening", args=[e.pk]),
            "amount": e.remaining(player.pk),
            "currency": e.currency,
        }
        for e in evenings
    ] + [
        {
            "date": n.date,
            "label": n.name,
            "url": reverse("night_results", args=[n.pk]),
            "amount": n.remaining(player.pk),
            "currency": n.currency,
        }
        for n in nights
    ]
    items.sort(key=lambda item: item["date"], reverse=True)
    for item in items:
        item["text"] = money_text(item["amount"], item["currency"], signed=True)
        item["tone"] = tone(item["amount"])
    kitty_texts = [
        {"text": money_text(amount, currency, signed=True), "tone": tone(amount)}
        for currency, amount in sorted(balance.kitty.items())
        if amount
    ]
    return {
        "balance": balance,
        "owes": [line for line in settled.lines if line.payer_key == player.pk],
        "owed": [line for line in settled.lines if line.payee_key == player.pk],
        "settle_proved": settled.proved,
        "kitty_texts": kitty_texts,
        "open_items": items,
        "open_hidden": max(evening_count - len(evenings), 0),
    }


def figures(club: Club, player: Player, seasons: list[Season], wanted: str) -> Figures:
    """The page's figures for the season ``wanted`` ("all", a season's id, or "": the latest
    season he played in): a fixed number of queries, whatever the length of the club's history."""
    if wanted == "all":
        chosen = None
    elif (number := whole_number(wanted, low=1)) is not None:
        chosen = next((s for s in seasons if s.pk == number), None)
    else:
        chosen = _latest_season(club, player, seasons)
    found, urls = _variants(player, _seats(club, player, chosen))
    order = sorted(found, key=lambda ruleset: (-found[ruleset].evenings, ruleset))
    return Figures(
        season=chosen.pk if chosen else None,
        variants=[found[r] for r in order],
        rulesets=order,
        night_urls=urls,
    )


# --- words and numbers for people ---------------------------------------------------------------


def contract_name(ruleset: str, key: str) -> str:
    try:
        contracts = getattr(registry.get(ruleset), "contracts", {})
    except RulesError:
        return key
    contract = contracts.get(key)
    return contract.names.get(lang()) if contract is not None else key


def _evening_url(evening: int | None, night_urls: dict[int, str]) -> str:
    """Where one of his evenings opens: the evening, or for a club night his line on its ranking."""
    if evening in night_urls:
        return night_urls[evening]
    return reverse("evening", args=[evening]) if evening else ""


def _mark(mark: st.Mark | None, night_urls: dict[int, str]) -> dict | None:
    if mark is None:
        return None
    return {
        "text": signed_points(mark.value),
        "tone": tone(mark.value),
        "date": mark.date,
        "pk": mark.evening,
        "url": _evening_url(mark.evening, night_urls),
    }


def _thinned(steps: list[st.Step]) -> list[st.Step]:
    if len(steps) <= CHART_POINTS:
        return steps
    every = -(-len(steps) // CHART_POINTS)
    kept = steps[::every]
    return kept if kept[-1] is steps[-1] else [*kept, steps[-1]]


def _variant_view(
    stats: st.PlayerStats, ruleset: str, suffix: str, player: Player, chart_id: str, night_urls: dict[int, str]
) -> dict:
    steps = _thinned(stats.steps)
    return {
        "ruleset": ruleset,
        "name": variant_name(ruleset),
        "suffix": suffix,
        "stats": stats,
        "points_text": signed_points(stats.points),
        "points_tone": tone(stats.points),
        "average_text": decimal_text(stats.average),
        "money_text": purse_text(stats.money) if stats.money else "",
        "money_tone": purse_tone(stats.money) if stats.money else "zero",
        "records": [
            (_("Biggest win over an evening"), _mark(stats.best_evening, night_urls), "win"),
            (_("Biggest loss over an evening"), _mark(stats.worst_evening, night_urls), "loss"),
            (_("Biggest win in one deal"), _mark(stats.best_deal, night_urls), "win"),
            (_("Biggest loss in one deal"), _mark(stats.worst_deal, night_urls), "loss"),
        ],
        "contracts": [
            {
                "name": contract_name(c.ruleset, c.contract),
                "declared": c.declared,
                "made": c.made,
                "failed": c.declared - c.made,
                "percent": c.percent,
            }
            for c in stats.contracts
        ],
        "chart": charts.build([player.name], [{player.name: s.cumulative} for s in steps], 360, 240, ident=chart_id)
        if stats.steps
        else None,
        "chart_thinned": len(steps) < len(stats.steps),
        "steps": len(stats.steps),
        "step_rows": [
            {
                "pk": s.evening,
                "url": _evening_url(s.evening, night_urls),
                "date": s.date,
                "points": signed_points(s.points),
                "tone": tone(s.points),
                "cumulative": signed_points(s.cumulative),
            }
            for s in stats.steps[-SHOWN_EVENINGS:]
        ],
        "steps_hidden": max(len(stats.steps) - SHOWN_EVENINGS, 0),
        "step_offset": max(len(stats.steps) - SHOWN_EVENINGS, 0),
    }


@require_safe
@login_required
def player_page(request: AuthenticatedHttpRequest, slug: str, player: int) -> HttpResponse:
    club, role = club_for_user(request, slug)
    person = get_object_or_404(Player, pk=player, club=club)
    seasons = list(club.seasons.all())
    wanted = request.GET.get("season", "")
    found = figures(club, person, seasons, wanted)
    chosen = next((s for s in seasons if s.pk == found.season), None)
    several = len(found.variants) > 1
    variants = [
        _variant_view(
            stats,
            ruleset,
            f"-{ruleset}" if several else "",
            person,
            f"season-chart-{ruleset}" if several else "season-chart",
            found.night_urls,
        )
        for stats, ruleset in zip(found.variants, found.rulesets, strict=True)
    ]
    context = {
        "club": club,
        "role": role,
        "player": person,
        "seasons": seasons,
        "season": chosen,
        "choice_form": FiguresForm(initial={"season": str(chosen.pk) if chosen else "all"}, seasons=seasons),
        "figures": found,
        "variants": variants,
        "several_variants": several,
        "player_nights": night_results.nights_of(person),
    }
    context |= money(club, person)
    return render(request, "league/player.html", context)
