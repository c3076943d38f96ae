"""Issue 32, item 2: no token in any log of the deployment (docs/operating.md). A probe with gunicorn down found
nginx's error log holding a scanned card's address ("connect() failed ... request: "GET /t/<token>/"").
This runs the guide's own nginx block (bench/deployment.py) with nothing behind it, sends every kind of
address that holds a token (a table card, a read-only evening, a night's ranking, an invitation,
a password reset; in the address and in the Referer, as a page's own requests send it; a body too
large for the proxy), then the guide's gunicorn command behind it, and reads every log: nginx's
(the block's error log; its access log is off), gunicorn's standard error, with Django's lines in it."""

import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from bench import deployment

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "Zq7d-Kard_t0ken9VbXQeLrWm3sPfYu2nHc"  # as the site makes them: url-safe, 32+ characters (fixed: xdist)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


ADDRESSES = [f"/t/{TOKEN}/", f"/s/{TOKEN}/", f"/r/{TOKEN}/", f"/join/{TOKEN}/", f"/reset/MQ/{TOKEN}/"]


def visit(port: int) -> list[int]:
    """Every token address, plain, from a page of a token address (Referer), and with a large body."""
    statuses = []
    for address in ADDRESSES:
        for headers, data in (
            ({}, None),
            ({"Referer": f"http://127.0.0.1:{port}{address}"}, None),
            ({}, b"x" * (4 * 1024 * 1024)),  # over client_max_body_size: nginx refuses it (413)
        ):
            target = "/static/css/site.css" if "Referer" in headers else address
            request = urllib.request.Request(f"http://127.0.0.1:{port}{target}", data=data, headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=10) as answer:
                    statuses.append(answer.status)
            except urllib.error.HTTPError as error:
                statuses.append(error.code)
            except OSError:  # nginx may close the connection of an oversized body while it is sent
                statuses.append(0)
    return statuses


@pytest.mark.slow  # nginx and gunicorn processes
def test_no_log_of_the_deployment_holds_a_token(tmp_path):
    port, upstream = free_port(), free_port()
    (tmp_path / "nginx.conf").write_text(deployment.nginx_config(port, upstream, tmp_path, connections=64))
    proxy = subprocess.Popen([deployment.NGINX, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")])
    gunicorn = None
    try:
        for _ in range(50):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        down = visit(port)  # gunicorn stopped: nginx answers itself, and writes its errors
        assert 502 in down and 413 in down, down

        env = os.environ | {
            "DJANGO_SETTINGS_MODULE": "scorebook.settings",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}",
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "false",
            "STATICFILES_BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage",
        }
        subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
        with open(tmp_path / "gunicorn.log", "wb") as log:
            gunicorn = subprocess.Popen(
                deployment.gunicorn_command(upstream, Path(sys.executable).parent / "gunicorn"),
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=log,
            )
            for _ in range(100):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{upstream}/manifest.webmanifest", timeout=1)
                    break
                except OSError:
                    time.sleep(0.1)
            up = visit(port)  # the site answers: 404 for the unknown tokens, logged by Django
            assert 404 in up, up
    finally:
        for process in (proxy, gunicorn):
            if process is not None:
                process.terminate()
                process.wait(timeout=10)
    nginx_logs = [p for p in tmp_path.rglob("*.log") if p.name != "gunicorn.log"]
    assert nginx_logs
    gunicorn_log = (tmp_path / "gunicorn.log").read_text()
    assert "Not Found: /t/" in gunicorn_log  # Django's request log is in gunicorn's, with the token hidden
    for log in [*nginx_logs, tmp_path / "gunicorn.log"]:
        text = log.read_text()
        assert TOKEN not in text, f"{log.name}: " + next(line for line in text.splitlines() if TOKEN in line)


@pytest.mark.parametrize("address", ADDRESSES)
def test_gunicorns_own_lines_hide_the_token(tmp_path, address):
    """gunicorn writes the address of a request it could not finish ("Error handling request GET
    /t/<token>/" after a worker's timeout): the checkout's gunicorn.conf.py, which gunicorn reads by
    default where the guide starts it, gives its logs the site's filter."""
    import importlib.util

    from gunicorn.config import Config

    spec = importlib.util.spec_from_file_location("gunicorn_conf", ROOT / "gunicorn.conf.py")
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    cfg = Config()
    assert cfg.settings["config"].default == "./gunicorn.conf.py"  # read from the checkout it runs in
    cfg.set("logger_class", conf.logger_class)
    cfg.set("errorlog", str(tmp_path / "error.log"))
    log = cfg.logger_class(cfg)
    log.error("Error handling request %s %s", "GET", address)
    log.error(f"Error handling request GET {address}")
    written = (tmp_path / "error.log").read_text()
    assert "Error handling request GET /" in written and TOKEN not in written, written
