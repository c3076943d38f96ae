"""Seasons and their standings: the page, its CSV and its printed sheet (a season made, changed or
deleted: ``season_edit.py``; the club's past evenings: ``club_evenings.py``; a player's page:
``player.py``).

Every figure comes from ``Evening.summary`` (the computation is in
``scorebook.league.standings``, which runs no query): no deal is scored again, and the number
of queries does not grow with the number of evenings.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any, cast

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.db.models import Count, Max, Q, QuerySet, Sum
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django.views.decorators.http import require_safe

from scorebook.clubs.access import club_for_user
from scorebook.clubs.models import Club, Player, Ranking, Role, Season, TieBreak
from scorebook.core import spreadsheet
from scorebook.core.formatting import decimal_text, money_text, signed_points, tone
from scorebook.core.http import AuthenticatedHttpRequest
from scorebook.evenings.models import Evening
from scorebook.ledger.books import variant_name
from scorebook.nights import results as night_results

from .. import standings as st
from . import prizes

# --- reading the summaries (a constant number of queries) --------------------------------------


def season_evenings(season: Season) -> QuerySet[Evening]:
    """The season's evenings: the club's, dated within the season, of the season's variant."""
    return Evening.objects.filter(
        club_id=season.club_id, date__gte=season.start, date__lte=season.end, ruleset=season.ruleset
    )


def summaries(evenings: QuerySet[Evening]) -> list[st.EveningSummary]:
    """The summaries of ``evenings`` (a queryset), oldest first: one query, no deal read.

    A summary names each seat's player (``summary.summarize``); merging two players
    rebuilds the summaries of the evenings concerned, so the ids are current.
    """
    out, nights = [], {}
    for pk, day, ruleset, currency, summary, night_id in evenings.order_by("date", "created_at", "pk").values_list(
        "id", "date", "ruleset", "currency", "summary", "night_table__session__night_id"
    ):
        # django-stubs types an id read through a reverse relation as never null: an evening of no night has none
        night = cast("int | None", night_id)
        if night is None:
            out.append(st.EveningSummary(day, summary or {}, id=pk, ruleset=ruleset, currency=currency))
        elif night not in nights:  # a club night is one result per player, placed by its own ranking
            nights[night] = len(out)
            out.append(st.EveningSummary(day, {}, id=pk, ruleset=ruleset, currency=currency))
    for night, outcome in night_results.outcomes(nights).items():
        e = out[nights[night]]
        # a night counts once its last session is closed (before, its ranking is provisional): until
        # then it is an evening without a result, which counts for nobody
        finished = all(status == Evening.Status.CLOSED for *_rest, status in outcome.evenings)
        out[nights[night]] = st.EveningSummary(e.date, outcome.summary if finished else {}, e.id, e.ruleset, e.currency)
    return out


def evening_count(evenings: QuerySet[Evening]) -> tuple[int, int, int]:
    """(how many evenings, club nights among them, their tables) in ``evenings`` (a queryset):
    a club night counts as one evening, as in the standings, however many tables it had."""
    counts = evenings.aggregate(
        alone=Count("id", filter=Q(night_table__isnull=True)),
        nights=Count("night_table__session__night", distinct=True),
        tables=Count("night_table"),
    )
    return counts["alone"] + counts["nights"], counts["nights"], counts["tables"]


def player_names(club: Club) -> dict[int | str, str]:
    return dict(Player.objects.filter(club=club).values_list("id", "name"))


def rules_of(season: Season) -> st.Rules:
    return st.Rules(
        ranking=season.ranking,
        min_evenings=season.min_evenings,
        league_points=tuple(season.league_points or ()),
        drop_worst=season.drop_worst,
        tie_break=season.tie_break,
    )


# --- words and numbers for people --------------------------------------------------------------


def ordinal(place: int) -> str:
    return {1: _("1st"), 2: _("2nd"), 3: _("3rd")}.get(place) or _("%(n)sth") % {"n": place}


def rule_sentences(season: Season) -> list[str]:
    """The season's rule, in words."""
    out = []
    if season.ranking == Ranking.LEAGUE:
        places = ", ".join(
            _("%(place)s %(points)s") % {"place": ordinal(i), "points": p}
            for i, p in enumerate(season.league_points or (), start=1)
        )
        out.append(
            _("Each evening gives league points by place: %(places)s; the places after get 0.") % {"places": places}
        )
        out.append(_("Players tied in an evening share the better place and each get its points."))
        out.append(_("Players are ranked by their league points added up."))
    elif season.ranking == Ranking.AVERAGE:
        out.append(_("Players are ranked by their average points per evening."))
        if season.min_evenings:
            out.append(
                ngettext(
                    "A player needs at least %(n)s evening to be ranked; the others are listed apart.",
                    "A player needs at least %(n)s evenings to be ranked; the others are listed apart.",
                    season.min_evenings,
                )
                % {"n": season.min_evenings}
            )
    else:
        out.append(_("Players are ranked by their points of the season added up."))
    if season.drop_worst:
        out.append(
            ngettext(
                "Each player's worst evening is not counted (at least one evening always counts).",
                "Each player's %(n)s worst evenings are not counted (at least one evening always counts).",
                season.drop_worst,
            )
            % {"n": season.drop_worst}
        )
    out.append(
        _(
            "Equal scores: %(rule)s decides; players it cannot separate share the place "
            "(the same number, listed by name) and the next place is skipped."
        )
        % {"rule": TieBreak(season.tie_break).label}
    )
    out.append(_("Evenings without any deal played are not counted."))
    out.append(_("A club night counts as one evening, its tables added up, once its last session is closed."))
    return out


