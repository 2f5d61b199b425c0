"""The faster json/jsonb loader decodes every value exactly as psycopg's own loader does."""

from __future__ import annotations

import json

import psycopg
import pytest
from psycopg.pq import Format

from registry.api import Registry
from registry.json_loading import FastJsonbBinaryLoader, FastJsonLoader, use_fast_json

# JSON texts PostgreSQL accepts, including what faster parsers get wrong (orjson turns integers
# beyond 64 bits into floats and refuses a number beyond a float's range) and escapes, non-ASCII.
VALUES = [
    "{}", "[]", "null", "true", "0", "-1", "0.1", "1.5e300", "1e400", "-1e400", "18446744073709551616",
    "-9223372036854775809", "123456789012345678901234567890.5", '"texto com acentuação e emoji 🙂"',
    '"aspas \\" barra \\\\ nova\\nlinha \\u00e9 \\ud83d\\ude42"', '{"datasets": ["vendas", "estoque"], "terms": []}',
    '{"a": {"b": [1, 2.5, null, false, {"c": "d"}]}}', '{"groups": [], "terms": []}', '{"terms": [], "groups": []}',
    '{"terms": [], "groups": [], "x": 1}', '{"big": 99999999999999999999, "small": 1e-320}',
]


def _fetch(conn: psycopg.Connection, sql_type: str, binary: bool) -> list[object]:
    with conn.cursor(binary=binary) as cur:
        return [cur.execute(f"SELECT %s::{sql_type}", (text,)).fetchone()[0] for text in VALUES]


# json has no binary loader of ours: psycopg's own decodes binary json.
@pytest.mark.parametrize(("sql_type", "binary"), [("jsonb", False), ("jsonb", True), ("json", False)])
def test_values_decode_as_psycopg_decodes_them(db_url, sql_type, binary):
    with psycopg.connect(db_url) as plain, psycopg.connect(db_url) as fast:
        use_fast_json(fast)
        kind = Format.BINARY if binary else Format.TEXT
        oid = fast.adapters.types[sql_type].oid
        expected_loader = FastJsonbBinaryLoader if binary else FastJsonLoader
        assert fast.adapters.get_loader(oid, kind) is expected_loader  # ours really decodes here
        assert plain.adapters.get_loader(oid, kind) is not expected_loader
        got, want = _fetch(fast, sql_type, binary), _fetch(plain, sql_type, binary)
    assert got == want
    assert [type(v) for v in got] == [type(v) for v in want]  # 1 stays int, 1.5 float


def test_registry_installs_the_loader_on_its_connection(db):
    oid = db.adapters.types["jsonb"].oid
    Registry(db)
    assert db.adapters.get_loader(oid, Format.TEXT) is FastJsonLoader
    assert db.execute("SELECT '{\"datasets\": [\"vendas\"]}'::jsonb").fetchone()[0] == {"datasets": ["vendas"]}


def test_each_empty_object_is_a_new_dict(db):
    """The empty-object shortcut must not hand out one shared dict: mutating one agent's
    `requires` would change every other's."""
    use_fast_json(db)
    first, second = db.execute("SELECT '{}'::jsonb, '{}'::jsonb").fetchone()
    assert first == second == {}
    first["grupos"] = ["vendas"]
    assert db.execute("SELECT '{}'::jsonb").fetchone()[0] == {}
    assert second == {}


def test_a_callers_own_json_decoding_is_kept(db_url):
    """A connection set to decode json its own way (here floats as Decimal) keeps it."""
    from decimal import Decimal
    from functools import partial

    from psycopg.types.json import set_json_loads

    with psycopg.connect(db_url) as conn:
        set_json_loads(partial(json.loads, parse_float=Decimal), conn)
        Registry(conn)
        assert conn.execute("SELECT '{\"x\": 1.1}'::jsonb").fetchone()[0] == {"x": Decimal("1.1")}


def test_each_nothing_missing_is_a_new_object(db):
    """An available agent's `missing` has its own shortcut: it must not share its lists either,
    and it keeps the key order json.loads would give the same text."""
    use_fast_json(db)
    first, second = db.execute(
        """SELECT '{"groups": [], "terms": []}'::jsonb, '{"groups": [], "terms": []}'::jsonb""").fetchone()
    assert first == second == {"groups": [], "terms": []}
    assert list(first) == list(json.loads(db.execute("""SELECT '{"groups": [], "terms": []}'::jsonb::text""").fetchone()[0]))
    first["groups"].append("vendas")
    assert second == {"groups": [], "terms": []}
