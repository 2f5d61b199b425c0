"""Hostile round 11, R01 (docs/security.md, "Hostile round 11"): tenant A's bound login (and the
unbound plain login) against tenant B, on the real PostgreSQL.

The read policies were `scope_tenant_id = ANY ((SELECT registry_visible_tenants()))` and
`tenant_id = (SELECT registry_current_tenant())`: an InitPlan, run the first time a row reaches
the policy. A caller's leakproof condition cheaper than the policy (texteq, text_ge, int8eq, a
boolean column, IS NULL) runs before it, so EXPLAIN ANALYZE's "InitPlan … (never executed)" told
whether any hidden row passed the caller's condition. Here every probe is run for a value only B
has and for one nobody has, in every planner mode a caller may set, and the whole EXPLAIN
(ANALYZE, BUFFERS) text must be the same; the twin puts the sub-SELECT policies back and finds
the bit again, and a binary search reads B's text through it.
"""

from __future__ import annotations

import psycopg
import pytest

from tests.helpers import conversation
from tests.test_hostile_round10 import MODES as ROUND10_MODES
from tests.test_hostile_tenant import (  # noqa: F401 (world is a fixture)
    PLAIN_LOGIN,
    TENANT_LOGIN,
    _round9_world,
    _url,
    world,
)

OFF = "SET enable_{} = off".format
SEQ = [OFF("indexscan"), OFF("bitmapscan"), OFF("indexonlyscan")]  # the report's: a seq-scan filter
MODES = {
    **ROUND10_MODES,
    "seq": SEQ,
    "seq_generic": ["SET plan_cache_mode = force_generic_plan", *SEQ],
    "seq_free_operators": [*SEQ, "SET cpu_operator_cost = 0"],
    "seq_cheap_operators": [*SEQ, "SET cpu_operator_cost = 0.0000001"],
    "seq_dear_operators": [*SEQ, "SET cpu_operator_cost = 1000"],
    "seq_no_tid": [*SEQ, OFF("tidscan")],
    "index_cheap_operators": [OFF("seqscan"), OFF("bitmapscan"), "SET cpu_operator_cost = 0.0000001"],
    "dear_random_pages": [OFF("bitmapscan"), "SET random_page_cost = 1000000"],
    "no_joins_but_nested": [OFF("hashjoin"), OFF("mergejoin"), OFF("material"), OFF("memoize")],
}

# name: (the query, with {v} for the probed value, B's value, a value nobody has[, how the plan
# prints the condition, where the value alone is not unique in its text]). B's value
# matches B's rows only (checked as the superuser), each kind of cheap condition: texteq, text_ge,
# int8eq, and conditions that cost nothing (a boolean column, IS NULL, IS NOT NULL; in a CASE whose
# result is the probed constant, so the two probes differ in a constant alone and plan alike).
PROBES = {
    "agents_slug": ("SELECT 1 FROM agents WHERE slug = {v}", "'only-b'", "'only-x'"),
    "agents_text_ge": ("SELECT 1 FROM agents WHERE id = {agent} AND instructions >= {v}",
                       "'Segredo de b'", "'Segredo de c'"),
    "agents_by_tenant": ("SELECT 1 FROM agents WHERE key_tenant_id = {v} AND slug = 'only-b'", "{b}", "999999",
                         "(key_tenant_id = {v})"),
    "agents_boolean_and_null": ("SELECT 1 FROM agents WHERE CASE WHEN enabled AND project_id IS NOT NULL "
                                "AND note IS NULL THEN {v} END", "true", "false", "THEN {v} ELSE"),
    "agent_versions": ("SELECT 1 FROM agent_versions WHERE instructions >= {v}", "'Segredo de b'", "'Segredo de c'"),
    "agent_versions_by_agent": ("SELECT 1 FROM agent_versions WHERE agent_id = {v}", "{agent}", "999999",
                                "(agent_id = {v})"),
    "agent_defaults": ("SELECT 1 FROM agent_defaults WHERE default_agent = {v}", "'only-b'", "'only-x'"),
    "conventions": ("SELECT 1 FROM conventions WHERE body = {v}", "'Espaços.'", "'Espaçoz.'"),
    "conventions_null": ("SELECT 1 FROM conventions WHERE CASE WHEN tenant_id IS NOT NULL AND language IS NULL "
                         "THEN {v} END", "true", "false", "THEN {v} ELSE"),
    "convention_versions": ("SELECT 1 FROM convention_versions WHERE body = {v}", "'Tabs.'", "'Tabz.'"),
    "conversations_null": ("SELECT 1 FROM conversations WHERE CASE WHEN agent_slug IS NOT NULL THEN {v} END",
                           "true", "false", "THEN {v} ELSE"),
    "conversations_slug": ("SELECT 1 FROM conversations WHERE agent_slug = {v}", "'only-b'", "'only-x'"),
    "agent_optouts": ("SELECT 1 FROM agent_optouts WHERE project_id = {v}", "{project}", "999999",
                      "(project_id = {v})"),
    # The functions and views a tenant may call with B's scope and slug (round 11 saw the bit
    # through winning_agent at default settings).
    "winning_agent": ("SELECT * FROM winning_agent({b}, {project}, {v})", "'only-b-project'", "'only-x'"),
    "winning_agent_tenant": ("SELECT * FROM winning_agent({b}, NULL, {v})", "'only-b'", "'only-x'"),
    "winning_agent_id": ("SELECT * FROM winning_agent_id({b}, {project}, {v})", "'only-b-project'", "'only-x'"),
    "resolve_agent": ("SELECT * FROM resolve_agent({b}, {project}, {v})", "'only-b-project'", "'only-x'"),
    "explain_agent": ("SELECT * FROM explain_agent({b}, {project}, {v})", "'only-b-project'", "'only-x'"),
    "preview_slug_impact": ("SELECT * FROM preview_slug_impact({v}, {b}, {project}, NULL, NULL, NULL)",
                            "'only-b-project'", "'only-x'"),
    "effective_agents": ("SELECT * FROM effective_agents WHERE tenant_id = {b} AND slug = {v}", "'only-b'", "'only-x'"),
    "agent_explanations": ("SELECT * FROM agent_explanations WHERE project_id = {project} AND slug = {v}",
                           "'only-b-project'", "'only-x'"),
    "conversations_following": ("SELECT conversations_following({b}, NULL, {v}, true)", "'only-b'", "'only-x'"),
}
TABLE_PROBES = [name for name, (query, *_) in PROBES.items() if query.startswith("SELECT 1 FROM")]


