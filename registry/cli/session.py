"""One connection per command: the Registry a command acts through, opened once.

A command that previews and asks first (`--yes` or a "y") does both on the same connection; the
preview's transaction is committed before the question, so nothing is held open while a person reads.
"""

from __future__ import annotations

import argparse
import contextlib
import getpass
import os
from collections.abc import Callable, Iterator
from typing import TypeVar

import psycopg

from registry import db, queries
from registry.api import Registry
from registry.errors import NotFound
from registry.refs import InvalidReference, not_utf8, parse_ref

T = TypeVar("T")


@contextlib.contextmanager
def session(args: argparse.Namespace) -> Iterator[Registry]:
    """The command's Registry (acting for --as-tenant when given); committed and closed on the way out."""
    registry, conn = open_registry(args)
    with conn:
        yield registry


def run(args: argparse.Namespace, act: Callable[[Registry], T]) -> T:
    """A command that is one call: its own session."""
    with session(args) as registry:
        return act(registry)


def open_registry(args: argparse.Namespace) -> tuple[Registry, psycopg.Connection]:
    """A connection and the Registry over it: acting for --as-tenant when given.

    --as-tenant fails closed: given at all (even '' or blank), it must name an existing tenant,
    checked here before any command runs; it is never read as "no tenant"."""
    actor = args.actor or os.environ.get("REGISTRY_ACTOR") or getpass.getuser()
    if (bad := not_utf8(actor)) is not None:
        raise InvalidReference(f"the actor (--actor, REGISTRY_ACTOR or your user name) is not valid UTF-8 ({bad})")
    conn = db.connect()
    registry = Registry(conn, actor=actor)
    if args.as_tenant is None:
        return registry, conn
    try:
        tenant_id = acting_tenant(conn, args.as_tenant)
    except BaseException:
        conn.close()
        raise
    return registry.for_tenant(tenant_id), conn


def acting_tenant(conn: psycopg.Connection, reference: str | int) -> int:
    """The id of the tenant --as-tenant names, or NotFound. An id is looked up with the setting
    registry.tenant_id already made (so a login that is itself tenant-scoped can see it)."""
    ref = parse_ref(reference, "--as-tenant")
    with conn.transaction():
        if isinstance(ref, int):
            conn.execute(queries.set_tenant, (str(ref),))
            row = conn.execute(queries.tenant_by_id, (ref,)).fetchone()
        else:
            row = conn.execute(queries.tenant_by_slug, (ref,)).fetchone()
    if row is None:
        raise NotFound(f"--as-tenant: no tenant {ref!r}: give an existing tenant's slug or id (a login that is "
                       "registry_app itself sees its tenant by id only); nothing was run")
    return row[0]
