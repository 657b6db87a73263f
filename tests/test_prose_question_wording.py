"""A question the prose asks that fills no memory field is asked as the prose words it, with
nothing named after it: the agent once said "… or need anything else (the answer)?"."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from skill_model_fixtures import INTEGRATIONS, write_project

from evalcore.agents import UserTurn
from evalcore.agents.reference import ReferenceTarget

DESK: dict[str, str] = {
    "agent.yml": (
        "agent:\n  name: Garden desk\n  persona: You help members of a garden club.\n"
        "orchestrator:\n  model_group: desk\n"
    ),
    "integrations.yml": INTEGRATIONS,
    "skills/plots/skill.md": """\
---
name: Show plots
description: >
  The member wants to see their allotment plots ("which plots do I have?").
---

Tell the member the club keeps two plots for them, by the pond and by the gate.
Ask if they want to book a work day on one of the plots or need anything else.
""",
}


def _agent_lines(root: Path, lines: list[str]) -> list[str]:
    async def run() -> list[Any]:
        session = await ReferenceTarget(root).open({"slug": "t"}, 1)
        await session.send(UserTurn(type="start", setup={"initial_slots": {}}))
        for line in lines:
            await session.send(UserTurn(type="text", text=line))
        return (await session.close()).events or []

    events = asyncio.run(run())
    return [str(e.get("text") or "") for e in events if e.get("event") == "bot"]


def test_a_question_of_the_prose_names_no_field(tmp_path: Path) -> None:
    root = write_project(tmp_path / "desk", DESK)
    said = " ".join(_agent_lines(root, ["Which plots do I have?"]))
    assert "work day" in said
    assert "(the answer)" not in said
