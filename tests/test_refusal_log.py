"""Issue 32, item 7: a refused request (403) writes one line to the log (who, what, why), not the
exception's traceback; the line goes through the same handlers as every other (no token in it)."""

import io
import logging

import pytest
from django.urls import reverse

from club_fixtures import *  # noqa: F403

pytestmark = pytest.mark.django_db


@pytest.fixture
def log():
    """What the site's own stderr handler writes (settings.LOGGING), while the test runs."""
    handler = next(h for h in logging.getLogger("django").handlers if h.name == "stderr")
    written = io.StringIO()
    before = handler.setStream(written)
    yield written
    handler.setStream(before)


def test_it_logs_a_refusal_in_one_line_saying_who_what_and_why(client, cast, log):
    client.force_login(cast["member"])
    assert client.post(reverse("club_settings", args=["de-troef"]), {"name": "X", "slug": "x"}).status_code == 403
    lines = log.getvalue().splitlines()
    assert len(lines) == 1, lines
    assert "Traceback" not in log.getvalue()
    line = lines[0]
    assert "WARNING" in line and "POST /c/de-troef/settings/" in line and "by mia" in line
    assert "Your role in this club does not allow this" in line
