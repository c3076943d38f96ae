"""The site served as docs/operating.md deploys it, for the browser tests that matter at the table.

``DeployedSite`` (the ``deployed_site`` fixture of tests/browser/conftest.py) builds it once per
test session, the operating guide's way:

- ``DEBUG=false``, a ``SECRET_KEY``, ``ALLOWED_HOSTS=127.0.0.1``; ``collectstatic`` into a
  temporary ``STATIC_ROOT`` with the storage the settings choose without DEBUG (whitenoise's
  manifest storage: hashed names, compressed copies);
- its own database, made by ``manage.py migrate`` (the tests' own database is made without
  migrations): a temporary SQLite file, or, when ``DATABASE_URL`` names PostgreSQL, a database
  of that server named after it (``scorebook`` -> ``scorebook_deployed_<pid>``), dropped at the end;
- gunicorn with the guide's own command line (read from the guide, only the port changed),
  on a free port of 127.0.0.1, behind the guide's own nginx server block (without TLS, on another
  free port: what the phones reach), read from the guide the same way (bench/deployment.py, which the
  benchmark and tests/test_slow_clients.py use too).

Over plain http on 127.0.0.1 two settings differ from the guide's, each for a reason:
``SECURE_SSL_REDIRECT=false`` (there is no TLS proxy to redirect to; the guide names this
switch for that case) and no ``BEHIND_TLS_PROXY`` (no proxy sets ``X-Forwarded-Proto``; a
client-sent header would be the spoof the setting trusts a proxy to overwrite). The cookies stay
``Secure``, as deployed: Chromium treats http://127.0.0.1 as a secure context, which keeps
``Secure`` cookies and lets service workers run there.

What the tests need in that database (users, evenings) and what they check in it (deals stored,
an evening closed "from another phone") goes through one helper process started with the site's
environment: ``python tests/deployed_site.py`` reads one JSON command a line and runs it with the
real services (the functions below, ``COMMANDS``). A process rather than the test process's ORM:
pytest-django points the test process at its own test database, and the services open their
transaction on the default connection, so a second connection there could not run them; one
process rather than one per command: Django starts once (about half a second each otherwise).
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
STARTUP_TIMEOUT = 90  # seconds, for migrate/collectstatic and gunicorn's first answer on a loaded machine


def deployed_gunicorn_command(port: int) -> list[str]:
    """The guide's gunicorn line, as written, bound to ``port`` (bench/deployment.py)."""
    from bench import deployment

    return deployment.gunicorn_command(port, BIN / "gunicorn")


def deployed_nginx_config(port: int, upstream: int, folder: Path) -> str:
    """The guide's nginx server block on ``port`` (no TLS), proxying to gunicorn on ``upstream``."""
    from bench import deployment

    return deployment.nginx_config(port, upstream, folder, connections=1024)


