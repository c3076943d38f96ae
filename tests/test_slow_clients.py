"""Finding 8 of the hardening issue: two clients trickling their headers stalled the site for up
to 30 s (gunicorn's sync workers, each held by one of them). The operating guide (docs/operating.md)
deploys gunicorn's sync workers behind a buffering nginx and says that the proxy, not gunicorn, is
what keeps slow clients away from the workers. This runs both as the guide writes them (its nginx server block, on a
local port without TLS, in front of its gunicorn command), lets two slow clients loose on the
proxy, and a third client must still be answered at once. (Straight to the same gunicorn, the
third request would wait for a slow client's timeout: that is why the guide binds gunicorn to
127.0.0.1.)"""

import os
import secrets
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from bench import deployment

pytestmark = pytest.mark.slow  # a real server / a process per test

ROOT = Path(__file__).resolve().parent.parent
DEPLOYMENT = deployment.text()  # docs/operating.md


def deployed_gunicorn(port: int) -> list[str]:
    return deployment.gunicorn_command(port, Path(sys.executable).parent / "gunicorn")


def deployed_nginx(port: int, upstream: int, folder: Path) -> str:
    return deployment.nginx_config(port, upstream, folder, connections=64)


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


def wait_for(url: str) -> None:
    for _ in range(100):
        try:
            urllib.request.urlopen(url, timeout=1)
            return
        except OSError:
            time.sleep(0.1)


@pytest.fixture
def site(tmp_path):
    """The guide's nginx in front of the guide's gunicorn: the proxy's port."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        pytest.fail("nginx is needed for this test: make nginx (Debian's package)")
    port, upstream = free_port(), free_port()
    env = os.environ | {
        "DJANGO_SETTINGS_MODULE": "scorebook.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SIGNUP": "invitation",
        "SECURE_SSL_REDIRECT": "false",
        "STATICFILES_BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage",  # no collectstatic here
    }
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    (tmp_path / "nginx.conf").write_text(deployed_nginx(port, upstream, tmp_path))
    gunicorn = subprocess.Popen(deployed_gunicorn(upstream), cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
    proxy = subprocess.Popen([nginx, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")], stderr=subprocess.PIPE)
    try:
        wait_for(f"http://127.0.0.1:{upstream}/manifest.webmanifest")
        wait_for(f"http://127.0.0.1:{port}/manifest.webmanifest")
        assert proxy.poll() is None, proxy.stderr.read().decode()
        yield port
    finally:
        for process in (proxy, gunicorn):
            process.terminate()
            process.wait(timeout=10)


def test_the_guide_runs_sync_workers_bound_to_the_loopback_behind_the_proxy():
    args = deployed_gunicorn(8000)
    assert "--worker-class" not in args and "--threads" not in args  # sync workers: the proxy guards them
    assert "127.0.0.1:8000" in args and "proxy_pass http://127.0.0.1:8000;" in DEPLOYMENT
    assert "without the proxy, a slow client holds a worker" in DEPLOYMENT


def test_it_answers_a_client_at_once_while_two_others_trickle_their_headers_to_the_proxy(site):
    stop = threading.Event()
    slow = [threading.Thread(target=trickle, args=(site, stop), daemon=True) for _ in range(2)]
    for thread in slow:
        thread.start()
    try:
        time.sleep(1.5)  # both slow clients hold their connection
        started = time.monotonic()
        with urllib.request.urlopen(f"http://127.0.0.1:{site}/", timeout=10) as answer:
            assert answer.status == 200
        assert time.monotonic() - started < 2
    finally:
        stop.set()