def _world(db, world) -> dict:
    """Round 9's rows of B's (a project-layer agent, versions, a convention and its version, a
    default, an opt-out) and a conversation of B's pinned to B's slug."""
    b = _round9_world(db, world)
    conversation(db, b["tenant"], b["project"], "only-b")
    return {**b, "b": b["tenant"]}


def _query(b: dict, name: str, value: str) -> str:
    return PROBES[name][0].format(v=value.format(**b), **b)


def _printed(b: dict, name: str, value: str) -> str:
    fragment = PROBES[name][3] if len(PROBES[name]) > 3 else "{v}"
    return fragment.format(v=value.format(**b))


def _plans(url: str, tenant_id: int, queries: list[str], setup: list[str]) -> list[str]:
    """The EXPLAIN (ANALYZE, BUFFERS) text of each query, run as a prepared statement (generic
    plans under plan_cache_mode = force_generic_plan), in one transaction with the caller's
    settings; each is run once before, so what a first run reads of the catalog shows in neither."""
    with psycopg.connect(url) as conn:
        conn.execute("SET jit = off")
        conn.execute("SELECT set_config('registry.tenant_id', %s, true)", (str(tenant_id),))
        for statement in setup:
            conn.execute(statement)
        texts = []
        for i, query in enumerate(queries):
            conn.execute(f"PREPARE probe_{i} AS {query}")
            explain = f"EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE probe_{i}"
            conn.execute(explain).fetchall()
            texts.append("\n".join(row[0] for row in conn.execute(explain)))
        conn.rollback()
    return texts


def _differences(db, b: dict, login: str, names: list[str], modes: dict = MODES) -> dict:
    """{(probe, mode): (plan for B's value, plan for the missing one)} where the two differ; the
    probed values are replaced by one mark, so the plans' texts compare whole."""
    url, a = _url(db, login), b["a_tenant"]
    seen = {}
    for mode, setup in modes.items():
        queries = [_query(b, name, PROBES[name][i]) for name in names for i in (1, 2)]
        plans = _plans(url, a, queries, setup)
        for k, name in enumerate(names):
            theirs, missing = (plans[2 * k + i].replace(_printed(b, name, PROBES[name][1 + i]), "<v>") for i in (0, 1))
            if theirs != missing:
                seen[(name, mode)] = (theirs, missing)
    return seen


@pytest.fixture
def b(db, world) -> dict:
    return {**_world(db, world), "a_tenant": world["a"]["tenant"]}


def test_each_probe_separates_bs_rows_from_none(db, b):
    """The premise, as the superuser: each table probe's value matches B's rows and no row of A's
    or of the official layer, and the other value matches nothing."""
    for name in TABLE_PROBES:
        theirs, missing = (db.execute(_query(b, name, PROBES[name][i]).replace("SELECT 1 FROM", "SELECT count(*) FROM", 1))
                           .fetchone()[0] for i in (1, 2))
        assert (theirs > 0, missing) == (True, 0), name
    a = b["a_tenant"]
    for name in TABLE_PROBES:  # and none of the rows B's value matches is A's or official
        query = _query(b, name, PROBES[name][1]).replace("SELECT 1 FROM", "SELECT count(*) FROM", 1)
        with psycopg.connect(_url(db, TENANT_LOGIN)) as conn:
            conn.execute("SELECT set_config('registry.tenant_id', %s, true)", (str(a),))
            assert conn.execute(query).fetchone()[0] == 0, name


