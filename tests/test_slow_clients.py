"""Finding 8 of the hardening issue: two clients trickling their headers stalled the site for up
to 30 s (gunicorn's two sync workers, each held by one of them). The README's gunicorn command
is run here as written, two slow clients are let loose on it, and a third client must still be
answered at once. (With the command the README had before, `--workers 2` alone, this test fails:
the third request waits for a slow client's timeout.)"""

import os
import re
import secrets
import shlex
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a real server / a process per test

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def readme_gunicorn(port: int) -> list[str]:
    line = next(line for line in README.splitlines() if line.startswith(".venv/bin/gunicorn "))
    args = shlex.split(line)
    args[0] = str(Path(sys.executable).parent / "gunicorn")
    return [f"127.0.0.1:{port}" if re.fullmatch(r"127\.0\.0\.1:\d+", a) else a for a in args]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def trickle(port: int, stop: threading.Event) -> None:
    """A client that sends its request line, then one header byte a second."""
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        while not stop.wait(1):
            try:
                s.sendall(b"X")
            except OSError:
                return


@pytest.fixture
def server(tmp_path):
    port = free_port()
    env = os.environ | {
        "DJANGO_SETTINGS_MODULE": "scorebook.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "STATICFILES_BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage",  # no collectstatic here
    }
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    process = subprocess.Popen(readme_gunicorn(port), cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/manifest.webmanifest", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_it_answers_a_client_at_once_while_two_others_trickle_their_headers(server):
    stop = threading.Event()
    slow = [threading.Thread(target=trickle, args=(server, stop), daemon=True) for _ in range(2)]
    for thread in slow:
        thread.start()
    try:
        time.sleep(1.5)  # both slow clients hold their connection
        started = time.monotonic()
        with urllib.request.urlopen(f"http://127.0.0.1:{server}/", timeout=10) as answer:
            assert answer.status == 200
        assert time.monotonic() - started < 2
    finally:
        stop.set()
