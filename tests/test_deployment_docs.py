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
    critical lines only (tests/test_no_token_in_logs.py runs the block and reads the logs)."""
    block = next(b for b in DEPLOYMENT.split("```") if b.strip().startswith("server {"))
    assert re.search(r"^\s*access_log off;", block, re.M)
    assert re.search(r"^\s*error_log \S+ crit;", block, re.M)
    assert "No token in a log" in DEPLOYMENT
