"""The machine that tests/test_operating_guide.py follows docs/operating.md on: this one, with what the
guide names mapped to places and names of the test's own, so that the guide's commands run as
written without touching the machine's own site, users, databases or services.

- **Places.** Every path the guide names under ``/srv``, ``/etc``, ``/var`` and ``/usr/local`` is a path
  under the test's folder (``/etc/nginx/`` is ``<folder>/etc/nginx/``...), made world-readable, as a
  fresh server's are.
- **Names.** The site's user, its PostgreSQL role and its database (the guide's ``scorebook``) are
  ``sbguide<pid>``: a real user (``useradd``, removed at the end) and a real role and database of the
  local PostgreSQL 15 (dropped at the end), reached by ``peer`` authentication as the guide says.
- **Ports.** nginx's 80 and 443 and gunicorn's 8000 are free ports of 127.0.0.1.
- **Programs.** ``sudo -u USER`` is ``runuser -u USER --`` (no sudo here; the environment is kept, which
  the next point needs); ``systemctl`` starts, stops and reloads the guide's units as processes of the
  test (``systemctl`` below: its ``User``, ``WorkingDirectory``, ``EnvironmentFile`` and ``ExecStart``;
  a timer is recorded, and the test fires its service); ``nginx`` is Debian's, with a main
  configuration like Debian's that includes the folder's ``sites-enabled/``; ``certbot`` makes a
  self-signed certificate where Let's Encrypt's would be.
- **Python.** The guide's Debian 12 step installs a Python 3.13 in ``/opt/python``, readable by the
  site's user; here the test's own interpreter is that Python, its installation linked into the
  folder when the site's user cannot read where it is (a pyenv under ``/root``), found through
  ``LD_LIBRARY_PATH``.
- **The repository** is a bare clone of this checkout's committed state, which ``git clone REPOSITORY``
  and ``git pull`` read (``safe.directory``, in a global configuration of the test's: it belongs to
  root, as a server's remote would not).

``python tests/operating_guide.py systemctl ...`` is the ``systemctl`` the guide's commands call.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "operating.md"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
PLACES = ("/srv/scorebook", "/etc/", "/var/backups/", "/var/log/nginx/", "/usr/local/bin/")


@dataclass(frozen=True)
class Block:
    language: str
    tags: tuple[str, ...]
    text: str
    line: int

    @property
    def runs(self) -> bool:
        """A block of commands the guide has the operator run (a tagged one is a distribution's, or an
        example with placeholders)."""
        return self.language == "sh" and not self.tags


def blocks(text: str | None = None) -> list[Block]:
    """The guide's fenced blocks, in order (a block indented in a list, unindented)."""
    text = GUIDE.read_text() if text is None else text
    found = []
    for m in re.finditer(r"^( *)```(\S+)([^\n]*)\n(.*?)^\1```[ \t]*$", text, re.M | re.S):
        indent = len(m.group(1))
        body = "".join(line[indent:] for line in m.group(4).splitlines(keepends=True))
        found.append(Block(m.group(2), tuple(m.group(3).split()), body, text.count("\n", 0, m.start()) + 1))
    return found


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _readable_by_all(path: Path) -> bool:
    return all(p.stat().st_mode & stat.S_IXOTH for p in path.parents) and bool(path.stat().st_mode & stat.S_IROTH)


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


