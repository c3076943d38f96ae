"""No token of any kind in any log (issue 32, item 2; issue 39, item 3). Every address that carries a
secret is read from the URL confs (tests/secret_addresses.py: every pattern with a token converter, or
a parameter named like a token), so a new one cannot be forgotten: the mask of ``core/logs.py`` must
hide each, and a link of each kind is made and opened, and the logs read:

- the site's own log (the stderr handler of settings.LOGGING) and its error mails to ADMINS (Django's
  locmem mail backend), each address opened plainly, as the page a request came from (Referer), in a
  login's ``next``, and with a server error on it; no cookie the site set is in them either;
- the deployment of docs/operating.md (bench/deployment.py): its nginx block with nothing behind it
  (nginx's error lines), then its gunicorn command behind it: gunicorn's error log and its access
  log as the guide configures it, with Django's lines in them.
A probe found ``/accounts/password/<token>/`` in clear in the site's log, gunicorn's and the mails."""

import io
import json
import logging
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.core import mail
from django.test import Client

from bench import deployment
from scorebook.core.logs import redact
from secret_addresses import one_link_of_each_kind, secret_routes

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "Zq7d-Kard_t0ken9VbXQeLrWm3sPfYu2nHc"  # as the site makes them: url-safe, 32+ characters (fixed: xdist)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def made_up_addresses() -> list[str]:
    """Every secret address of the URL confs, its secrets the made-up ``TOKEN``."""
    return [route.path(**dict.fromkeys(route.secrets, TOKEN)) for route in secret_routes()]


def test_the_url_confs_have_the_secret_addresses_the_probe_found():
    names = {route.name for route in secret_routes()}
    assert {"scoring_link", "evening_public", "night_ranking", "club_join", "password_link"} <= names
    assert "password_reset_confirm" in names and "evening" not in names and "club" not in names


@pytest.mark.parametrize("address", made_up_addresses(), ids=str)
@pytest.mark.parametrize(
    "written",
    [
        "{a}",
        "GET {a} HTTP/1.1",
        "https://scores.example.org{a}live/",
        "/accounts/login/?next={a}",
        "/accounts/login/?next={encoded}",
        '"{a}" from "https://scores.example.org{a}"',
    ],
)
def test_the_mask_hides_every_secret_address_of_the_url_confs(address, written):
    line = written.format(a=address, encoded=address.replace("/", "%2F"))
    assert TOKEN not in redact(line), redact(line)
    assert "…" in redact(line)


def test_the_mask_leaves_the_other_addresses_alone():
    for line in ("/accounts/password_change/", "/c/de-troef/seasons/3/", "/e/12/settle/", "/accounts/password_reset/"):
        assert redact(line) == line


class Crash:
    """A server error on any address asked for with ``X-Crash``, after the site's middleware."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.headers.get("X-Crash"):
            raise RuntimeError("the card table collapsed")
        return self.get_response(request)


@pytest.fixture
def site_log():
    """What the site's own stderr handler writes (settings.LOGGING), while the test runs."""
    handler = next(h for h in logging.getLogger("django").handlers if h.name == "stderr")
    written = io.StringIO()
    before = handler.setStream(written)
    yield written
    handler.setStream(before)


def visit_every_secret_address(client: Client, links: dict[str, dict[str, str]]) -> None:
    for route in secret_routes():
        address = route.path(**links[route.name])
        client.get(address)
        client.get(address, HTTP_X_CRASH="1")
        client.get("/manifest.webmanifest?from=" + address, HTTP_REFERER="https://testserver" + address)
        client.get("/accounts/login/", {"next": address}, HTTP_X_CRASH="1", HTTP_REFERER="http://testserver" + address)
        client.post(address, {"new_password1": "x"}, HTTP_X_CRASH="1")


@pytest.mark.django_db
@pytest.mark.both_databases
def test_no_log_line_nor_error_mail_holds_a_token_or_a_cookie(settings, site_log):
    settings.ADMINS = ["ops@example.org"]
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, "test_no_token_in_logs.Crash"]
    links = one_link_of_each_kind()
    client = Client(raise_request_exception=False, enforce_csrf_checks=True)
    client.get("/accounts/login/")
    login = {"username": "adele_secretary", "password": "a-long-test-password"}
    assert (
        client.post("/accounts/login/", login | {"csrfmiddlewaretoken": client.cookies["csrftoken"].value}).status_code
        == 302
    )
    visit_every_secret_address(client, links)
    visit_every_secret_address(Client(raise_request_exception=False), links)  # anonymous

    given = [value for values in links.values() for value in values.values()] + [
        c.value for c in client.cookies.values()
    ]
    secrets_given = {value for value in given if len(value) >= 16}  # not a password reset's user id
    assert {"sessionid", "csrftoken", "sb_known"} <= set(client.cookies), client.cookies
    written = [("the site's log", site_log.getvalue())] + [
        (f"mail {n} ({m.subject})", "\n".join([m.subject, m.body, *(str(a) for a in m.alternatives)]))
        for n, m in enumerate(mail.outbox)
    ]
    assert len(mail.outbox) >= 3 * len(secret_routes()), len(mail.outbox)
    assert "Internal Server Error: /accounts/password/…/" in site_log.getvalue()
    for where, text in written:
        for secret in secrets_given:
            assert secret not in text, f"{where}: " + next(line for line in text.splitlines() if secret in line)


