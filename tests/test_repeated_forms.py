"""A form sent twice records once (issue 39): every form of the site that records something is listed
here from the URL conf, read from the page that shows it as a phone reads it (its hidden key with it),
and posted twice in a row and twice at once; one effect is left. A form that records with each post
carries a request key (a hidden ``key`` or ``request_key``), unless what it records is one of a
settlement's transfers, which the first post takes off what is due (the "paid" buttons), or a season's
prizes, which are awarded once. A new address that takes a POST and is not listed here fails
``test_it_lists_every_address_that_takes_a_post``: it is put in ``RECORDS`` with its case, or in
``OTHER`` with what makes a second post harmless.

Before the expense form had its key, posting it twice recorded two expenses (in a row and at once).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from datetime import date
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from builders import club_evening
from club_fixtures import *  # noqa: F403 - the club and its admin, as the league tests have them
from night_builders import night as make_night
from night_builders import play
from pages import Page, body
from races import HTMX, Shot, race
from scorebook.clubs.models import Player, Season
from scorebook.evenings.models import Deal, Payment
from scorebook.ledger.models import Expense, Prize

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]

ROUNDS = 3  # each form twice at once, in three situations made afresh (each write's own races: its modules)

SAMEN_9 = {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}  # Bert pays Anne 1.40, Dina Carl 1.40
DEAL = {"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": "8"}
KEYS = ("key", "request_key")


# --- what takes a POST, from the URL conf ------------------------------------------------------------


def _methods(view: Callable[..., Any]) -> tuple[str, ...] | None:
    """The methods a view's ``require_http_methods`` lets through (None: any)."""
    function: Any = view
    while function is not None:
        for cell in function.__closure__ or ():
            value = cell.cell_contents
            if isinstance(value, (list, tuple)) and value and all(isinstance(m, str) and m.isupper() for m in value):
                return tuple(value)
        function = getattr(function, "__wrapped__", None)
    return None


def _patterns(patterns: list[Any]) -> Iterator[URLPattern]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _patterns(pattern.url_patterns)
        else:
            yield pattern


def posted() -> set[str]:
    """The site's addresses (URL names) whose view takes a POST."""
    return {
        p.name
        for p in _patterns(get_resolver().url_patterns)
        if p.name and p.callback.__module__.startswith("scorebook.") and "POST" in (_methods(p.callback) or ("POST",))
    }


# --- a form as the page shows it ---------------------------------------------------------------------


def form_on(html: str, action: str, fill: dict[str, str], nth: int = 0) -> dict[str, Any]:
    """What the ``nth`` form posting to ``action`` sends as shown, with ``fill`` typed in (a field is
    named by its name without the form's prefix)."""
    form = [f for f in Page(html).all("form") if f.get("action") == action][nth]
    data: dict[str, Any] = {}
    for field in form.all("input"):
        name, kind = field.get("name"), field.get("type", "text")
        if not name or kind in ("submit", "button") or name == "csrfmiddlewaretoken":
            continue
        if kind in ("radio", "checkbox"):
            if field.has("checked"):
                data[name] = field.get("value") or "on"
        else:
            data[name] = field.get("value") or ""
    for field in form.all("select"):
        options = field.all("option")
        chosen = [o for o in options if o.has("selected")] or options[:1]
        data[field.get("name")] = chosen[0].get("value") if chosen else ""
    for name in list(data):
        short = name.split("-", 1)[-1]
        if short in fill:
            data[name] = fill[short]
    return data


def keyed(data: dict[str, Any]) -> bool:
    return any(name.split("-", 1)[-1] in KEYS and value for name, value in data.items())


def page(user: Any, url: str) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200, url
    return body(response)


# --- the cases: each makes a situation and says how many records it holds ------------------------------


def _evening(w: SimpleNamespace, n: int, deals: tuple = (SAMEN_9,)) -> Any:
    return club_evening(w.club, w.scorer, date(2026, 9, 1 + n), list(deals))


def deal_record(w: SimpleNamespace, n: int) -> SimpleNamespace:
    evening = _evening(w, n)
    action = reverse("deal_record", args=[evening.pk])
    data = form_on(page(w.scorer, evening.get_absolute_url()), action, {}) | DEAL
    return SimpleNamespace(
        user=w.scorer, url=action, data=data, count=lambda: Deal.objects.filter(evening=evening).count()
    )


def adjustment(w: SimpleNamespace, n: int) -> SimpleNamespace:
    evening = _evening(w, n)
    action = reverse("adjustment", args=[evening.pk])
    data = form_on(page(w.scorer, evening.get_absolute_url()), action, {"points_0": "5", "points_1": "-5"})
    return SimpleNamespace(
        user=w.scorer, url=action, data=data, count=lambda: Deal.objects.filter(evening=evening).count()
    )


def payment_add(w: SimpleNamespace, n: int) -> SimpleNamespace:
    evening = _evening(w, n)
    action = reverse("payment_add", args=[evening.pk])
    html = page(w.scorer, reverse("settlement", args=[evening.pk]))
    data = form_on(html, action, {"payer": "Bert", "payee": "Anne", "amount": "0,40"})
    return SimpleNamespace(
        user=w.scorer, url=action, data=data, count=lambda: Payment.objects.filter(evening=evening).count()
    )


