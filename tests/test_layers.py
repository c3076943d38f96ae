"""The apps are layered one way: rules < core < accounts < clubs < evenings < nights < ledger < league.

Every module under scorebook/ is parsed (not imported) and its imports are checked:

- a module imports nothing from a higher layer;
- ``scorebook.rules``, the engine, imports no Django and nothing of scorebook outside itself;
- a views module does not import another app's views (what two pages share lives below them);
- nothing underscore-prefixed (a module's own business) is taken from another app, neither
  imported by name nor reached as an attribute of a module imported from there;
- an import made at run time counts as one: ``importlib.import_module("scorebook.x...")`` as an
  import of that module, ``apps.get_model("app", "Model")`` (or ``"app.Model"``) as one of that
  app's models.

Links by name count too, in Python modules and in templates alike:

- a URL name may be reversed (``reverse``, ``redirect``, ``{% url %}``...) only by the app that
  registers it or a later one (the owner is the app whose ``urls.py`` names it; Django's own names,
  such as ``logout`` or ``set_language``, belong to no app);
- a template may be rendered, included or extended only by its own app or a later one
  (``templates/APP/...`` is APP's; ``templates/registration/`` is the accounts app's);
- a template tag library is loaded only by its own app's templates or a later app's.

Links through the settings count too (``settings_violations``): a URL name a setting gives Django
(``LOGIN_URL``, ``LOGIN_REDIRECT_URL``, ``LOGOUT_REDIRECT_URL``) links every app that reads it to the
app that registers the name; ``ABSOLUTE_URL_OVERRIDES`` links a model's app to the page it names; a
middleware or a context processor of an app links the apps that read what it provides (a request
attribute, a template variable) to that app. None may point up, except the links of ``ALLOWED``,
each with its reason.

The project's own modules (settings, urls, wsgi) and templates (``base.html``, the error pages: the
site's frame) stand above the apps and are not checked.
"""

from __future__ import annotations

import ast
import functools
import inspect
import re
from pathlib import Path

from django.conf import settings
from django.urls import URLResolver, get_resolver

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scorebook"
TEMPLATES = ROOT / "templates"
# A club night is made of evenings (its tables); the ledger holds the money of both; the league counts
# nights in standings and backups and shows the ledger's figures on its pages.
LAYERS = ["rules", "core", "accounts", "clubs", "evenings", "nights", "ledger", "league"]
# Django's model metadata is public API despite its underscore.
PUBLIC_UNDERSCORED = {"_meta"}
# the templates of Django's authentication views are the accounts app's
TEMPLATE_FOLDERS = {"registration": "accounts"}
# what takes a URL name as its first argument
REVERSING = {"reverse", "reverse_lazy", "redirect", "resolve_url"}
TEMPLATE_TAG = re.compile(r"{%\s*(url|include|extends|load)\s+(.*?)\s*%}")
# the settings that give Django a URL name, and the Django views and decorators that read each (an
# app that uses one of them reads the setting)
URL_SETTINGS = {
    "LOGIN_URL": {
        "login_required",
        "redirect_to_login",
        "user_passes_test",
        "permission_required",
        "LoginRequiredMixin",
    },
    "LOGIN_REDIRECT_URL": {"LoginView"},
    "LOGOUT_REDIRECT_URL": {"LogoutView"},
}
# request attributes that Django's or a library's middleware sets (an app's middleware may set them
# again, as scorebook.accounts.sessions does the user): theirs, not the app's
REQUEST_ATTRIBUTES = {"user", "session", "htmx", "csp_nonce", "LANGUAGE_CODE", "auth_user", "urlconf"}
# The upward links through the settings that stay, each with its reason: (setting, the app that reads
# it, the name it links to) -> why.
ALLOWED = {
    ("ABSOLUTE_URL_OVERRIDES", "clubs", "club"): (
        "a club's page (its seasons, standings, ledger) is the league's; every page that names a club links "
        "to it through Django's own hook, club.get_absolute_url, which the project wires here"
    ),
    ("ABSOLUTE_URL_OVERRIDES", "clubs", "season"): "a season's page is the league's, the same way",
    ("LOGIN_REDIRECT_URL", "accounts", "evening_list"): (
        "where a signed-in visitor starts is the project's choice (the evenings, a later app): the login "
        "and the sign-up read it from the settings, as Django's login does"
    ),
    ("LOGIN_REDIRECT_URL", "core", "evening_list"): (
        "the installed app starts where a signed-in visitor starts: its manifest, service worker and "
        "offline page read the same setting"
    ),
}


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


