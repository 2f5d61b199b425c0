"""Plan regressions on the hot paths, and the data generator's promises (registry.bench.generate).

The database is filled by the benchmark's own generator at a small scale — the same shape of
data the benchmark measures (overrides, drafts, opt-outs, defaults at every layer,
conversations in the three states) — then ANALYZEd, and every hot-path query must be driven by
its intended index and never read agents or conversations sequentially. Speed itself is
measured by `registry bench run`, never asserted here.
"""

from __future__ import annotations

import json

import psycopg
import pytest
from pytest_postgresql.janitor import DatabaseJanitor

from registry import migrate
from registry.bench.generate import SCALES, Shape, checksums, generate
from registry.embedded import HOST, SUPERUSER
from tests.helpers import indexes_used, plan, seq_scanned

# Enough rows that a sequential scan would be the planner's honest choice for a query that
# really had to read a table: ~11,000 agents, 10,000 conversations, ~1,000 layer defaults.
PLAN_SHAPE = Shape("plan", tenants=300, projects=3_000, optouts=1_500, conversations=10_000,
                   tenant_overrides=5, tenant_own=10, project_overrides=1, project_own=1)
TINY_SHAPE = Shape("tiny", tenants=10, projects=40, optouts=20, conversations=500, official_agents=30,
                   tenant_overrides=5, tenant_own=10, project_overrides=2, project_own=2)


@pytest.fixture(scope="module")
def plan_db(pg_server, registry_proc):
    """One generated database for every plan test of this module (generating takes a second)."""
    name = "plan_regression"
    with DatabaseJanitor(user=SUPERUSER, host=HOST, port=pg_server.port, dbname=name,
                         template_dbname=registry_proc.template_dbname):
        url = pg_server.url(name)
        generate(url, PLAN_SHAPE, seed=3)
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("ANALYZE")
            yield conn


@pytest.fixture(scope="module")
def generated(plan_db):
    db = plan_db
    # A busy scope: the project with the most conversations, and one of its conversations
    # in each state, so every branch of the resolution shows up in some plan.
    project_id, tenant_id = db.execute("""
        SELECT c.project_id, c.tenant_id FROM conversations c WHERE c.project_id IS NOT NULL
         GROUP BY 1, 2 ORDER BY count(*) DESC, 1 LIMIT 1""").fetchone()
    conversations = dict(db.execute("""
        SELECT DISTINCT ON (kind) kind, id FROM (
            SELECT CASE WHEN agent_slug IS NULL THEN 'default' WHEN agent_slug = '' THEN 'none'
                        ELSE 'pinned' END AS kind, id FROM conversations WHERE project_id IS NOT NULL) x
         ORDER BY kind, id""").fetchall())
    slug = db.execute("SELECT slug FROM resolve_agents(%s, %s) LIMIT 1", (tenant_id, project_id)).fetchone()[0]
    return {"tenant_id": tenant_id, "project_id": project_id, "conversations": conversations, "slug": slug}


def assert_index_driven(tree: dict, intended: set[str]) -> None:
    shown = json.dumps(tree)[:3000]
    assert not seq_scanned(tree) & {"agents", "conversations", "agent_adoptions"}, shown
    assert intended <= indexes_used(tree), f"missing {intended - indexes_used(tree)}: {shown}"


CONVERSATION_INDEXES = {"conversations_pkey", "agents_layer_slug_key"}


@pytest.mark.parametrize("kind", ["default", "pinned", "none"])
@pytest.mark.parametrize("query", [
    "SELECT * FROM resolve_conversation_agent(%s)",
    "SELECT * FROM conversation_agents WHERE conversation_id = %s",
])
def test_a_conversation_agent_is_index_driven(plan_db, generated, query, kind):
    tree = plan(plan_db, query, (generated["conversations"][kind],))
    # A following conversation reads the layers' defaults by their key too.
    assert_index_driven(tree, CONVERSATION_INDEXES | ({"agent_defaults_pkey"} if kind == "default" else set()))


@pytest.mark.parametrize("query,params", [
    ("SELECT * FROM resolve_agents(%s, %s)", ("tenant_id", "project_id")),
    ("SELECT * FROM effective_agents WHERE project_id = %s", ("project_id",)),
    ("SELECT * FROM effective_agents WHERE tenant_id = %s AND project_id = %s", ("tenant_id", "project_id")),
])
def test_b_catalog_is_index_driven(plan_db, generated, query, params):
    tree = plan(plan_db, query, tuple(generated[p] for p in params))
    assert_index_driven(tree, {"agents_layer_slug_key", "agent_optouts_pkey"})


@pytest.mark.parametrize("query,params", [
    ("SELECT * FROM resolve_default_agent(%s, %s)", ("tenant_id", "project_id")),
    ("SELECT * FROM effective_default_agent WHERE project_id = %s", ("project_id",)),
])
def test_c_default_is_index_driven(plan_db, generated, query, params):
    tree = plan(plan_db, query, tuple(generated[p] for p in params))
    assert_index_driven(tree, {"agent_defaults_pkey", "agents_layer_slug_key"})


