"""A criterion is cited at the prose sentence it restates; how alike two sentences read is
measured only to break a tie.

The justifier scores every sentence of the skills a case runs by the criterion's words it
shares (and whether the case takes its branch), and of equals cites the one that reads most
alike. `difflib`'s likeness was measured for every sentence that shared enough words, the
costliest part of justifying a criterion; it is now measured only where a sentence ties the
best so far, with the same choice.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from skill_model_fixtures import INTEGRATIONS, write_project

from evalcore.definitions import load_project
from evalcore.dialects import get_dialect
from evalcore.dialects.mantle import _justify

REFUND = {
    "agent.yml": "agent:\n  persona: You help customers of a shop with refunds.\n",
    "integrations.yml": INTEGRATIONS,
    "skills/refund/skill.md": """\
---
name: Refund
description: The customer asks for a refund of an order.
---

Ask for the order number of the purchase.

Tell the customer the refund amount, then the date the money reaches their card.

Tell the customer the refund amount and the date.

Thank the customer and close the conversation politely.
""",
}


def _cited(project: Any, criterion: str) -> Any:
    case = {
        "scenario": {
            "name": "Refund an order",
            "type": "happy_path",
            "simulation_context": "You are Ada. You want a refund of order 1001.",
            "goals": {
                "criteria": [criterion],
                "assertions": [{"skill_activated": {"skill_id": "refund"}}],
            },
        }
    }
    judged = get_dialect("mantle").justify(case, project)
    return next(j.justification for j in judged if j.check == "criterion")


def test_of_equal_sentences_the_one_that_reads_most_alike_is_cited(
    tmp_path: Path, monkeypatch
) -> None:
    project = load_project(write_project(tmp_path, REFUND))
    measured: list[str] = []
    real = _justify.likeness
    monkeypatch.setattr(_justify, "likeness", lambda a, b: measured.append(b) or real(a, b))
    # both refund sentences share its words; the second restates it nearly word for word
    cited = _cited(project, "The agent tells the customer the refund amount and the date.")
    assert cited is not None and cited.kind == "instructed"
    assert cited.line == 10 and "the refund amount and the date" in cited.element
    assert len(measured) == 2  # the tie only: the sentence before it, and this one
    measured.clear()
    # a criterion one sentence alone backs best: no tie, nothing measured
    cited = _cited(project, "The agent asks for the order number of the purchase.")
    assert cited is not None and cited.line == 6
    assert measured == []


def test_an_entry_is_said_as_a_whole_word_only() -> None:
    text = "the reset reason was not_received; resets pending"
    assert _justify._said("reset_reason", text)
    assert _justify._said("not_received", text)
    assert not _justify._said("reset", "resets pending")
    assert not _justify._said("son", text)
    assert not _justify._said("", text)
    assert _justify._word("reset") is _justify._word("reset")
