"""seed_demo on a real site (issue 13, finding 7): it refuses to run with DEBUG=false unless
told so explicitly, and never touches an existing account called demo."""

from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.core.management import CommandError, call_command

from scorebook.evenings.models import Evening

pytestmark = pytest.mark.django_db


def seed(*args):
    call_command("seed_demo", *args, stdout=StringIO())


def test_it_refuses_to_run_with_debug_false(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG is false"):
        seed()
    assert authenticate(username="demo", password="demo-scorebook") is None
    assert not Evening.objects.exists()


@pytest.mark.both_databases
def test_it_runs_with_debug_false_when_told_explicitly(settings):
    settings.DEBUG = False
    seed("--in-production")
    assert authenticate(username="demo", password="demo-scorebook") is not None


def test_it_never_touches_a_real_user_called_demo(settings, make_user):
    settings.DEBUG = True
    dora_demo = make_user("demo")  # a real person's account, with her own password
    with pytest.raises(CommandError, match="exists already"):
        seed()
    dora_demo.refresh_from_db()
    assert authenticate(username="demo", password="demo-scorebook") is None
    assert dora_demo.check_password("a-long-test-password")
    assert not Evening.objects.exists()