def score_text(value: Fraction, ranking: str) -> str:
    if ranking == Ranking.AVERAGE:
        return decimal_text(value, 2)
    return signed_points(int(value)) if ranking == Ranking.TOTAL else str(int(value))


def purse_text(money: dict[str, Decimal]) -> str:
    return " · ".join(money_text(amount, currency, signed=True) for currency, amount in sorted(money.items()))


def purse_tone(money: dict[str, Decimal]) -> str:
    return tone(next(iter(money.values()))) if len(money) == 1 else "zero"


def movement_label(row: st.Row) -> str:
    if row.rank is None:
        return ""
    if row.is_new:
        return _("new")
    move = row.movement or 0  # (a row not new has a movement)
    if move == 0:
        return _("no change")
    return (
        ngettext("up %(n)s place", "up %(n)s places", move) % {"n": move}
        if move > 0
        else ngettext("down %(n)s place", "down %(n)s places", -move) % {"n": -move}
    )


# --- the table's columns, the same on the page and in the CSV ----------------------------------


def score_column(season: Season) -> str | None:
    """The header of the score column, when the score is not already the points or the average."""
    if season.ranking == Ranking.LEAGUE:
        return _("League points")
    if season.drop_worst:
        return _("Counted average") if season.ranking == Ranking.AVERAGE else _("Counted points")
    return None


def columns(season: Season) -> list[tuple[str, str, str]]:
    """(key, header, short header) of the standings, in the order of the page and of the CSV."""
    cols = [
        ("rank", _("Rank"), "#"),
        ("movement", _("Movement"), "±"),
        ("player", _("Player"), _("Player")),
    ]
    header = score_column(season)
    if header:
        short = _("League") if season.ranking == Ranking.LEAGUE else _("Counted")
        cols.append(("score", header, short))
    cols += [
        ("points", _("Points"), _("Points")),
        ("average", _("Average"), _("Avg.")),
        ("evenings", _("Evenings"), _("Even.")),
        ("deals", _("Deals played"), _("Deals")),
        ("money", _("Money"), _("Money")),
    ]
    return cols


def ranking_column(season: Season) -> str:
    """The column the ranking reads."""
    if score_column(season):
        return "score"
    return "average" if season.ranking == Ranking.AVERAGE else "points"


def csv_cell(key: str, row: st.Row, season: Season, fmt: spreadsheet.Format | None = None) -> str:
    """A cell of the standings' CSV, its numbers as the reader's spreadsheet reads them
    (``1,50`` in French and Dutch)."""
    fmt = fmt or spreadsheet.local_format()
    if key == "rank":
        return str(row.rank) if row.rank is not None else ""
    if key == "player":
        return row.name
    if key in ("evenings", "deals", "points"):
        return str(getattr(row, key))
    if key == "average":
        return spreadsheet.number(row.score if ranking_column(season) == "average" else row.average, 2, fmt)
    if key == "score":
        return spreadsheet.number(row.score, 2, fmt) if season.ranking == Ranking.AVERAGE else str(int(row.score))
    if key == "money":
        if len(row.money) == 1:
            return spreadsheet.number(next(iter(row.money.values())), None, fmt)
        return " · ".join(f"{spreadsheet.number(a, None, fmt)} {c}" for c, a in sorted(row.money.items()))
    if key == "movement":
        if row.rank is None:
            return ""
        if row.is_new:
            return _("new")
        return "=" if row.movement == 0 else f"{row.movement:+d}"
    raise KeyError(key)  # pragma: no cover


def _movement_class(row: st.Row) -> str:
    if row.rank is None:
        return ""
    if row.is_new:
        return "new"
    move = row.movement or 0  # (a row not new has a movement)
    return "same" if move == 0 else "up" if move > 0 else "down"


