"""Only what a user can ask for is a user's goal, and the user asks in a person's words.

Found on projects other people wrote: the engine's session-start skill (`routing:
engine_managed: true`) was drafted as something the user asks for ("You want help with
conversation opener.") and used as a detour ("Before that, hi, I'd like to session Start.");
and openings spoke the skill's id in words ("Hi, I'd like help with card replace"), which on a
project with a skill named `help` routes there instead. Engine-managed, hidden and disabled
skills are no goal and no detour target (a hidden one is covered through what starts it), and
where a skill's name is its id in words the opening comes from its description.
"""

from __future__ import annotations

import asyncio
import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

from agentflows.drafting import DraftContext, DraftResult
from agentflows.drafting.offline import OfflineEngine
from agentflows.generate import build_request, run_generation
from agentflows.planning import resolve_targets
from evalcore.definitions import load_project
from evalcore.errors import UserError

BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"

CARD = """\
---
name: card_replace
description: >
  Replace a bank card. Activate when the customer wants to order a new card, reports a
  lost card, or says their card was stolen.
---

Ask which card it is, call @skill.fee_check for the fee, then confirm the order.

:::ordered_block id=order
steps:
  - id: which
    collect: card_type
    utterance: utter_ask_card_type
    description: "debit or credit"
  - id: fee
    call: fee_check
  - id: done
    action: utter_card_ordered
    next: END
:::
"""

CARD_MEMORY = """\
schema:
  public:
    card_type:
      type: categorical
      description: Which card to replace.
      llm_settable: true
      enum_values: [debit, credit]
"""

CARD_RESPONSES = """\
responses:
  utter_ask_card_type:
    - text: "Is it your debit card or your credit card?"
  utter_card_ordered:
    - text: "Your new card is on its way."
"""

FEE = """\
---
name: Card fee
description: The fee for a replacement card.
hidden: true
---

:::ordered_block id=fee
steps:
  - id: tell
    action: utter_fee
    next: END
:::
"""

HELP = """\
---
name: help
description: >
  General help: what the bank's assistant can do. Activate for help menus or capability
  questions.
---

Tell the customer what you can do: replace a card, and answer general questions.
"""

START = """\
---
name: Session Start
description: "Conversation opener: greet the user."
routing:
  engine_managed: true
---

:::ordered_block id=main
steps:
  - id: greet
    action: utter_greet
    next: END
:::
"""

RESPONSES = """\
responses:
  utter_fee:
    - text: "A replacement costs 5 euros."
  utter_greet:
    - text: "Hello, how can I help?"
"""


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(
        tmp_path_factory.mktemp("bank"),
        {
            "agent.yml": "agent:\n  name: Bank helper\n  persona: You help bank customers.\n",
            "integrations.yml": INTEGRATIONS,
            "responses.yml": RESPONSES,
            "skills/card_replace/skill.md": CARD,
            "skills/card_replace/memory.yml": CARD_MEMORY,
            "skills/card_replace/responses.yml": CARD_RESPONSES,
            "skills/fee_check/skill.md": FEE,
            "skills/help/skill.md": HELP,
            "skills/default_session_start/skill.md": START,
        },
    )


@pytest.fixture(scope="module")
def report(root: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return generate_offline(root, ["all"], tmp_path_factory.mktemp("out"))


def _cases(report: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return [
        (row, yaml.safe_load(Path(row["path"]).read_text("utf-8"))["scenario"])
        for row in report["cases"]
    ]


def test_all_plans_only_the_skills_a_user_can_ask_for(root: Path, report) -> None:
    project = load_project(root)
    assert resolve_targets(project, "mantle", ["all"]) == ["card_replace", "help"]
    assert {row["source"] for row in report["cases"]} <= {"card_replace", "help"}
    for _, scenario in _cases(report):
        text = yaml.safe_dump(scenario)
        assert "default_session_start" not in text and "session start" not in text.lower()


def test_naming_a_skill_no_user_asks_for_says_why(root: Path) -> None:
    project = load_project(root)
    with pytest.raises(UserError, match="engine_managed"):
        resolve_targets(project, "mantle", ["default_session_start"])
    with pytest.raises(UserError, match=r"hidden.*card_replace"):
        resolve_targets(project, "mantle", ["fee_check"])


def test_the_user_never_speaks_a_skill_id(report) -> None:
    cases = [(r, s) for r, s in _cases(report) if r["source"] == "card_replace"]
    assert cases
    for _, scenario in cases:
        context = scenario["simulation_context"]
        assert not re.search(r"card[ _]replace", context, re.I), context
        assert "You want to order a new card." in context, context
        assert 'Open with: "Hi, I want to order a new card' in context, context


class _Twins(OfflineEngine):
    """Offline drafts, with the unclear-answer case asserting exactly what the request
    case asserts (kept by the first draft that asked)."""

    def __init__(self) -> None:
        super().__init__()
        self.first: list[Any] | None = None

    async def draft(self, ctx: DraftContext) -> DraftResult:
        result = await super().draft(ctx)
        if result.data is None or ctx.behavior.case not in ("request", "unclear_answer"):
            return result
        goals = result.data["scenario"]["goals"]
        if self.first is None:
            self.first = copy.deepcopy(goals["assertions"])
        else:
            goals["assertions"] = copy.deepcopy(self.first)
        return result


def test_no_two_written_cases_assert_the_same(tmp_path: Path) -> None:
    request = build_request(
        ["human_handoff"], project=BANK, out=str(tmp_path / "cases"), verify=False
    )
    report = asyncio.run(
        run_generation(request, engine=_Twins(), checkpoints=tmp_path / "checkpoints.sqlite")
    )
    written = [yaml.safe_load(Path(r["path"]).read_text("utf-8")) for r in report["cases"]]
    keys = [json.dumps(w["scenario"]["goals"].get("assertions"), sort_keys=True) for w in written]
    assert len(keys) == len(set(keys))
    (dup,) = [d for d in report["duplicates"] if d.get("reason")]
    assert dup["behavior"] in ("human_handoff:request", "human_handoff:unclear_answer")
    assert "asserts exactly what" in dup["reason"]
