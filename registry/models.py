"""The registry's shapes: what a user may send, and what resolution answers.

Sizes are DESIGN §3's; the database enforces the same limits, these models say so first
and more clearly.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

SLUG_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"

Slug = Annotated[str, StringConstraints(pattern=SLUG_PATTERN, max_length=80)]
Layer = Literal["official", "tenant", "project"]
Status = Literal["draft", "published"]
Requires = dict[str, list[str]]


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