@pytest.mark.parametrize("login", [TENANT_LOGIN, PLAIN_LOGIN])
def test_explain_analyze_shows_nothing_of_bs_rows_in_any_mode(db, b, login):
    """Round 11, R01: the plan text of B's value and of a missing one are the same — InitPlan
    lines, loops, rows, buffers — in every mode, on every table and through every function."""
    assert _differences(db, b, login, list(PROBES)) == {}


# The read policies before round 11: sub-SELECTs, InitPlans run the first time a row reaches them.
POLICIES_BEFORE_ROUND11 = {
    "agents": "scope_tenant_id = ANY ((SELECT registry_visible_tenants())::bigint[]) "
              "AND key_tenant_id = ANY ((SELECT registry_visible_tenants())::bigint[])",
    "agent_versions": "scope_tenant_id = ANY ((SELECT registry_visible_tenants())::bigint[])",
    "agent_defaults": "scope_tenant_id = ANY ((SELECT registry_visible_tenants())::bigint[])",
    "conventions": "scope_tenant_id = ANY ((SELECT registry_visible_tenants())::bigint[])",
    "convention_versions": "scope_tenant_id = ANY ((SELECT registry_visible_tenants())::bigint[])",
    "conversations": "tenant_id = (SELECT registry_current_tenant())",
    "agent_optouts": "tenant_id = (SELECT registry_current_tenant())",
}


def _put_back_before_round11(db) -> None:
    for table, using in POLICIES_BEFORE_ROUND11.items():
        db.execute(f"DROP POLICY {table}_app_read ON {table}")
        db.execute(f"CREATE POLICY {table}_app_read ON {table} FOR SELECT TO registry_app USING ({using})")


# What the twin finds with the seq-scan filter (the report's mode), measured: every probe of the
# five tables the report names, conversations by a condition that costs nothing, and the inlined
# winning_agent and winning_agent_id (the other functions are Function Scans: their plans show
# nothing of their body). Held before too: the equalities against a caller's `=` (the same cost,
# and the sort is stable).
TWIN_LEAKS = {"agents_slug", "agents_text_ge", "agents_by_tenant", "agents_boolean_and_null", "agent_versions",
              "agent_versions_by_agent", "agent_defaults", "conventions", "conventions_null",
              "convention_versions", "conversations_null", "winning_agent", "winning_agent_tenant",
              "winning_agent_id"}


def test_twin_with_the_sub_select_policies_explain_analyze_shows_bs_rows(db, b):
    _put_back_before_round11(db)
    seq = {"seq": MODES["seq"]}
    found = {name for name, _ in _differences(db, b, TENANT_LOGIN, list(PROBES), seq)}
    assert found == TWIN_LEAKS
    theirs, missing = _differences(db, b, TENANT_LOGIN, ["agents_slug"], seq)[("agents_slug", "seq")]
    assert "(never executed)" in missing and theirs.count("(never executed)") < missing.count("(never executed)")
    # From the plain login too, which sees nothing at all.
    assert {name for name, _ in _differences(db, b, PLAIN_LOGIN, ["agents_text_ge", "conventions"], seq)} == {
        "agents_text_ge", "conventions"}


def _read_by_binary_search(db, b: dict, login: str, length: int) -> str:
    """The first `length` characters of B's agent's instructions, guessed from EXPLAIN ANALYZE alone:
    a bit is whether `instructions >= guess` makes the plan differ from a condition nobody meets."""
    url, a = _url(db, login), b["a_tenant"]
    query = f"SELECT 1 FROM agents WHERE id = {b['agent']} AND instructions >= %s"
    nobody = "SELECT 1 FROM agents WHERE id = {agent} AND instructions >= '\U0010ffff'".format(**b)

    def oracle(guess: str) -> bool:
        literal = "'" + guess.replace("'", "''") + "'"
        theirs, never = _plans(url, a, [query % literal, nobody], MODES["seq"])
        return theirs.replace(literal, "'\U0010ffff'") != never
    known = ""
    for _ in range(length):
        low, high = 32, 126  # the largest printable c with instructions >= known + chr(c)
        while low < high:
            middle = (low + high + 1) // 2
            low, high = (middle, high) if oracle(known + chr(middle)) else (low, middle - 1)
        known += chr(low)
    return known


def test_a_binary_search_reads_nothing_of_bs_instructions(db, b):
    assert _read_by_binary_search(db, b, TENANT_LOGIN, 4) == "    "  # every bit reads "no": spaces


def test_twin_with_the_sub_select_policies_a_binary_search_reads_bs_instructions(db, b):
    _put_back_before_round11(db)
    assert _read_by_binary_search(db, b, TENANT_LOGIN, 4) == "Segr"
    assert _read_by_binary_search(db, b, PLAIN_LOGIN, 4) == "Segr"
