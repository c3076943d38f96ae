from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorebook.accounts import password_links
from scorebook.accounts.models import display_name
from scorebook.clubs.models import Club, Role
from scorebook.league.backup import BackupError
from scorebook.league.restore import import_club
from scorebook.rules.evening_file import FileError, parse_json

MAX_BYTES = 50 * 1024 * 1024


class Command(BaseCommand):
    help = (
        "Restore a club written by export_club (into a database that does not hold it yet). "
        "Every field is checked first; nothing is written when anything is wrong."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument(
            "--account",
            action="append",
            default=[],
            metavar="FILE_NAME=USER",
            help="attach the backup's account FILE_NAME to the existing user USER here (with the backup's role "
            "for it); without it, an account whose user name exists here stops the restore",
        )
        parser.add_argument(
            "--with-secrets",
            action="store_true",
            help="read the accounts' password hashes and e-mail addresses from a backup made with "
            "export_club --with-secrets (without it, the accounts come in without them)",
        )
        parser.add_argument(
            "--site",
            default="",
            help="the site's address (e.g. https://scorebook.example.org), written before the admins' links",
        )

    def handle(
        self,
        *args: Any,
        file: str,
        account: list[str] | None,
        site: str = "",
        with_secrets: bool = False,
        **options: Any,
    ) -> None:
        mapping = {}
        for item in account or ():
            name, sep, target = item.partition("=")
            if not sep or not name or not target:
                raise CommandError(f"--account {item!r}: write it FILE_NAME=USER.")
            mapping[name] = target
        try:
            with open(file, "rb") as fh:
                raw = fh.read(MAX_BYTES + 1)
        except OSError as exc:
            raise CommandError(f"{file}: cannot read it: {exc.strerror}.") from None
        if len(raw) > MAX_BYTES:
            raise CommandError(f"{file}: larger than {MAX_BYTES // (1024 * 1024)} MB; not a club backup.")
        try:
            data = parse_json(raw)
            club = import_club(data, account_map=mapping, with_secrets=with_secrets)
        except FileError as exc:
            raise CommandError(f"{file}: {exc}") from None
        except BackupError as exc:
            raise CommandError(f"{file}: {exc} Nothing was restored.") from None
        self.stdout.write(f"{club.name}: {club.evenings.count()} evenings, {club.memberships.count()} members restored")
        if not with_secrets and _holds_secrets(data):
            self.stdout.write(
                "The accounts came in without the password hashes and e-mail addresses the file holds "
                "(import_club --with-secrets reads them, from a backup made with export_club --with-secrets)."
            )
        self._admins_links(club, site)

    def _admins_links(self, club: Club, site: str) -> None:
        """The members restored without a password choose one through a link: the operator hands the admins
        theirs (shown this once); each admin then makes the other members' links on the members page."""
        waiting = [
            m for m in club.memberships.select_related("user__profile") if password_links.awaits_password(m.user)
        ]
        admins = [m for m in waiting if m.role == Role.ADMIN]
        if not waiting:
            return
        self.stdout.write(
            f"{len(waiting)} of its members have no password here yet (the backup holds none). Hand each admin "
            "his link to choose one (shown this once; it works once, for 7 days); an admin then makes each other "
            "member's link on the club's members page (Members, \"Make a link to choose a password\")."
        )
        for m in admins:
            token = password_links.make(m.user)
            self.stdout.write(
                f"  {display_name(m.user)} ({m.user.get_username()}), admin: {password_links.address(token, site)}"
            )
        if not admins:
            self.stdout.write("  No admin is among them: each admin logs in as before, and makes the links.")


def _holds_secrets(data: Any) -> bool:
    """Whether the file's accounts hold a password hash or an e-mail address (read only when told)."""
    accounts = data.get("accounts") if isinstance(data, dict) else None
    return any(isinstance(a, dict) and (a.get("password") or a.get("email")) for a in accounts or ())