# --- the deployment, as docs/operating.md writes it ---------------------------------------------------


def visit(port: int, addresses: list[str]) -> list[int]:
    """Every address, plain, from a page of that address (Referer), and with a large body."""
    statuses = []
    for address in addresses:
        for headers, data in (
            ({}, None),
            ({"Referer": f"http://127.0.0.1:{port}{address}"}, None),
            ({}, b"x" * (4 * 1024 * 1024)),  # over client_max_body_size: nginx refuses it (413)
        ):
            target = "/static/css/site.css" if "Referer" in headers else address
            request = urllib.request.Request(f"http://127.0.0.1:{port}{target}", data=data, headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=10) as answer:
                    statuses.append(answer.status)
            except urllib.error.HTTPError as error:
                statuses.append(error.code)
            except OSError:  # nginx may close the connection of an oversized body while it is sent
                statuses.append(0)
    return statuses


MAKE_LINKS = (
    "import django, json; django.setup(); import secret_addresses as s; print(json.dumps(s.one_link_of_each_kind()))"
)


@pytest.mark.slow  # nginx and gunicorn processes
def test_no_log_of_the_deployment_holds_a_token(tmp_path):
    port, upstream = free_port(), free_port()
    (tmp_path / "nginx.conf").write_text(deployment.nginx_config(port, upstream, tmp_path, connections=64))
    proxy = subprocess.Popen([deployment.NGINX, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")])
    gunicorn = None
    made_up = made_up_addresses()
    try:
        for _ in range(50):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        down = visit(port, made_up)  # gunicorn stopped: nginx answers itself, and writes its errors
        assert 502 in down and 413 in down, down

        env = os.environ | {
            "DJANGO_SETTINGS_MODULE": "scorebook.settings",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}",
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1",
            "SIGNUP": "invitation",
            "SECURE_SSL_REDIRECT": "false",
            "STATICFILES_BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage",
            "PYTHONPATH": f"{ROOT / 'tests'}:{ROOT}",
        }
        subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
        made = subprocess.run(
            [sys.executable, "-c", MAKE_LINKS], cwd=ROOT, env=env, check=True, capture_output=True, text=True
        )
        links = json.loads(made.stdout)
        real = [route.path(**links[route.name]) for route in secret_routes()]
        with open(tmp_path / "gunicorn.log", "wb") as log:
            gunicorn = subprocess.Popen(
                deployment.gunicorn_command(upstream, Path(sys.executable).parent / "gunicorn"),
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=log,
            )
            for _ in range(100):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{upstream}/manifest.webmanifest", timeout=1)
                    break
                except OSError:
                    time.sleep(0.1)
            up = visit(port, made_up + real)  # 404 for the made-up tokens, logged by Django; the real links open
            assert 404 in up and 200 in up, up
    finally:
        for process in (proxy, gunicorn):
            if process is not None:
                process.terminate()
                process.wait(timeout=10)
    nginx_logs = [p for p in tmp_path.rglob("*.log") if p.name != "gunicorn.log"]
    assert nginx_logs
    gunicorn_log = (tmp_path / "gunicorn.log").read_text()
    assert "Not Found: /t/" in gunicorn_log  # Django's request log is in gunicorn's, with the token hidden
    assert '"GET /accounts/password/…/ HTTP/1.0" 200' in gunicorn_log  # gunicorn's access log, as configured
    given = {TOKEN} | {value for values in links.values() for value in values.values()}
    for log in [*nginx_logs, tmp_path / "gunicorn.log"]:
        text = log.read_text()
        for secret in given:
            assert secret not in text, f"{log.name}: " + next(line for line in text.splitlines() if secret in line)


@pytest.mark.parametrize("address", ["/t/{token}/", "/accounts/password/{token}/", "/reset/MQ/{token}/"])
def test_gunicorns_own_lines_hide_the_token(tmp_path, address):
    """gunicorn writes the address of a request it could not finish ("Error handling request GET
    /t/<token>/" after a worker's timeout): the checkout's gunicorn.conf.py, which gunicorn reads by
    default where the guide starts it, gives its logs the site's filter."""
    import importlib.util

    from gunicorn.config import Config

    address = address.format(token=TOKEN)
    spec = importlib.util.spec_from_file_location("gunicorn_conf", ROOT / "gunicorn.conf.py")
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    cfg = Config()
    assert cfg.settings["config"].default == "./gunicorn.conf.py"  # read from the checkout it runs in
    cfg.set("logger_class", conf.logger_class)
    cfg.set("errorlog", str(tmp_path / "error.log"))
    log = cfg.logger_class(cfg)
    log.error("Error handling request %s %s", "GET", address)
    log.error(f"Error handling request GET {address}")
    written = (tmp_path / "error.log").read_text()
    assert "Error handling request GET /" in written and TOKEN not in written, written
