"""Decoding json and jsonb columns with less overhead than psycopg's default, into the same values.

psycopg decodes every json/jsonb value by copying it to bytes and calling `json.loads`, which
first guesses the encoding and then calls the standard decoder. A catalog carries one `requires`
per agent, and at scale L that decoding was ~0.4 ms of a ~2 ms catalog fetch. These loaders call
the same standard decoder on the UTF-8 text directly (what `json.loads` ends up doing for
anything PostgreSQL sends, which never starts with a byte-order mark or a NUL), and answer an
empty object — what most agents require — without decoding at all: ~0.3 ms less a catalog at L
(docs/performance.md). The same goes for the `missing` of an available agent, `{"terms": [],
"groups": []}` as jsonb prints it (keys by length): a catalog carries one per agent, ~2 µs each
to decode. The values are the same by construction: same decoder, same text.

orjson was measured too (another ~0.1 ms) and rejected: it turns integers beyond 64 bits into
floats, so `{"n": 18446744073709551616}` would not come back as written.

The registry installs these loaders on the connections it uses (`use_fast_json`) unless the
connection already decodes json its own way (psycopg's `set_json_loads`, for one connection or
process-wide): a caller's choice, such as `parse_float=Decimal`, is kept. Otherwise the caller's
connection decodes json for its other queries the same way as before, to the same values.
"""

from __future__ import annotations

import json
import weakref

from psycopg import Connection, errors
from psycopg.adapt import Loader
from psycopg.pq import Format

_decode = json.JSONDecoder().decode  # what json.loads uses when given no options


_NOTHING_MISSING = b'{"terms": [], "groups": []}'


def _parse(data: bytes | bytearray | memoryview) -> object:
    if data == b"{}":  # most agents require nothing: skip the decoder (a new dict every time)
        return {}
    if data == _NOTHING_MISSING:  # an available agent's `missing` (new lists every time, too)
        return {"terms": [], "groups": []}
    # json.loads decodes bytes as UTF-8 with "surrogatepass" once it has ruled out UTF-16/32.
    return _decode(str(data, "utf-8", "surrogatepass"))


class FastJsonLoader(Loader):
    """json and jsonb in text format: the JSON text itself."""

    def load(self, data: bytes | bytearray | memoryview) -> object:
        return _parse(data)


class FastJsonbBinaryLoader(Loader):
    """jsonb in binary format: a version byte (1), then the JSON text."""

    format = Format.BINARY

    def load(self, data: bytes | bytearray | memoryview) -> object:
        if not data or data[0] != 1:  # what psycopg's own binary loader refuses the same way
            raise errors.DataError(f"unknown jsonb binary format version: {data[0] if data else None}")
        return _parse(memoryview(data)[1:])


_configured: weakref.WeakSet[Connection] = weakref.WeakSet()


def use_fast_json(conn: Connection) -> None:
    """Decode this connection's json and jsonb results with these loaders. Idempotent and cheap,
    so a pooled connection can be given it at every checkout."""
    if conn in _configured:
        return
    adapters = conn.adapters
    current = adapters.get_loader(adapters.types["jsonb"].oid, Format.TEXT)
    if getattr(current, "_loads", json.loads) is not json.loads:  # set_json_loads was used: keep it
        return
    adapters.register_loader("json", FastJsonLoader)
    adapters.register_loader("jsonb", FastJsonLoader)
    adapters.register_loader("jsonb", FastJsonbBinaryLoader)
    _configured.add(conn)
