"""docs/operating.md works from top to bottom (issue 39, item 1). A volunteer following it found the
install block migrating before the PostgreSQL user and database existed, gettext missing, a Python
the page did not name, an nginx block that failed ``nginx -t``, no first admin, a backup that failed as
root with no schedule, a systemd example that did not match the install, and ``check --deploy``
warning where the page said it was silent.

This test is that volunteer, on this machine (tests/operating_guide.py: the guide's places, names and
ports mapped to the test's own, a fresh PostgreSQL role and database, a fresh nginx with a
self-signed certificate in certbot's place, the guide's units run as processes of the test). It runs
every shell block of the page in order, as root, as written, and stops at the first command that
fails, naming its block; between them it does what the page tells the operator to do and checks
what the page says will happen:

1. the prerequisites of each distribution name the same programs, present here (Debian 12);
2. the install ends in ``check --deploy`` finding nothing, at the level where a warning fails;
3. gunicorn answers from its service, nginx over TLS (and sends plain http to https);
4. the first admin's link opens over TLS; she chooses her password and makes her club; nobody signs
   up without an invitation;
5. the backup timer's service, run as its user, writes last night's copy; the drill counts the same
   in the copy and the site; the restore brings the site back with the club;
6. the upgrade runs and the site still serves the club;
7. no log of the deployment (nginx's, gunicorn's access and error lines, Django's) holds a token;
8. the LAN section's changes, made as it says, let a phone log in over plain http (the session
   cookie no longer ``Secure``), and the site's log says what that costs."""

from __future__ import annotations

import http.cookiejar
import os
import pwd
import re
import shutil
import ssl
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from operating_guide import GUIDE, Block, Machine, blocks

pytestmark = pytest.mark.slow

HOST = "scores.example.org"
LAN = "192.168.1.10"
PASSWORD = "green-table-42-spades"
PROGRAMS = {  # what each package of the prerequisites gives the steps that follow
    "git": "git",
    "gettext": "msgfmt",
    "nginx": "nginx",
    "postgresql": "pg_dump",
    "certbot": None,  # Let's Encrypt is out of reach here: the test's certbot makes a self-signed certificate
    "python3-certbot-nginx": None,
    "curl": None,  # fetches uv, which fetches Python 3.13: the test's own Python stands for it
    "python3-venv": None,  # Ubuntu's: Python's venv module, in the test's Python
}


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Phone:
    """A browser reaching the site at ``host`` through the machine's nginx, keeping its cookies as a
    browser does (a ``Secure`` one only over https)."""

    def __init__(self, machine: Machine, *, scheme: str = "https", host: str = HOST):
        self.scheme, self.host = scheme, host
        self.port = machine.https if scheme == "https" else machine.http
        self.cookies = http.cookiejar.CookieJar()
        handlers = [urllib.request.HTTPCookieProcessor(self.cookies), NoRedirects()]
        if scheme == "https":
            context = ssl.create_default_context(cafile=machine.place(f"/etc/letsencrypt/live/{HOST}/fullchain.pem"))
            context.check_hostname = False  # the certificate is the site's name's; the test connects to 127.0.0.1
            handlers.append(urllib.request.HTTPSHandler(context=context))
        self.opener = urllib.request.build_opener(*handlers)

    def open(self, path: str, data: dict | None = None) -> tuple[int, dict, str]:
        origin = f"{self.scheme}://{self.host}"
        request = urllib.request.Request(
            f"{self.scheme}://127.0.0.1:{self.port}{path}",
            data=urllib.parse.urlencode(data).encode() if data is not None else None,
            headers={"Host": self.host, "Origin": origin, "Referer": origin + path, "Accept-Language": "en"},
        )
        try:
            with self.opener.open(request, timeout=60) as answer:
                return answer.status, dict(answer.headers), answer.read().decode()
        except urllib.error.HTTPError as answer:
            return answer.code, dict(answer.headers), answer.read().decode(errors="replace")

    def post(self, path: str, data: dict) -> tuple[int, dict, str]:
        """The form at ``path`` sent, with the CSRF token its page gave."""
        self.open(path)
        token = next(c.value for c in self.cookies if c.name == "csrftoken")
        return self.open(path, data | {"csrfmiddlewaretoken": token})

    def cookie(self, name: str) -> http.cookiejar.Cookie:
        return next(c for c in self.cookies if c.name == name)


def wait_for(check, what: str, timeout: float = 120) -> None:
    deadline, last = time.monotonic() + timeout, None
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except OSError as error:
            last = error
        time.sleep(0.5)
    raise AssertionError(f"{what} within {timeout} s ({last})")