def payment_toggle(w: SimpleNamespace, n: int) -> SimpleNamespace:
    evening = _evening(w, n)
    action = reverse("payment_toggle", args=[evening.pk])
    data = form_on(page(w.scorer, reverse("settlement", args=[evening.pk])), action, {})
    return SimpleNamespace(
        user=w.scorer, url=action, data=data, count=lambda: Payment.objects.filter(evening=evening).count()
    )


def club_ledger_paid(w: SimpleNamespace, n: int) -> SimpleNamespace:
    evening = _evening(w, n)
    action = reverse("club_ledger_paid", args=[w.club.slug])
    data = form_on(page(w.scorer, reverse("club_ledger", args=[w.club.slug])), action, {})
    return SimpleNamespace(
        user=w.scorer, url=action, data=data, count=lambda: Payment.objects.filter(evening=evening).count()
    )


def club_ledger_pay(w: SimpleNamespace, n: int) -> SimpleNamespace:
    _evening(w, n)
    action = reverse("club_ledger_pay", args=[w.club.slug])
    html = page(w.scorer, reverse("club_ledger", args=[w.club.slug]))
    bert, anne = (str(Player.objects.get(club=w.club, name=name).pk) for name in ("Bert", "Anne"))
    data = form_on(html, action, {"payer": bert, "payee": anne, "amount": "1,40"})
    return SimpleNamespace(user=w.scorer, url=action, data=data, count=Payment.objects.count)


def club_ledger_night_paid(w: SimpleNamespace, n: int) -> SimpleNamespace:
    night = make_night(
        w.club, w.scorer, players=8, sessions=1, deals=1, stake=Decimal("0.10"), day=date(2026, 10, 1 + n)
    )
    play(night, w.scorer)
    action = reverse("club_ledger_night_paid", args=[w.club.slug])
    data = form_on(page(w.scorer, reverse("club_ledger", args=[w.club.slug])), action, {})
    return SimpleNamespace(user=w.scorer, url=action, data=data, count=Payment.objects.count)


def club_settle_up_paid(w: SimpleNamespace, n: int) -> SimpleNamespace:
    _evening(w, n)
    action = reverse("club_settle_up_paid", args=[w.club.slug])
    data = form_on(page(w.scorer, reverse("club_settle_up", args=[w.club.slug])), action, {})
    return SimpleNamespace(user=w.scorer, url=action, data=data, count=Payment.objects.count)


def club_kitty_payment(w: SimpleNamespace, n: int) -> SimpleNamespace:
    action = reverse("club_kitty_payment", args=[w.club.slug])
    data = form_on(page(w.admin, reverse("club_kitty", args=[w.club.slug])), action, {"amount": "5,00"})
    return SimpleNamespace(user=w.admin, url=action, data=data, count=Payment.objects.count)


def club_kitty_expense(w: SimpleNamespace, n: int) -> SimpleNamespace:
    action = reverse("club_kitty_expense", args=[w.club.slug])
    data = form_on(
        page(w.admin, reverse("club_kitty", args=[w.club.slug])), action, {"amount": "12,50", "note": "cards"}
    )
    return SimpleNamespace(user=w.admin, url=action, data=data, count=Expense.objects.count)


def season_prizes(w: SimpleNamespace, n: int) -> SimpleNamespace:
    _evening(w, n)
    season = Season.objects.create(
        club=w.club,
        name=f"Autumn {n}",
        start=date(2026, 9, 1),
        end=date(2026, 9, 30),
        ruleset="kleurenwiezen",
        prizes=["20.00", "5.00"],
    )
    action = reverse("season_prizes", args=[w.club.slug, season.pk])
    data = form_on(page(w.admin, reverse("season", args=[w.club.slug, season.pk])), action, {})
    return SimpleNamespace(
        user=w.admin, url=action, data=data, count=lambda: Prize.objects.filter(season=season).count()
    )


# the forms that record something with each post: (its case, whether its form carries a key)
RECORDS: dict[str, tuple[Callable[[SimpleNamespace, int], SimpleNamespace], bool]] = {
    "deal_record": (deal_record, True),
    "adjustment": (adjustment, True),
    "payment_add": (payment_add, True),
    "payment_toggle": (payment_toggle, False),  # one of the transfers due: the first post takes it off
    "club_ledger_paid": (club_ledger_paid, False),  # the same, from the ledger
    "club_ledger_pay": (club_ledger_pay, True),
    "club_ledger_night_paid": (club_ledger_night_paid, True),
    "club_settle_up_paid": (club_settle_up_paid, True),
    "club_kitty_payment": (club_kitty_payment, True),
    "club_kitty_expense": (club_kitty_expense, True),
    "season_prizes": (season_prizes, False),  # awarded once (AlreadyAwarded)
}

