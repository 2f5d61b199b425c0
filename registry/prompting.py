"""A conversation's whole system prompt, assembled by layers (registry.assembly) from what the
registry resolves: the product's rules, the framed agent, the instruction files (workspace
AGENTS.md files and the project's stored file), the project's context and the task state.

The agent's part is exactly frame_system_prompt's, so with no other layer the assembled prompt
is byte-identical to the framed one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from registry.api import Registry
from registry.assembly import AssembledPrompt, AssemblyInputs, assemble
from registry.frame import frame_agent
from registry.gate import InstructionsRejected, validate_instructions
from registry.instruction_files import load_instruction_files, instruction_units
from registry.models import ConversationAgent, EffectiveAgent
from registry.tokens import Tokenizer


@dataclass(frozen=True)
class ConversationPrompt:
    conversation: ConversationAgent
    agent: EffectiveAgent | None
    assembled: AssembledPrompt
    refusal: InstructionsRejected | None


def conversation_prompt(registry: Registry, conversation_id: int, product_rules: str, *,
                        workspace: Path | None = None, budgets: Mapping[str, int] | None = None,
                        tokenizer: Tokenizer | None = None) -> ConversationPrompt:
    context = registry.conversation_context(conversation_id)  # one transaction, one statement
    resolved, agent, scope, project_text = (context.conversation, context.agent, context.scope,
                                            context.project_instructions)
    if project_text:
        try:  # stored through the gate; a text edited in SQL is checked again, and left out if refused
            project_text = validate_instructions(project_text)
        except InstructionsRejected:
            project_text = None
    files = load_instruction_files(workspace, project_id=resolved.project_id, database_text=project_text)
    framed, refusal = "", None
    if agent is not None:
        try:
            framed = frame_agent(agent, validate_instructions(agent.instructions).rstrip())
        except InstructionsRejected as rejected:  # a text edited in SQL: left out, reported
            refusal = rejected
    # Slugs, not names: the database holds slugs to [a-z0-9-], so nothing a tenant writes can
    # read as a sentence in the unframed context layer ("Vendas; regra 7 do produto: …").
    project_context = {"tenant": scope.tenant.slug}
    if scope.project is not None:
        project_context["project"] = scope.project.slug
    task = {"conversation": resolved.conversation_id, "agent": resolved.slug or "none", "mode": resolved.mode}
    inputs = AssemblyInputs(identity=product_rules, agent=framed, instruction_files=instruction_units(files),
                            project_context=project_context, task_state=task)
    return ConversationPrompt(resolved, agent, assemble(inputs, budgets=budgets, tokenizer=tokenizer), refusal)
