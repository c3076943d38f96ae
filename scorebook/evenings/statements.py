"""The statements of the hot path, written out once instead of built by the ORM each time.

Opening an evening and recording a deal run on every tap of the scorer. Django's ORM
spends more time building these three statements than the database spends running
them (``make bench`` measured it), so they are written here once, with table and
column names taken from the models and every value prepared by the model's own field,
exactly as the ORM would. Everything else goes through the ORM.
"""

from __future__ import annotations

import functools

from django.db import connection

from scorebook.clubs.models import Membership

from .models import Evening


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


@functools.cache
def _evening_and_role_query() -> tuple[str, list[str], list[tuple]]:
    """The SQL, the attribute names of the columns read, and the converters of each column
    (the database's and the field's, as the ORM applies them)."""
    e, m = Evening._meta, Membership._meta
    fields = [f for f in e.concrete_fields if f.name != "rules"]
    columns = ", ".join(f"e.{_q(f.column)}" for f in fields)
    role, club, user = (_q(m.get_field(name).column) for name in ("role", "club", "user"))
    sql = (
        f"SELECT {columns}, (SELECT m.{role} FROM {_q(m.db_table)} m WHERE m.{club} = e.{_q(e.get_field('club').column)}"
        f" AND m.{user} = %s LIMIT 1) AS my_role FROM {_q(e.db_table)} e WHERE e.{_q(e.pk.column)} = %s"
    )
    converters = []
    for i, field in enumerate(fields):
        col = field.get_col(e.db_table)
        found = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
        if found:
            converters.append((i, col, found))
    return sql, [f.attname for f in fields], converters


def evening_and_role(pk: int, user_id: int | None) -> Evening | None:
    """The evening (its copy of the rules left to be read when asked for) with ``my_role``,
    the role of user ``user_id`` in its club (None: not a member, or no club)."""
    sql, names, converters = _evening_and_role_query()
    with connection.cursor() as cursor:
        cursor.execute(sql, [user_id, pk])
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row[:-1])
    for i, col, found in converters:
        for convert in found:
            values[i] = convert(values[i], col, connection)
    evening = Evening.from_db(connection.alias, names, values)
    evening.my_role = row[-1]
    return evening


@functools.cache
def _insert_sql(model) -> tuple[str, tuple]:
    meta = model._meta
    fields = tuple(f for f in meta.concrete_fields if not f.primary_key)
    returning = f" RETURNING {_q(meta.pk.column)}" if connection.features.can_return_columns_from_insert else ""
    sql = (
        f"INSERT INTO {_q(meta.db_table)} ({', '.join(_q(f.column) for f in fields)})"
        f" VALUES ({', '.join(['%s'] * len(fields))}){returning}"
    )
    return sql, fields


def insert(obj) -> None:
    """``obj.save()`` for a new row (a Deal): no signal is sent (a test checks none is listened to)."""
    sql, fields = _insert_sql(type(obj))
    params = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        obj.pk = cursor.fetchone()[0] if connection.features.can_return_columns_from_insert else cursor.lastrowid
    obj._state.adding = False
    obj._state.db = connection.alias


@functools.cache
def _write_if_unchanged_sql() -> str:
    e = Evening._meta
    version, updated_at, summary, status = (_q(e.get_field(n).column) for n in ("version", "updated_at", "summary", "status"))
    return (
        f"UPDATE {_q(e.db_table)} SET {version} = %s, {updated_at} = %s, {summary} = %s"
        f" WHERE {_q(e.pk.column)} = %s AND {version} = %s AND {updated_at} = %s AND {status} = %s"
    )


def write_if_unchanged(evening: Evening, version: int, updated_at) -> bool:
    """Write the evening's version, time of change and summary if its row is still open and
    at ``version`` and ``updated_at``; False if it is not."""
    field = Evening._meta.get_field

    def prep(name, value):
        return field(name).get_db_prep_save(value, connection)

    params = [
        prep("version", evening.version),
        prep("updated_at", evening.updated_at),
        prep("summary", evening.summary),
        evening.pk,
        prep("version", version),
        prep("updated_at", updated_at),
        prep("status", Evening.Status.OPEN),
    ]
    with connection.cursor() as cursor:
        cursor.execute(_write_if_unchanged_sql(), params)
        return cursor.rowcount == 1
