"""Production settings: check --deploy is clean, and the pages carry a strict Content Security Policy."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parent.parent
PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "k3#y-for-the-deploy-check-only-" + "x7Qp2Lm9Zt4Rw8Vb1Nc6Hd0Jf5Gs3Ka" * 2,
    "ALLOWED_HOSTS": "scorebook.example.org",
    "SIGNUP": "invitation",
    "DJANGO_SETTINGS_MODULE": "scorebook.settings",
}


@pytest.mark.slow
def test_it_reports_nothing_in_check_deploy_under_production_settings():
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE")} | PRODUCTION
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "DEBUG"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr + done.stdout
    assert "no issues" in done.stdout


@pytest.mark.slow
def test_it_refuses_to_start_in_production_without_a_secret_key():
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"} | {"DEBUG": "false"}
    env.pop("SECRET_KEY", None)
    done = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode != 0
    assert "SECRET_KEY" in done.stderr


@pytest.mark.django_db
def test_it_sends_a_content_security_policy_without_inline_scripts(client):
    response = client.get(reverse("home"))
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy


def test_it_has_no_inline_script_style_or_handler_in_any_template():
    offenders = []
    for path in (ROOT / "templates").rglob("*.html"):
        text = path.read_text()
        if re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text) or re.search(r"\sstyle=|<style\b", text):
            offenders.append(str(path.relative_to(ROOT)))
        if re.search(r"\son[a-z]+=", text):
            offenders.append(str(path.relative_to(ROOT)))
    assert not offenders