class Machine:
    """The server the guide is followed on (see the module's text). ``run(block)`` runs a block of the
    guide in bash, as root, where the previous one left off (its folder and ``$PYTHON``; the first in
    the machine's folder, as root's home)."""

    def __init__(self) -> None:
        import tempfile

        self.folder = Path(tempfile.mkdtemp(prefix="sb-guide-"))
        self.folder.chmod(0o755)
        self.name = f"sbguide{os.getpid()}"
        self.http, self.https, self.upstream = free_port(), free_port(), free_port()
        self.state = self.folder / "run"
        for place in ("srv", "etc/nginx/sites-available", "etc/nginx/sites-enabled", "etc/systemd/system"):
            (self.folder / place).mkdir(parents=True)
        for place in ("etc/letsencrypt", "var/backups", "var/log/nginx", "usr/local/bin", "bin", "run", "nginx"):
            (self.folder / place).mkdir(parents=True, exist_ok=True)
        for folder in self.folder.rglob("*"):
            folder.chmod(0o755)
        self.python, self.library = self._python()
        self.repository = self.folder / "scorebook.git"
        subprocess.run(["git", "clone", "--quiet", "--bare", str(ROOT), str(self.repository)], check=True)
        subprocess.run(["chmod", "-R", "a+rX", str(self.repository)], check=True)
        (self.folder / "gitconfig").write_text("[safe]\n\tdirectory = *\n")
        self._write_programs()

    # --- what the guide's text becomes here -------------------------------------------------------------
    def place(self, path: str) -> Path:
        """Where a path the guide names is on this machine."""
        return self.folder / path.lstrip("/") if path.startswith(PLACES) else Path(path)

    def translate(self, text: str) -> str:
        """A block of the guide with its places, names and ports this machine's."""
        for prefix in PLACES:
            text = re.sub(rf"(?<![\w/.-]){re.escape(prefix)}", f"{self.folder}{prefix}", text)
        text = text.replace("REPOSITORY", str(self.repository))
        text = text.replace("listen 80;", f"listen 127.0.0.1:{self.http};")
        text = text.replace("listen 443 ssl;", f"listen 127.0.0.1:{self.https} ssl;")
        text = text.replace("127.0.0.1:8000", f"127.0.0.1:{self.upstream}")
        lines = []
        for line in text.splitlines(keepends=True):
            if not line.lstrip().startswith("systemctl "):  # unit names stay the files' names
                line = re.sub(r"postgres:///scorebook\b", f"postgres:///{self.name}", line)
                line = re.sub(r"(?<![\w/.-])scorebook_check\b", f"{self.name}_check", line)
                line = re.sub(r"(?<![\w/.-])scorebook(?![\w.-])", self.name, line)
            lines.append(line)
        return "".join(lines)

    def environment(self) -> dict[str, str]:
        """The root shell the guide's commands are typed in."""
        left_out = ("DJANGO", "DATABASE_URL", "VIRTUAL_ENV", "PYTHONPATH", "SQLITE_TEST_DB", "PYTEST")
        env = {k: v for k, v in os.environ.items() if not k.startswith(left_out)}
        env |= {
            "PATH": ":".join([str(self.folder / "bin"), str(self.folder / "usr/local/bin"), SYSTEM_PATH]),
            "GUIDE_MACHINE": str(self.folder),
            "LANG": "C.UTF-8",
            # the test's repository belongs to root, the clone to the site's user (git reads
            # safe.directory from a global configuration only)
            "GIT_CONFIG_GLOBAL": str(self.folder / "gitconfig"),
        }
        if self.library:
            env["LD_LIBRARY_PATH"] = self.library
        return env

    # --- the guide's commands ----------------------------------------------------------------------------
    def run(self, block: Block, timeout: float = 900) -> str:
        """Runs the block in bash (stopping at its first failing command); its standard output.
        AssertionError naming the block and the command when a command fails."""
        script = self.state / f"block-{block.line}.sh"
        script.write_text(
            "set -eE -o pipefail\n"
            "trap 'echo \"the command that failed: $BASH_COMMAND\" >&2' ERR\n"
            f'cd "$(cat {self.state}/cwd 2>/dev/null || echo {self.folder})"\n'
            f"[ -f {self.state}/vars ] && . {self.state}/vars\n"
            f"{self.translate(block.text)}\n"
            f"pwd > {self.state}/cwd\n"
            f"declare -p PYTHON > {self.state}/vars 2>/dev/null || true\n"
        )
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", str(script)],
            env=self.environment(),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        assert done.returncode == 0, (
            f"docs/operating.md, the block at line {block.line} stops (exit status {done.returncode}):\n"
            f"{done.stderr[-4000:]}\n{done.stdout[-2000:]}"
        )
        return done.stdout

    def set_python(self) -> None:
        """What the guide's first step leaves: ``$PYTHON``, a Python 3.12 or newer the site's user runs."""
        (self.state / "vars").write_text(f"declare -- PYTHON={shlex.quote(self.python)}\n")

    def systemctl(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(self.folder / "bin/systemctl"), *args], env=self.environment(), capture_output=True, text=True
        )

    def read(self, path: str) -> str:
        return self.place(path).read_text()

    # --- the end ---------------------------------------------------------------------------------------
    def clean(self) -> None:
        """Everything the guide made here stopped, dropped and removed (each step whatever the one
        before did)."""
        steps = [lambda pid=pid: _stop(pid) for pid in map(_pid, self.state.glob("*.pid")) if pid]
        nginx = _pid(self.folder / "nginx/nginx.pid")
        steps += [lambda: _stop(nginx, group=False)] if nginx else []
        steps += [lambda d=d: _as_postgres(f'DROP DATABASE IF EXISTS "{d}" WITH (FORCE)') for d in self.databases()]
        steps += [
            lambda: _as_postgres(f'DROP ROLE IF EXISTS "{self.name}"'),
            lambda: subprocess.run(["userdel", self.name], capture_output=True),
            lambda: shutil.rmtree(self.folder, ignore_errors=True),
        ]
        for step in steps:
            with contextlib.suppress(Exception):
                step()

    def databases(self) -> list[str]:
        return [f"{self.name}_check", self.name]

    # --- the machine's programs --------------------------------------------------------------------------
    def _python(self) -> tuple[str, str]:
        """A Python 3.12+ the site's user runs, and the LD_LIBRARY_PATH it needs ('' when none)."""
        version = f"python{sys.version_info.major}.{sys.version_info.minor}"
        base = Path(sys.base_prefix)
        if _readable_by_all(base / "bin" / version):
            return str(base / "bin" / version), ""
        copy = self.folder / "opt/python"
        ignore = shutil.ignore_patterns("test", "tests", "idlelib", "tkinter", "turtledemo", "__pycache__")
        ignore_more = shutil.ignore_patterns("site-packages", "config-3*", "*.a")

        def ignored(folder: str, names: list[str]) -> set[str]:
            return set(ignore(folder, names)) | set(ignore_more(folder, names))

        shutil.copytree(base, copy, symlinks=True, copy_function=_link_or_copy, ignore=ignored)
        subprocess.run(["chmod", "-R", "a+rX", str(copy)], check=True)
        return str(copy / "bin" / version), str(copy / "lib")

    def _write_programs(self) -> None:
        folder, bin_ = self.folder, self.folder / "bin"
        programs = {
            "sudo": '#!/bin/sh\n[ "$1" = -u ] || { echo "sudo: only sudo -u USER here" >&2; exit 1; }\n'
            'user=$2; shift 2; exec runuser -u "$user" -- "$@"\n',
            "systemctl": f'#!/bin/sh\nexec {sys.executable} {Path(__file__).resolve()} systemctl "$@"\n',
            "nginx": f'#!/bin/sh\nexec {NGINX} -p {folder}/nginx/ -c {folder}/nginx/nginx.conf "$@"\n',
            "certbot": _CERTBOT.replace("FOLDER", str(folder)),
        }
        for name, text in programs.items():
            (bin_ / name).write_text(text)
            (bin_ / name).chmod(0o755)
        user = "user root;" if os.geteuid() == 0 else ""
        temp = " ".join(
            f"{k}_temp_path {folder}/nginx/{k};" for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        (folder / "nginx/nginx.conf").write_text(
            f"{user} worker_processes 1; pid {folder}/nginx/nginx.pid; error_log {folder}/var/log/nginx/error.log;\n"
            "events { worker_connections 64; }\n"
            f"http {{ include /etc/nginx/mime.types; default_type application/octet-stream; {temp}\n"
            f"  access_log {folder}/var/log/nginx/access.log;\n"
            f"  include {folder}/etc/nginx/sites-enabled/*;\n}}\n"
        )
        (folder / "run/machine.json").write_text(json.dumps({"folder": str(folder), "library": self.library}))


_CERTBOT = """#!/bin/sh
# certbot certonly ... -d DOMAIN ...: a self-signed certificate where Let's Encrypt's would be
domain=""
while [ $# -gt 0 ]; do [ "$1" = -d ] && domain=$2; shift; done
[ -n "$domain" ] || { echo "certbot: no -d DOMAIN" >&2; exit 1; }
live=FOLDER/etc/letsencrypt/live/$domain
mkdir -p "$live"
exec openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=$domain" -addext "subjectAltName=DNS:$domain" \\
    -keyout "$live/privkey.pem" -out "$live/fullchain.pem" 2>/dev/null
"""


def _as_postgres(statement: str) -> None:
    subprocess.run(["runuser", "-u", "postgres", "--", "psql", "-q", "-c", statement], capture_output=True)


def _pid(path: Path) -> int | None:
    """The process id a pid file names (nginx -t leaves an empty one), or None."""
    text = path.read_text().strip() if path.exists() else ""
    return int(text) if text.isdigit() else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}").exists() and "Z" not in Path(f"/proc/{pid}/stat").read_text().split()[2]


