"""What a superuser runs so that a tenant's own login cannot exhaust what the whole cluster
shares (docs/dba.md, "Hardening: what a superuser runs"; hostile-tenant round 5).

Two parts. For the database: sql/ops/harden.sql, literal, revokes the advisory-lock,
large-object, logical-message, WAL-position, transaction-id and multixact-member functions from
PUBLIC (giving the WAL positions back to the services) and clears planner statistics left on
customer text columns. For each named login: a CONNECTION LIMIT, a temp_file_limit, and
log_min_messages / log_min_error_statement that keep its messages out of the server log. temp_file_limit is a superuser-only setting, so a role default set by a
superuser is one the login cannot SET back; a connection limit can be changed only by a role
with CREATEROLE. What PostgreSQL 15 cannot bound for a login (LISTEN/NOTIFY, the user-settable
timeouts) is in docs/dba.md.

The statements are administrative, not the application's queries (docs/dba.md lists what stays
in Python): role names are identifiers, so they are composed with psycopg.sql.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import psycopg
from psycopg import sql

from registry.errors import ConfigurationError, InvalidInput, NotFound
from registry.paths import SQL_DIR

HARDEN_FILE = SQL_DIR / "ops" / "harden.sql"
# A size as PostgreSQL writes temp_file_limit: kilobytes, or a number with a unit. Not -1:
# "unlimited" is what the hardening removes.
_SIZE = re.compile(r"^[1-9][0-9]{0,12}(kB|MB|GB|TB)?$")
# The functions that take an advisory lock (sql/ops/harden.sql revokes them; the unlock
# functions stay): what the report checks each login against.
ADVISORY_LOCKERS = r"^pg_(try_)?advisory_(xact_)?lock(_shared)?$"
# The functions that tell WAL positions or count transaction ids (sql/ops/harden.sql revokes them
# from PUBLIC and gives the positions back to the services; round 10, R05).
WAL_METERS = (r"^(pg_current_wal_(insert_|flush_)?lsn|pg_last_wal_(receive|replay)_lsn|pg_stat_get_wal"
              r"|pg_get_replication_slots|pg_stat_get_replication_slot|pg_control_(checkpoint|recovery)"
              r"|pg_current_xact_id(_if_assigned)?|txid_current(_if_assigned|_snapshot)?|pg_current_snapshot"
              r"|pg_xact_status|txid_status)$")
# The function that lists a multixact's members, the transaction ids locking a row (round 13, R17: an
# official agent's lockers are other tenants' opt-outs).
MULTIXACT_READERS = r"^pg_get_multixact_members$"


@dataclass(frozen=True)
class LoginLimits:
    connection_limit: int
    temp_file_limit: str

    def __post_init__(self) -> None:
        if not 1 <= self.connection_limit <= 10_000:
            raise InvalidInput(f"connection limit {self.connection_limit}: give a number of connections from 1 "
                               "to 10000 (the login's share of max_connections)")
        if not _SIZE.match(self.temp_file_limit):
            raise InvalidInput(f"temp_file_limit {self.temp_file_limit!r}: give a size such as 500MB, 1GB or "
                               "1048576 (kilobytes); -1, unlimited, is what the hardening removes")


@dataclass(frozen=True)
class LoginState:
    """A login as the hardening left it, read back from the catalogs."""

    name: str
    connection_limit: int
    temp_file_limit: str | None
    advisory_lockers: int  # lock-taking advisory functions it may still execute here
    log_min_messages: str | None  # its role default: "fatal" keeps its messages out of the server log
    other_databases: tuple[str, ...]  # where it may CONNECT and this database's revokes do not hold
    wal_meters: int = 0  # WAL-position and transaction-id functions it may still execute here
    multixact_readers: int = 0  # pg_get_multixact_members, if it may still execute it here


def login_statements(login: str, limits: LoginLimits) -> list[sql.Composed]:
    return [
        sql.SQL("ALTER ROLE {} CONNECTION LIMIT {}").format(sql.Identifier(login), sql.Literal(limits.connection_limit)),
        sql.SQL("ALTER ROLE {} SET temp_file_limit = {}").format(sql.Identifier(login),
                                                                  sql.Literal(limits.temp_file_limit)),
        # The server log is shared disk: a loop of RAISE WARNING with 1 MB messages wrote 200 MB a second
        # (round 6, #7), and an uncaught error logs its message and statement once per statement. Both
        # settings are superuser-only, so the login cannot SET them back; its errors still reach its client.
        sql.SQL("ALTER ROLE {} SET log_min_messages = 'fatal'").format(sql.Identifier(login)),
        sql.SQL("ALTER ROLE {} SET log_min_error_statement = 'panic'").format(sql.Identifier(login)),
    ]


def script(logins: Sequence[str], limits: LoginLimits) -> str:
    """The whole hardening as one script a DBA can read and run with psql (no database needed)."""
    parts = ["BEGIN;\n", HARDEN_FILE.read_text(encoding="utf-8")]
    for login in logins:
        parts.append(f"\n-- {login}: its share of connections, temp files a sort or hash may write, and the server log.\n")
        parts += [statement.as_string(None) + ";\n" for statement in login_statements(login, limits)]
    parts.append("COMMIT;\n")
    return "".join(parts)


def harden(conn: psycopg.Connection, logins: Sequence[str], limits: LoginLimits) -> list[LoginState]:
    """Apply the hardening to the connection's database and the logins, in one transaction, and
    read back what holds. Refuses a non-superuser (it could revoke nothing), an unknown login,
    and a superuser login (no limit applies to one)."""
    if not conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone()[0]:
        raise ConfigurationError(f"registry harden must run as a superuser (connected as {conn.info.user}): the "
                                 "functions it revokes belong to the bootstrap superuser, and temp_file_limit "
                                 "is a superuser setting")
    for login in logins:
        row = conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = %s", (login,)).fetchone()
        if row is None:
            raise NotFound(f"no login named {login!r} in this cluster: nothing was changed")
        if row[0]:
            raise InvalidInput(f"{login!r} is a superuser: no connection or temp-file limit applies to it, and it "
                               "may execute anything; nothing was changed")
    with conn.transaction():
        conn.execute(HARDEN_FILE.read_text(encoding="utf-8"))
        for login in logins:
            for statement in login_statements(login, limits):
                conn.execute(statement)
    return [login_state(conn, login) for login in logins]


# How many pg_catalog functions whose name matches the parameter the role may still execute here.
_EXECUTABLE = """(SELECT count(*) FROM pg_proc p
                    WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.proname ~ %s
                      AND has_function_privilege(r.oid, p.oid, 'EXECUTE'))"""


def login_state(conn: psycopg.Connection, login: str) -> LoginState:
    row = conn.execute(
        f"""SELECT r.rolconnlimit,
                  (SELECT substr(c, length('temp_file_limit=') + 1)
                     FROM pg_db_role_setting s, unnest(s.setconfig) c
                    WHERE s.setrole = r.oid AND s.setdatabase = 0 AND c LIKE 'temp_file_limit=%%'),
                  (SELECT substr(c, length('log_min_messages=') + 1)
                     FROM pg_db_role_setting s, unnest(s.setconfig) c
                    WHERE s.setrole = r.oid AND s.setdatabase = 0 AND c LIKE 'log_min_messages=%%'),
                  {_EXECUTABLE},
                  ARRAY(SELECT d.datname FROM pg_database d
                         WHERE d.datallowconn AND d.datname <> current_database()
                           AND has_database_privilege(r.oid, d.oid, 'CONNECT') ORDER BY d.datname),
                  {_EXECUTABLE},
                  {_EXECUTABLE}
             FROM pg_roles r WHERE r.rolname = %s""",
        (ADVISORY_LOCKERS, WAL_METERS, MULTIXACT_READERS, login)).fetchone()
    return LoginState(login, row[0], row[1], row[3], row[2], tuple(row[4]), row[5], row[6])
