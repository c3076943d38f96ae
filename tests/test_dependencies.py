"""requirements.lock is what `make` installs: it must pin what pyproject.toml asks for."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _name(requirement: str) -> str:
    return re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9._-]+", requirement).group()).lower()


def test_the_lock_pins_every_dependency_of_pyproject_at_its_version():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"]["test"]]
    locked = {
        _name(line): line.split("==", 1)[1].split()[0].rstrip("\\;")
        for line in (ROOT / "requirements.lock").read_text().splitlines()
        if line and not line[0].isspace() and not line.startswith("#")
    }
    for requirement in wanted:
        version = requirement.split("==", 1)[1].strip() if "==" in requirement else None
        assert _name(requirement) in locked, f"{requirement} is not in requirements.lock: run `make lock`"
        if version is not None:
            assert locked[_name(requirement)] == version, f"{requirement} is locked at another version: run `make lock`"