def _stop(pid: int, *, group: bool = True, wait: float = 20) -> None:
    try:
        os.killpg(pid, signal.SIGTERM) if group else os.kill(pid, signal.SIGQUIT)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline and _alive(pid):
        time.sleep(0.1)
    if _alive(pid):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL) if group else os.kill(pid, signal.SIGKILL)


# --- systemctl, as the guide's commands call it ---------------------------------------------------------


def _unit(folder: Path, name: str) -> tuple[str, dict[str, str]]:
    """A unit's file name and its [Service] settings (the last of each name)."""
    file = name if "." in name else f"{name}.service"
    text = (folder / "etc/systemd/system" / file).read_text()
    section, settings = "", {}
    for line in text.splitlines():
        if line.startswith("["):
            section = line
        elif "=" in line and section in ("[Service]", "[Timer]"):
            key, value = line.split("=", 1)
            settings[key.strip()] = value.strip()
    return file, settings


def _environment_file(path: Path) -> dict[str, str]:
    pairs = (line.split("=", 1) for line in path.read_text().splitlines() if "=" in line and not line.startswith("#"))
    return {key.strip(): value.strip() for key, value in pairs}


def _start(folder: Path, name: str) -> int:
    file, unit = _unit(folder, name)
    if file.endswith(".timer"):
        (folder / "run" / f"{file}.enabled").write_text("on")
        return 0
    machine = json.loads((folder / "run/machine.json").read_text())
    env = {"PATH": SYSTEM_PATH, "LANG": "C.UTF-8"}
    if machine["library"]:
        env["LD_LIBRARY_PATH"] = machine["library"]
    if "EnvironmentFile" in unit:
        env |= _environment_file(Path(unit["EnvironmentFile"]))
    args = shlex.split(unit["ExecStart"].replace("%%", "%"))
    options = {
        "cwd": unit.get("WorkingDirectory", "/"),
        "env": env,
        "user": unit.get("User"),
        "group": unit.get("Group") or unit.get("User"),
        "stdin": subprocess.DEVNULL,
    }
    with open(folder / "run" / f"{file}.log", "ab") as log:
        if unit.get("Type") == "oneshot":
            return subprocess.run(args, stdout=log, stderr=subprocess.STDOUT, **options).returncode
        process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, **options)
    (folder / "run" / f"{file}.pid").write_text(str(process.pid))
    return 0


