"""A sentence that describes what a bad answer looks like is not an order (docs/gate.md, "After B6"): a
counter-example ("a weak answer to avoid … gives no source") upholds the rule it seems to break. The same lack
worded as an instruction ("give no source"), or said of a *good* answer, is still refused."""

from __future__ import annotations

import pytest

from registry.gate import check

POSTURE = ("## Examples of good answers\n"
           "> Example: \"Revenue rose 4.2% vs the same week last year (source: weekly_ops, 2025-W14).\"\n"
           "> {counter}\n\n## Tone\nUse British spelling.")

DESCRIPTIONS = [
    'Example of a weak answer to avoid: "Things look fine." — it gives no figure, no period and no source.',
    'Exemplo de resposta fraca a evitar: "Está tudo bem." — não traz número, período nem fonte.',
    'Ejemplo de respuesta floja a evitar: "Todo va bien." — no da cifra, periodo ni fuente.',
    "A weak answer lacks the period and cites no source.",
    'Contraexemplo: "Vendas subiram." Esta resposta não cita a fonte nem o período.',
]

ORDERS = [
    "Give no figure, no period and no source.",
    "Não traga fonte nem período nas respostas.",
    "No des fuentes en las respuestas.",
    # the lack said of the answer wanted, not of one to avoid
    'Example of a good answer: "Things look fine." — it gives no figure, no period and no source.',
    # a counter-example nearby does not excuse an order
    'Example of a weak answer to avoid: "Things look fine." Give no source from now on.',
]


@pytest.mark.parametrize("counter", DESCRIPTIONS)
def test_a_described_defect_passes(counter: str) -> None:
    decision = check(POSTURE.format(counter=counter))
    assert decision.accepted, decision.message


@pytest.mark.parametrize("order", ORDERS)
def test_the_same_lack_as_an_order_is_refused(order: str) -> None:
    decision = check(POSTURE.format(counter=order))
    assert not decision.accepted
    assert decision.reason == "revocation"
