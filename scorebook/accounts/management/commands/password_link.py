from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorebook.accounts import password_links


class Command(BaseCommand):
    help = (
        "Make a one-time link (7 days) with which an account that has no password yet (restored from a "
        "club's backup, never logged in) chooses one; the link made before stops working. Shown once."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--site", default="", help="the site's address, e.g. https://scorebook.example.org")

    def handle(self, *args: Any, username: str, site: str, **options: Any) -> None:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user {username!r}")
        if password_links.runs_the_site(user):
            raise CommandError(
                f"{username} is staff or a superuser: no link is ever made for such an account "
                "(set its password with changepassword)."
            )
        if not password_links.awaits_password(user):
            raise CommandError(
                f"{username} has a password already, or has logged in: no link is made "
                "(a password is reset from the login page, or with changepassword)."
            )
        self.stdout.write(password_links.address(password_links.make(user), site))