def _row_view(
    row: st.Row, season: Season, cols: list[tuple[str, str, str]], player_url: Callable[[int | str], str]
) -> dict[str, Any]:
    measure = ranking_column(season)
    texts = {
        "score": score_text(row.score, season.ranking),
        "points": signed_points(row.points),
        "average": decimal_text(row.score, 2) if measure == "average" else decimal_text(row.average),
        "evenings": str(row.evenings),
        "deals": str(row.deals),
        "money": purse_text(row.money) if row.money else "–",
    }
    tones = {"points": tone(row.points), "money": purse_tone(row.money) if row.money else "zero"}
    cells = [
        {
            "key": key,
            "text": texts[key],
            "tone": tones.get(key, ""),
            "measure": key == measure,
            "tied": key == measure and row.tied,
        }
        for key, _header, _short in cols
        if key in texts
    ]
    return {
        "row": row,
        "name": row.name,
        "url": player_url(row.key),
        "cells": cells,
        "movement": "" if row.is_new else row.movement_text,
        "movement_label": movement_label(row),
        "movement_class": _movement_class(row),
    }


# --- seasons ------------------------------------------------------------------------------------


def season_for(club: Club, pk: int) -> Season:
    return get_object_or_404(Season, pk=pk, club=club)


def season_table(season: Season) -> st.Standings:
    """The standings, computed from the evenings' summaries and kept until one of them changes.

    The key holds what the table depends on: the season's rules, the roster's names,
    and a fingerprint of its evenings (how many, which, the latest change), read with
    one aggregate query that does not load any summary. The cached table leaves out each
    row's per-evening results, so reading it back costs the same for 200 or 2,000 evenings.
    """
    names = player_names(season.club)
    fingerprint = season_evenings(season).aggregate(n=Count("id"), ids=Sum("id"), last=Max("updated_at"))
    key = (
        "standings:"
        + hashlib.sha256(repr((season.pk, rules_of(season), sorted(names.items()), fingerprint)).encode()).hexdigest()
    )
    table = cache.get(key)
    if table is None:
        table = st.standings(rules_of(season), summaries(season_evenings(season)), names).without_results()
        cache.set(key, table, timeout=24 * 3600)
    return table


@require_safe
@login_required
def season(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    club, role = club_for_user(request, slug)
    season = season_for(club, pk)
    season.club = club
    table = season_table(season)

    def player_url(key: int | str) -> str:
        return _player_url(club, key)

    cols = columns(season)
    measure = ranking_column(season)
    context = {
        "club": club,
        "role": role,
        "is_admin": role == Role.ADMIN,
        "season": season,
        "variant": variant_name(season.ruleset),
        "table": table,
        "ranked": [_row_view(r, season, cols, player_url) for r in table.ranked],
        "apart": [_row_view(r, season, cols, player_url) for r in table.apart],
        "columns": [
            {"key": key, "header": header, "short": short, "measure": key == measure}
            for key, header, short in cols
            if key not in ("rank", "movement", "player")
        ],
        "rules": rule_sentences(season),
        "any_tied": any(r.tied for r in table.ranked),
        "any_shared": any(r.shared for r in table.ranked),
        "seasons": list(club.seasons.filter(archived=False).only("id", "name", "start")),
        "tie_break": TieBreak(season.tie_break).label,
    }
    context |= prizes.context(season, table, role)
    return render(request, "league/seasons/standings.html", context)


def _player_url(club: Club, key: int | str) -> str:
    return reverse("club_player", args=[club.slug, key]) if isinstance(key, int) else ""


@require_safe
@login_required
def season_csv(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    """The standings as a CSV file in the reader's language: ``;`` and ``1,50`` for French and
    Dutch (Belgian Excel opens it in columns), ``,`` and ``1.50`` for English; a translated name."""
    club, _role = club_for_user(request, slug)
    season = season_for(club, pk)
    season.club = club
    table = season_table(season)
    cols = columns(season)
    fmt = spreadsheet.local_format()
    filename = spreadsheet.file_name(club.slug, season.name or str(season.pk), pgettext("file name", "standings"))
    return spreadsheet.csv_download(
        filename,
        [header for _key, header, _short in cols],
        ([csv_cell(key, row, season, fmt) for key, _header, _short in cols] for row in table.rows),
        fmt,
    )


@require_safe
@login_required
def season_print(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    """The standings on paper: every column, the rule in words, no navigation."""
    club, _role = club_for_user(request, slug)
    season = season_for(club, pk)
    season.club = club
    table = season_table(season)
    cols = columns(season)
    measure = ranking_column(season)
    context = {
        "club": club,
        "season": season,
        "variant": variant_name(season.ruleset),
        "table": table,
        "ranked": [_row_view(r, season, cols, lambda key: "") for r in table.ranked],
        "apart": [_row_view(r, season, cols, lambda key: "") for r in table.apart],
        "columns": [
            {"key": key, "header": header, "short": short, "measure": key == measure}
            for key, header, short in cols
            if key not in ("rank", "movement", "player")
        ],
        "rules": rule_sentences(season),
        "printed_at": timezone.localtime(),
    }
    return render(request, "league/seasons/print.html", context)
