"""A demo account with a few past evenings, every deal recorded through the services (so the engine checks it).

    python manage.py seed_demo             # the demo user and five evenings
    python manage.py seed_demo --if-empty  # the same, only when there is no evening at all

Its password is published: with DEBUG=false it refuses to run unless given --in-production,
and it never touches an existing account (a user called demo may be a real person's:
"demo" is reserved at sign-up, but an admin may have made one).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from scorebook.evenings import creation, services, stored
from scorebook.evenings.models import Evening

USERNAME = "demo"
PASSWORD = "demo-scorebook"

# A contract deal: (contract, declarers, tricks). Declarers are positions in the engine's
# list of the four who play the deal (``result.next.playing``), so a script stays valid
# whoever sits out; tricks is the side's tricks, or {position: tricks} for misère and piccolo.
PASS = ("pass",)

KLEURENWIEZEN = [
    ("samen-8", [0, 2], 9),
    ("alleen-5", [1], 6),
    ("samen-9", [0, 1], 8),
    PASS,  # the next deal counts double
    ("samen-8", [0, 2], 10),
    ("kleine-miserie", [0, 3], {0: 0, 3: 2}),  # two declarers: one makes it, one fails
    ("alleen-6", [2], 6),
    ("samen-10", [1, 3], 10),
    ("abondance-9", [2], 9),
    ("samen-8", [0, 1], 7),
    ("piccolo", [1], {1: 1}),
    ("troel", [1, 2], 9),
    ("alleen-5", [0], 4),
    ("samen-9", [2, 3], 11),
    ("grote-miserie", [1], {1: 0}),
    ("samen-8", [0, 3], 8),
    ("alleen-7", [3], 7),
    ("samen-11", [0, 2], 11),
    ("samen-8", [0, 2], 7),
    ("abondance-9", [3], 10),
    ("samen-8", [0, 1], 9),
]

LIEGE = [
    ("emballage-8", [0, 2], 9),
    ("solo-6", [1], 7),
    ("emballage-9", [1, 3], 8),
    ("petite-misere", [2], {2: 0}),
    ("emballage-8", [0, 1], 10),
    ("trou", [2, 3], 10),
    ("solo-7", [0], 6),
    ("abondance-9", [3], 9),
    ("emballage-10", [0, 2], 10),
    ("petite-misere", [1, 3], {1: 0, 3: 1}),
    ("emballage-8", [1, 2], 8),
    ("solo-6", [3], 8),
]

ENCHERES = [  # failures feed the bête, a made contract takes it
    ("solo", [0], 5),
    ("huit-a-deux", [0, 2], 7),
    ("abondance", [1], 8),
    ("petite-misere", [3], {3: 0}),  # takes the bête
    ("solo", [2], 7),
    ("piccolo", [0], {0: 2}),
    ("sept-seul", [1], 6),
    ("huit-a-deux", [1, 3], 7),
    ("solo", [3], 5),  # the bête keeps growing: the evening is still open
]

GAND = [
    ("emballage", [0, 2], 9),
    ("solo", [1], 5),
    ("misere", [3], {3: 0}),
    ("emballage", [1, 3], 7),
    ("abondance", [0], 10),
    ("misere", [1, 2], {1: 0, 2: 0}),
    PASS,
    ("solo", [2], 4),
    ("emballage", [0, 1], 8),
    ("misere-table", [3], {3: 1}),
]

# Classic whist: team 0 is seats 1 and 3. The first robre ends 2 manches to 1; the second is under way.
CLASSIQUE = [
    {"tricks": [9, 4], "honours": [3, 0]},
    {"tricks": [8, 5], "honours": [4, 0]},  # manche to team 0
    {"tricks": [5, 8], "honours": [0, 3]},
    {"tricks": [4, 9], "honours": [0, 0]},
    {"tricks": [6, 7], "honours": [0, 3]},  # manche to team 1
    {"tricks": [10, 3], "honours": [0, 0]},
    {"tricks": [9, 4], "honours": [0, 0]},  # team 0 stands at 7
    {"tricks": [7, 6], "honours": [0, 0]},  # team 0 stands at 8
    {"claim": 0},  # shows its honours: manche and robre to team 0
    {"tricks": [6, 7], "honours": [0, 4]},
    {"tricks": [8, 5], "honours": [0, 0]},
]

# (ruleset, players, days ago, stake, closed, deals)
EVENINGS: list[tuple[str, list[str], int, str, bool, list[Any]]] = [
    ("kleurenwiezen", ["Anne", "Bert", "Carl", "Dina", "Eric"], 24, "0.10", True, KLEURENWIEZEN),
    ("liege", ["Marc", "Nadia", "Olivier", "Pascale"], 17, "0.05", True, LIEGE),
    ("classique", ["Anne", "Bert", "Carl", "Dina"], 11, "0.50", True, CLASSIQUE),
    ("gand", ["Bert", "Dina", "Marc", "Nadia"], 5, "0.20", True, GAND),
    ("encheres", ["Anne", "Carl", "Eric", "Pascale"], 0, "0.02", False, ENCHERES),
]


def contract_deal(step: Any, playing: Sequence[str]) -> dict[str, Any]:
    if step == PASS:
        return {"contract": "pass"}
    contract, declarers, tricks = step
    names = [playing[i] for i in declarers]
    if isinstance(tricks, dict):
        tricks = {playing[i]: n for i, n in tricks.items()}
    return {"contract": contract, "declarers": names, "tricks": tricks}


class Command(BaseCommand):
    help = "Create the demo user (demo / demo-scorebook) and a few past evenings of several variants."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--if-empty", action="store_true", help="Do nothing when any evening exists.")
        parser.add_argument(
            "--in-production",
            action="store_true",
            help="Run even with DEBUG=false: anyone who reads this help can then log in as the demo user.",
        )

    def handle(self, *args: Any, if_empty: bool = False, in_production: bool = False, **options: Any) -> None:
        if not settings.DEBUG and not in_production:
            raise CommandError(
                f"DEBUG is false: this looks like a real site, and the demo user's password ({PASSWORD}) is public. "
                "Nothing was seeded; add --in-production if you really want a demo account here."
            )
        if if_empty and Evening.objects.exists():
            self.stdout.write("There are evenings already: nothing seeded.")
            return
        if get_user_model().objects.filter(username__iexact=USERNAME).exists():
            raise CommandError(
                f"A user called {USERNAME!r} exists already: seed_demo never touches an existing account. "
                "Nothing was seeded."
            )
        with transaction.atomic():
            user = self.demo_user()
            today = timezone.localdate()
            made = [self.evening(user, today, *spec) for spec in EVENINGS]
        self.stdout.write(self.style.SUCCESS(f"Created the demo user: {USERNAME} / password {PASSWORD}"))
        for evening in made:
            deals = evening.deals.count()
            status = evening.get_status_display()
            self.stdout.write(f"  {evening.ruleset:<14} {evening.date}  {deals:>2} deals  {status}")

    def demo_user(self) -> User:
        return get_user_model().objects.create_user(username=USERNAME, password=PASSWORD, first_name="Demo")

    def evening(
        self,
        user: User,
        today: date,
        ruleset: str,
        players: list[str],
        days_ago: int,
        stake: str,
        closed: bool,
        script: list[Any],
    ) -> Evening:
        evening = creation.create_evening(
            ruleset=ruleset,
            players=players,
            first_dealer=0,
            stake=Decimal(stake),
            currency="EUR",
            date=today - timedelta(days=days_ago),
            user=user,
        )
        classic = evening.rules["family"] == "classic"
        for step in script:
            if classic:
                data = step
            else:
                playing = stored.scored(evening).result.next.playing
                data = contract_deal(step, playing)
            services.record_deal(evening, data, user)
        if closed:
            Evening.objects.filter(pk=evening.pk).update(status=Evening.Status.CLOSED)
            evening.status = Evening.Status.CLOSED
        return evening