def _stop_unit(folder: Path, name: str) -> None:
    pidfile = folder / "run" / f"{_unit(folder, name)[0]}.pid"
    if pidfile.exists():
        _stop(int(pidfile.read_text()))
        pidfile.unlink()


def _nginx(folder: Path, action: str) -> int:
    program = str(folder / "bin/nginx")
    pid = _pid(folder / "nginx/nginx.pid")
    running = pid is not None and _alive(pid)
    if action == "stop":
        return subprocess.run([program, "-s", "quit"]).returncode if running else 0
    if running and action in ("reload", "restart"):
        return subprocess.run([program, "-s", "reload"]).returncode
    return subprocess.run([program]).returncode


def systemctl(args: list[str]) -> int:
    folder = Path(os.environ["GUIDE_MACHINE"])
    now = "--now" in args
    args = [a for a in args if not a.startswith("--")]
    action, names = args[0], args[1:]
    if action == "daemon-reload":
        return 0
    status = 0
    for name in names:
        if name in ("nginx", "nginx.service"):
            status |= _nginx(folder, action)
        elif action == "enable":
            status |= _start(folder, name) if now or name.endswith(".timer") else 0
        elif action == "start":
            status |= _start(folder, name)
        elif action == "stop":
            _stop_unit(folder, name)
        elif action == "restart":
            _stop_unit(folder, name)
            status |= _start(folder, name)
        else:
            sys.stderr.write(f"systemctl: {action} is not known here\n")
            return 1
    return status


if __name__ == "__main__" and sys.argv[1:2] == ["systemctl"]:
    sys.exit(systemctl(sys.argv[2:]))
