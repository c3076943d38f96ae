"""The test of the tests' database groups: a test that runs the site's write path runs on both databases.

A test runs once, on SQLite, unless what it checks depends on the database; then it is marked
``both_databases`` and runs on PostgreSQL too (docs/development.md, "How a test is put in which group").
The write path depends on the database by nature: its locks, its transactions, its SQL. Every write of the
site runs in a ``transaction.atomic()`` block that the site's code opens (a service, a form's save), and
locks what it depends on there (``select_for_update()``: SQLite leaves the clause out, the query keeps it).
So during a run on SQLite this plugin watches each test's call phase (not its fixtures: the world it reads)
and records when, inside a transaction the site's code opened, a locking queryset of one of the site's
models (an app of ``scorebook``) was evaluated or a row of one was inserted, updated or deleted.

What the tests' builders do (``building``, ``@builder``: tests/builders.py, tests/night_builders.py) is the
world a test reads, not what it checks, and is not recorded; nor is what a test writes itself through the
ORM (no transaction of the site's is open), nor Django's rows or a library's (sessions, the login's
``last_login``, django-axes). The plugin sees the test's own process, its threads included.

A test that ran the write path and is not marked ``both_databases`` fails, naming the first write it saw.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from pathlib import Path
from typing import Any

import pytest

MARKER = "both_databases"
LISTING = os.environ.get("WRITE_PATH_LIST", "")
_SITE = str(Path(__file__).resolve().parents[1] / "scorebook") + "/"
_TESTS = str(Path(__file__).resolve().parent) + "/"
_NOT_A_CALLER = ("/contextlib.py", "/django/db/transaction.py", "/write_path.py")

_local = threading.local()  # how deep this thread is in a builder
_seen: list[str] = []  # what the running test's call phase did on the write path (all its threads)
_watching = threading.Event()  # set during a test's call phase, on SQLite


def _building() -> bool:
    return getattr(_local, "depth", 0) > 0


@contextmanager
def building() -> Iterator[None]:
    """What runs inside builds a test's world: it is not the write path a test checks."""
    _local.depth = getattr(_local, "depth", 0) + 1
    try:
        yield
    finally:
        _local.depth -= 1


def builder[F: Callable[..., Any]](function: F) -> F:
    """A builder of the tests' world (``building``)."""

    @wraps(function)
    def build(*args: Any, **kwargs: Any) -> Any:
        with building():
            return function(*args, **kwargs)

    return build  # type: ignore[return-value]


def _site_model(model: Any) -> bool:
    return model is not None and model._meta.app_config.name.startswith("scorebook.")


def _opener(skip: int) -> str:
    """The file of the code that opens a ``transaction.atomic()`` block (``skip`` frames up): the first frame
    that is not contextlib's, Django's transaction module or this, or the function ``@transaction.atomic``
    decorates (contextlib's ``inner`` calls it)."""
    frame = sys._getframe(skip + 1)
    while frame is not None and frame.f_code.co_filename.endswith(_NOT_A_CALLER):
        decorated = frame.f_locals.get("func") if frame.f_code.co_name == "inner" else None
        if decorated is not None and hasattr(decorated, "__code__"):
            return decorated.__code__.co_filename
        frame = frame.f_back
    return frame.f_code.co_filename if frame is not None else ""


def _in_a_site_transaction(connection: Any) -> bool:
    return any(getattr(block, "opened_by_the_site", False) for block in connection.atomic_blocks)


def _where() -> str:
    """Where the test reached it: its innermost line in tests/, or in a test module elsewhere (a suite
    pytester writes in a temporary directory), named as if it were in tests/."""
    frame = sys._getframe(3)
    while frame is not None:
        name = frame.f_code.co_filename
        if name.startswith(_TESTS) and not name.endswith("/write_path.py"):
            return f"{name.removeprefix(_TESTS)}:{frame.f_lineno}"
        if Path(name).name.startswith("test_"):  # a test module outside tests/ (pytester's suite)
            return f"{Path(name).name}:{frame.f_lineno}"
        frame = frame.f_back
    return "another thread"


def _note(compiler: Any) -> None:
    if not _watching.is_set() or _building() or _seen:
        return
    from django.db.models.sql.compiler import SQLDeleteCompiler, SQLInsertCompiler, SQLUpdateCompiler

    model = compiler.query.model
    if not _site_model(model) or not _in_a_site_transaction(compiler.connection):
        return
    verbs = {SQLInsertCompiler: "inserted", SQLUpdateCompiler: "updated", SQLDeleteCompiler: "deleted"}
    verb = next((v for kind, v in verbs.items() if isinstance(compiler, kind)), None)
    if verb is not None:
        _seen.append(f"{verb} a row of {model._meta.label}, from tests/{_where()}")
    elif compiler.query.select_for_update:
        _seen.append(f"locked rows of {model._meta.label}, from tests/{_where()}")


def install() -> None:
    """Watch the ORM's compilers and ``transaction.Atomic`` (once a process)."""
    from django.db import transaction
    from django.db.models.sql import compiler

    if getattr(transaction.Atomic, "watched_for_the_write_path", False):
        return

    def watched(execute: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(execute)
        def execute_sql(self: Any, *args: Any, **kwargs: Any) -> Any:
            _note(self)
            return execute(self, *args, **kwargs)

        return execute_sql

    compiler.SQLCompiler.execute_sql = watched(compiler.SQLCompiler.execute_sql)  # selects, updates, deletes
    compiler.SQLInsertCompiler.execute_sql = watched(compiler.SQLInsertCompiler.execute_sql)
    enter = transaction.Atomic.__enter__

    @wraps(enter)
    def __enter__(self: Any) -> Any:
        self.opened_by_the_site = _opener(1).startswith(_SITE)
        return enter(self)

    transaction.Atomic.__enter__ = __enter__
    transaction.Atomic.watched_for_the_write_path = True


def _on_sqlite() -> bool:
    from django.conf import settings

    return settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    if _on_sqlite():
        install()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    if not _on_sqlite():
        return (yield)
    _seen.clear()
    _watching.set()
    try:
        result = yield
    finally:
        _watching.clear()
    if LISTING:  # WRITE_PATH_LIST=file: each test and what it wrote, instead of failing (to regroup tests)
        with open(LISTING, "a") as listing:
            listing.write(f"{item.nodeid}\t{_seen[0] if _seen else ''}\n")
        return result
    if _seen and item.get_closest_marker(MARKER) is None:
        pytest.fail(
            f"it runs the site's write path on SQLite only ({_seen[0]}): mark it @pytest.mark.{MARKER} "
            "(docs/development.md, how a test is put in which group)",
            pytrace=False,
        )
    return result