def gunicorn_answers(machine: Machine) -> bool:
    request = urllib.request.Request(
        f"http://127.0.0.1:{machine.upstream}/accounts/login/", headers={"Host": HOST, "X-Forwarded-Proto": "https"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.status == 200


def service_log(machine: Machine) -> str:
    log = machine.state / "scorebook.service.log"
    return log.read_text(errors="replace") if log.exists() else ""


@pytest.fixture
def machine():
    if os.geteuid() != 0:
        pytest.skip("the guide is followed as root, as it says (useradd, runuser, its services)")
    for program in ("runuser", "useradd", "psql", "openssl", "git"):
        if shutil.which(program) is None:
            pytest.fail(f"{program} is needed to follow docs/operating.md here")
    made = Machine()
    try:
        yield made
    finally:
        made.clean()


# --- what the page tells the operator to do between its commands --------------------------------------


def prerequisites(guide: list[Block], machine: Machine) -> None:
    """Each distribution's block names git, gettext, nginx, PostgreSQL, certbot and sets ``$PYTHON``;
    on this machine (Debian 12) their programs are there, and the test's Python stands for uv's."""
    distributions = {b.tags[0]: b for b in guide if b.language == "sh" and b.tags and b.tags[0] != "example"}
    assert set(distributions) == {"debian-12", "ubuntu-24.04"}
    for block in distributions.values():
        packages = next(line for line in block.text.splitlines() if line.startswith("apt install ")).split()[2:]
        assert {"git", "gettext", "nginx", "postgresql", "certbot"} <= set(packages), block.tags
        assert re.search(r"^PYTHON=", block.text, re.M), block.tags
        for package in packages:
            assert package in PROGRAMS, f"{package}: say which program of it the steps use"
            if PROGRAMS[package]:
                assert shutil.which(PROGRAMS[package]) or Path(f"/usr/sbin/{PROGRAMS[package]}").exists(), package
    machine.set_python()


def first_admin(machine: Machine, output: str) -> Phone:
    """The link create_account printed, opened over TLS: Marie chooses her password and makes her club."""
    link = re.search(rf"https://{re.escape(HOST)}(/accounts/password/[\w-]+/)", output)
    assert link, output
    marie = Phone(machine)
    status, _headers, page = marie.open(link.group(1))
    assert status == 200 and "Marie D." in page, status
    status, headers, _page = marie.post(link.group(1), {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert status == 302 and headers["Location"] == "/evenings/", status
    status, headers, _page = marie.post("/clubs/new/", {"name": "De Troef", "slug": "de-troef"})
    assert status == 302 and headers["Location"] == "/c/de-troef/", (status, headers)
    assert "De Troef" in marie.open("/c/de-troef/")[2]
    # SIGNUP=invitation: nobody makes an account without a club's link
    stranger = Phone(machine)
    refused = stranger.post("/accounts/signup/", {"username": "intruder", "password1": PASSWORD, "password2": PASSWORD})
    assert refused[0] == 403 and "invitation link" in refused[2]
    return marie


def the_timer_fires(machine: Machine) -> None:
    """The timer the page enables, fired: its service runs as its user and writes tonight's copy."""
    assert (machine.state / "scorebook-backup.timer.enabled").exists()
    done = machine.systemctl("start", "scorebook-backup")
    assert done.returncode == 0, (machine.state / "scorebook-backup.service.log").read_text()
    copies = list(machine.place("/var/backups/scorebook").glob("scorebook-*.dump"))
    assert len(copies) == 1 and copies[0].stat().st_size > 0, copies
    assert copies[0].stat().st_uid == pwd.getpwnam("postgres").pw_uid


def the_drill_counts_the_same(output: str) -> None:
    counts = [line for line in output.splitlines() if re.fullmatch(r"\d+\|\d+\|\d+", line)]
    assert len(counts) == 2 and counts[0] == counts[1] and counts[0].endswith("|1"), output


def the_club_is_served(machine: Machine, marie: Phone) -> None:
    wait_for(lambda: gunicorn_answers(machine), "gunicorn answers again")
    status, _headers, page = marie.open("/c/de-troef/")
    assert status == 200 and "De Troef" in page, status


def served_over_tls(machine: Machine) -> None:
    status, headers, _page = Phone(machine).open("/accounts/login/")
    assert status == 200 and "max-age=31536000" in headers.get("Strict-Transport-Security", "")
    status, headers, _page = Phone(machine, scheme="http").open("/t/a-card/")
    assert status == 301 and headers["Location"] == f"https://{HOST}/t/a-card/"


def on_the_lan(machine: Machine, guide: str) -> None:
    """The LAN section's three changes, made as it says them."""
    lines = re.search(r"^ *```ini plain-http\n(.*?)^ *```", guide, re.M | re.S).group(1).split()
    settings = machine.place("/etc/scorebook.env")
    kept = [
        line
        for line in settings.read_text().splitlines()
        if line.split("=", 1)[0] not in {x.split("=")[0] for x in lines}
    ]
    settings.write_text("\n".join(kept + lines) + "\n")
    assert "the first server (the redirect to https) goes" in guide
    assert "`listen 443 ssl;` becomes `listen 80;` and the two `ssl_certificate` lines go" in guide
    site = machine.place("/etc/nginx/sites-available/scorebook")
    text = site.read_text()
    text = text[text.index("server {", text.index("return 301")) :]
    text = text.replace(machine.translate("listen 443 ssl;"), machine.translate("listen 80;"))
    site.write_text(re.sub(r"^\s*ssl_certificate\S* .*\n", "", text, flags=re.M))
    step = re.search(r"^3\. `(systemctl [^`]+)`", guide, re.M).group(1)
    machine.run(Block("sh", (), step + "\n", 0))
    wait_for(lambda: gunicorn_answers_on_the_lan(machine), "gunicorn answers on the LAN")
    phone = Phone(machine, scheme="http", host=LAN)
    status, headers, _page = phone.post("/accounts/login/", {"username": "marie", "password": PASSWORD})
    assert status == 302 and headers["Location"] == "/evenings/", status
    assert not phone.cookie("sessionid").secure
    assert phone.open("/c/de-troef/")[0] == 200  # logged in: the cookie came back over http
    assert "PLAIN_HTTP is on" in service_log(machine)


def gunicorn_answers_on_the_lan(machine: Machine) -> bool:
    request = urllib.request.Request(f"http://127.0.0.1:{machine.upstream}/accounts/login/", headers={"Host": LAN})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.status == 200


def no_log_holds_a_token(machine: Machine, tokens: list[str]) -> None:
    logs = [*machine.place("/var/log/nginx").glob("*.log"), *machine.state.glob("*.log")]
    assert '"GET /accounts/password/…/ HTTP/1.0" 200' in service_log(machine)  # gunicorn's access log
    for log in logs:
        text = log.read_text(errors="replace")
        for token in tokens:
            assert token not in text, f"{log.name}: " + next(line for line in text.splitlines() if token in line)


# --- the page, followed ----------------------------------------------------------------------------------


def test_the_operating_guide_works_from_top_to_bottom(machine):
    guide = blocks()
    prerequisites(guide, machine)
    marie, tokens, steps = None, [], []
    for block in guide:
        if not block.runs:
            continue
        output = machine.run(block)
        text = block.text
        if "scorebook-manage check --deploy" in text:
            assert "System check identified no issues" in output, output
            steps.append("checked")
        if "systemctl enable --now scorebook\n" in text:
            wait_for(lambda: gunicorn_answers(machine), "gunicorn answers from its service")
            steps.append("gunicorn")
        if "nginx -t" in text:
            served_over_tls(machine)
            steps.append("tls")
        if "create_account" in text:
            tokens.append(re.search(r"/accounts/password/([\w-]+)/", output).group(1))
            marie = first_admin(machine, output)
            steps.append("first admin")
        if "scorebook-backup.timer" in text:
            the_timer_fires(machine)
            steps.append("backup")
        if "scorebook_check" in text:
            the_drill_counts_the_same(output)
            steps.append("drill")
        if "systemctl stop scorebook" in text:
            the_club_is_served(machine, marie)
            steps.append("restore")
        if "git pull" in text:
            the_club_is_served(machine, marie)
            steps.append("upgrade")
    assert steps == [
        "checked",
        "gunicorn",
        "tls",
        "first admin",
        "backup",
        "drill",
        "restore",
        "checked",
        "upgrade",
    ], steps
    no_log_holds_a_token(machine, tokens)
    on_the_lan(machine, GUIDE.read_text())


def test_a_step_that_fails_stops_the_guide_there_and_names_it(machine):
    """Run before the site is installed, ``scorebook-manage migrate`` fails: the block stops at it, and
    says which block and which command (the first version of the page migrated before its database
    existed)."""
    machine.set_python()
    block = Block("sh", (), "true\nscorebook-manage migrate\ntouch never-reached\n", 7)
    with pytest.raises(AssertionError, match=r"the block at line 7 stops[\s\S]*failed: scorebook-manage migrate"):
        machine.run(block)
    assert not (machine.folder / "never-reached").exists()