def test_one_slug_is_index_driven(plan_db, generated):
    tree = plan(plan_db, "SELECT * FROM resolve_agent(%s, %s, %s)",
                (generated["tenant_id"], generated["project_id"], generated["slug"]))
    assert_index_driven(tree, {"agents_layer_slug_key", "agent_optouts_pkey"})


# Console questions beyond the services' hot path: they must stay index-driven too.
@pytest.mark.parametrize("query,params", [
    ("SELECT * FROM effective_agents WHERE tenant_id = %s AND project_id IS NULL", ("tenant_id",)),
    ("SELECT * FROM effective_agents WHERE project_id = %s AND slug = %s", ("project_id", "slug")),
    ("SELECT * FROM effective_default_agent WHERE tenant_id = %s AND project_id IS NULL", ("tenant_id",)),
])
def test_console_questions_are_index_driven(plan_db, generated, query, params):
    tree = plan(plan_db, query, tuple(generated[p] for p in params))
    assert_index_driven(tree, {"agents_layer_slug_key"})


@pytest.mark.parametrize("query,params,index", [
    ("SELECT * FROM conversation_agents WHERE project_id = %s", ("project_id",), "conversations_project_idx"),
    # The view is written over conversations directly, so a tenant filter reaches an index too:
    # the (tenant_id, id) key that adoptions' composite foreign key needs (revision 0007).
    ("SELECT * FROM conversation_agents WHERE tenant_id = %s", ("tenant_id",), "conversations_tenant_id_key"),
])
def test_a_scope_s_conversations_are_index_driven(plan_db, generated, query, params, index):
    tree = plan(plan_db, query, tuple(generated[p] for p in params))
    assert_index_driven(tree, {index, "agents_layer_slug_key"})


# -- the generator ----------------------------------------------------------------------------


def test_generator_is_deterministic_and_has_the_advertised_shape(db, db_url, empty_db_url):
    first = generate(db_url, TINY_SHAPE, seed=11)
    migrate.upgrade(empty_db_url, "head")
    generate(empty_db_url, TINY_SHAPE, seed=11)
    with psycopg.connect(empty_db_url) as other:
        assert checksums(db) == checksums(other)

    s = first["summary"]
    assert (s["tenants"], s["projects"], s["optouts"]) == (10, 40, 20)
    assert sum(s["conversations"].values()) == 500 and set(s["conversations"]) == {"default", "none", "pinned"}
    assert s["agents"]["official"] == 30 and s["agents"]["tenant"] > 0 and s["agents"]["project"] > 0
    assert s["agents_draft"] > 0 and s["agents_disabled"] > 0 and s["overrides_of_official"] > 0
    assert {"official:slug", "tenant:slug", "project:slug", "project:none"} <= set(s["defaults"])
    assert s["adoptions"] > 0
    # The adoptions are the product's own: what the adoption trigger would have recorded.
    assert db.execute("""SELECT count(*) FROM conversation_agents r WHERE r.agent_id IS NOT NULL AND NOT EXISTS
        (SELECT FROM agent_adoptions a WHERE a.conversation_id = r.conversation_id AND a.agent_id = r.agent_id)
    """).fetchone()[0] == 0
    # Opt-outs name inherited agents only, with the scope the trigger filled.
    assert db.execute("""SELECT count(*) FROM agent_optouts o JOIN agents a ON a.id = o.agent_id
        JOIN projects p ON p.id = o.project_id
        WHERE a.project_id IS NOT NULL OR a.tenant_id IS DISTINCT FROM NULL AND a.tenant_id <> p.tenant_id
    """).fetchone()[0] == 0
    # Orphans exist on purpose: a pinned or default slug that resolves to nothing.
    assert db.execute("SELECT count(*) FROM conversation_agents WHERE orphaned").fetchone()[0] > 0


def test_a_different_seed_gives_different_rows(db, db_url, empty_db_url):
    generate(db_url, TINY_SHAPE, seed=1)
    migrate.upgrade(empty_db_url, "head")
    generate(empty_db_url, TINY_SHAPE, seed=2)
    with psycopg.connect(empty_db_url) as other:
        assert checksums(db)["agents"] != checksums(other)["agents"]


def test_the_scales_are_the_advertised_sizes():
    large = SCALES["L"]
    assert (large.tenants, large.projects, large.official_agents, large.optouts, large.conversations) == (
        10_000, 100_000, 200, 50_000, 1_000_000)
    assert 950_000 <= large.expected_agents <= 1_050_000
    for name, factor in (("M", 10), ("S", 100)):
        shape = SCALES[name]
        assert (shape.tenants * factor, shape.projects * factor, shape.optouts * factor,
                shape.conversations * factor) == (large.tenants, large.projects, large.optouts, large.conversations)
        assert shape.official_agents == large.official_agents  # a project's catalog is ~250 agents at every scale
