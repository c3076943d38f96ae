"""The deployment as docs/operating.md writes it, read from that page itself: its gunicorn command
line and its nginx server block (the one copy of each in the repository). The benchmark
(bench/run.py), the slow-clients and no-token-in-logs tests and the deployed site of the browser
tests (tests/deployed_site.py) all run exactly these, on 127.0.0.1."""

from __future__ import annotations

import os
import re
import shlex
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


PAGE = ROOT / "docs" / "operating.md"


def text() -> str:
    """The operating guide, where the deployment is written."""
    return PAGE.read_text()


def nginx_block() -> str:
    """The guide's nginx server block, as written."""
    return next(b for b in text().split("```") if b.strip().startswith("server {"))


def gunicorn_line() -> list[str]:
    """The guide's gunicorn command (its installation), as written."""
    return shlex.split(next(line for line in text().splitlines() if line.startswith(".venv/bin/gunicorn ")))


def gunicorn_command(port: int, gunicorn: str | Path) -> list[str]:
    """The guide's gunicorn command with ``gunicorn`` as its program, bound to 127.0.0.1:``port``."""
    args = gunicorn_line()
    args[0] = str(gunicorn)
    return [f"127.0.0.1:{port}" if re.fullmatch(r"127\.0\.0\.1:\d+", a) else a for a in args]


def nginx_config(port: int, upstream: int, folder: Path, *, connections: int = 4096, backlog: int | None = None) -> str:
    """The guide's nginx server block listening on 127.0.0.1:``port`` without TLS, proxying to
    ``upstream``, in a configuration of its own (temporary files, logs and pid in ``folder``: the
    block's error log too, at the level it names)."""
    block = nginx_block()
    listen = f"127.0.0.1:{port}" + (f" backlog={backlog}" if backlog else "")
    block = block.replace("listen 443 ssl;", f"listen {listen};")
    block = block.replace("proxy_pass http://127.0.0.1:8000;", f"proxy_pass http://127.0.0.1:{upstream};")
    block = re.sub(r"error_log \S+", f"error_log {folder / 'error.log'}", block)  # its level as written
    kinds = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    temp = " ".join(f"{kind}_temp_path {folder / kind};" for kind in kinds)
    user = "user root;" if os.geteuid() == 0 else ""  # its workers write the temporary folder made here
    return f"""{user} worker_processes 1; daemon off; pid {folder / "nginx.pid"}; error_log {folder / "error.log"};
events {{ worker_connections {connections}; }}
http {{ access_log off; {temp}
{block}
}}"""