def _run_time_imports(tree: ast.AST):
    """(line, module imported or None, model as "app.Model" or None) for each import a module makes
    at run time by a name written in it: ``import_module("scorebook.x")`` (``importlib``'s, however it
    is reached) and ``get_model("app", "Model")`` or ``get_model("app.Model")`` (Django's registry)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        first = node.args[0]
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            continue
        if func == "import_module" and not first.value.startswith("."):
            yield node.lineno, first.value, None
        elif func == "get_model":
            second = node.args[1] if len(node.args) > 1 and isinstance(node.args[1], ast.Constant) else None
            yield node.lineno, None, first.value if second is None else f"{first.value}.{second.value}"


def url_owners() -> dict[str, str]:
    """Each URL name of the site and the app whose urls.py registers it (the first one, as reverse() finds it)."""
    owners: dict[str, str] = {}

    def walk(patterns, app):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                module = getattr(pattern.urlconf_name, "__name__", pattern.urlconf_name)
                walk(pattern.url_patterns, _app(str(module)) or app)
            elif pattern.name and app:
                owners.setdefault(pattern.name, app)

    walk(get_resolver().url_patterns, None)
    return owners


def template_owners(root: Path = TEMPLATES) -> dict[str, str]:
    """Each template of the site (its name as the loader finds it) and its app; the project's are left out."""
    owners = {}
    for path in root.rglob("*"):
        name = path.relative_to(root).as_posix()
        folder = name.split("/")[0]
        app = TEMPLATE_FOLDERS.get(folder, folder if folder in LAYERS else None)
        if path.is_file() and app and "/" in name:
            owners[name] = app
    return owners


def tag_library_owners(root: Path = PACKAGE) -> dict[str, str]:
    return {path.stem: _app(_module_name(path, root.parent)) for path in root.glob("*/templatetags/*.py")}


def _upward(app: str, other: str | None) -> bool:
    return other is not None and LAYERS.index(other) > LAYERS.index(app)


def _linked_by_name(tree: ast.AST):
    """(line, URL name or template name) for each string a module reverses or may render."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if func in REVERSING and node.args and isinstance(node.args[0], ast.Constant):
                yield node.lineno, "url", node.args[0].value
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, "template", node.value.split("#")[0]


def _violations(path: Path, root: Path = ROOT, urls=None, templates=None) -> list[str]:
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
    for line, source, model in _run_time_imports(tree):
        at = f"{where}:{line}"
        outside = source is not None and source.split(".")[0] in ("django", "scorebook") and _app(source) != "rules"
        if app == "rules" and outside:
            found.append(f"{at}: the engine imports {source} (importlib) from outside scorebook.rules")
        label = model.split(".")[0] if model is not None else None
        other = _app(source) if source is not None else label if label in LAYERS else None
        if other is None or other == app:
            continue
        if LAYERS.index(other) > rank:
            what = f"imports {source} (importlib)" if source is not None else f"reaches the model {model} (get_model)"
            found.append(f"{at}: {app} {what} of the higher layer {other}")
        if source is not None and _is_views(module) and _is_views(source):
            found.append(f"{at}: a view module imports another app's views (importlib: {source})")
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in foreign_modules
            and _private(node.attr)
        ):
            found.append(f"{where}:{node.lineno}: reaches the private {foreign_modules[node.value.id]}.{node.attr}")
    urls = url_owners() if urls is None else urls
    templates = template_owners() if templates is None else templates
    for line, kind, name in _linked_by_name(tree):
        other = (urls if kind == "url" else templates).get(name)
        if _upward(app, other):
            what = "reverses the URL name" if kind == "url" else "names the template"
            found.append(f"{where}:{line}: {app} {what} {name!r} of the higher layer {other}")
    return found


def _template_violations(path: Path, root: Path = TEMPLATES, urls=None, templates=None, libraries=None) -> list[str]:
    """A template's {% url %}, {% include %}, {% extends %} and {% load %} reach no later app."""
    templates = template_owners(root) if templates is None else templates
    name = path.relative_to(root).as_posix()
    app = templates.get(name)
    if app is None:
        return []
    urls = url_owners() if urls is None else urls
    libraries = tag_library_owners() if libraries is None else libraries
    found = []
    text = path.read_text()
    for match in TEMPLATE_TAG.finditer(text):
        tag, args = match.groups()
        at = f"templates/{name}:{text.count(chr(10), 0, match.start()) + 1}"
        words = args.split()
        if tag == "load":
            targets = [("loads the tag library", word, libraries.get(word)) for word in words if word != "from"]
        else:
            literal = words[0].strip("\"'") if words and words[0][0] in "\"'" else None
            owners = urls if tag == "url" else templates
            what = "links to the URL name" if tag == "url" else f"{tag}s the template"
            targets = [(what, literal, owners.get(literal.split("#")[0]))] if literal else []
        for what, target, other in targets:
            if _upward(app, other):
                found.append(f"{at}: {app} {what} {target!r} of the higher layer {other}")
    return found


