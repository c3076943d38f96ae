from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorebook.accounts import password_links
from scorebook.accounts.forms import AccountForm


class Command(BaseCommand):
    help = (
        "Make an account (the first admin of a club, or anyone when SIGNUP=closed) and print a one-time "
        "link (7 days) with which its owner chooses a password; the operator never knows it. The same "
        "rules as the sign-up form: user name, display name, optional e-mail address."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--name", required=True, help="the display name other players see, e.g. 'Marie D.'")
        parser.add_argument("--email", default="", help="to reset a forgotten password (optional)")
        parser.add_argument("--site", default="", help="the site's address, e.g. https://scorebook.example.org")

    def handle(self, *args: Any, username: str, name: str, email: str, site: str, **options: Any) -> None:
        form = AccountForm({"username": username, "display_name": name, "email": email})
        if not form.is_valid():
            errors = (f"{field}: {' '.join(str(error) for error in found)}" for field, found in form.errors.items())
            raise CommandError(" ".join(errors))
        user = form.save()
        self.stdout.write(password_links.address(password_links.make(user), site))
