"""The prompt path with the harness: hooks around the assembly (a halt stops it, with the reason),
the directory's conventions and the task's pre-hydrated references as layers, and the prefix
that two questions of one conversation share up to the first per-task layer."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from registry.api import Registry
from registry.assembly import GUIDANCE_PREAMBLE, PRE_HYDRATED_MARKER
from registry.cli import PRODUCT_RULES_FILE, main
from registry.conventions import add_convention
from registry.harness.hooks import Halt, HookFailed, Hooks
from registry.models import AgentContent
from registry.prompting import AssemblyHalted, BeforeAssembly, conversation_prompt

RULES = PRODUCT_RULES_FILE.read_text(encoding="utf-8")


@pytest.fixture
def reg(db) -> Registry:
    registry = Registry(db, actor="t")
    registry.create_tenant("acme", "Acme")
    registry.create_project("acme", "financeiro", "Financeiro")
    registry.create_agent(AgentContent(slug="analyst", instructions="Cite a fonte.", status="published"))
    registry.set_default("analyst")
    add_convention(registry, "Valores em reais (R$).", tenant="acme")
    add_convention(registry, "Relatórios começam por um resumo.", tenant="acme", project="financeiro",
                   directory="relatorios")
    add_convention(registry, "Mensais comparam com o ano anterior.", tenant="acme", project="financeiro",
                   directory="relatorios/mensais")
    return registry


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "relatorios" / "mensais").mkdir(parents=True)
    (tmp_path / "relatorios" / "mensais" / "outubro.md").write_text("Saldo final de outubro: R$ 1,2 mi.\n")
    (tmp_path / "relatorios" / "mensais" / "novembro.md").write_text("Saldo final de novembro: R$ 0,9 mi.\n")
    return tmp_path


def conversation(reg: Registry) -> int:
    return reg.start_conversation("acme", "financeiro").conversation_id


def divergence(a: str, b: str) -> int:
    return len(os.path.commonprefix([a, b]))


def test_conventions_and_references_are_layers_placed_by_volatility(reg, workspace):
    built = conversation_prompt(reg, conversation(reg), RULES, workspace=workspace, directory="relatorios/mensais",
                                task="Compare ./relatorios/mensais/outubro.md com o mês anterior; ver #42")
    text = built.assembled.text
    order = ["## Project context", "## Conventions", "Valores em reais", "Relatórios começam", "Mensais comparam",
             PRE_HYDRATED_MARKER, "Saldo final de outubro", "## Task state"]
    assert [text.index(anchor) for anchor in order] == sorted(text.index(anchor) for anchor in order)
    assert [o.status for o in built.hydration.outcomes] == ["resolved", "failed"]
    assert [c.text for c in built.conventions.kept][0] == "Mensais comparam com o ano anterior."


def test_two_questions_of_one_conversation_share_every_byte_up_to_the_first_per_task_layer(reg, workspace):
    c = conversation(reg)
    common = {"workspace": workspace, "directory": "relatorios/mensais", "language": "sql"}
    first = conversation_prompt(reg, c, RULES, task="Resuma ./relatorios/mensais/outubro.md", **common).assembled.text
    second = conversation_prompt(reg, c, RULES, task="E ./relatorios/mensais/novembro.md?", **common).assembled.text
    assert first != second
    stable = first.index(f"\n\n{PRE_HYDRATED_MARKER}")
    offset = divergence(first, second)
    assert offset >= stable, (f"the prompts diverge at offset {offset}, before the first per-task layer at {stable}: "
                              f"{first[offset:offset + 80]!r} / {second[offset:offset + 80]!r}")
    assert "## Conventions" in first[:stable]


def test_a_before_assembly_hook_may_change_the_inputs(reg):
    def add_business_rule(event: BeforeAssembly) -> BeforeAssembly:
        inputs = dataclasses.replace(event.inputs, business_rules=("Fechamento no 5º dia útil.",))
        return dataclasses.replace(event, inputs=inputs)

    seen = []
    hooks = (Hooks().register("before_assembly", add_business_rule)
             .register("after_assembly", lambda event: seen.append(event.assembled.fingerprint)))
    built = conversation_prompt(reg, conversation(reg), RULES, hooks=hooks)
    assert f"## Business rules\n\n{GUIDANCE_PREAMBLE}\n\nFechamento no 5º dia útil." in built.assembled.text
    assert seen == [built.assembled.fingerprint]


def test_a_halt_stops_the_assembly_with_its_reason(reg):
    assembled = []
    hooks = (Hooks().register("before_assembly", lambda e: Halt("tenant over its monthly quota"), name="quota")
             .register("after_assembly", lambda e: assembled.append(e)))
    with pytest.raises(AssemblyHalted, match="halted by hook 'quota' \\(before_assembly\\): tenant over its monthly"):
        conversation_prompt(reg, conversation(reg), RULES, hooks=hooks)
    assert assembled == []


def test_a_failing_hook_is_named(reg):
    def audit(event):
        raise RuntimeError("audit log unreachable")

    with pytest.raises(HookFailed, match="audit.*after_assembly.*audit log unreachable"):
        conversation_prompt(reg, conversation(reg), RULES, hooks=Hooks().register("after_assembly", audit))


# -- the command line --------------------------------------------------------------------------

HALTING = Hooks().register("before_assembly", lambda e: Halt("maintenance window"), name="maintenance")


def test_cli_explain_shows_the_references_and_the_conventions(demo, capsys, tmp_path: Path):
    (tmp_path / "relatorios" / "mensais").mkdir(parents=True)
    (tmp_path / "relatorios" / "mensais" / "outubro.md").write_text("Saldo final de outubro: R$ 1,2 mi.\n")
    assert main(["prompt", "--conversation", "1", "--explain", "--workspace", str(tmp_path),
                 "--dir", "relatorios/mensais", "--language", "sql",
                 "--task", "Revise ./relatorios/mensais/outubro.md, https://intranet.acme/x e ../segredo.txt"]) == 0
    out = capsys.readouterr().out
    assert "Pre-hydration: 3 reference(s) found, 1 resolved, 0 pruned, 2 failed" in out
    assert "no resolver for 'url'" in out and "outside the workspace" in out
    assert "Conventions for relatorios/mensais (sql): 4 kept, 1 duplicate(s)" in out
    assert any(line.startswith("pre_hydrated_context ") for line in out.splitlines())
    assert PRE_HYDRATED_MARKER in out and "Saldo final de outubro" in out


def test_cli_hooks_halt_with_the_reason(demo, capsys):
    assert main(["prompt", "--conversation", "1", "--hooks", "tests.test_prompt_harness:HALTING"]) == 1
    assert "halted by hook 'maintenance' (before_assembly): maintenance window" in capsys.readouterr().err
    assert main(["prompt", "--conversation", "1", "--hooks", "tests.test_prompt_harness:RULES"]) == 1
    assert "not a registry.harness.hooks.Hooks" in capsys.readouterr().err
