"""A demo club for the demo user: members, a roster, house rules, a season, evenings of several
variants with payments, a kitty (fees, an expense, a short cup's prizes, money paid into it), and a
club night under way (its second session of three). Every deal goes through the services (so the
engine checks it), every payment and every record of the kitty through the ledger's services.

    python manage.py seed_demo_club    # after seed_demo (it runs it first when there is no demo user)
    python manage.py seed_demo_club --language fr    # what its members typed in French (or nl), for the guides

The club's guides are illustrated from it (``make screenshots``, docs/screenshots.py). Like
seed_demo it refuses to run with DEBUG=false unless given --in-production, and it never touches an
existing account or club: the other members are accounts that cannot log in (no password).
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from scorebook.clubs import services as clubs
from scorebook.clubs.models import Club, HouseRules, Player, Role, Season
from scorebook.evenings import creation, payments, services, stored
from scorebook.evenings.management.commands.seed_demo import GAND, KLEURENWIEZEN, LIEGE, PASS, USERNAME, contract_deal
from scorebook.evenings.models import Evening
from scorebook.ledger import services as ledger
from scorebook.nights import services as nights
from scorebook.nights.models import Night, NightTable

NAME, SLUG = "De Troef", "de-troef"
ROSTER = ["Anne", "Bert", "Carl", "Dina", "Eric", "Fien", "Geert", "Hilde", "Ivo", "Jana"]
GUESTS = ["Koen", "Lien", "Mark", "Nele", "Olaf", "Pia"]
# other members: (account, role, their player on the roster); they have no password
MEMBERS = [("anne", Role.SCORER, "Anne"), ("bert", Role.MEMBER, "Bert"), ("hilde", Role.MEMBER, "Hilde")]
HOUSE_RULES = {"kleurenwiezen": {"contracts": {"troel": {"made": {"13": [32, -32]}}}}}
# the kitty: a fee per player per evening and per night (set before the evenings, which keep theirs)
EVENING_FEE, NIGHT_FEE = Decimal("1.00"), Decimal("2.00")
# a short cup of the liège evening, over before today, with prizes for its first two places
CUP = ("cup", "liege", 24, 18, ["10.00", "5.00"])
# what the club's members typed (the seasons' names, the notes of payments and expenses...), in each
# language the guides are written in, so that a guide's pictures show its reader's language only
WORDS = {
    "en": {
        "autumn": "Autumn {year}",
        "season": "Season {year}",
        "cup": "Liège cup",
        "half": "half now",
        "on account": "on account",
        "cards": "Two packs of cards",
        "twice": "entered twice",
        "fees": "fees",
        "night": "Kaartavond",
    },
    "fr": {
        "autumn": "Automne {year}",
        "season": "Saison {year}",
        "cup": "Coupe de Liège",
        "half": "la moitié maintenant",
        "on account": "en compte",
        "cards": "Deux jeux de cartes",
        "twice": "noté deux fois",
        "fees": "cotisations",
        "night": "Grande soirée",
    },
    "nl": {
        "autumn": "Najaar {year}",
        "season": "Seizoen {year}",
        "cup": "Luikse beker",
        "half": "de helft nu",
        "on account": "op rekening",
        "cards": "Twee pakken kaarten",
        "twice": "twee keer ingevoerd",
        "fees": "bijdragen",
        "night": "Kaartavond",
    },
}

# (ruleset, players, days ago, stake, script, closed)
EVENINGS: list[tuple[str, list[str], int, str, list[Any], bool]] = [
    ("kleurenwiezen", ["Anne", "Bert", "Carl", "Dina", "Eric"], 35, "0.10", KLEURENWIEZEN[:14], True),
    ("kleurenwiezen", ["Fien", "Geert", "Hilde", "Ivo"], 28, "0.10", KLEURENWIEZEN[6:18], True),
    ("liege", ["Anne", "Carl", "Eric", "Geert"], 21, "0.05", LIEGE, True),
    ("kleurenwiezen", ["Bert", "Dina", "Fien", "Hilde", "Jana"], 14, "0.10", KLEURENWIEZEN[3:19], True),
    ("gand", ["Anne", "Bert", "Ivo", "Jana"], 7, "0.20", GAND, True),
    ("kleurenwiezen", ["Anne", "Bert", "Carl", "Dina", "Eric"], 0, "0.10", KLEURENWIEZEN[:8], False),
]
# a club night tonight: 16 players, 3 sessions of 4 deals; session 1 played and closed, session 2
# under way with some tables behind, session 3 not begun (a late arrival can still join it)
NIGHT_DEALS = [
    ("samen-8", [0, 2], 9),
    ("alleen-5", [1], 6),
    PASS,
    ("samen-9", [1, 3], 8),
    ("troel", [0, 3], 9),
    ("kleine-miserie", [2], {2: 0}),
]


class Command(BaseCommand):
    help = "Create the demo club (De Troef) for the demo user: members, roster, a season, evenings, payments, a night."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--language", choices=sorted(WORDS), default="en", help="the language of the names and notes typed in it"
        )
        parser.add_argument(
            "--in-production",
            action="store_true",
            help="Run even with DEBUG=false: anyone who reads this help can then log in as the demo user.",
        )

    def handle(self, *args: Any, in_production: bool = False, language: str = "en", **options: Any) -> None:
        self.words = WORDS[language]
        if not settings.DEBUG and not in_production:
            raise CommandError("DEBUG is false: this looks like a real site. Nothing was seeded (--in-production).")
        if Club.objects.filter(slug__iexact=SLUG).exists():
            raise CommandError(f"A club {SLUG!r} exists already: nothing was seeded.")
        accounts = [name for name, _role, _player in MEMBERS]
        if get_user_model().objects.filter(username__in=accounts).exists():
            raise CommandError(f"One of the accounts {', '.join(accounts)} exists already: nothing was seeded.")
        demo = get_user_model().objects.filter(username=USERNAME).first()
        if demo is None:
            call_command("seed_demo", in_production=in_production, stdout=self.stdout)
            demo = get_user_model().objects.get(username=USERNAME)
        today = timezone.localdate()
        with transaction.atomic():
            club = self.club(demo)
            ledger.set_fees(club, EVENING_FEE, NIGHT_FEE)
            self.season(club, today)
            made = [self.evening(club, demo, today, *spec) for spec in EVENINGS]
            self.payments(club, demo, made)
            self.kitty(club, demo, today)
        night = self.night(club, demo, today)  # its plan is drawn outside any transaction, as the site does
        self.stdout.write(self.style.SUCCESS(f"Created the club {NAME} (/c/{SLUG}/), its admin: {USERNAME}"))
        self.stdout.write(f"  {len(ROSTER)} players, {len(made)} evenings, a night of {night.participants.count()}")

    def club(self, demo: User) -> Club:
        club = clubs.create_club(name=NAME, slug=SLUG, user=demo)
        clubs.add_players(club, ROSTER, demo)
        for username, role, player in MEMBERS:
            user = get_user_model().objects.create_user(username=username, first_name=player)
            user.set_unusable_password()
            user.save(update_fields=["password"])
            club.memberships.create(user=user, role=role)
            clubs.link_player(Player.objects.get(club=club, name=player), user)
        for ruleset, overrides in HOUSE_RULES.items():
            HouseRules.objects.create(club=club, ruleset=ruleset, overrides=overrides, updated_by=demo)
        return club

    def season(self, club: Club, today: date) -> Season:
        season = Season(
            club=club,
            name=self.words["autumn" if today.month >= 9 else "season"].format(year=today.year),
            start=today - timedelta(days=40),
            end=today + timedelta(days=60),
            ruleset="kleurenwiezen",
        )
        return clubs.save_season(season, overlap_confirmed=True)

    def evening(
        self,
        club: Club,
        demo: User,
        today: date,
        ruleset: str,
        players: list[str],
        days_ago: int,
        stake: str,
        script: list[Any],
        closed: bool,
    ) -> Evening:
        evening = creation.create_evening(
            ruleset=ruleset,
            players=players,
            first_dealer=0,
            stake=Decimal(stake),
            currency="EUR",
            date=today - timedelta(days=days_ago),
            user=demo,
            club=club,
        )
        record(evening, script, demo)
        if closed:
            services.set_status(evening, Evening.Status.CLOSED, demo, admin=True)
        return evening

    def payments(self, club: Club, demo: User, made: list[Evening]) -> None:
        """The first evening settled in full, the second in part, the liège one not yet; a payment on account."""
        first, second = made[0], made[1]
        for transfer in payments.still_due(first):
            payments.record_payment(first, transfer.payer, transfer.payee, transfer.amount, demo, closed_too=True)
        due = payments.still_due(second)
        if due:
            part = (due[0].amount / 2).quantize(Decimal("0.01"))
            payments.record_payment(
                second, due[0].payer, due[0].payee, part, demo, closed_too=True, free=True, note=self.words["half"]
            )
        anne, jana = (Player.objects.get(club=club, name=name) for name in ("Anne", "Jana"))
        ledger.record_on_account(club, jana, anne, Decimal("2.00"), "EUR", demo, note=self.words["on account"])

    def kitty(self, club: Club, demo: User, today: date) -> None:
        """Two expenses (the second entered twice by mistake, withdrawn), the cup's prizes awarded from its
        final standings, fees paid into the kitty by two players."""
        from scorebook.league.views.prizes import awards
        from scorebook.league.views.seasons import season_table

        cards = (self.words["cards"], Decimal("12.50"), today - timedelta(days=20))
        for note, amount, day in (cards, cards):
            expense, _created = ledger.record_expense(club, amount, "EUR", day, note, demo)
        ledger.withdraw(expense, demo, self.words["twice"])
        word, ruleset, starts, ends, prizes = CUP
        cup = clubs.save_season(
            Season(
                club=club,
                name=self.words[word],
                start=today - timedelta(days=starts),
                end=today - timedelta(days=ends),
                ruleset=ruleset,
                prizes=prizes,
            ),
            overlap_confirmed=True,
        )
        standings = awards(cup, season_table(cup))
        given = [ledger.Award(place, player, amount) for player, place, amount in standings if player]
        ledger.award_prizes(cup, given, "EUR", demo)
        for name, fee in (("Anne", "10.00"), ("Bert", "8.00")):
            player = Player.objects.get(club=club, name=name)
            ledger.record_kitty_payment(club, player, Decimal(fee), "EUR", demo, into=True, note=self.words["fees"])

    def night(self, club: Club, demo: User, today: date) -> Night:
        night = nights.create_night(
            club=club,
            user=demo,
            name=self.words["night"],
            date=today,
            ruleset="kleurenwiezen",
            sessions=3,
            deals_per_session=4,
            ranking=Night.Ranking.TOTAL,
            place_points=[],
            stake=Decimal("0.05"),
            currency="EUR",
            players=ROSTER + GUESTS,
            seed=1,
        )
        for number, table in enumerate(tables(night, 1)):
            record(table.evening, rotate(NIGHT_DEALS, number)[:4], demo)
        nights.close_session(night, 1, demo)
        for number, table in enumerate(tables(night, 2)):
            record(table.evening, rotate(NIGHT_DEALS, number)[: 4 - number % 3], demo)  # some tables are behind
        return night


def tables(night: Night, session: int) -> list[NightTable]:
    return list(night.night_sessions.get(number=session).tables.select_related("evening").order_by("number"))


def rotate(script: list[Any], by: int) -> list[Any]:
    return script[by % len(script) :] + script[: by % len(script)]


def record(evening: Evening, script: list[Any], user: User) -> None:
    classic = evening.rules["family"] == "classic"
    for step in script:
        data = step if classic else contract_deal(step, stored.scored(evening).result.next.playing)
        services.record_deal(evening, data, user)
