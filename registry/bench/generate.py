"""A realistic registry, generated fast and deterministically: `registry bench generate`.

Shapes (S and M are L at 1/100 and 1/10; the official layer stays 200 agents at every scale,
so a project's catalog is ~250 agents everywhere and the scales differ only in how much
*other* data surrounds it):

    L  10,000 tenants, 100,000 projects (skewed: every tenant has one, big tenants many more),
       200 official agents, ~1,000,000 agents in all — per tenant ~10 overrides of official
       slugs and ~50 slugs of its own, per project ~2 overrides and ~2 of its own; ~7% drafts,
       ~3% disabled — 50,000 opt-outs, defaults at every layer (some '', some orphaned, some
       rows that inherit), 1,000,000 conversations (~55% follow the default, ~10% explicitly
       none, ~35% pinned, a few of them to slugs that no longer resolve).

Rows are made in Python with random.Random(seed) — the same seed gives byte-identical tables
(ids are assigned here, timestamps are fixed) — and loaded with COPY, in one transaction, with
every constraint and trigger of the product left on: the foreign keys are checked and the
opt-out trigger fills and checks each opt-out's scope as it would for any writer. Then VACUUM
ANALYZE, as autovacuum would after a bulk load, so the planner has statistics.
"""

from __future__ import annotations

import random
import time
from array import array
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass

import psycopg

from registry.agent_files import read_agent_dir
from registry.seeding import OFFICIAL_AGENTS_DIR

CREATED_AT = "2025-01-01 00:00:00+00"
ORPHAN_SLUGS = ("agente-aposentado", "resumo-antigo", "painel-legado")
COPY_BATCH = 4000


@dataclass(frozen=True)
class Shape:
    """How much of everything. Per-tenant and per-project counts are means (uniform 0..2×mean)."""

    name: str
    tenants: int
    projects: int
    optouts: int
    conversations: int
    official_agents: int = 200
    tenant_overrides: int = 10
    tenant_own: int = 50
    project_overrides: int = 2
    project_own: int = 2

    @property
    def expected_agents(self) -> int:
        per_tenant = self.tenant_overrides + self.tenant_own
        per_project = self.project_overrides + self.project_own
        return self.official_agents + self.tenants * per_tenant + self.projects * per_project


SCALES: dict[str, Shape] = {
    "S": Shape("S", tenants=100, projects=1_000, optouts=500, conversations=10_000),
    "M": Shape("M", tenants=1_000, projects=10_000, optouts=5_000, conversations=100_000),
    "L": Shape("L", tenants=10_000, projects=100_000, optouts=50_000, conversations=1_000_000),
}

# Slug vocabularies, disjoint so that a tenant's own slug never collides with an official one
# by accident (an override is always chosen on purpose).
_AREAS = ["caixa", "vendas", "estoque", "compras", "fiscal", "contabil", "rh", "logistica", "credito",
          "cobranca"]
_ROLES = ["analista", "auditor", "resumo", "painel", "revisor", "conciliador", "previsor", "monitor",
          "consultor", "relator", "tutor", "curador", "planejador", "avaliador", "inspetor", "mentor",
          "narrador", "comparador", "orientador", "verificador"]
_NOUNS = ["margem", "receita", "despesa", "frete", "pedido", "cliente", "fornecedor", "contrato", "meta",
          "orcamento", "comissao", "devolucao", "garantia", "inventario", "imposto", "folha", "ponto",
          "banco", "cartao", "boleto", "titulo", "produto", "loja", "regiao", "canal", "campanha",
          "desconto", "preco", "giro", "ruptura"]
_QUALIFIERS = ["semanal", "mensal", "diario", "anual", "executivo", "detalhado", "critico", "regional",
               "comparado", "previsto", "realizado", "consolidado", "por-filial", "por-canal", "em-risco",
               "pendente", "vencido", "aberto", "fechado", "ajustado"]

