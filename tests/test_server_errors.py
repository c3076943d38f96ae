"""A server error's traceback goes somewhere with DEBUG=false (issue 13, finding 18): to standard
error, and by mail to ADMINS, which come from the environment."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core import mail
from django.urls import path

ROOT = Path(__file__).resolve().parent.parent


def broken(request):
    raise RuntimeError("the card table collapsed")


urlpatterns = [path("broken/", broken)]


@pytest.mark.django_db
@pytest.mark.urls("test_server_errors")
def test_it_mails_the_traceback_of_a_server_error_to_the_admins(client, settings):
    settings.DEBUG = False
    settings.ADMINS = ["ops@example.org"]
    client.raise_request_exception = False
    assert client.get("/broken/").status_code == 500
    assert [m.to for m in mail.outbox] == [["ops@example.org"]]
    assert "the card table collapsed" in mail.outbox[0].body and "Traceback" in mail.outbox[0].body


@pytest.mark.slow
def test_it_writes_the_traceback_of_a_server_error_to_standard_error():
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"} | {
        "DJANGO_SETTINGS_MODULE": "scorebook.settings",
        "DEBUG": "false",
        "SECRET_KEY": "x" * 60,
        "ALLOWED_HOSTS": "testserver",
        "SIGNUP": "invitation",
        "PYTHONPATH": str(ROOT / "tests"),
        "STATICFILES_BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage",  # no collectstatic here
    }
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "settings.ROOT_URLCONF = 'test_server_errors'; from django.test import Client; "
        "c = Client(raise_request_exception=False); print(c.get('/broken/', secure=True).status_code)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, env=env)
    assert done.stdout.strip() == "500", done.stderr
    assert "Traceback" in done.stderr and "the card table collapsed" in done.stderr


@pytest.mark.slow
def test_it_reads_the_admins_from_the_environment_and_refuses_a_bad_one():
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"} | {
        "DJANGO_SETTINGS_MODULE": "scorebook.settings"
    }
    code = "import django; django.setup(); from django.conf import settings; print(settings.ADMINS)"
    good = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env | {"ADMINS": "ops@example.org, boss@example.org"},
    )
    assert good.stdout.strip() == "['ops@example.org', 'boss@example.org']", good.stderr
    bad = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, env=env | {"ADMINS": "nobody"}
    )
    assert bad.returncode != 0 and "ADMINS" in bad.stderr