def nginx_program() -> str:
    from bench import deployment

    return deployment.NGINX


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresDatabase:
    """A database of the PostgreSQL server that ``url`` names, created empty and dropped with FORCE."""

    def __init__(self, url: str):
        parts = urlsplit(url)
        self.base = parts.path.lstrip("/") or "scorebook"
        self.name = f"{self.base}_deployed_{os.getpid()}"
        self.url = parts._replace(path="/" + self.name).geturl()
        self.server = {
            "host": parts.hostname or "127.0.0.1",
            "port": parts.port or 5432,
            "user": parts.username or "postgres",
            "password": parts.password or "",
            "dbname": "postgres",
        }

    def _run(self, *statements: str) -> list[tuple]:
        import psycopg

        with psycopg.connect(**self.server, autocommit=True) as connection:
            rows = []
            for statement in statements:
                cursor = connection.execute(statement)
                if cursor.description:
                    rows += cursor.fetchall()
            return rows

    def create(self) -> None:
        # left by an earlier run that was killed (its process is gone): dropped first
        names = self._run(f"SELECT datname FROM pg_database WHERE datname LIKE '{self.base}_deployed_%'")
        for (name,) in names:
            pid = name.rsplit("_", 1)[-1]
            if pid.isdigit() and not _alive(int(pid)):
                self._run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self._run(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)', f'CREATE DATABASE "{self.name}"')

    def drop(self) -> None:
        self._run(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class DeployedSite:
    """Start with ``start()``, stop with ``stop()`` (the fixture does both). ``url`` is the site's
    address; ``call(command, **arguments)`` runs one of ``COMMANDS`` against its database."""

    def __init__(self, tmp: Path, database_url: str | None = None):
        self.tmp = tmp
        self.port = free_port()  # nginx's, as a phone reaches the site
        self.upstream = free_port()  # gunicorn's, behind it
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = tmp / "gunicorn.log"
        self.nginx_folder = tmp / "nginx"
        self.static_root = tmp / "static"
        self.postgres = (
            PostgresDatabase(database_url) if database_url and database_url.startswith(("postgres", "pgsql")) else None
        )
        self.database_url = self.postgres.url if self.postgres else f"sqlite:///{tmp / 'site.sqlite3'}"
        self.env = {
            key: value
            for key, value in os.environ.items()
            # the tests' own settings must not reach the site
            if key not in {"STATICFILES_BACKEND", "BEHIND_TLS_PROXY", "SQLITE_TEST_DB", "EMAIL_BACKEND", "PYTHONPATH"}
        } | {
            "DJANGO_SETTINGS_MODULE": "scorebook.settings",
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1",
            # nginx passes the Host without the port ($host, as the guide's block says): behind
            # 443 the browser's Origin names no port either; here it names nginx's port
            "CSRF_TRUSTED_ORIGINS": f"http://127.0.0.1:{self.port}",
            "SECURE_SSL_REDIRECT": "false",
            "SIGNUP": "open",  # the browser tests sign up on its pages too
            "DATABASE_URL": self.database_url,
            "STATIC_ROOT": str(self.static_root),
            "TRUSTED_PROXY_COUNT": "0",
        }
        self.server: subprocess.Popen | None = None
        self.proxy: subprocess.Popen | None = None
        self.control: subprocess.Popen | None = None
        self.timings: dict[str, float] = {}
        self._log_file = None

    # --- life ------------------------------------------------------------------------------
    def start(self) -> None:
        started = time.monotonic()
        if self.postgres:
            self.postgres.create()
        manage = [sys.executable, "manage.py"]
        # the two are independent: run side by side
        steps = [
            subprocess.Popen(
                manage + ["migrate", "--noinput", "-v", "0"], cwd=ROOT, env=self.env, stderr=subprocess.PIPE, text=True
            ),
            subprocess.Popen(
                manage + ["collectstatic", "--noinput", "-v", "0"],
                cwd=ROOT,
                env=self.env,
                stderr=subprocess.PIPE,
                text=True,
            ),
        ]
        for step in steps:
            _, errors = step.communicate(timeout=STARTUP_TIMEOUT)
            if step.returncode != 0:
                raise RuntimeError(f"{' '.join(step.args[1:3])} failed:\n{errors}")
        self.timings["migrate_and_collectstatic"] = time.monotonic() - started

        served = time.monotonic()
        self._log_file = open(self.log_path, "wb")  # noqa: SIM115 (closed in stop)
        self.server = subprocess.Popen(
            deployed_gunicorn_command(self.upstream),
            cwd=ROOT,
            env=self.env,
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: the workers are stopped with it
        )
        # in front of it, the guide's nginx (it buffers slow clients and idle keep-alive
        # connections: gunicorn's two sync workers are never held by a browser's idle connection)
        nginx = nginx_program()
        if not Path(nginx).exists():
            raise RuntimeError("nginx is needed for the deployed site: make nginx (Debian's package)")
        self.nginx_folder.mkdir(exist_ok=True)
        config = deployed_nginx_config(self.port, self.upstream, self.nginx_folder)
        (self.nginx_folder / "nginx.conf").write_text(config)
        self.proxy = subprocess.Popen(
            [nginx, "-p", str(self.nginx_folder), "-c", str(self.nginx_folder / "nginx.conf")],
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.control = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve())],
            cwd=ROOT,
            env=self.env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self._wait_until_served()
        self.call("ping")
        self.timings["gunicorn"] = time.monotonic() - served
        self.timings["total"] = time.monotonic() - started

    def _wait_until_served(self) -> None:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while time.monotonic() < deadline:
            if self.server.poll() is not None:
                raise RuntimeError(f"gunicorn exited:\n{self.log()[-3000:]}")
            if self.proxy.poll() is not None:
                raise RuntimeError(f"nginx exited:\n{self.log()[-3000:]}")
            try:
                with urllib.request.urlopen(self.url + "/accounts/login/", timeout=5) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.2)
        raise RuntimeError(f"gunicorn did not answer within {STARTUP_TIMEOUT} s:\n{self.log()[-3000:]}")

    def stop(self) -> None:
        if self.control and self.control.poll() is None:
            self.control.stdin.close()
            try:
                self.control.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.control.kill()
                self.control.wait()
        if self.proxy and self.proxy.poll() is None:
            os.killpg(self.proxy.pid, signal.SIGTERM)
            try:
                self.proxy.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proxy.pid, signal.SIGKILL)
                self.proxy.wait()
        if self.server and self.server.poll() is None:
            os.killpg(self.server.pid, signal.SIGTERM)
            try:
                self.server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.server.pid, signal.SIGKILL)
                self.server.wait()
        if self._log_file:
            self._log_file.close()
        if self.postgres:
            self.postgres.drop()

    # --- what the tests use -----------------------------------------------------------------
    def call(self, command: str, **arguments):
        """Run ``COMMANDS[command](**arguments)`` in the site's environment; its answer (JSON)."""
        self.control.stdin.write(json.dumps({"command": command, "arguments": arguments}) + "\n")
        self.control.stdin.flush()
        line = self.control.stdout.readline()
        if not line:
            raise RuntimeError(f"the control process ended (exit status {self.control.poll()})")
        answer = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"{command}{arguments}: {answer['error']}")
        return answer["result"]

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def server_errors(self, since: int = 0) -> list[str]:
        """The server errors logged since offset ``since`` of the log (Django logs each 500 at ERROR)."""
        return [line for line in self.log()[since:].splitlines() if " ERROR " in line or line.startswith("Traceback")]


