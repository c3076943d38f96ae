"""The README's deployment section (issue 13, finding 8 and the operator's side of 2, 17, 18):
a buffering proxy in front of gunicorn with a body cap, the trusted client address, logging and
ADMINS, no-store pages, backups written 0600 — and the settings it names exist."""

import re
from pathlib import Path

from django.conf import settings

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()
DEPLOYMENT = README[README.index("## Running it for a club") :]


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
