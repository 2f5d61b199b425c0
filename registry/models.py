"""The registry's shapes: what a user may send, and what resolution answers.

Sizes come from registry.limits; the database enforces the same limits, these models say so
first and more clearly.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, ValidationError, computed_field

from registry import limits
from registry.tool_profiles import ToolProfile

SLUG_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"

Slug = Annotated[str, StringConstraints(pattern=SLUG_PATTERN, max_length=limits.SLUG)]
Layer = Literal["official", "tenant", "project"]
Status = Literal["draft", "published"]
Requires = dict[str, list[str]]
# What a scope lacks of an agent's requires: {"groups": [...], "terms": [...]}, both empty when it
# is available (docs/design.md, "Resolution rules", rule 7).
Missing = dict[str, list[str]]
NOTHING_MISSING: Missing = {"groups": [], "terms": []}


def trace_attributes(slug: str | None, version: int | None, layer: str | None,
                     fingerprint: str | None = None) -> dict[str, str]:
    """Attributes a service attaches to its traces, named after OpenTelemetry's GenAI conventions
    (gen_ai.prompt.name, gen_ai.prompt.version); the layer and the prompt's fingerprint, which
    those conventions do not name, under registry.*. Empty when no agent applies."""
    if slug is None or version is None:
        return {}
    attributes = {"gen_ai.prompt.name": slug, "gen_ai.prompt.version": str(version)}
    if layer is not None:
        attributes["registry.agent.layer"] = layer
    if fingerprint is not None:
        attributes["registry.prompt.fingerprint"] = f"sha256:{fingerprint}"
    return attributes


def _check_requires(value: dict[str, list[str]]) -> dict[str, list[str]]:
    if len(value) > limits.REQUIRES_KEYS_MAX:
        raise ValueError(f"at most {limits.REQUIRES_KEYS_MAX} keys (e.g. grupos, termos), not {len(value)}")
    for key, items in value.items():
        if len(key) > limits.REQUIRES_KEY:
            raise ValueError(f"key {key[:20]!r}… is longer than {limits.REQUIRES_KEY} characters")
        if len(items) > limits.REQUIRES_ITEMS:
            raise ValueError(f"{key!r} lists {len(items)} items, the limit is {limits.REQUIRES_ITEMS}")
        for item in items:
            if len(item) > limits.REQUIRES_ITEM:
                raise ValueError(f"{key!r} has an item longer than {limits.REQUIRES_ITEM} characters: "
                                 f"{item[:20]!r}…")
    return value


CheckedRequires = Annotated[Requires, AfterValidator(_check_requires)]
Name = Annotated[str, Field(max_length=limits.AGENT_NAME)]
Description = Annotated[str, Field(max_length=limits.AGENT_DESCRIPTION)]
WhenToUse = Annotated[str, Field(max_length=limits.AGENT_WHEN_TO_USE)]
Note = Annotated[str, Field(max_length=limits.AGENT_NOTE)]
Actor = Annotated[str, Field(max_length=limits.ACTOR)]


def describe_validation_error(error: ValidationError, whole: str = "input") -> str:
    """pydantic's complaints on one line: "field: what is wrong; …"."""
    return "; ".join(f"{'.'.join(map(str, e['loc'])) or whole}: {e['msg']}" for e in error.errors())


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class AgentContent(Frozen):
    """An agent as a person writes it: in a file, through the API or the CLI."""

    slug: Slug
    name: Name = ""
    description: Description = ""
    when_to_use: WhenToUse = ""
    requires: CheckedRequires = Field(default_factory=dict)
    # No max_length here: the cap counts characters after NFC, and the instruction gate
    # (registry.gate.validate_instructions) applies it on every write, with a reason code.
    instructions: str = ""
    status: Status = "draft"
    enabled: bool = True
    note: Note | None = None
    created_by: Actor | None = None
    tool_profile: ToolProfile | None = None


class AgentFile(AgentContent):
    """An agent file: the content plus the layer it belongs to, named by slugs."""

    tenant: Slug | None = None
    project: Slug | None = None

    @property
    def layer(self) -> Layer:
        if self.project is not None:
            return "project"
        return "tenant" if self.tenant is not None else "official"


class Tenant(Frozen):
    id: int
    slug: str
    name: str


class Project(Frozen):
    id: int
    tenant_id: int
    slug: str
    name: str


class EffectiveAgent(Frozen):
    """A row of effective_agents / resolve_agents."""

    tenant_id: int
    project_id: int | None
    slug: str
    agent_id: int
    layer: Layer
    version: int
    name: str
    description: str
    when_to_use: str
    requires: Requires
    instructions: str
    available: bool = True
    missing: Missing = Field(default_factory=lambda: dict(NOTHING_MISSING))

    @computed_field
    @property
    def trace_attributes(self) -> dict[str, str]:
        return trace_attributes(self.slug, self.version, self.layer)