# every other address that takes a POST, and why a second post of it leaves what the first left
OTHER = {
    # it sets a value, or changes a state the second post finds already changed (told in words)
    "signup": "an account per user name (unique)",
    "profile": "sets the account's fields",
    "password_link": "sets a password; the link is spent",
    "club_settings": "sets the club's fields",
    "club_member_role": "sets a role",
    "club_member_remove": "removes once (the second finds none)",
    "club_member_password_link": "replaces the member's link (one live link)",
    "club_invitation_revoke": "revokes once",
    "club_join": "a membership per user (unique)",
    "club_join_signup": "an account per user name (unique)",
    "club_rules_edit": "sets the house rules",
    "deal_edit": "a version: the second post is refused as out of date",
    "deal_delete": "a version: the second finds it deleted",
    "deal_restore": "put back once (told: already put back)",
    "evening_close": "sets a status",
    "evening_reopen": "sets a status",
    "evening_delete": "deletes once",
    "evening_archive": "sets a flag",
    "payment_cancel": "cancels once (told: cancelled already)",
    "evening_share_reset": "replaces the link (one live link)",
    "night_edit": "sets the night's fields",
    "night_delete": "deletes once",
    "night_cards": "prints the cards: records nothing",
    "night_substitute": "replaces a player at his seat (the second finds him replaced)",
    "night_session_close": "sets a status",
    "night_session_reopen": "sets a status",
    "night_table_link": "replaces the table's link (one live link)",
    "night_table_revoke": "revokes once",
    "night_ranking_link": "replaces the ranking's link (one live link)",
    "night_late": "seats a late player once (by name)",
    "club_players": "a new player: one per name (unique in the club), a second is refused",
    "club_players_paste": "a player per name (unique in the club)",
    "club_player_link": "sets a player's account",
    "club_player_merge": "merges once (the second finds it gone)",
    "club_player_rename": "sets a name",
    "club_player_unclaim": "withdraws once",
    "club_claim_answer": "answers once",
    "season_edit": "sets the season's fields",
    "season_delete": "deletes once",
    "season_archive": "sets a flag",
    "club_kitty_fees": "sets the club's fees",
    "club_kitty_withdraw": "withdraws once (told: withdrawn already)",
    # they make a new thing with each post and carry no key yet (issue 39: left for a later round)
    "club_new": "a club per address (its slug is unique): a second is refused",
    "club_invitation_new": "a new invitation each post: no key yet",
    "evening_new": "a new evening each post: no key yet",
    "evening_import": "a new evening each post: no key yet",
    "robre_start": "a line of the evening (RecordForm: keyed, as a deal)",
    "night_new": "a new night each post: no key yet",
    "season_new": "a season per name (unique in the club): a second is refused",
    # Django's forms of the account: they log in, or send or set a password
    "login": "logs in",
    "password_change": "sets a password",
    "password_reset": "sends a mail (limited)",
    "password_reset_confirm": "sets a password; the link is spent",
}
# pages whose view does not restrict its methods: a POST shows the page and writes nothing
OTHER |= dict.fromkeys(
    ["home", "club", "club_list", "club_members", "evening", "evening_list", "night", "night_list"]
    + ["night_plan", "night_progress"],
    "a page",
)


@pytest.fixture
def world(club: Any, scorer: Any, admin: Any) -> SimpleNamespace:
    Player.objects.create(club=club, name="Anne")  # the kitty's form offers a player from the start
    return SimpleNamespace(club=club, scorer=scorer, admin=admin)


def test_it_lists_every_address_that_takes_a_post() -> None:
    assert posted() - set(RECORDS) - set(OTHER) == set(), "a new form: is it one that records something?"
    assert (set(RECORDS) | set(OTHER)) <= posted(), "listed here, and no longer an address that takes a POST"


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_it_records_once_a_form_sent_twice_in_a_row(world: SimpleNamespace, name: str) -> None:
    case, has_key = RECORDS[name]
    s = case(world, 0)
    assert keyed(s.data) == has_key, f"{name}: its form carries a request key: {has_key}"
    before = s.count()
    client = Client()
    client.force_login(s.user)
    answers = [client.post(s.url, s.data).status_code for _ in range(2)]
    assert all(status < 400 for status in answers), answers
    assert s.count() == before + (2 if name == "season_prizes" else 1)


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_it_records_once_a_form_sent_twice_at_once(world: SimpleNamespace, name: str) -> None:
    case, _has_key = RECORDS[name]
    counts: dict[int, int] = {}

    def setup(n: int) -> SimpleNamespace:
        s = case(world, n)
        counts[n] = s.count()
        s.n = n
        return s

    def shots(s: SimpleNamespace) -> list[Shot]:
        return [Shot(s.user, "post", s.url, s.data, HTMX)] * 2

    def check(s: SimpleNamespace, answers: list[Any]) -> None:
        assert s.count() == counts[s.n] + (2 if name == "season_prizes" else 1)

    race(setup, shots, check, rounds=ROUNDS)


def test_a_fresh_key_each_time_the_form_is_shown(world: SimpleNamespace) -> None:
    first, second = club_kitty_expense(world, 0), club_kitty_expense(world, 1)
    assert first.data["expense-key"] != second.data["expense-key"]
    assert len(uuid.UUID(first.data["expense-key"]).hex) == 32
