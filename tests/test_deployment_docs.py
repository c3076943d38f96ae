"""The operating guide's deployment (docs/operating.md; issue 13, finding 8 and the operator's side of
2, 17, 18): a buffering proxy in front of gunicorn with a body cap, the trusted client address,
logging and ADMINS, no-store pages, backups written 0600 — and the settings it names exist."""

import re

from django.conf import settings

from bench import deployment

DEPLOYMENT = deployment.text()


def test_it_puts_a_buffering_proxy_in_front_of_gunicorn_and_says_why():
    assert "buffering reverse proxy" in DEPLOYMENT and "not only for TLS" in DEPLOYMENT
    for directive in (
        "proxy_request_buffering on",
        "proxy_buffering on",
        "client_body_timeout",
        "client_header_timeout",
    ):
        assert directive in DEPLOYMENT, directive
    assert "--bind 127.0.0.1:8000" in DEPLOYMENT  # nothing reaches gunicorn around the proxy


def test_it_caps_the_request_size_at_the_proxy_as_the_site_does():
    cap = re.search(r"client_max_body_size (\d+)m;", DEPLOYMENT)
    assert cap and int(cap.group(1)) * 1024 * 1024 == settings.REQUEST_MAX_BYTES


def test_it_explains_the_trusted_client_address():
    assert "TRUSTED_PROXY_COUNT=1" in DEPLOYMENT and "X-Forwarded-For" in DEPLOYMENT
    assert "$proxy_add_x_forwarded_for" in DEPLOYMENT
    assert hasattr(settings, "TRUSTED_PROXY_COUNT")


def test_it_covers_logging_admins_no_store_and_private_backups():
    assert "standard error" in DEPLOYMENT and "ADMINS=" in DEPLOYMENT and "LOG_LEVEL" in DEPLOYMENT
    assert "Cache-Control: no-store" in DEPLOYMENT
    assert "0600" in DEPLOYMENT and "--with-secrets" in DEPLOYMENT and "--account" in DEPLOYMENT


def test_postgresql_keeps_its_connections_by_default_and_checks_them_before_reuse():
    """The guide: persistent connections (a minute, health-checked) are the deployment's default on
    PostgreSQL; DB_CONN_MAX_AGE sets them, through a helper that refuses a value it cannot read."""
    import os
    import subprocess
    import sys

    def settings_with(**env):
        code = "from scorebook import settings as s; d = s.DATABASES['default']; "
        code += "print(d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS'])"
        environment = {k: v for k, v in os.environ.items() if k != "DB_CONN_MAX_AGE"} | env
        return subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True)

    postgres = "postgres://scorebook:secret@127.0.0.1:5432/scorebook"
    assert settings_with(DATABASE_URL=postgres).stdout.split() == ["60", "True"]
    assert settings_with(DATABASE_URL=postgres, DB_CONN_MAX_AGE="0").stdout.split() == ["0", "True"]
    refused = settings_with(DATABASE_URL=postgres, DB_CONN_MAX_AGE="a minute")
    assert refused.returncode != 0 and "DB_CONN_MAX_AGE" in refused.stderr
    assert "CONN_MAX_AGE" in DEPLOYMENT and "CONN_HEALTH_CHECKS" in DEPLOYMENT


def test_the_proxy_writes_no_line_that_repeats_an_address():
    """Addresses hold tokens (a table card's): nginx's access log is off and its error log keeps the
    critical lines only, in every server of the site's file (tests/test_no_token_in_logs.py runs the
    block and reads the logs)."""
    for block in deployment.server_blocks(deployment.files()[deployment.NGINX_SITE]):
        assert re.search(r"^\s*access_log off;", block, re.M), block
        assert re.search(r"^\s*error_log \S+ crit;", block, re.M), block
    assert "No token in a log" in DEPLOYMENT


# --- issue 39, item 1: the operator's first hour (tests/test_operating_guide.py follows the page) ---------


def shell_blocks() -> list[tuple[str, str]]:
    """(info string, text) of every shell block of the guide, in order."""
    return [
        (info.strip(), body) for info, body in re.findall(r"^ *```(sh[^\n]*)\n(.*?)^ *```", DEPLOYMENT, re.M | re.S)
    ]