@functools.cache
def _tree(path: Path) -> ast.AST:
    return ast.parse(path.read_text(), str(path))


def setting_readers(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Each setting an app reads and those apps: by name (``settings.X``), or through one of the
    Django views or decorators of ``URL_SETTINGS``."""
    readers: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.py")):
        app = _app(_module_name(path, root.parent))
        if app is None:
            continue
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "settings":
                readers.setdefault(node.attr, set()).add(app)
            name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", None)
            for setting, users in URL_SETTINGS.items():
                if name in users:
                    readers.setdefault(setting, set()).add(app)
    return readers


def _reversed_names(value) -> list[str]:
    """The URL names an ABSOLUTE_URL_OVERRIDES value reverses (read from its source when it is a function)."""
    if isinstance(value, str):
        return [value]
    source = inspect.getsource(value)
    return re.findall(rf"\b(?:{'|'.join(sorted(REVERSING))})\(\s*[\"']([^\"']+)[\"']", source)


def _module_file(dotted: str, root: Path) -> Path | None:
    """The file of the module that holds ``dotted`` (a class or function of it), under ``root``."""
    parts = dotted.split(".")[:-1]
    for candidate in (root.joinpath(*parts).with_suffix(".py"), root.joinpath(*parts, "__init__.py")):
        if candidate.exists():
            return candidate
    return None


def _provided(dotted: str, root: Path, kind: str) -> set[str]:
    """What a middleware gives every view (the request attributes its module sets) or a context
    processor every template (the keys of the dictionaries its function returns)."""
    path = _module_file(dotted, root)
    if path is None:
        return set()
    tree = ast.parse(path.read_text(), str(path))
    names = set()
    if kind == "middleware":
        for node in ast.walk(tree):
            for target in getattr(node, "targets", []):
                if isinstance(target, ast.Attribute) and getattr(target.value, "id", None) == "request":
                    names.add(target.attr)
        return {name for name in names if not name.startswith("_")} - REQUEST_ATTRIBUTES
    function = next(
        (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == dotted.rsplit(".", 1)[-1]), None
    )
    for node in ast.walk(function) if function else ():
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Dict):
            names |= {key.value for key in node.value.keys if isinstance(key, ast.Constant)}
    return names


def _readers_of(names: set[str], kind: str, root: Path, templates_root: Path) -> set[tuple[str, str]]:
    """(app, name) for each app whose modules or templates read a request attribute of ``names``
    (``request.X``) or whose templates read a template variable of ``names``."""
    found: set[tuple[str, str]] = set()
    if not names:
        return found
    if kind == "middleware":
        for path in root.joinpath("scorebook").rglob("*.py"):
            app = _app(_module_name(path, root))
            for node in ast.walk(_tree(path)) if app else ():
                if (
                    isinstance(node, ast.Attribute)
                    and getattr(node.value, "id", None) == "request"
                    and node.attr in names
                ):
                    found.add((app, node.attr))
    for name, app in template_owners(templates_root).items():
        tags = " ".join(re.findall(r"{[{%](.*?)[}%]}", (templates_root / name).read_text(), re.S))
        for word in names:
            pattern = rf"\brequest\.{word}\b" if kind == "middleware" else rf"(?<![\w.]){word}\b"
            if re.search(pattern, tags):
                found.add((app, word))
    return found


def settings_violations(
    values, urls=None, readers=None, root: Path = ROOT, templates_root: Path = TEMPLATES
) -> list[tuple[str, str, str, str]]:
    """(setting, the app that reads it, the name it links to, the higher app that owns that name) for
    each upward link that ``values`` (the settings, or a dict of them) makes."""
    get = values.get if isinstance(values, dict) else lambda key, default=None: getattr(values, key, default)
    urls = url_owners() if urls is None else urls
    readers = setting_readers(root / "scorebook") if readers is None else readers
    found = []
    for setting in URL_SETTINGS:
        name = get(setting)
        if isinstance(name, str):
            for app in sorted(readers.get(setting, ())):
                if _upward(app, urls.get(name)):
                    found.append((setting, app, name, urls[name]))
    for model, value in (get("ABSOLUTE_URL_OVERRIDES") or {}).items():
        app = model.split(".")[0]
        for name in _reversed_names(value) if app in LAYERS else ():
            if _upward(app, urls.get(name)):
                found.append(("ABSOLUTE_URL_OVERRIDES", app, name, urls[name]))
    wired = [("MIDDLEWARE", "middleware", dotted) for dotted in get("MIDDLEWARE") or []]
    for engine in get("TEMPLATES") or []:
        processors = engine.get("OPTIONS", {}).get("context_processors", [])
        wired += [("TEMPLATES", "context processor", dotted) for dotted in processors]
    for setting, kind, dotted in wired:
        owner = _app(dotted)
        if owner is None:
            continue  # Django's or a library's
        for app, name in sorted(_readers_of(_provided(dotted, root, kind), kind, root, templates_root)):
            if _upward(app, owner):
                found.append((setting, app, f"{dotted} ({name})", owner))
    return found


def test_the_settings_link_no_app_to_a_higher_one():
    violations = settings_violations(settings)
    wrong = [v for v in violations if v[:3] not in ALLOWED]
    assert not wrong, "\n".join(
        ["the layering is broken through the settings:"]
        + [f"{setting}: {app} reaches {name!r} of the higher layer {owner}" for setting, app, name, owner in wrong]
    )
    # an allowed link that is gone leaves the list
    assert set(ALLOWED) == {v[:3] for v in violations}


def test_it_notices_an_upward_link_through_a_setting(tmp_path):
    """The settings' check itself: each kind of upward link, made in a crafted copy of the settings."""
    urls = url_owners()
    readers = setting_readers()
    crafted = {
        "LOGIN_URL": "club_list",  # read by the accounts app's views (login_required): a clubs page
        "LOGIN_REDIRECT_URL": "login",  # read by the core app (the installed app's start): an accounts page
        "ABSOLUTE_URL_OVERRIDES": {
            "evenings.evening": lambda evening: reverse("night", args=[evening.pk]),  # noqa: F821
            "clubs.player": "club_player",
            "auth.user": lambda user: reverse("club", args=[user.pk]),  # noqa: F821 (no app of the site's)
        },
        "MIDDLEWARE": ["django.middleware.common.CommonMiddleware", "scorebook.league.middleware.SeasonMiddleware"],
        "TEMPLATES": [{"OPTIONS": {"context_processors": ["scorebook.nights.context.tonight"]}}],
    }
    package = tmp_path / "scorebook"
    for app in ("core", "league", "nights"):
        (package / app).mkdir(parents=True)
    (package / "league" / "middleware.py").write_text(
        "class SeasonMiddleware:\n    def __call__(self, request):\n"
        "        request.season = 1\n        request.user = 2\n"
    )
    (package / "nights" / "context.py").write_text("def tonight(request):\n    return {'tonight': 1}\n")
    (package / "core" / "pages.py").write_text("def page(request):\n    return request.season\n")
    templates = tmp_path / "templates"
    for name, text in {
        "clubs/page.html": "{% if tonight %}{{ tonight.name }}{% endif %}",
        "evenings/page.html": "{{ request.season }} tonight",
        "league/page.html": "{{ tonight }}",
    }.items():
        (templates / name).parent.mkdir(parents=True, exist_ok=True)
        (templates / name).write_text(text)
    assert settings_violations(crafted, urls, readers, tmp_path, templates) == [
        ("LOGIN_URL", "accounts", "club_list", "clubs"),
        ("LOGIN_REDIRECT_URL", "core", "login", "accounts"),
        ("ABSOLUTE_URL_OVERRIDES", "evenings", "night", "nights"),
        ("ABSOLUTE_URL_OVERRIDES", "clubs", "club_player", "league"),
        ("MIDDLEWARE", "core", "scorebook.league.middleware.SeasonMiddleware (season)", "league"),
        ("MIDDLEWARE", "evenings", "scorebook.league.middleware.SeasonMiddleware (season)", "league"),
        ("TEMPLATES", "clubs", "scorebook.nights.context.tonight (tonight)", "nights"),
    ]
    # and the site's own settings, with one more upward link, fail the test above
    site = {key: getattr(settings, key) for key in ("LOGIN_URL", "ABSOLUTE_URL_OVERRIDES", "MIDDLEWARE", "TEMPLATES")}
    site["ABSOLUTE_URL_OVERRIDES"] = site["ABSOLUTE_URL_OVERRIDES"] | {"evenings.seat": "club_player"}
    assert [v for v in settings_violations(site, urls, readers) if v[:3] not in ALLOWED] == [
        ("ABSOLUTE_URL_OVERRIDES", "evenings", "club_player", "league")
    ]


def test_every_app_has_its_place_in_the_layers():
    apps = {path.parent.name for path in PACKAGE.glob("*/__init__.py")}
    assert apps <= set(LAYERS), f"place {sorted(apps - set(LAYERS))} in LAYERS (tests/test_layers.py)"


def test_every_module_imports_only_from_its_own_or_a_lower_layer():
    urls, templates = url_owners(), template_owners()
    violations = [v for path in sorted(PACKAGE.rglob("*.py")) for v in _violations(path, ROOT, urls, templates)]
    assert not violations, "\n".join(["the layering is broken:", *violations])


def test_every_template_links_only_to_its_own_or_a_lower_layer():
    urls, templates, libraries = url_owners(), template_owners(), tag_library_owners()
    violations = [
        v
        for path in sorted(TEMPLATES.rglob("*"))
        if path.is_file()
        for v in _template_violations(path, TEMPLATES, urls, templates, libraries)
    ]
    assert not violations, "\n".join(["the layering is broken:", *violations])


def test_it_knows_who_owns_each_url_name_and_template():
    """The maps the checks read: a name each app registers, a template of each kind of folder."""
    urls, templates = url_owners(), template_owners()
    assert (urls["manifest"], urls["login"], urls["club_settings"], urls["evening"], urls["night"], urls["club"]) == (
        "core",
        "accounts",
        "clubs",
        "evenings",
        "nights",
        "league",
    )
    assert "logout" not in urls  # Django's own: anyone links to it
    assert templates["registration/login.html"] == "accounts"
    assert templates["clubs/form.html"] == "clubs"
    assert "base.html" not in templates  # the project's frame
    assert tag_library_owners()["accounts_tags"] == "accounts"


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


def test_it_notices_upward_links_by_name(tmp_path):
    """URL names and template paths: a lower app's module or template naming a later app's is caught."""
    urls = {"home": "core", "club_settings": "clubs", "evening": "evenings", "club": "league"}
    (tmp_path / "scorebook" / "clubs").mkdir(parents=True)
    module = tmp_path / "scorebook" / "clubs" / "models.py"
    module.write_text(
        "from django.shortcuts import redirect, render\n"
        "from django.urls import reverse\n"
        "reverse('club', args=[1])\n"
        "redirect('evening', 2)\n"
        "redirect('club_settings', 'x')\n"
        "render(None, 'evenings/new.html#form')\n"
        "render(None, 'core/confirm.html')\n"
    )
    root = tmp_path / "templates"
    for name in ("clubs/page.html", "core/confirm.html", "evenings/new.html", "evenings/_bit.html", "base.html"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("")
    (root / "clubs" / "page.html").write_text(
        '{% extends "base.html" %}{% load i18n scorebook accounts_tags league_tags %}\n'
        "<a href=\"{% url 'home' %}\"></a><a href=\"{% url 'club' club.slug %}\"></a>\n"
        '{% include "core/confirm.html" %}{% include "evenings/_bit.html" with x=1 %}{% url name %}\n'
    )
    libraries = {"scorebook": "core", "accounts_tags": "accounts", "league_tags": "league"}
    templates = template_owners(root)
    assert templates == {
        "clubs/page.html": "clubs",
        "core/confirm.html": "core",
        "evenings/new.html": "evenings",
        "evenings/_bit.html": "evenings",
    }
    python = _violations(module, tmp_path, urls, templates)
    html = _template_violations(root / "clubs" / "page.html", root, urls, templates, libraries)
    assert python == [
        "scorebook/clubs/models.py:3: clubs reverses the URL name 'club' of the higher layer league",
        "scorebook/clubs/models.py:4: clubs reverses the URL name 'evening' of the higher layer evenings",
        "scorebook/clubs/models.py:6: clubs names the template 'evenings/new.html' of the higher layer evenings",
    ]
    assert html == [
        "templates/clubs/page.html:1: clubs loads the tag library 'league_tags' of the higher layer league",
        "templates/clubs/page.html:2: clubs links to the URL name 'club' of the higher layer league",
        "templates/clubs/page.html:3: clubs includes the template 'evenings/_bit.html' of the higher layer evenings",
    ]


def test_it_notices_imports_made_at_run_time(tmp_path):
    """``importlib.import_module`` and ``apps.get_model`` by name count as imports: a crafted module
    reaching up through each is caught, and what points down (or at Django's own apps) is not."""
    fake = tmp_path / "scorebook"
    for folder in ("rules", "clubs", "nights/views"):
        (fake / folder).mkdir(parents=True)
    (fake / "clubs" / "loader.py").write_text(
        "import importlib\n"
        "from importlib import import_module\n"
        "from django.apps import apps\n"
        "importlib.import_module('scorebook.league.standings')\n"
        "import_module('scorebook.evenings.services')\n"
        "importlib.import_module('scorebook.core.formatting')\n"
        "importlib.import_module('.forms', package='scorebook.clubs')\n"
        "apps.get_model('nights', 'Night')\n"
        "apps.get_model('ledger.Expense')\n"
        "apps.get_model('accounts', 'Profile')\n"
        "apps.get_model('auth', 'User')\n"
    )
    (fake / "rules" / "plugins.py").write_text(
        "import importlib\nimportlib.import_module('django.db')\nimportlib.import_module('scorebook.core.money')\n"
        "importlib.import_module('scorebook.rules.presets')\n"
    )
    (fake / "nights" / "views" / "pages.py").write_text(
        "import importlib\nimportlib.import_module('scorebook.evenings.views.scoring')\n"
    )
    loader = "scorebook/clubs/loader.py"
    assert _violations(fake / "clubs" / "loader.py", tmp_path, {}, {}) == [
        f"{loader}:4: clubs imports scorebook.league.standings (importlib) of the higher layer league",
        f"{loader}:5: clubs imports scorebook.evenings.services (importlib) of the higher layer evenings",
        f"{loader}:8: clubs reaches the model nights.Night (get_model) of the higher layer nights",
        f"{loader}:9: clubs reaches the model ledger.Expense (get_model) of the higher layer ledger",
    ]
    engine = "scorebook/rules/plugins.py"
    assert _violations(fake / "rules" / "plugins.py", tmp_path, {}, {}) == [
        f"{engine}:2: the engine imports django.db (importlib) from outside scorebook.rules",
        f"{engine}:3: the engine imports scorebook.core.money (importlib) from outside scorebook.rules",
        f"{engine}:3: rules imports scorebook.core.money (importlib) of the higher layer core",
    ]
    assert _violations(fake / "nights" / "views" / "pages.py", tmp_path, {}, {}) == [
        "scorebook/nights/views/pages.py:2: a view module imports another app's views "
        "(importlib: scorebook.evenings.views.scoring)"
    ]