_DESCRIPTIONS = [
    "Le os numeros com comparacao, composicao, tendencia e risco.",
    "Resume para a diretoria em poucas linhas, com o numero primeiro.",
    "Aponta o que mudou desde o ultimo periodo e o que puxou a mudanca.",
    "Explica a conta passo a passo para quem vai conferir.",
    "Destaca excecoes e itens fora do padrao antes do total.",
    "",
]
_WHEN_TO_USE = [
    "Para fechamento do mes e reunioes de resultado.",
    "Quando a resposta vai virar decisao de compra ou de corte.",
    "Para acompanhar metas da semana com a equipe comercial.",
    "Quando alguem precisa conferir a origem de cada numero.",
    "",
]
# What agents require (docs/design.md rule 7). Official agents require nothing — a dataset
# group is per customer, so an official requirement would be unavailable wherever the customer
# named it differently (the seed's reasoning) — so only tenant and project agents draw from this.
_REQUIRES = ['{}'] * 6 + [
    '{"grupos": ["financeiro"], "termos": ["receita", "margem"]}',
    '{"grupos": ["vendas"], "termos": []}',
    '{"grupos": ["estoque", "compras"], "termos": ["giro"]}',
    '{"grupos": [], "termos": ["inadimplencia"]}',
]


def official_slugs(count: int) -> list[str]:
    slugs = [f"{role}-{area}" for area in _AREAS for role in _ROLES]
    slugs += [f"{role}-{area}-{n}" for n in range(2, 2 + count // len(slugs) + 1) for area in _AREAS
              for role in _ROLES]
    return slugs[:count]


TENANT_OWN_SLUGS = [f"{noun}-{q}" for noun in _NOUNS for q in _QUALIFIERS]            # 600
PROJECT_OWN_SLUGS = [f"projeto-{noun}-{q}" for noun in _NOUNS for q in _QUALIFIERS]   # 600


def _copy_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def instruction_texts(rng: random.Random, count: int = 64) -> list[str]:
    """Benign posture texts of ~300 to ~2,000 characters, made from the official agents' paragraphs."""
    paragraphs = [p.strip() for a in read_agent_dir(OFFICIAL_AGENTS_DIR) for p in a.instructions.split("\n\n")
                  if p.strip()]
    texts = []
    for _ in range(count):
        target = rng.randint(300, 2000)
        parts: list[str] = []
        while sum(map(len, parts)) < target:
            parts.append(rng.choice(paragraphs))
        texts.append("\n\n".join(parts)[:target].rstrip())
    return texts


@dataclass
class _Tenant:
    own_slugs: list[str]
    agent_ids: array  # its tenant-layer rows: what its projects may opt out of


class _Generator:
    def __init__(self, shape: Shape, seed: int) -> None:
        self.shape, self.rng = shape, random.Random(seed)
        self.official = official_slugs(shape.official_agents)
        self.instructions = [_copy_escape(t) for t in instruction_texts(self.rng)]
        self.next_agent_id = 1
        self.project_tenant = array("q")      # index i = project id i+1
        self.tenants: list[_Tenant] = []      # index i = tenant id i+1

    # -- tenants and projects -------------------------------------------------------------
    def tenant_rows(self) -> Iterator[str]:
        for tid in range(1, self.shape.tenants + 1):
            yield f"{tid}\ttenant-{tid:05d}\tCliente {tid}\t{CREATED_AT}\t{CREATED_AT}\n"

    def assign_projects(self) -> None:
        """Every tenant gets one project; the rest go to tenants with a heavy tail (a few big ones)."""
        shape, rng = self.shape, self.rng
        counts = [1] * shape.tenants
        weights = [rng.paretovariate(1.5) for _ in range(shape.tenants)]
        for t in rng.choices(range(shape.tenants), weights=weights, k=shape.projects - shape.tenants):
            counts[t] += 1
        for t, n in enumerate(counts):
            self.project_tenant.extend([t + 1] * n)

    def project_rows(self) -> Iterator[str]:
        number = {}
        for i, tid in enumerate(self.project_tenant):
            number[tid] = number.get(tid, 0) + 1
            yield f"{i + 1}\t{tid}\tproject-{number[tid]:04d}\tProjeto {number[tid]}\t{CREATED_AT}\t{CREATED_AT}\n"

    # -- agents --------------------------------------------------------------------------
    def _agent(self, tenant_id: int | None, project_id: int | None, slug: str) -> str:
        rng = self.rng
        aid = self.next_agent_id
        self.next_agent_id += 1
        r = rng.random()
        status = "draft" if r < 0.07 else "published"
        enabled = "f" if rng.random() < 0.03 else "t"
        # Drawn in this order, every agent, so the random stream (and every table after this
        # one) is what it was before official agents stopped requiring anything.
        description, when_to_use = rng.choice(_DESCRIPTIONS), rng.choice(_WHEN_TO_USE)
        requires, instructions = rng.choice(_REQUIRES), rng.choice(self.instructions)
        if tenant_id is None:
            requires = "{}"
        return "\t".join((
            str(aid), "\\N" if tenant_id is None else str(tenant_id), "\\N" if project_id is None else str(project_id),
            slug, slug.replace("-", " ").capitalize(), description, when_to_use,
            requires, instructions, status, "1", enabled,
            "\\N", str(rng.randrange(500)), "bench", CREATED_AT, CREATED_AT)) + "\n"

    def agent_rows(self) -> Iterator[str]:
        shape, rng = self.shape, self.rng
        for slug in self.official:
            yield self._agent(None, None, slug)
        projects_of: dict[int, list[int]] = {}
        for i, tid in enumerate(self.project_tenant):
            projects_of.setdefault(tid, []).append(i + 1)
        for tid in range(1, shape.tenants + 1):
            overrides = rng.sample(self.official, min(len(self.official), rng.randint(0, 2 * shape.tenant_overrides)))
            own = rng.sample(TENANT_OWN_SLUGS, rng.randint(0, 2 * shape.tenant_own))
            tenant = _Tenant(own, array("q"))
            for slug in overrides + own:
                tenant.agent_ids.append(self.next_agent_id)
                yield self._agent(tid, None, slug)
            self.tenants.append(tenant)
            inherited = self.official + own
            for pid in projects_of.get(tid, []):
                for slug in rng.sample(inherited, rng.randint(0, 2 * shape.project_overrides)):
                    yield self._agent(tid, pid, slug)
                for slug in rng.sample(PROJECT_OWN_SLUGS, rng.randint(0, 2 * shape.project_own)):
                    yield self._agent(tid, pid, slug)

    # -- defaults, opt-outs, conversations -------------------------------------------------
    def _default_value(self, tid: int, slug_share: float, empty_share: float, orphan_share: float) -> str:
        r = self.rng.random()
        if r < slug_share:
            if self.rng.random() < orphan_share:
                return self.rng.choice(ORPHAN_SLUGS)
            own = self.tenants[tid - 1].own_slugs
            return self.rng.choice(own) if own and self.rng.random() < 0.3 else self.rng.choice(self.official)
        if r < slug_share + empty_share:
            return ""
        return "\\N"  # a row that inherits: what `registry default clear` leaves behind

    def default_rows(self) -> Iterator[str]:
        rng = self.rng
        yield f"\\N\t\\N\t{self.official[0]}\t{CREATED_AT}\t{CREATED_AT}\n"
        for tid in range(1, self.shape.tenants + 1):
            if rng.random() < 0.5:
                value = self._default_value(tid, 0.70, 0.15, 0.02)
                yield f"{tid}\t\\N\t{value}\t{CREATED_AT}\t{CREATED_AT}\n"
        for i, tid in enumerate(self.project_tenant):
            if rng.random() < 0.3:
                value = self._default_value(tid, 0.60, 0.25, 0.10)
                yield f"{tid}\t{i + 1}\t{value}\t{CREATED_AT}\t{CREATED_AT}\n"

    def optout_rows(self) -> Iterator[str]:
        """Inherited agents only (official, or the project's own tenant's tenant layer)."""
        rng, seen = self.rng, set()
        target = min(self.shape.optouts, len(self.project_tenant) * self.shape.official_agents)
        while len(seen) < target:
            pid = rng.randrange(len(self.project_tenant)) + 1
            tid = self.project_tenant[pid - 1]
            tenant_ids = self.tenants[tid - 1].agent_ids
            if tenant_ids and rng.random() < 0.3:
                aid, scope_tenant = tenant_ids[rng.randrange(len(tenant_ids))], tid
            else:
                aid, scope_tenant = rng.randrange(self.shape.official_agents) + 1, 0
            if (pid, aid) in seen:
                continue
            seen.add((pid, aid))
            yield f"{pid}\t{aid}\t{tid}\t{scope_tenant}\t0\t{CREATED_AT}\n"

    def conversation_rows(self) -> Iterator[str]:
        rng, shape = self.rng, self.shape
        nprojects = len(self.project_tenant)
        for cid in range(1, shape.conversations + 1):
            if rng.random() < 0.1:
                tid, pid = rng.randrange(shape.tenants) + 1, "\\N"
            else:
                p = rng.randrange(nprojects)
                tid, pid = self.project_tenant[p], str(p + 1)
            r = rng.random()
            if r < 0.55:
                agent_slug = "\\N"
            elif r < 0.65:
                agent_slug = ""
            else:
                s = rng.random()
                own = self.tenants[tid - 1].own_slugs
                if s < 0.05:
                    agent_slug = rng.choice(ORPHAN_SLUGS)
                elif s < 0.40 and own:
                    agent_slug = rng.choice(own)
                else:
                    agent_slug = rng.choice(self.official)
            yield f"{cid}\t{tid}\t{pid}\t\\N\tConversa {cid}\t{agent_slug}\t{CREATED_AT}\t{CREATED_AT}\n"

    # -- what each scope has (dataset groups, glossary terms) ------------------------------
    def _vocabulary_rows(self, tenant_wide: tuple[str, ...], per_project: str) -> Iterator[str]:
        """Most tenants list most of the names their agents require, tenant-wide; about half the
        projects add the last one. So most agents that require something are available and
        some are not — in the same catalog, as in a real deployment."""
        rng = self.rng
        for tid in range(1, self.shape.tenants + 1):
            for name in tenant_wide:
                if rng.random() < 0.85:
                    yield f"{tid}\t\\N\t{name}\t{CREATED_AT}\n"
        for i, tid in enumerate(self.project_tenant):
            if rng.random() < 0.5:
                yield f"{tid}\t{i + 1}\t{per_project}\t{CREATED_AT}\n"

    def group_rows(self) -> Iterator[str]:
        return self._vocabulary_rows(("financeiro", "vendas", "estoque"), "compras")

    def term_rows(self) -> Iterator[str]:
        return self._vocabulary_rows(("receita", "margem", "giro"), "inadimplencia")


TABLES: list[tuple[str, str, str, bool]] = [
    # (table, COPY column list, generator method, load with triggers off)
    ("tenants", "id, slug, name, created_at, updated_at", "tenant_rows", False),
    ("projects", "id, tenant_id, slug, name, created_at, updated_at", "project_rows", False),
    # The two big tables are loaded with session_replication_role = replica: that turns off
    # their foreign-key checks (verified afterwards, set-based: FOREIGN_KEYS), a change
    # notification per agent row (nobody listens to a bulk load) and the adoption trigger per
    # conversation (done afterwards, set-based, through the product's own conversation_agents).
    ("agents", ("id, tenant_id, project_id, slug, name, description, when_to_use, requires, instructions, "
                "status, version, enabled, note, uses, created_by, created_at, updated_at"), "agent_rows", True),
    ("agent_defaults", "tenant_id, project_id, default_agent, created_at, updated_at", "default_rows", False),
    # Triggers on: agent_optouts_fill_scope re-fills tenant_id and the agent's scope from the
    # rows and refuses anything not inherited — the generator's values are checked, not trusted.
    ("agent_optouts", "project_id, agent_id, tenant_id, agent_scope_tenant_id, agent_scope_project_id, created_at",
     "optout_rows", False),
    ("conversations", "id, tenant_id, project_id, slug, title, agent_slug, created_at, updated_at",
     "conversation_rows", True),
    # Loaded like the big tables (replica mode): their history triggers would write a row per
    # name, which no one reads for generated data; the foreign key is verified below.
    ("dataset_groups", "tenant_id, project_id, name, created_at", "group_rows", True),
    ("glossary_terms", "tenant_id, project_id, name, created_at", "term_rows", True),
]
# What the foreign-key triggers turned off by replica mode would have refused: each query
# counts the rows that break one constraint, and generation fails unless all are 0.
FOREIGN_KEYS = {
    "agents_tenant_fk": """SELECT count(*) FROM agents a WHERE a.tenant_id IS NOT NULL
                             AND NOT EXISTS (SELECT FROM tenants t WHERE t.id = a.tenant_id)""",
    "agents_project_fk": """SELECT count(*) FROM agents a WHERE a.project_id IS NOT NULL AND NOT EXISTS
                              (SELECT FROM projects p WHERE p.tenant_id = a.tenant_id AND p.id = a.project_id)""",
    "conversations_tenant_fk": """SELECT count(*) FROM conversations c
                                   WHERE NOT EXISTS (SELECT FROM tenants t WHERE t.id = c.tenant_id)""",
    "agent_adoptions_conversation_fk": """SELECT count(*) FROM agent_adoptions a
                              WHERE NOT EXISTS (SELECT FROM conversations c
                                                 WHERE c.tenant_id = a.tenant_id AND c.id = a.conversation_id)""",
    "dataset_groups_tenant_fk": """SELECT count(*) FROM dataset_groups g
                                    WHERE NOT EXISTS (SELECT FROM tenants t WHERE t.id = g.tenant_id)""",
    "glossary_terms_tenant_fk": """SELECT count(*) FROM glossary_terms g
                                    WHERE NOT EXISTS (SELECT FROM tenants t WHERE t.id = g.tenant_id)""",
    "dataset_groups_project_fk": """SELECT count(*) FROM dataset_groups g WHERE g.project_id IS NOT NULL AND NOT EXISTS
                              (SELECT FROM projects p WHERE p.tenant_id = g.tenant_id AND p.id = g.project_id)""",
    "glossary_terms_project_fk": """SELECT count(*) FROM glossary_terms g WHERE g.project_id IS NOT NULL AND NOT EXISTS
                              (SELECT FROM projects p WHERE p.tenant_id = g.tenant_id AND p.id = g.project_id)""",
    "conversations_project_fk": """SELECT count(*) FROM conversations c WHERE c.project_id IS NOT NULL AND NOT EXISTS
                              (SELECT FROM projects p WHERE p.tenant_id = c.tenant_id AND p.id = c.project_id)""",
}
# The adoption trigger's work for every generated conversation, in one statement through the
# product's own resolve_conversation_agent. Driven in (tenant, project) order so that the
# agents' index pages a scope needs are read once for all its conversations, and run in
# replica mode: its foreign key to conversations holds by construction (and is verified).
ADOPT_ALL = f"""
INSERT INTO agent_adoptions (conversation_id, agent_id, tenant_id, adopted_at)
SELECT r.conversation_id, r.agent_id, r.tenant_id, '{CREATED_AT}'
  FROM (SELECT id FROM conversations ORDER BY tenant_id, project_id, id) c
 CROSS JOIN LATERAL resolve_conversation_agent(c.id) r
 WHERE r.agent_id IS NOT NULL"""
IDENTITY_TABLES = ("tenants", "projects", "agents", "conversations")


def _copy(conn: psycopg.Connection, table: str, columns: str, rows: Iterator[str]) -> int:
    count = 0
    with conn.cursor() as cur, cur.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
        batch: list[str] = []
        for row in rows:
            batch.append(row)
            if len(batch) >= COPY_BATCH:
                copy.write("".join(batch))
                count += len(batch)
                batch.clear()
        if batch:
            copy.write("".join(batch))
            count += len(batch)
    return count


def generate(url: str, shape: Shape, seed: int = 1,
             progress: Callable[[str], None] | None = None) -> dict[str, object]:
    """Fill an empty, migrated database with `shape`; return timings and the shape's summary."""
    say = progress or (lambda _msg: None)
    started = time.perf_counter()
    gen = _Generator(shape, seed)
    gen.assign_projects()
    timings: dict[str, float] = {}
    with psycopg.connect(url) as conn:
        if conn.execute("SELECT EXISTS (SELECT FROM tenants) OR EXISTS (SELECT FROM agents)").fetchone()[0]:
            raise ValueError("the database already has tenants or agents: generate into an empty, migrated database")
        with conn.transaction():
            for table, columns, method, bulk in TABLES:
                t0 = time.perf_counter()
                conn.execute(f"SET LOCAL session_replication_role = {'replica' if bulk else 'origin'}")
                n = _copy(conn, table, columns, getattr(gen, method)())
                conn.execute("SET LOCAL session_replication_role = origin")
                # Statistics before the next table: its foreign-key checks are planned from
                # them, and a freshly loaded table that looks empty gets sequential scans.
                conn.execute(f"ANALYZE {table}")
                timings[table] = round(time.perf_counter() - t0, 2)
                say(f"  {table:<15} {n:>10,} rows  {timings[table]:6.1f} s")
            t0 = time.perf_counter()
            conn.execute("SET LOCAL session_replication_role = replica")
            n = conn.execute(ADOPT_ALL).rowcount
            conn.execute("SET LOCAL session_replication_role = origin")
            timings["agent_adoptions"] = round(time.perf_counter() - t0, 2)
            say(f"  {'agent_adoptions':<15} {n:>10,} rows  {timings['agent_adoptions']:6.1f} s")
            t0 = time.perf_counter()
            broken = {name: n for name, query in FOREIGN_KEYS.items() if (n := conn.execute(query).fetchone()[0])}
            if broken:
                raise RuntimeError(f"generated rows break foreign keys: {broken}")
            timings["verify_foreign_keys"] = round(time.perf_counter() - t0, 2)
            say(f"  {'foreign keys':<15} {'verified':>10}       {timings['verify_foreign_keys']:6.1f} s")
            for table in IDENTITY_TABLES:
                conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                             f"GREATEST((SELECT max(id) FROM {table}), 1))")
    t0 = time.perf_counter()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM (ANALYZE)")
    timings["vacuum_analyze"] = round(time.perf_counter() - t0, 2)
    say(f"  {'VACUUM ANALYZE':<15} {'':>10}       {timings['vacuum_analyze']:6.1f} s")
    total = round(time.perf_counter() - started, 2)
    return {"scale": shape.name, "seed": seed, "shape": asdict(shape), "seconds": total, "timings": timings,
            "summary": summarize(url)}


