"""Modules a newcomer can hold: no module of ``scorebook/`` over 600 lines, no function over 60.

Every module of the site (its migrations aside: Django writes them) is measured as it stands: a
module by its lines, a function (a method, a function inside a function) from its ``def`` to its
last line, read with ``ast``. What is over the limit on purpose is listed once, in ``EXCEPTIONS``,
with the reason; the test fails on anything over the limit that is not listed, and on a listed
exception that is no longer over it (the list never outlives what it excuses).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scorebook"
MODULE_LINES = 600
FUNCTION_LINES = 60

# What may stay over the limit, and why: "path" for a module, "path::Class.function" for a function.
EXCEPTIONS: dict[str, str] = {}


def _functions(node: ast.AST, prefix: str = ""):
    """(qualified name, lines) of every function defined in ``node``, nested ones included."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            yield prefix + child.name, child.end_lineno - child.lineno + 1
            yield from _functions(child, f"{prefix}{child.name}.")
        elif isinstance(child, ast.ClassDef):
            yield from _functions(child, f"{prefix}{child.name}.")
        else:
            yield from _functions(child, prefix)


def oversized(package: Path = PACKAGE, root: Path = ROOT) -> dict[str, int]:
    """Each module and function of ``package`` over its limit, and its lines."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        where = path.relative_to(root).as_posix()
        text = path.read_text()
        if (lines := len(text.splitlines())) > MODULE_LINES:
            found[where] = lines
        for name, lines in _functions(ast.parse(text, where)):
            if lines > FUNCTION_LINES:
                found[f"{where}::{name}"] = lines
    return found


def test_no_module_or_function_is_over_its_limit_unless_listed():
    over = oversized()
    unlisted = [f"{name}: {lines} lines" for name, lines in over.items() if name not in EXCEPTIONS]
    assert not unlisted, "\n".join(
        [f"over {MODULE_LINES} lines a module or {FUNCTION_LINES} a function: split it along its seams", *unlisted]
    )


def test_every_listed_exception_is_still_over_its_limit():
    stale = sorted(set(EXCEPTIONS) - set(oversized()))
    assert not stale, "no longer over the limit (or gone): take it out of EXCEPTIONS\n" + "\n".join(stale)


def test_it_measures_modules_functions_methods_and_nested_functions(tmp_path):
    """The measure itself, on a crafted package: each kind of thing over the limit is found, by its name."""
    package = tmp_path / "scorebook"
    (package / "app" / "migrations").mkdir(parents=True)
    body = "".join(f"    x{i} = {i}\n" for i in range(FUNCTION_LINES - 1))
    (package / "app" / "small.py").write_text(f"def fits():\n{body}")  # exactly the limit
    (package / "app" / "big.py").write_text(
        f"def long():\n{body}    return 1\n"
        f"class Form:\n    def method(self):\n{body.replace('    ', '        ')}        return 1\n"
        f"def outer():\n    def inner():\n{body.replace('    ', '        ')}        return 1\n"
        + "pass\n"
        * MODULE_LINES
    )
    (package / "app" / "migrations" / "0001_initial.py").write_text("pass\n" * (MODULE_LINES + 1))
    lines = len((package / "app" / "big.py").read_text().splitlines())
    assert oversized(package, tmp_path) == {
        "scorebook/app/big.py": lines,
        "scorebook/app/big.py::long": FUNCTION_LINES + 1,
        "scorebook/app/big.py::Form.method": FUNCTION_LINES + 1,
        "scorebook/app/big.py::outer": FUNCTION_LINES + 2,
        "scorebook/app/big.py::outer.inner": FUNCTION_LINES + 1,
    }
