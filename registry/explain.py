"""Resolution explained (docs/design.md, "Resolution rules", rule 8), in the database's terms and
in an admin's words.

The database decides (explain_agent, explain_default_agent in sql/replaceable/explain_agent.sql);
this module reads those rows and says them as sentences: "the tenant's version is a draft, so the
official one is in use".
"""

from __future__ import annotations

import psycopg
from psycopg.rows import class_row

from registry import queries
from registry.models import ConversationAgent, DefaultLink, ExplainedRow, Explanation, Missing

OWNER = {"project": "the project's", "tenant": "the tenant's", "official": "the official"}


def explain(conn: psycopg.Connection, tenant_id: int, tenant: str, project_id: int | None, project: str | None,
            slug: str | None, conversation: ConversationAgent | None = None) -> Explanation:
    rows: list[ExplainedRow] = []
    if slug:
        with conn.cursor(row_factory=class_row(ExplainedRow)) as cur:
            rows = cur.execute(queries.explain_agent, (tenant_id, project_id, slug)).fetchall()
    with conn.cursor(row_factory=class_row(DefaultLink)) as cur:
        chain = cur.execute(queries.explain_default_agent, (tenant_id, project_id)).fetchall()
    return Explanation(tenant=tenant, project=project, slug=slug, rows=rows, default_chain=chain,
                       conversation=conversation)


def missing_words(missing: Missing | None) -> str:
    parts = []
    for key, word in (("groups", "group"), ("terms", "term")):
        names = (missing or {}).get(key) or []
        if names:
            parts.append(f"{word}{'s' if len(names) > 1 else ''} " + ", ".join(repr(n) for n in names))
    return " and ".join(parts) or "nothing"


def row_reason(row: ExplainedRow, rows: list[ExplainedRow]) -> str:
    """Why this row won or lost, in words."""
    winner = next((r for r in rows if r.verdict in ("effective", "hidden_by_optout")), None)
    in_use = f"{OWNER[winner.layer]} one is in use" if winner and winner.verdict == "effective" else "no row is in use"
    if row.verdict == "effective":
        reason = "in use here"
        if not row.available:
            reason += (f", but unavailable: it needs {missing_words(row.missing)}, which this scope lacks, "
                       "so conversations run without an agent")
        return reason
    if row.verdict == "shadowed":
        return f"not used: {OWNER[winner.layer]} version is more specific and wins"
    if row.verdict == "draft":
        return f"a draft, so {in_use}"
    if row.verdict == "disabled":
        return f"disabled, so {in_use}"
    if row.verdict == "hidden_by_optout":
        return "the project opted out of it, so this slug is hidden here"
    return f"hidden too: the project's opt-out of {OWNER[winner.layer]} row keeps the rows beneath it from coming back"


def summary(explanation: Explanation) -> str:
    """One sentence: what is in use for the slug, and why."""
    where = explanation.tenant + (f"/{explanation.project}" if explanation.project else "")
    slug, rows = explanation.slug, explanation.rows
    if slug is None:
        return f"No agent applies in {where}."
    if not rows:
        return f"No layer of {where} has an agent {slug!r}: it resolves to nothing here (an orphan if a default or pin names it)."
    effective = next((r for r in rows if r.verdict == "effective"), None)
    hidden = next((r for r in rows if r.verdict == "hidden_by_optout"), None)
    losers = [r for r in rows if r.verdict in ("draft", "disabled") and (effective is None or r.layer != effective.layer)]
    if hidden is not None:
        return f"{slug!r} is hidden in {where}: the project opted out of {OWNER[hidden.layer]} row, and nothing beneath comes back."
    if effective is None:
        return f"{slug!r} resolves to nothing in {where}: " + "; ".join(
            f"{OWNER[r.layer]} version is {'a draft' if r.verdict == 'draft' else 'disabled'}" for r in rows) + "."
    text = f"{OWNER[effective.layer].capitalize()} {slug!r} (v{effective.version}) is in use in {where}"
    above = [r for r in losers if _more_specific(r.layer, effective.layer)]
    if above:
        text = "; ".join(f"{OWNER[r.layer]} version is {'a draft' if r.verdict == 'draft' else 'disabled'}"
                         for r in above).capitalize() + f", so {OWNER[effective.layer]} one is in use in {where}"
    if not effective.available:
        text += f", but it is unavailable here: it needs {missing_words(effective.missing)}"
    return text + "."


def default_reason(link: DefaultLink) -> str:
    if not link.has_row or link.default_agent is None:
        return "no row" if not link.has_row else "inherits from the layer above"
    value = "none ('')" if link.default_agent == "" else repr(link.default_agent)
    if not link.decides:
        return f"says {value}, but a more specific layer decides"
    if link.default_agent == "":
        return "decides: no default agent"
    if link.orphaned:
        return f"decides {value}, which resolves to no agent here: ORPHANED, conversations run without one"
    if link.available is False:
        return f"decides {value}, which is UNAVAILABLE here (needs {missing_words(link.missing)})"
    return f"decides {value} (agent #{link.agent_id})"


_RANK = {"project": 2, "tenant": 1, "official": 0}


def _more_specific(layer: str, than: str) -> bool:
    return _RANK[layer] > _RANK[than]