def test_it_lists_the_prerequisites_for_each_distribution_and_names_its_python_once():
    """The page said Python 3.12 or newer, then ran python3.13; gettext was missing (compilemessages
    stops: "Can't find msgfmt")."""
    prerequisites = {
        info.split()[1]: body for info, body in shell_blocks() if len(info.split()) > 1 and info.split()[1] != "example"
    }
    assert set(prerequisites) == {"debian-12", "ubuntu-24.04"}
    for body in prerequisites.values():
        installed = next(line for line in body.splitlines() if line.startswith("apt install ")).split()[2:]
        assert {"git", "gettext", "nginx", "postgresql", "certbot"} <= set(installed)
        assert re.search(r"^PYTHON=", body, re.M)
    assert "python3.13" not in DEPLOYMENT and "Python 3.12 or newer" in DEPLOYMENT
    assert "$PYTHON -m venv .venv" in DEPLOYMENT


def test_it_makes_the_database_before_anything_uses_it():
    """The install block ran migrate two sections before the PostgreSQL user and database existed."""
    run = "\n".join(body for info, body in shell_blocks() if info == "sh")
    assert run.index("createuser scorebook") < run.index("createdb --owner scorebook") < run.index("manage migrate")
    assert run.index("/etc/scorebook.env <<EOF") < run.index("manage migrate")


def test_its_settings_are_those_check_deploy_finds_nothing_in():
    """The documented settings, exactly (the file the guide writes), pass check --deploy at the level
    that fails on a warning; the guide sets SIGNUP=invitation, the production setting."""
    import os
    import subprocess
    import sys

    written = deployment.files()["/etc/scorebook.env"]
    env = dict(line.split("=", 1) for line in written.splitlines() if "=" in line and not line.startswith("#"))
    env["SECRET_KEY"] = "k3y-for-this-check-only-" + "x7Qp2Lm9Zt4Rw8Vb1Nc6Hd0Jf5Gs3Ka" * 2
    assert env["SIGNUP"] == "invitation" and env["DEBUG"] == "false"
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")}
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=deployment.ROOT,
        env=keep | env | {"DJANGO_SETTINGS_MODULE": "scorebook.settings"},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and "no issues" in done.stdout, done.stderr + done.stdout
    lan = env | dict(line.split("=", 1) for line in plain_http_lines())
    warned = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=deployment.ROOT,
        env=keep | lan | {"DJANGO_SETTINGS_MODULE": "scorebook.settings"},
        capture_output=True,
        text=True,
    )
    for warning in ("scorebook.W001", "security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in warned.stderr + warned.stdout, warning
    assert "PLAIN_HTTP is on" in warned.stderr  # and the log, when the site starts


def plain_http_lines() -> list[str]:
    block = re.search(r"^ *```ini plain-http\n(.*?)^ *```", DEPLOYMENT, re.M | re.S).group(1)
    return [line.strip() for line in block.splitlines() if line.strip()]


def test_its_lan_section_says_exactly_what_changes_and_what_it_costs():
    assert plain_http_lines()[0] == "PLAIN_HTTP=true"
    assert "`listen 443 ssl;` becomes `listen 80;`" in DEPLOYMENT
    for cost in ("Secure", "everyone on that", "passwords", "session cookies", "service workers"):
        assert cost in DEPLOYMENT, cost


def test_the_systemd_service_runs_from_the_checkout_as_the_sites_user():
    """The example's paths and user did not match the install."""
    service = deployment.files()[deployment.SERVICE]
    assert "User=scorebook" in service and "WorkingDirectory=/srv/scorebook" in service
    assert "EnvironmentFile=/etc/scorebook.env" in service
    assert "useradd --system --home-dir /srv/scorebook" in DEPLOYMENT and "git clone REPOSITORY ." in DEPLOYMENT
    backup = deployment.files()["/etc/systemd/system/scorebook-backup.service"]
    assert "User=postgres" in backup and "pg_dump" in backup  # never root: role "root" does not exist
    assert "OnCalendar=" in deployment.files()["/etc/systemd/system/scorebook-backup.timer"]
