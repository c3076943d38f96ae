"""The deployment as docs/operating.md writes it, read from that page itself: the files its commands
write (``cat > PATH <<'EOF' ... EOF``), among them gunicorn's systemd service with its command line
and the site's nginx block (the one copy of each in the repository). The benchmark (bench/run.py),
the slow-clients and no-token-in-logs tests and the deployed site of the browser tests
(tests/deployed_site.py) run exactly these, on 127.0.0.1; tests/test_operating_guide.py follows the
whole page."""

from __future__ import annotations

import os
import re
import shlex
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
CHECKOUT = "/srv/scorebook"  # where the guide installs the site (its commands name it)
SERVICE = "/etc/systemd/system/scorebook.service"
NGINX_SITE = "/etc/nginx/sites-available/scorebook"

PAGE = ROOT / "docs" / "operating.md"
_WRITTEN = re.compile(r"^cat > (\S+) <<'?EOF'?\n(.*?)^EOF$", re.M | re.S)


def text() -> str:
    """The operating guide, where the deployment is written."""
    return PAGE.read_text()


def files() -> dict[str, str]:
    """The files the guide's commands write: {path: content as written}."""
    return dict(_WRITTEN.findall(text()))


def server_blocks(config: str) -> list[str]:
    """The ``server { ... }`` blocks of an nginx configuration, each whole."""
    blocks = []
    for start in (m.start() for m in re.finditer(r"^server \{", config, re.M)):
        depth = 0
        for end in range(start, len(config)):
            depth += {"{": 1, "}": -1}.get(config[end], 0)
            if config[end] == "}" and depth == 0:
                blocks.append(config[start : end + 1])
                break
    return blocks


def nginx_block() -> str:
    """The guide's nginx server block that serves the site (over TLS, in front of gunicorn), as written."""
    return next(b for b in server_blocks(files()[NGINX_SITE]) if "proxy_pass" in b)


def gunicorn_line() -> list[str]:
    """The guide's gunicorn command (its systemd service's ``ExecStart``), as written, its program
    named from the checkout it runs in (``.venv/bin/gunicorn``)."""
    line = next(line for line in files()[SERVICE].splitlines() if line.startswith("ExecStart="))
    args = shlex.split(line.removeprefix("ExecStart="))
    args[0] = os.path.relpath(args[0], CHECKOUT)
    return args


def gunicorn_command(port: int, gunicorn: str | Path) -> list[str]:
    """The guide's gunicorn command with ``gunicorn`` as its program, bound to 127.0.0.1:``port``."""
    args = gunicorn_line()
    args[0] = str(gunicorn)
    return [f"127.0.0.1:{port}" if re.fullmatch(r"127\.0\.0\.1:\d+", a) else a for a in args]


def nginx_config(port: int, upstream: int, folder: Path, *, connections: int = 4096, backlog: int | None = None) -> str:
    """The guide's nginx server block listening on 127.0.0.1:``port`` without TLS (its certificate
    lines left out), proxying to ``upstream``, in a configuration of its own (temporary files, logs
    and pid in ``folder``: the block's error log too, at the level it names)."""
    block = nginx_block()
    listen = f"127.0.0.1:{port}" + (f" backlog={backlog}" if backlog else "")
    block = block.replace("listen 443 ssl;", f"listen {listen};")
    block = re.sub(r"^\s*ssl_certificate\S* \S+;\n", "", block, flags=re.M)
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
