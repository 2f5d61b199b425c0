"""The registry's shapes: what a user may send, and what resolution answers.

Sizes are DESIGN §3's; the database enforces the same limits, these models say so first
and more clearly.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from registry.tool_profiles import ToolProfile

SLUG_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"

Slug = Annotated[str, StringConstraints(pattern=SLUG_PATTERN, max_length=80)]
Layer = Literal["official", "tenant", "project"]
Status = Literal["draft", "published"]
Requires = dict[str, list[str]]


def describe_validation_error(error: ValidationError, whole: str = "input") -> str:
    """pydantic's complaints on one line: "field: what is wrong; …"."""
    return "; ".join(f"{'.'.join(map(str, e['loc'])) or whole}: {e['msg']}" for e in error.errors())


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class AgentContent(Frozen):
    """An agent as a person writes it: in a file, through the API or the CLI."""

    slug: Slug
    name: Annotated[str, Field(max_length=160)] = ""
    description: Annotated[str, Field(max_length=400)] = ""
    when_to_use: Annotated[str, Field(max_length=400)] = ""
    requires: Requires = Field(default_factory=dict)
    # No max_length here: the cap counts characters after NFC, and the instruction gate
    # (registry.gate.validate_instructions) applies it on every write, with a reason code.
    instructions: str = ""
    status: Status = "draft"
    enabled: bool = True
    note: Annotated[str, Field(max_length=255)] | None = None
    created_by: Annotated[str, Field(max_length=120)] | None = None
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


class AgentChanges(Frozen):
    """The fields an update sets; the ones left None keep their value."""

    name: Annotated[str, Field(max_length=160)] | None = None
    description: Annotated[str, Field(max_length=400)] | None = None
    when_to_use: Annotated[str, Field(max_length=400)] | None = None
    requires: Requires | None = None
    instructions: str | None = None
    note: Annotated[str, Field(max_length=255)] | None = None
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