# --- the control process: run with the site's environment -----------------------------------------


def _user(username: str, password: str, first_name: str = "") -> int:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username=username, password=password, first_name=first_name).pk


def _evening(
    username: str,
    ruleset: str = "kleurenwiezen",
    players: list[str] = ("Anne", "Bert", "Carl", "Dina"),
    stake: str | None = "0.10",
    first_dealer: int = 0,
    date: str = "2026-11-20",
    deals: list[dict] = (),
) -> int:
    from datetime import date as Date

    from django.contrib.auth import get_user_model

    from builders import club_evening  # the tests' evening builder (this process runs from tests/)

    user = get_user_model().objects.get(username=username)
    return club_evening(
        None, user, Date.fromisoformat(date), deals, players, ruleset, stake, first_dealer=first_dealer
    ).pk


def _record_deal(evening: int, username: str, deal: dict) -> int:
    """A deal recorded as another phone would (through the service); its number."""
    from django.contrib.auth import get_user_model

    from scorebook.evenings import services
    from scorebook.evenings.models import Evening

    user = get_user_model().objects.get(username=username)
    return services.record_deal(Evening.objects.get(pk=evening), deal, user).deal.number


def _deals(evening: int) -> list[dict]:
    from scorebook.evenings.models import Deal

    return [
        {"number": d.number, "data": d.data, "request_key": d.request_key}
        for d in Deal.objects.filter(evening_id=evening).order_by("number")
    ]


def _set_status(evening: int, status: str) -> str:
    from scorebook.evenings import services
    from scorebook.evenings.models import Evening

    services.set_status(Evening.objects.get(pk=evening), Evening.Status(status))
    return status


def _delete_evening(evening: int) -> None:
    from scorebook.evenings import services
    from scorebook.evenings.models import Evening

    services.delete_evening(Evening.objects.get(pk=evening))


def _link(evening: int) -> str:
    """A new scoring link of the evening (its earlier ones revoked): its path."""
    from scorebook.evenings import links
    from scorebook.evenings.models import Evening

    return f"/t/{links.issue(Evening.objects.get(pk=evening))}/"


def _revoke_links(evening: int) -> int:
    from scorebook.evenings import links
    from scorebook.evenings.models import Evening

    return links.revoke(Evening.objects.get(pk=evening))


def _night(username: str, players: list[str], sessions: int = 2) -> dict:
    """A club night of the user's new club (the user its scorer): its pk and its first session's
    tables' evenings."""
    from datetime import date
    from decimal import Decimal

    from django.contrib.auth import get_user_model

    import night_builders  # the tests' night builder (this process runs from tests/)
    from scorebook.clubs.models import Club, Membership, Role
    from scorebook.nights.models import NightTable

    user = get_user_model().objects.get(username=username)
    club = Club.objects.create(name=f"Club {username}", slug=f"club-{username}")
    Membership.objects.create(club=club, user=user, role=Role.SCORER)
    night = night_builders.night(
        club,
        user,
        players,
        sessions,
        None,
        stake=Decimal("0.10"),
        name="Night",
        day=date(2026, 11, 20),
        seed=0,
        ranking_link=False,
    )
    tables = NightTable.objects.filter(session__night=night, session__number=1).order_by("number")
    return {"night": night.pk, "evenings": [t.evening_id for t in tables]}


def _table_cards(night: int, session: int) -> dict:
    """The cards of a session printed (new links of its tables): {table number: the card's path}."""
    from scorebook.nights import services
    from scorebook.nights.models import Night, NightTable

    tokens = services.table_links(Night.objects.get(pk=night), session)
    tables = NightTable.objects.filter(session__night_id=night, session__number=session)
    return {t.number: f"/t/{tokens[t.evening_id]}/" for t in tables}


def _close_session(night: int, number: int, username: str) -> None:
    from django.contrib.auth import get_user_model

    from scorebook.nights import services
    from scorebook.nights.models import Night

    user = get_user_model().objects.get(username=username)
    services.close_session(Night.objects.get(pk=night), number, user)


COMMANDS = {
    "delete_evening": _delete_evening,
    "link": _link,
    "revoke_links": _revoke_links,
    "night": _night,
    "close_session": _close_session,
    "table_cards": _table_cards,
    "ping": lambda: "pong",
    "user": _user,
    "evening": _evening,
    "record_deal": _record_deal,
    "deals": _deals,
    "set_status": _set_status,
}


def serve_commands() -> None:
    import traceback

    import django
    from django.db import connection

    django.setup()
    for line in sys.stdin:
        request = json.loads(line)
        try:
            answer = {"result": COMMANDS[request["command"]](**request["arguments"])}
        except Exception:  # noqa: BLE001 (the test process raises it, with the traceback)
            answer = {"error": traceback.format_exc()}
        finally:
            connection.close()  # nothing held between two commands (the site writes meanwhile)
        sys.stdout.write(json.dumps(answer, default=str) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    serve_commands()
