"""The registry's Python API: every write validated, one transaction each, errors a person can act on.

    from registry.api import Registry, AgentRef
    reg = Registry(conn_or_pool, actor="ana@acme")
    agent = reg.create_agent(AgentContent(slug="caixa", name="Caixa", instructions="…"), tenant="acme")
    reg.update_agent(AgentRef("caixa", tenant="acme"), AgentChanges(instructions="…"), expected_version=1)

Tenants, projects and agents are addressed by slug or id. Instructions always pass through the
gate (registry.gate) before they are stored; refused database writes come back as the domain
errors of registry.constraint_errors. `actor` is recorded as created_by and in the history.

With `read=Replicas(...)` (registry.replicas), reads go to streaming replicas and writes to the
primary. Every write records its commit's WAL position in `last_commit_lsn` (a login that may not
read WAL positions, after `registry harden`, reads back on the primary instead); every read takes
`min_lsn=` and, within one Registry (and the ones for_tenant makes from it), passes its own
last write's position by itself: what a Registry wrote, it reads back (ADR 0015).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

import psycopg
from psycopg import sql
from psycopg.rows import class_row, dict_row
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from registry import explain, limits, queries, repository, shadowing, vocabulary
from registry.constraint_errors import mapped_errors
from registry.db import reset_session
from registry.errors import ConfigurationError, InvalidInput, NotAllowed, NotFound, StaleVersion
from registry.gate import validate_field, validate_instructions
from registry.json_loading import use_fast_json
from registry.models import (
    Agent,
    AgentChanges,
    AgentContent,
    AgentVersion,
    CatalogEntry,
    ConversationAgent,
    EffectiveAgent,
    EffectiveDefault,
    Explanation,
    ImpactRow,
    LayerDefault,
    OptOut,
    Project,
    ScopeName,
    Tenant,
)
from registry.refs import check_id, parse_ref, parse_slug
from registry.replicas import Replicas, later_lsn
from registry.shadowing import Shadowing
from registry.tokens import Tokenizer, get_tokenizer
from registry.tool_profiles import ToolProfile

Ref = str | int
# The role a tenant-scoped Registry switches to (sql/replaceable/policies.sql).
TENANT_ROLE = "registry_app"


# The one-line texts of an agent that reach a prompt or a person choosing it: the gate's checks,
# no line break, their cap counted after NFC.
PROMPT_FIELDS = {"name": limits.AGENT_NAME, "description": limits.AGENT_DESCRIPTION,
                 "when_to_use": limits.AGENT_WHEN_TO_USE}


def check_prompt_fields(fields: dict[str, object]) -> dict[str, object]:
    """The one-line prompt fields among `fields`, as the gate passes them (else InstructionsRejected)."""
    return {name: validate_field(name, fields[name], cap)
            for name, cap in PROMPT_FIELDS.items() if fields.get(name) is not None}


def _check_version(version: int | None) -> None:
    """A version a row can have (agents.version is a positive integer), or None for "any"."""
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)
                                or not 1 <= version <= 2**31 - 1):
        raise InvalidInput(f"version {version!r} cannot exist: versions are whole numbers from 1 to 2147483647")


def _optional_slug(value: str | None, what: str) -> str | None:
    """None (inherit, follow the default), '' (explicitly none) or a slug; nothing else."""
    return None if value is None else parse_slug(value, what, allow_empty=True)


def _profile_json(profile: ToolProfile | None) -> Jsonb | None:
    return None if profile is None else Jsonb(profile.model_dump(mode="json"))


@dataclass(frozen=True)
class AgentRef:
    """An agent named by its layer and slug; tenant and project by slug or id (both None: official)."""

    slug: str
    tenant: Ref | None = None
    project: Ref | None = None


@dataclass(frozen=True)
class Scope:
    """A resolved layer: ids plus the words to name it in a message."""

    tenant: Tenant | None
    project: Project | None

    @property
    def tenant_id(self) -> int | None:
        return self.tenant.id if self.tenant else None

    @property
    def project_id(self) -> int | None:
        return self.project.id if self.project else None

    @property
    def layer(self) -> Literal["official", "tenant", "project"]:
        if self.project is not None:
            return "project"
        return "tenant" if self.tenant is not None else "official"

    @property
    def where(self) -> str:
        if self.project is not None:
            return f"the project layer of {self.tenant.slug}/{self.project.slug}"
        if self.tenant is not None:
            return f"the tenant layer of {self.tenant.slug}"
        return "the official layer"


@dataclass(frozen=True)
class ConversationContext:
    """What a conversation's prompt is built from, read together: what the conversation runs
    with, the agent (None: none applies), its scope, and its project's stored instruction file
    (None without a project)."""

    conversation: ConversationAgent
    agent: EffectiveAgent | None
    scope: Scope
    project_instructions: str | None


def _commit_position(conn: psycopg.Connection) -> str | None:
    """The WAL position of the commit just made on `conn`: one round trip outside any transaction.
    None when the login may not read it (`registry harden` revokes the WAL-position functions from
    PUBLIC and gives them back to registry_service and staff: hostile round 10, R05)."""
    autocommit = conn.autocommit
    conn.autocommit = True
    try:
        return conn.execute(queries.commit_position).fetchone()[0]
    except psycopg.errors.InsufficientPrivilege:
        return None
    finally:
        conn.autocommit = autocommit


class _WritePosition:
    """The last commit's WAL position of a Registry and of the tenant-scoped ones made from it:
    one client's writes, which its reads must see. `unknown` once a write committed whose position
    the login may not read: from then on its reads go to the primary, which has every write."""

    def __init__(self) -> None:
        self.lsn: str | None = None
        self.unknown = False
        self.readable = True  # False once the login was refused the position: not asked again

    def advance(self, lsn: str) -> None:
        self.lsn = later_lsn(self.lsn, lsn)

    def record(self, conn: psycopg.Connection) -> None:
        lsn = _commit_position(conn) if self.readable else None
        if lsn is None:
            self.readable, self.unknown = False, True
        else:
            self.advance(lsn)


class Registry:
    """The registry over a psycopg connection or a connection pool (the primary), and optionally
    replicas to read from. It decodes jsonb on the connections it uses with
    registry.json_loading's faster loader (same values)."""

    def __init__(self, source: psycopg.Connection | ConnectionPool, *, actor: str | None = None,
                 tokenizer: Tokenizer | None = None, read: Replicas | None = None) -> None:
        self._source = source
        if isinstance(source, psycopg.Connection):
            use_fast_json(source)
        if read is not None and not isinstance(read, Replicas):
            raise InvalidInput("read= takes a registry.replicas.Replicas (e.g. Replicas.from_environment()), "
                               f"not {type(read).__name__}")
        self._replicas = read
        self._written = _WritePosition()
        if actor is not None and (not isinstance(actor, str) or not 0 < len(actor) <= limits.ACTOR):
            raise InvalidInput(f"actor must be 1 to {limits.ACTOR} characters: it is recorded as created_by "
                               "and in the history")
        self.actor = actor
        self._tokenizer = tokenizer
        self._tenant: Ref | None = None
        self._tenant_id: int | None = None
        self._role: str | None = None

    def for_tenant(self, tenant: Ref, role: str | None = TENANT_ROLE) -> Registry:
        """The same registry acting as one tenant: each transaction sets registry.tenant_id
        (transaction-local, so a pooled connection carries nothing to its next user) and, with
        `role`, switches to that role for the transaction so row-level security applies even to
        a privileged login. A slug is looked up once with the login's own rights; a login that
        is itself tenant-scoped sees no tenant before it has one, so it passes the id."""
        scoped = Registry(self._source, actor=self.actor, tokenizer=self._tokenizer, read=self._replicas)
        scoped._written = self._written  # the same client: its reads follow the other's writes
        # Read now, so '' or '²' fails here and nothing ever runs unscoped by mistake.
        scoped._tenant, scoped._role = parse_ref(tenant, "tenant"), role
        return scoped

    @property
    def tokenizer(self) -> Tokenizer:
        if self._tokenizer is None:
            self._tokenizer = get_tokenizer()
        return self._tokenizer

    @property
    def last_commit_lsn(self) -> str | None:
        """The WAL position of this Registry's last committed write (None before one): pass it as
        `min_lsn` from another Registry or process to read that write back from a replica.

        A login that may not read WAL positions (after `registry harden`, a tenant's own login)
        has none to give: ConfigurationError. Its own reads through this Registry still see its
        writes (the primary serves them)."""
        if self._written.unknown:
            raise ConfigurationError(
                "this login may not read the WAL position of its writes (registry harden revokes "
                "pg_current_wal_insert_lsn() from PUBLIC; registry_service and staff keep it), so there is no "
                "last_commit_lsn to pass as min_lsn: read the write back through this Registry (the primary "
                "answers), or write from a service login")
        return self._written.lsn

    @contextlib.contextmanager
    def transaction(self, snapshot: bool = False, *, reads_only: bool = False) -> Iterator[psycopg.Connection]:
        """One transaction on the primary: everything inside commits together or not at all.
        snapshot=True makes it read-only and REPEATABLE READ: every query inside sees the same
        committed state. Once a transaction that may have written commits, its WAL position is
        recorded in `last_commit_lsn` (one round trip more); `reads_only=True` says it will not
        write, and skips that.

        Called inside another transaction (another Registry's, or a tenant's), it is a savepoint,
        and on the way out it puts back the outer transaction's tenant, role and actor: a
        released savepoint keeps SET LOCAL values, and the outer caller must not go on as
        someone else."""
        with contextlib.ExitStack() as stack:
            conn = self._primary(stack)
            with self._transaction_on(conn, snapshot):
                yield conn
            if not (snapshot or reads_only) and conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE:
                self._written.record(conn)

    @contextlib.contextmanager
    def reading(self, min_lsn: str | None = None, snapshot: bool = False) -> Iterator[psycopg.Connection]:
        """A transaction that only reads: on a replica that has replayed `min_lsn` and this
        Registry's own last write (registry.replicas), else on the primary. Without replicas, or
        inside a caller's open transaction (whose writes only its connection sees), it is
        transaction()."""
        wanted = later_lsn(min_lsn, self._written.lsn)  # a malformed min_lsn is refused here
        # A write of this Registry's whose position the login may not read: only the primary is sure
        # to have it.
        if self._replicas is None or self._written.unknown or self._inside_open_transaction():
            with self.transaction(snapshot=snapshot, reads_only=True) as conn:
                yield conn
            return
        with self._replicas.connection(wanted) as replica:
            if replica is not None:
                stack = contextlib.ExitStack()
                try:
                    use_fast_json(replica)
                    stack.enter_context(self._transaction_on(replica, snapshot))
                except psycopg.OperationalError:
                    # The replica went away before the read began (a pooled connection to a
                    # restarted standby): the primary answers instead.
                    self._replicas.counts.passed_over()
                else:
                    with stack:
                        yield replica
                    return
            with self.transaction(snapshot=snapshot, reads_only=True) as conn:
                yield conn

    def _inside_open_transaction(self) -> bool:
        return (isinstance(self._source, psycopg.Connection)
                and self._source.info.transaction_status != psycopg.pq.TransactionStatus.IDLE)

    def _primary(self, stack: contextlib.ExitStack) -> psycopg.Connection:
        if not isinstance(self._source, ConnectionPool):
            return self._source
        conn = stack.enter_context(self._source.connection())
        if not getattr(self._source, "resets_sessions", False):
            # A pool of the caller's own: clean what the connection's last user left.
            reset_session(conn)
        use_fast_json(conn)
        return conn

    @contextlib.contextmanager
    def _transaction_on(self, conn: psycopg.Connection, snapshot: bool) -> Iterator[psycopg.Connection]:
        outer = None
        if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE and (
                self._tenant is not None or self.actor is not None):
            outer = conn.execute(queries.outer_state).fetchone()
        with conn.transaction():
            if snapshot:
                conn.execute(queries.snapshot_transaction)
            if self.actor is not None:
                # Transaction-local: a pooled connection carries nothing to its next user.
                conn.execute(queries.set_actor, (self.actor,))
            if self._tenant is not None:
                self._enter_tenant(conn)
            yield conn
        if outer is not None:
            self._restore(conn, *outer)

    @staticmethod
    def _restore(conn: psycopg.Connection, tenant: str, actor: str, role: str, session_role: str) -> None:
        conn.execute(queries.restore_tenant_and_actor, (tenant, actor))
        if role == session_role:
            conn.execute(queries.reset_local_role)
        else:
            conn.execute(sql.SQL(queries.set_local_role).format(role=sql.Identifier(role)))

    def _enter_tenant(self, conn: psycopg.Connection) -> None:
        if self._tenant_id is None:
            if isinstance(self._tenant, int):
                self._tenant_id = self._tenant
            else:
                row = conn.execute(queries.tenant_by_slug, (self._tenant,)).fetchone()
                if row is None:
                    raise NotFound(f"no tenant {self._tenant!r}: give an existing tenant's slug or id")
                self._tenant_id = row[0]
        conn.execute(queries.set_tenant, (str(self._tenant_id),))
        if self._role is not None:
            conn.execute(sql.SQL(queries.set_local_role).format(role=sql.Identifier(self._role)))

    # -- inside a caller's transaction -----------------------------------------------------
    # The *_in methods take the connection of a transaction() already open, so that several
    # steps (an import of many files) commit together.
    def scope_in(self, conn: psycopg.Connection, tenant: Ref | None, project: Ref | None) -> Scope:
        if tenant is None:
            if project is not None:
                raise InvalidInput("a project needs its tenant: give the tenant too")
            return Scope(None, None)
        found = repository.find_tenant(conn, tenant)
        return Scope(found, repository.find_project(conn, found, project) if project is not None else None)

    def agent_in(self, conn: psycopg.Connection, ref: AgentRef | int) -> tuple[Agent, Scope]:
        if isinstance(ref, int):
            return self._agent_by_id(conn, check_id(ref, "agent"))
        with conn.cursor(row_factory=class_row(Agent)) as cur:
            scope = self.scope_in(conn, ref.tenant, ref.project)
            agent = cur.execute(queries.agent_in_layer, (scope.tenant_id, scope.project_id, ref.slug)).fetchone()
        if agent is None:
            raise NotFound(f"no agent {ref.slug!r} in {scope.where}")
        return agent, scope

    @staticmethod
    def _agent_by_id(conn: psycopg.Connection, agent_id: int) -> tuple[Agent, Scope]:
        """The agent and its layer's tenant and project in one round trip (the write hot path)."""
        with conn.cursor(row_factory=dict_row) as cur:
            row = cur.execute(queries.agent_with_scope, (agent_id,)).fetchone()
        if row is None:
            raise NotFound(f"no agent with id {agent_id}")
        tenant = Tenant(id=row["tenant_id"], slug=row["t_slug"], name=row["t_name"]) if row["tenant_id"] else None
        project = (Project(id=row["project_id"], tenant_id=row["tenant_id"], slug=row["p_slug"], name=row["p_name"])
                   if row["project_id"] else None)
        agent = Agent.model_validate({k: row[k] for k in Agent.model_fields})
        return agent, Scope(tenant, project)

    @staticmethod
    def _context(scope: Scope, slug: str | None = None) -> dict[str, object]:
        return {"slug": slug, "where": scope.where,
                "tenant": scope.tenant.slug if scope.tenant else None,
                "project": scope.project.slug if scope.project else None}

    # -- reads ---------------------------------------------------------------------------
    def agent(self, ref: AgentRef | int, *, min_lsn: str | None = None) -> Agent:
        with self.reading(min_lsn) as conn:
            return self.agent_in(conn, ref)[0]

    def agents(self, tenant: Ref, project: Ref | None = None, *, min_lsn: str | None = None) -> list[CatalogEntry]:
        """The effective catalog of a scope, with each agent's token cost."""
        return self.catalog(tenant, project, min_lsn=min_lsn)[1]

    def catalog(self, tenant: Ref, project: Ref | None = None, *,
                min_lsn: str | None = None) -> tuple[Scope, list[CatalogEntry]]:
        """The scope and its effective catalog, in one transaction: the scope, then one statement
        for the agents with their tool profiles and uses. Tokens are counted after it commits."""
        with self.reading(min_lsn) as conn:
            scope = self.scope_in(conn, tenant, project)
            rows = self._catalog_rows(conn, scope)
        return scope, self._catalog_entries(rows)

    def agents_in(self, conn: psycopg.Connection, scope: Scope) -> list[CatalogEntry]:
        """The effective catalog of a scope already resolved, inside the caller's transaction."""
        return self._catalog_entries(self._catalog_rows(conn, scope))

    @staticmethod
    def _catalog_rows(conn: psycopg.Connection, scope: Scope) -> list[dict]:
        with conn.cursor(row_factory=dict_row) as cur:
            return cur.execute(queries.catalog, {"tenant_id": scope.tenant_id,
                                                 "project_id": scope.project_id}).fetchall()

    def _catalog_entries(self, rows: list[dict]) -> list[CatalogEntry]:
        return [CatalogEntry(**row, instruction_tokens=self.tokenizer.count(row["instructions"]),
                             tokens_exact=self.tokenizer.exact) for row in rows]

    def tool_profile(self, agent_id: int, *, min_lsn: str | None = None) -> ToolProfile | None:
        """The tool profile stored with an agent (None: the agent narrows nothing)."""
        with self.reading(min_lsn) as conn:
            row = conn.execute(queries.agent_tool_profile, (agent_id,)).fetchone()
        return ToolProfile.model_validate(row[0]) if row and row[0] is not None else None

    # -- the project's instruction file ------------------------------------------------------
    def project_instructions(self, tenant: Ref, project: Ref) -> str:
        with self.transaction() as conn:
            scope = self.scope_in(conn, tenant, project)
            return conn.execute(queries.project_instructions, (scope.project_id,)).fetchone()[0]

    def set_project_instructions(self, tenant: Ref, project: Ref, text: str) -> str:
        """Store a project's instruction file ('' removes it); it passes the instruction gate."""
        stored = validate_instructions(text) if text.strip() else ""
        with self.transaction() as conn:
            scope = self.scope_in(conn, tenant, project)
            with mapped_errors(**self._context(scope)):
                conn.execute(queries.set_project_instructions, (stored, scope.project_id))
        return stored

    def adopt(self, conversation_id: int, fingerprint: str | None = None) -> int | None:
        """Record that a conversation adopted the agent it runs with now, at its current version —
        call it when answering a question; it is a no-op after the first time for that agent.
        `fingerprint` (FramedPrompt.fingerprint, sha256 hex) records the prompt built with that
        version, once. Returns the agent's id (None: it runs without one)."""
        check_id(conversation_id, "conversation")
        if fingerprint is not None and not re.fullmatch(r"[0-9a-f]{64}", str(fingerprint)):
            raise InvalidInput(f"fingerprint {str(fingerprint)[:80]!r} is not a sha256 in hex "
                               "(64 characters 0-9a-f, as FramedPrompt.fingerprint)")
        with self.transaction() as conn:
            row = conn.execute(queries.adopt_conversation_agent, (conversation_id, fingerprint)).fetchone()
        return row[0] if row else None

    # -- what a scope has: dataset groups and glossary terms (registry.vocabulary) ----------
    def add_names(self, kind: str, names: list[str], tenant: Ref, project: Ref | None = None) -> list[str]:
        """Give a tenant (or one of its projects) dataset groups (kind "group") or glossary terms
        ("term"); returns the names it did not have yet. All or nothing."""
        kind = vocabulary.check_kind(kind)
        with self.transaction() as conn:
            scope = self.scope_in(conn, tenant, project)
            with mapped_errors(**self._context(scope), name=names[0] if len(names) == 1 else names):
                return vocabulary.add(conn, kind, scope.tenant_id, scope.project_id, list(names))

    def remove_names(self, kind: str, names: list[str], tenant: Ref, project: Ref | None = None) -> list[str]:
        """Take names from one layer (a project removes only its own additions). All or nothing."""
        kind = vocabulary.check_kind(kind)
        with self.transaction() as conn:
            scope = self.scope_in(conn, tenant, project)
            return vocabulary.remove(conn, kind, scope.tenant_id, scope.project_id, list(names), scope.where)

    def names(self, kind: str, tenant: Ref, project: Ref | None = None) -> list[ScopeName]:
        """The dataset groups or glossary terms a scope has: its tenant's, and its project's."""
        kind = vocabulary.check_kind(kind)
        with self.transaction() as conn:
            scope = self.scope_in(conn, tenant, project)
            return vocabulary.listed(conn, kind, scope.tenant_id, scope.project_id)

    # -- resolution explained (registry.explain) ---------------------------------------------
    def explain(self, tenant: Ref, project: Ref | None, slug: str) -> Explanation:
        """Why a slug resolves as it does in a scope: each layer's row and verdict, and the default chain."""
        slug = parse_slug(slug, "agent")
        with self.transaction(snapshot=True) as conn:
            scope = self.scope_in(conn, tenant, project)
            return explain.explain(conn, scope.tenant_id, scope.tenant.slug, scope.project_id,
                                   scope.project.slug if scope.project else None, slug)

    def explain_conversation(self, conversation_id: int) -> Explanation:
        """The same for the slug a conversation runs under, in its scope."""
        with self.transaction(snapshot=True) as conn:
            resolved = repository.conversation_agent(conn, conversation_id)
            scope = self.scope_in(conn, resolved.tenant_id, resolved.project_id)
            return explain.explain(conn, scope.tenant_id, scope.tenant.slug, scope.project_id,
                                   scope.project.slug if scope.project else None, resolved.slug, resolved)

    # -- impact previews: read-only, one consistent snapshot each, on the primary (a preview
    # -- decides a write, and must see what the write will see) --------------------------------
    def impact_of_removal(self, ref: AgentRef | int) -> list[ImpactRow]:
        """What deleting, disabling or unpublishing an agent would change."""
        with self.transaction(snapshot=True) as conn, conn.cursor(row_factory=class_row(ImpactRow)) as cur:
            agent, _ = self.agent_in(conn, ref)
            return cur.execute(queries.preview_removal, (agent.id,)).fetchall()

    def impact_of_optout(self, tenant: Ref, project: Ref, slug: str,
                         layer: Literal["official", "tenant"] | None = None) -> list[ImpactRow]:
        slug = parse_slug(slug, "agent")
        with self.transaction(snapshot=True) as conn, conn.cursor(row_factory=class_row(ImpactRow)) as cur:
            scope = self.scope_in(conn, tenant, project)
            target = self._inherited_in(conn, scope, slug, layer)
            return cur.execute(queries.preview_optout, (scope.project_id, target[0])).fetchall()

    def impact_of_default(self, default_agent: str | None, tenant: Ref | None = None,
                          project: Ref | None = None) -> list[ImpactRow]:
        default_agent = _optional_slug(default_agent, "default agent")
        with self.transaction(snapshot=True) as conn, conn.cursor(row_factory=class_row(ImpactRow)) as cur:
            scope = self.scope_in(conn, tenant, project)
            return cur.execute(queries.preview_default, (scope.tenant_id, scope.project_id, default_agent)).fetchall()

    def shadowing(self, slug: str, tenant: Ref | None = None, project: Ref | None = None) -> Shadowing | None:
        """What a published agent of `slug` created in this layer would hide (the inherited agent,
        where, and the impact preview); None when it hides nothing. Changes nothing."""
        slug = parse_slug(slug, "agent")
        with self.transaction() as conn:
            scope = self.scope_in(conn, tenant, project)
            return self._shadowing_in(conn, scope, slug)

    def shadowing_of_publish(self, ref: AgentRef | int) -> Shadowing | None:
        """What publishing (or enabling) a stored agent would hide; None when it hides nothing or
        already shows. Changes nothing."""
        with self.transaction() as conn:
            agent, scope = self.agent_in(conn, ref)
            if agent.status == "published" and agent.enabled:
                return None
            return self._shadowing_in(conn, scope, agent.slug, agent.id)

    @staticmethod
    def _shadowing_in(conn: psycopg.Connection, scope: Scope, slug: str, agent_id: int | None = None) -> Shadowing | None:
        return shadowing.shadowing(conn, scope.tenant_id, scope.tenant.slug if scope.tenant else None,
                                   scope.project_id, scope.project.slug if scope.project else None, slug, agent_id)

    def default(self, tenant: Ref, project: Ref | None = None, *, min_lsn: str | None = None) -> EffectiveDefault:
        with self.reading(min_lsn) as conn:
            scope = self.scope_in(conn, tenant, project)
            return repository.effective_default(conn, scope.tenant_id, scope.project_id)

    def conversation(self, conversation_id: int, *, min_lsn: str | None = None) -> ConversationAgent:
        with self.reading(min_lsn) as conn:
            return repository.conversation_agent(conn, conversation_id)

    def conversation_with_agent(self, conversation_id: int, *,
                                min_lsn: str | None = None) -> tuple[ConversationAgent, EffectiveAgent | None]:
        """What a conversation runs with, and the agent itself (for framing its prompt)."""
        with self.reading(min_lsn) as conn:
            return repository.conversation_effective_agent(conn, conversation_id)

    def conversation_context(self, conversation_id: int, *, min_lsn: str | None = None) -> ConversationContext:
        """Everything a conversation's prompt is built from: one transaction, one statement."""
        with self.reading(min_lsn) as conn:
            resolved, agent, tenant, project, instructions = repository.conversation_context(conn, conversation_id)
        return ConversationContext(resolved, agent, Scope(tenant, project), instructions)

    def scope(self, tenant: Ref, project: Ref | None = None, *, min_lsn: str | None = None) -> Scope:
        with self.reading(min_lsn) as conn:
            return self.scope_in(conn, tenant, project)

    def history(self, ref: AgentRef | int, *, min_lsn: str | None = None) -> list[AgentVersion]:
        """Every version of an agent's content, oldest first; the last is the current one."""
        with self.reading(min_lsn) as conn:
            agent, _ = self.agent_in(conn, ref)
            with conn.cursor(row_factory=class_row(AgentVersion)) as cur:
                return cur.execute(queries.agent_history, {"id": agent.id}).fetchall()

    # -- tenants and projects ------------------------------------------------------------
    def create_tenant(self, slug: str, name: str = "") -> Tenant:
        name = validate_field("tenant_name", name, limits.TENANT_NAME)
        with self.transaction() as conn, mapped_errors(slug=slug), conn.cursor(row_factory=class_row(Tenant)) as cur:
            return cur.execute(queries.insert_tenant, (slug, name)).fetchone()

    def create_project(self, tenant: Ref, slug: str, name: str = "") -> Project:
        name = validate_field("project_name", name, limits.PROJECT_NAME)
        with self.transaction() as conn:
            scope = self.scope_in(conn, tenant, None)
            with mapped_errors(slug=slug, tenant=scope.tenant.slug), conn.cursor(row_factory=class_row(Project)) as cur:
                return cur.execute(queries.insert_project, (scope.tenant_id, slug, name)).fetchone()

    # -- agents --------------------------------------------------------------------------
    def create_agent(self, content: AgentContent, tenant: Ref | None = None, project: Ref | None = None) -> Agent:
        with self.transaction() as conn:
            return self.create_agent_in(conn, content, self.scope_in(conn, tenant, project))

    def create_agent_in(self, conn: psycopg.Connection, content: AgentContent, scope: Scope, *,
                        gated: bool = False) -> Agent:
        """gated=True: the caller has put the content's texts through the gate already and passes
        what it returned (an import gates every file before writing: registry.agent_io)."""
        fields = content.model_dump()
        if not gated:
            fields |= check_prompt_fields(fields) | {"instructions": validate_instructions(content.instructions)}
        params = fields | {
            "requires": Jsonb(content.requires),
            "tool_profile": _profile_json(content.tool_profile),
            "tenant_id": scope.tenant_id,
            "project_id": scope.project_id,
            "created_by": content.created_by or self.actor,
        }
        with mapped_errors(**self._context(scope, content.slug)), conn.cursor(row_factory=class_row(Agent)) as cur:
            return cur.execute(queries.insert_agent, params).fetchone()

    def update_agent(self, ref: AgentRef | int, changes: AgentChanges, expected_version: int) -> Agent:
        """Change an agent's content. Refused with StaleVersion if it is no longer at
        expected_version (no lost update); a real change bumps the version and keeps history."""
        with self.transaction() as conn:
            agent, scope = self.agent_in(conn, ref)
            return self.update_agent_in(conn, agent, scope, changes.given(), expected_version)

    def update_agent_in(self, conn: psycopg.Connection, agent: Agent, scope: Scope, fields: dict[str, object],
                      expected_version: int | None, *, gated: bool = False) -> Agent:
        _check_version(expected_version)
        """gated=True: as for create_agent_in, the texts among `fields` have passed the gate."""
        if not gated:
            fields |= check_prompt_fields(fields)
            if "instructions" in fields:
                fields["instructions"] = validate_instructions(fields["instructions"])
        if "requires" in fields:
            fields["requires"] = Jsonb(fields["requires"])
        if "tool_profile" in fields:
            fields["tool_profile"] = _profile_json(fields["tool_profile"])
        if not fields:
            raise InvalidInput("nothing to change: give at least one field")
        # The SET list holds the fields given, so the statement is composed (sql/queries/agents.sql).
        assignments = sql.SQL(", ").join(
            sql.SQL("{} = {}").format(sql.Identifier(name), sql.Placeholder(name)) for name in fields)
        query = sql.SQL(queries.update_agent).format(assignments=assignments)
        with mapped_errors(**self._context(scope, agent.slug)), conn.cursor(row_factory=class_row(Agent)) as cur:
            updated = cur.execute(query, fields | {"_id": agent.id, "_version": expected_version}).fetchone()
        if updated is None:
            raise self._stale(conn, agent, scope, expected_version)
        return updated

    @staticmethod
    def _stale(conn: psycopg.Connection, agent: Agent, scope: Scope, expected: int | None) -> Exception:
        row = conn.execute(queries.agent_version, (agent.id,)).fetchone()
        if row is None:
            return NotFound(f"agent {agent.slug!r} of {scope.where} was deleted meanwhile")
        if expected is None or row[0] == expected:
            # Visible at the version asked for, yet nothing changed: row-level security refused
            # the write (an official agent, from a tenant). Retrying would loop forever.
            return NotAllowed(f"not allowed in this tenant: agent {agent.slug!r} of {scope.where} can be read "
                              "but not changed from here; change your own layer's agent instead")
        return StaleVersion(f"agent {agent.slug!r} of {scope.where} is at version {row[0]}, not {expected}: "
                            f"someone changed it since you read it; re-read it and apply your change again",
                            current_version=row[0])

    def _set(self, ref: AgentRef | int, expected_version: int | None, **fields: object) -> Agent:
        with self.transaction() as conn:
            agent, scope = self.agent_in(conn, ref)
            return self.update_agent_in(conn, agent, scope, fields, expected_version)

    def publish(self, ref: AgentRef | int, expected_version: int | None = None) -> Agent:
        return self._set(ref, expected_version, status="published")

    def unpublish(self, ref: AgentRef | int, expected_version: int | None = None) -> Agent:
        return self._set(ref, expected_version, status="draft")

    def enable(self, ref: AgentRef | int, expected_version: int | None = None) -> Agent:
        return self._set(ref, expected_version, enabled=True)

    def disable(self, ref: AgentRef | int, expected_version: int | None = None) -> Agent:
        return self._set(ref, expected_version, enabled=False)

    def delete_agent(self, ref: AgentRef | int, expected_version: int | None = None) -> Agent:
        """Delete an agent. Defaults and pins naming its slug become orphans (or fall to the layer
        beneath); its opt-outs and history go with it."""
        _check_version(expected_version)
        with self.transaction() as conn:
            agent, scope = self.agent_in(conn, ref)
            if not conn.execute(queries.delete_agent, (agent.id, expected_version)).fetchone()[0]:
                raise self._stale(conn, agent, scope, expected_version)
            return agent

    def restore(self, ref: AgentRef | int, version: int, expected_version: int) -> Agent:
        """Make version N's content current again, as a new version (through the gate)."""
        with self.transaction() as conn:
            agent, scope = self.agent_in(conn, ref)
            with conn.cursor(row_factory=class_row(AgentVersion)) as cur:
                versions = {v.version: v for v in cur.execute(queries.agent_history, {"id": agent.id}).fetchall()}
            if version not in versions:
                raise NotFound(f"agent {agent.slug!r} of {scope.where} has no version {version}; "
                               f"it has {', '.join(map(str, sorted(versions)))}")
            old = versions[version]
            fields = {"name": old.name, "description": old.description, "when_to_use": old.when_to_use,
                      "requires": old.requires, "instructions": old.instructions}
            return self.update_agent_in(conn, agent, scope, fields, expected_version)

    # -- defaults, opt-outs, conversations ------------------------------------------------
    def set_default(self, default_agent: str | None, tenant: Ref | None = None,
                    project: Ref | None = None) -> LayerDefault:
        """A layer's default: a slug, '' (explicitly none) or None (inherit from the layer above).
        A slug that resolves to nothing is stored and reported as orphaned, never refused."""
        default_agent = _optional_slug(default_agent, "default agent")
        with self.transaction() as conn:
            scope = self.scope_in(conn, tenant, project)
            with mapped_errors(**self._context(scope, default_agent)), \
                    conn.cursor(row_factory=class_row(LayerDefault)) as cur:
                written = cur.execute(queries.set_default, {"tenant_id": scope.tenant_id, "project_id": scope.project_id,
                                                            "default_agent": default_agent}).fetchone()
        # No row back: the layer already says exactly that, and the row was left untouched.
        return written or LayerDefault(tenant_id=scope.tenant_id, project_id=scope.project_id, layer=scope.layer,
                                       default_agent=default_agent)

    def opt_out(self, tenant: Ref, project: Ref, slug: str,
                layer: Literal["official", "tenant"] | None = None) -> OptOut:
        """Hide an inherited agent in a project: the tenant's row of that slug (or the official one
        when the tenant has none, or the one `layer` names). Opting out twice is a no-op."""
        slug = parse_slug(slug, "agent")
        with self.transaction() as conn:
            scope = self.scope_in(conn, tenant, project)
            target = self._inherited_in(conn, scope, slug, layer)
            with mapped_errors(**self._context(scope, slug)):
                conn.execute(queries.insert_optout, (scope.project_id, target[0]))
            return OptOut(project_id=scope.project_id, agent_id=target[0], slug=target[1], layer=target[2])

    @staticmethod
    def _inherited_in(conn: psycopg.Connection, scope: Scope, slug: str, layer: str | None) -> tuple:
        if scope.project is None:
            raise InvalidInput("an opt-out belongs to a project: give the project too")
        target = conn.execute(queries.inherited_agent, {"slug": slug, "tenant_id": scope.tenant_id, "layer": layer}).fetchone()
        if target is None:
            where = f"the {layer} layer" if layer else "the official or tenant layers"
            raise NotFound(f"no agent {slug!r} in {where} of {scope.tenant.slug}: "
                           "a project opts out only of agents it inherits")
        return target

    def opt_in(self, tenant: Ref, project: Ref, slug: str,
               layer: Literal["official", "tenant"] | None = None) -> int:
        """Undo opt-outs of a slug in a project; returns how many were removed."""
        slug = parse_slug(slug, "agent")
        with self.transaction() as conn:
            scope = self.scope_in(conn, tenant, project)
            return conn.execute(queries.delete_optouts, {"project_id": scope.project_id, "slug": slug, "layer": layer}).fetchone()[0]

    def start_conversation(self, tenant: Ref, project: Ref | None = None, agent_slug: str | None = None,
                           slug: str | None = None, title: str = "") -> ConversationAgent:
        """A new conversation: following the default (agent_slug None), without agent (''), or pinned."""
        agent_slug = _optional_slug(agent_slug, "agent")
        slug = None if slug is None else parse_slug(slug, "conversation slug")
        if not isinstance(title, str):
            raise InvalidInput(f"a conversation's title is text, not {type(title).__name__}")
        with self.transaction() as conn:
            scope = self.scope_in(conn, tenant, project)
            with mapped_errors(**self._context(scope, slug), agent_slug=agent_slug):
                conversation_id = conn.execute(queries.insert_conversation, (scope.tenant_id, scope.project_id, slug,
                                                                     title, agent_slug)).fetchone()[0]
            return repository.conversation_agent(conn, conversation_id)

    def pin(self, conversation_id: int, agent_slug: str) -> ConversationAgent:
        """Pin a slug ('' = explicitly no agent); later default changes no longer move it."""
        return self._pin(conversation_id, agent_slug)

    def unpin(self, conversation_id: int) -> ConversationAgent:
        """Follow the scope's default again."""
        return self._pin(conversation_id, None)

    def _pin(self, conversation_id: int, agent_slug: str | None) -> ConversationAgent:
        check_id(conversation_id, "conversation")
        agent_slug = _optional_slug(agent_slug, "agent")
        with self.transaction() as conn, mapped_errors(agent_slug=agent_slug):
            if conn.execute(queries.pin_conversation, (agent_slug, conversation_id)).rowcount == 0:
                raise NotFound(f"no conversation {conversation_id}: give an existing conversation's id")
            return repository.conversation_agent(conn, conversation_id)