SUMMARY = """
SELECT json_build_object(
  'tenants', (SELECT count(*) FROM tenants),
  'projects', (SELECT count(*) FROM projects),
  'agents', (SELECT json_object_agg(layer, n) FROM (SELECT layer, count(*) n FROM agents GROUP BY layer) x),
  'agents_total', (SELECT count(*) FROM agents),
  'agents_draft', (SELECT count(*) FROM agents WHERE status = 'draft'),
  'agents_disabled', (SELECT count(*) FROM agents WHERE NOT enabled),
  'overrides_of_official', (SELECT count(*) FROM agents a WHERE a.tenant_id IS NOT NULL AND EXISTS
        (SELECT FROM agents o WHERE o.scope_tenant_id = 0 AND o.scope_project_id = 0 AND o.slug = a.slug)),
  'optouts', (SELECT count(*) FROM agent_optouts),
  'optouts_of_tenant_agents', (SELECT count(*) FROM agent_optouts WHERE agent_scope_tenant_id <> 0),
  'defaults', (SELECT json_object_agg(layer || ':' || kind, n) FROM (
        SELECT layer, CASE WHEN default_agent IS NULL THEN 'inherit' WHEN default_agent = '' THEN 'none'
                           ELSE 'slug' END AS kind, count(*) n
          FROM agent_defaults GROUP BY 1, 2) x),
  'conversations', (SELECT json_object_agg(kind, n) FROM (
        SELECT CASE WHEN agent_slug IS NULL THEN 'default' WHEN agent_slug = '' THEN 'none' ELSE 'pinned' END kind,
               count(*) n FROM conversations GROUP BY 1) x),
  'adoptions', (SELECT count(*) FROM agent_adoptions),
  'dataset_groups', (SELECT count(*) FROM dataset_groups),
  'glossary_terms', (SELECT count(*) FROM glossary_terms),
  'conversations_tenant_wide', (SELECT count(*) FROM conversations WHERE project_id IS NULL)
)"""


def summarize(url: str) -> dict[str, object]:
    with psycopg.connect(url) as conn:
        return conn.execute(SUMMARY).fetchone()[0]


def checksums(conn: psycopg.Connection) -> dict[str, str]:
    """md5 of every generated table's rows in key order: equal for equal seeds."""
    keys = {"tenants": "id", "projects": "id", "agents": "id", "conversations": "id",
            "agent_defaults": "scope_tenant_id, scope_project_id", "agent_optouts": "project_id, agent_id",
            "agent_adoptions": "conversation_id, agent_id",
            "dataset_groups": "tenant_id, scope_project_id, name_key", "glossary_terms": "tenant_id, scope_project_id, name_key"}
    return {table: conn.execute(f"SELECT md5(string_agg(t::text, '|' ORDER BY {key})) FROM {table} t").fetchone()[0]
            for table, key in keys.items()}