class EffectiveDefault(Frozen):
    """A row of effective_default_agent / resolve_default_agent."""

    tenant_id: int
    project_id: int | None
    default_agent: str
    source_layer: Layer | None
    agent_id: int | None
    orphaned: bool


class ConversationAgent(Frozen):
    """A row of conversation_agents / resolve_conversation_agent."""

    conversation_id: int
    tenant_id: int
    project_id: int | None
    mode: Literal["pinned", "none", "default"]
    slug: str | None
    agent_id: int | None
    orphaned: bool
    unavailable: bool = False
    missing: Missing = Field(default_factory=lambda: dict(NOTHING_MISSING))
    # Filled by the conversation_details query (not by the bare resolution): the agent's layer
    # and version now, and the version and prompt fingerprint it was adopted with.
    layer: Layer | None = None
    current_version: int | None = None
    adopted_version: int | None = None
    adopted_fingerprint: str | None = None

    @property
    def version_drift(self) -> bool:
        return None not in (self.adopted_version, self.current_version) and self.adopted_version != self.current_version

    @computed_field
    @property
    def trace_attributes(self) -> dict[str, str]:
        return trace_attributes(self.slug if self.agent_id is not None else None, self.current_version,
                                self.layer, self.adopted_fingerprint if not self.version_drift else None)


class AgentChanges(Frozen):
    """The fields an update sets; the ones left None keep their value."""

    name: Name | None = None
    description: Description | None = None
    when_to_use: WhenToUse | None = None
    requires: CheckedRequires | None = None
    instructions: str | None = None
    note: Note | None = None
    tool_profile: ToolProfile | None = None

    def given(self) -> dict[str, object]:
        return {k: getattr(self, k) for k in type(self).model_fields if getattr(self, k) is not None}


class Agent(Frozen):
    """A stored agent row, in whichever layer."""

    id: int
    tenant_id: int | None
    project_id: int | None
    layer: Layer
    slug: str
    name: str
    description: str
    when_to_use: str
    requires: Requires
    instructions: str
    status: Status
    version: int
    enabled: bool
    note: str | None
    uses: int
    created_by: str | None
    created_at: datetime
    updated_at: datetime
    tool_profile: ToolProfile | None = None


class AgentVersion(Frozen):
    """One version of an agent's content: a past one from agent_versions, or the current one."""

    agent_id: int
    version: int
    name: str
    description: str
    when_to_use: str
    requires: Requires
    instructions: str
    current: bool
    replaced_by: str | None
    replaced_at: datetime | None


class CatalogEntry(EffectiveAgent):
    """An effective agent with the token cost its instructions add to every question, and how
    many of the tenant's conversations adopted it."""

    instruction_tokens: int
    tokens_exact: bool
    uses: int = 0
    tool_profile: ToolProfile | None = None


class LayerDefault(Frozen):
    """What one layer says about the default agent: a slug, '' (none) or None (inherit)."""

    tenant_id: int | None
    project_id: int | None
    layer: Layer
    default_agent: str | None


class OptOut(Frozen):
    project_id: int
    agent_id: int
    slug: str
    layer: Layer


class ImpactRow(Frozen):
    """One consequence of a change, as the impact preview computes it (sql/replaceable/impact.sql)."""

    kind: Literal["agent", "default", "pin"]
    tenant_id: int
    project_id: int | None
    before_slug: str | None
    after_slug: str | None
    before_agent_id: int | None
    before_layer: Layer | None
    after_agent_id: int | None
    after_layer: Layer | None
    orphaned: bool
    conversations: int


class ScopeName(Frozen):
    """A dataset group or glossary term a scope has: the tenant's, or a project's addition."""

    kind: Literal["group", "term"]
    name: str
    layer: Literal["tenant", "project"]
    tenant_id: int
    project_id: int | None


Verdict = Literal["effective", "shadowed", "draft", "disabled", "hidden_by_optout", "beneath_optout"]


class ExplainedRow(Frozen):
    """A row of explain_agent: one layer's row of a slug and why it won or lost there."""

    layer: Layer
    agent_id: int
    status: Status
    enabled: bool
    version: int
    opted_out: bool
    available: bool
    missing: Missing
    verdict: Verdict


class DefaultLink(Frozen):
    """A row of explain_default_agent: what one layer says about the default, and whether it decides."""

    layer: Layer
    has_row: bool
    default_agent: str | None
    decides: bool
    agent_id: int | None
    orphaned: bool | None
    available: bool | None
    missing: Missing | None


class Explanation(Frozen):
    """Why a slug resolves as it does in a scope (`rows`, most specific first; empty when no layer
    has it), and the scope's default chain. `conversation` is set when a conversation was asked about."""

    tenant: str
    project: str | None
    slug: str | None
    rows: list[ExplainedRow]
    default_chain: list[DefaultLink]
    conversation: ConversationAgent | None = None
