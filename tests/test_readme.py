"""The README's two commands, tried from a fresh clone as a newcomer would."""

import os
import shutil
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_it_starts_the_readme_with_exactly_the_two_commands_in_a_code_block():
    """A code block, one command a line (as a plain paragraph they were shown "make run make test")."""
    lines = [line for line in (ROOT / "README.md").read_text().splitlines() if line.strip()]
    assert lines[:4] == ["```sh", "make run", "make test", "```"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_it_serves_the_site_with_make_run_from_a_fresh_clone(tmp_path):
    """Clone what is committed, run `make run` there, and fetch the home page and the demo."""
    clone = tmp_path / "scorebook"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO", "DATABASE_URL", "VIRTUAL_ENV"))}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    log = (tmp_path / "run.log").open("w")
    server = subprocess.Popen(
        ["make", "run", f"PORT={port}"],
        cwd=clone,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        body = None
        deadline = time.monotonic() + 480  # a fresh virtual environment installs everything first
        while time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                    body = response.read().decode()
                    break
            except OSError:
                time.sleep(2)
        assert body is not None, (tmp_path / "run.log").read_text()[-3000:]
        assert "Scorebook" in body
        assert (clone / "db.sqlite3").exists()
        # the demo is there for a newcomer: the login page answers and the demo evenings exist
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=5) as response:
            assert response.status == 200
        count = subprocess.run(
            [
                ".venv/bin/python",
                "manage.py",
                "shell",
                "-c",
                "from scorebook.evenings.models import Evening; print(Evening.objects.count())",
            ],
            cwd=clone,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        assert int(count.stdout.strip().splitlines()[-1]) > 0
    finally:
        os.killpg(server.pid, 15)
        server.wait(timeout=30)
