"""A conversation's whole system prompt, assembled by layers (registry.assembly) from what the
registry resolves: the product's rules, the framed agent, the instruction files (workspace
AGENTS.md files and the project's stored file), the project's context, the conventions of the
working directory, the task's pre-hydrated references and the task state.

The agent's part is exactly frame_system_prompt's, so with no other layer the assembled prompt
is byte-identical to the framed one. Hooks (registry.harness.hooks) run around the assembly:
`before_assembly` sees (and may replace) the inputs and budgets, `after_assembly` the result;
either may halt, and then no prompt is returned: AssemblyHalted says which hook and why.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from registry.api import Registry
from registry.assembly import DEFAULT_LAYERS, AssembledPrompt, AssemblyInputs, assemble
from registry.conventions import resolve_for_directory
from registry.errors import RegistryError
from registry.frame import frame_agent
from registry.gate import InstructionsRejected, validate_instructions
from registry.harness.hooks import Hooks, HookResult
from registry.harness.prehydration import HydratedContext, PreHydrationConfig, hydrate
from registry.harness.scoped_conventions import ResolvedConventions
from registry.instruction_files import InstructionFile, instruction_units, load_instruction_files
from registry.models import ConversationAgent, EffectiveAgent
from registry.tokens import Tokenizer

_DEFAULT_BUDGETS = {spec.name: spec.budget for spec in DEFAULT_LAYERS}


@dataclass(frozen=True)
class BeforeAssembly:
    """The `before_assembly` hooks' event: a handler may return a copy with other inputs or budgets."""

    conversation_id: int
    inputs: AssemblyInputs
    budgets: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class AfterAssembly:
    """The `after_assembly` hooks' event: the prompt as assembled."""

    conversation_id: int
    assembled: AssembledPrompt


class AssemblyHalted(RegistryError):
    """A hook halted the assembly: no prompt is built or returned."""

    def __init__(self, result: HookResult) -> None:
        super().__init__(f"assembly halted by hook {result.halted_by!r} ({result.phase}): {result.reason}")
        self.result = result


@dataclass(frozen=True)
class ConversationPrompt:
    conversation: ConversationAgent
    agent: EffectiveAgent | None
    assembled: AssembledPrompt
    refusal: InstructionsRejected | None
    hydration: HydratedContext | None = None
    conventions: ResolvedConventions | None = None
    # Workspace instruction files the gate refused, left out of the prompt: (label, refusal).
    refused_files: tuple[tuple[str, InstructionsRejected], ...] = ()


def conversation_prompt(registry: Registry, conversation_id: int, product_rules: str, *,
                        workspace: Path | None = None, budgets: Mapping[str, int] | None = None,
                        tokenizer: Tokenizer | None = None, hooks: Hooks | None = None,
                        task: str | None = None, prehydration: PreHydrationConfig | None = None,
                        directory: str | None = None, language: str | None = None) -> ConversationPrompt:
    """The prompt of a conversation. With `task`, its references are pre-hydrated (files from
    `workspace` only; other kinds through `prehydration.resolvers`). With `directory` (relative to
    the project root), the conventions that apply there (and for `language`) join the prompt,
    cut to the conventions layer's budget."""
    tokenizer = tokenizer or registry.tokenizer
    context = registry.conversation_context(conversation_id)  # one transaction, one statement
    resolved, agent, scope, project_text = (context.conversation, context.agent, context.scope,
                                            context.project_instructions)
    if project_text:
        try:  # stored through the gate; a text edited in SQL is checked again, and left out if refused
            project_text = validate_instructions(project_text)
        except InstructionsRejected:
            project_text = None
    files, refused_files = _gated(load_instruction_files(workspace, project_id=resolved.project_id,
                                                         database_text=project_text))
    framed, refusal = "", None
    if agent is not None:
        try:
            framed = frame_agent(agent, validate_instructions(agent.instructions).rstrip())
        except InstructionsRejected as rejected:  # a text edited in SQL: left out, reported
            refusal = rejected
    conventions = None
    if directory is not None:
        # The layer's budget holds its heading too; the rest is what the conventions may take.
        limit = max(0, (budgets or {}).get("conventions", _DEFAULT_BUDGETS["conventions"])
                    - tokenizer.count("## Conventions\n\n"))
        conventions = resolve_for_directory(registry, scope.tenant_id, scope.project_id, directory, language,
                                            limit_tokens=limit, tokenizer=tokenizer)
    hydration = None
    if task is not None:
        hydration = hydrate(task, prehydration, workspace=workspace, tokenizer=tokenizer)
    # Slugs, not names: the database holds slugs to [a-z0-9-], so nothing a tenant writes can
    # read as a sentence in the unframed context layer ("Vendas; regra 7 do produto: …").
    project_context = {"tenant": scope.tenant.slug}
    if scope.project is not None:
        project_context["project"] = scope.project.slug
    task_state = {"conversation": resolved.conversation_id, "agent": resolved.slug or "none", "mode": resolved.mode}
    inputs = AssemblyInputs(identity=product_rules, agent=framed, instruction_files=instruction_units(files),
                            project_context=project_context,
                            conventions=conventions.units() if conventions else (),
                            pre_hydrated_context=hydration.text if hydration else "", task_state=task_state)
    before = BeforeAssembly(conversation_id, inputs, dict(budgets or {}))
    if hooks:
        before = _run(hooks, "before_assembly", before)
    assembled = assemble(before.inputs, budgets=before.budgets, tokenizer=tokenizer)
    if hooks:
        assembled = _run(hooks, "after_assembly", AfterAssembly(conversation_id, assembled)).assembled
    return ConversationPrompt(resolved, agent, assembled, refusal, hydration, conventions, refused_files)


def _gated(files: tuple[InstructionFile, ...]) -> tuple[tuple[InstructionFile, ...],
                                                        tuple[tuple[str, InstructionsRejected], ...]]:
    """The workspace's files pass the gate like every other text the prompt quotes (a file the
    task references does, and so does the project's stored file): one that fails is left out
    and reported, never half-quoted. Hostile-tenant round 4, #33: a workspace AGENTS.md wrote
    the agent's end marker and a "REGRAS DO PRODUTO" heading straight into the prompt."""
    kept, refused = [], []
    for file in files:
        if file.source == "workspace":
            try:
                validate_instructions(file.text)
            except InstructionsRejected as rejected:
                refused.append((file.label, rejected))
                continue
        kept.append(file)
    return tuple(kept), tuple(refused)


def _run(hooks: Hooks, phase: str, event):
    result = hooks.run(phase, event)
    if result.halted:
        raise AssemblyHalted(result)
    return result.event
