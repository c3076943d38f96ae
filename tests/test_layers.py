"""The apps are layered one way: rules < core < accounts < clubs < evenings < nights < league.

Every module under scorebook/ is parsed (not imported) and its imports are checked:

- a module imports nothing from a higher layer;
- ``scorebook.rules``, the engine, imports no Django and nothing of scorebook outside itself;
- a views module does not import another app's views (what two pages share lives below them);
- nothing underscore-prefixed (a module's own business) is taken from another app, neither
  imported by name nor reached as an attribute of a module imported from there.

The project's own modules (settings, urls, wsgi) stand above the apps and are not checked.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scorebook"
# A club night is made of evenings (its tables); the league counts nights in standings and backups.
LAYERS = ["rules", "core", "accounts", "clubs", "evenings", "nights", "league"]
# Django's model metadata is public API despite its underscore.
PUBLIC_UNDERSCORED = {"_meta"}


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _app(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "scorebook" and parts[1] in LAYERS else None


def _is_views(module: str) -> bool:
    return "views" in module.split(".")[2:3]


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in PUBLIC_UNDERSCORED


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base[: len(base) - node.level + (1 if is_package else 0)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(tree: ast.AST, module: str, is_package: bool):
    """(line, module, name imported from it or None, the local name bound to it) for each import."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, None, alias.asname  # None: only "scorebook" is bound
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(node, module, is_package)
            for alias in node.names:
                yield node.lineno, source, alias.name, alias.asname or alias.name


def _violations(path: Path, root: Path = ROOT) -> list[str]:
    module = _module_name(path, root)
    app = _app(module)
    if app is None:
        return []
    rank = LAYERS.index(app)
    tree = ast.parse(path.read_text(), str(path))
    where = path.relative_to(root)
    found = []
    foreign_modules = {}  # local name -> module of another app it stands for
    for line, source, name, bound in _imports(tree, module, path.name == "__init__.py"):
        targets = [source] + ([f"{source}.{name}"] if name else [])
        at = f"{where}:{line}"
        if app == "rules":
            if source.split(".")[0] == "django":
                found.append(f"{at}: the engine imports Django ({source})")
            if source.split(".")[0] == "scorebook" and _app(source) != "rules":
                found.append(f"{at}: the engine imports {source} from outside scorebook.rules")
        other = _app(source)
        if other is None or other == app:
            continue
        if LAYERS.index(other) > rank:
            found.append(f"{at}: {app} imports {targets[-1]} from the higher layer {other}")
        if _is_views(module) and any(_app(t) == other and _is_views(t) for t in targets):
            found.append(f"{at}: a view module imports another app's views ({targets[-1]})")
        if name and _private(name):
            found.append(f"{at}: imports the private {name} from {source}")
        if bound:
            foreign_modules[bound] = f"{source}.{name}" if name else source
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in foreign_modules
            and _private(node.attr)
        ):
            found.append(f"{where}:{node.lineno}: reaches the private {foreign_modules[node.value.id]}.{node.attr}")
    return found


def test_every_app_has_its_place_in_the_layers():
    apps = {path.parent.name for path in PACKAGE.glob("*/__init__.py")}
    assert apps <= set(LAYERS), f"place {sorted(apps - set(LAYERS))} in LAYERS (tests/test_layers.py)"


def test_every_module_imports_only_from_its_own_or_a_lower_layer():
    violations = [v for path in sorted(PACKAGE.rglob("*.py")) for v in _violations(path)]
    assert not violations, "\n".join(["the layering is broken:", *violations])


def test_it_notices_each_kind_of_violation(tmp_path):
    """The checker itself: a module written to break each rule is caught on each."""
    fake = tmp_path / "scorebook"
    (fake / "rules").mkdir(parents=True)
    (fake / "clubs" / "views").mkdir(parents=True)
    (fake / "rules" / "engine.py").write_text("from django.db import models\nfrom scorebook.core import formatting\n")
    (fake / "clubs" / "views" / "pages.py").write_text(
        "from scorebook.evenings.views import evening\n"
        "from scorebook.accounts.views import login\n"
        "from scorebook.rules.model import _check_tables\n"
        "from scorebook.core import formatting\n"
        "from . import _helpers\n"
        "formatting._secret()\n"
    )
    engine = _violations(fake / "rules" / "engine.py", tmp_path)
    views = _violations(fake / "clubs" / "views" / "pages.py", tmp_path)
    assert any("the engine imports Django (django.db)" in v for v in engine)
    assert any("imports scorebook.core from outside scorebook.rules" in v for v in engine)
    assert any("higher layer core" in v for v in engine)
    assert any("higher layer evenings" in v for v in views)
    assert any("another app's views (scorebook.evenings.views.evening)" in v for v in views)
    assert any("another app's views (scorebook.accounts.views.login)" in v for v in views)
    assert any("private _check_tables" in v for v in views)
    assert any("private scorebook.core.formatting._secret" in v for v in views)
    assert not any("_helpers" in v for v in views)  # its own app's business
