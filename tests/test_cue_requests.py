"""A cue the simulated user acts on reads as what the agent asks, and still fires at that ask.

Prose that asks the user to do something ("Ask them to say when they are done. Set `done`
to true when they confirm success") is a request, not a question about a field: the
reference agent asks it in those words ("Could you say when you are done?") and a drafted
case's cue names it the same way (`When the agent asks you to say when you are done`),
never by the field's name ("for the reboot done"), which no real agent says.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

from evalcore.agents.reference import asked_request
from evalcore.agents.reference._asking import question_for

RESTART = """---
name: Restart modem
description: >
  Walk the customer through switching their modem off and on. Activate for restart
  modem or power-cycle modem.
---
Help the customer restart their modem.

Explain that they should switch the modem off, wait a minute, then switch it back on.

Ask them to say when they are done. Set `restart_done` to true when they confirm
success, or false if they report a problem.
"""
RESTART_MEMORY = """schema:
  public:
    restart_done:
      type: bool
      description: Whether the customer confirmed they finished restarting the modem.
      llm_settable: true
"""
HANDOFF = """---
name: Human handoff
description: >
  Connect the customer to a person. Activate when they ask for a human, an agent or a
  person.
tool_constraints:
  - open_ticket:
      requires_confirmation:
        enabled: true
        utter_for_confirmation: utter_confirm_handoff
---
Ask why they want a person, then call `open_ticket`. Share the ticket id.
"""
HANDOFF_TOOLS = """from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Open a ticket for a person to take over.")
async def open_ticket(context: ToolContext = None):
    context.memory.set("ticket_id", "T-1001")
    return {"ticket_id": "T-1001"}
"""
HANDOFF_MEMORY = """schema:
  public:
    ticket_id:
      type: text
      description: Id of the hand-off ticket.
"""
RESPONSES = """responses:
  utter_confirm_handoff:
    - text: Shall I connect you to a person now?
"""


def _project(root: Path) -> Path:
    return write_project(
        root,
        {
            "agent.yml": "name: Modem help\npersona: You help broadband customers.\n",
            "integrations.yml": INTEGRATIONS,
            "responses.yml": RESPONSES,
            "skills/restart_modem/skill.md": RESTART,
            "skills/restart_modem/memory.yml": RESTART_MEMORY,
            "skills/human_handoff/skill.md": HANDOFF,
            "skills/human_handoff/memory.yml": HANDOFF_MEMORY,
            "skills/human_handoff/tools.py": HANDOFF_TOOLS,
        },
    )


def test_the_agent_asks_a_request_in_its_own_words() -> None:
    prose = (
        "Ask them to say when they are done. Set `restart_done` to true when they confirm "
        "success, or false if they report a problem."
    )
    assert asked_request(prose) == "say when you are done"
    assert question_for(prose, "restart done", boolean=True).startswith(
        "Could you say when you are done"
    )
    assert asked_request("Set `restart_done` to true when they confirm success.") is None


def test_the_escalation_cue_names_the_request_and_fires_at_it(tmp_path: Path) -> None:
    root = _project(tmp_path / "project")
    report = generate_offline(root, ["restart_modem"], tmp_path / "out")
    cases = {c["behavior"]: c for c in report["cases"]}
    escalation = cases.get("restart_modem:escalation")
    assert escalation is not None, sorted(cases)
    assert escalation["verified"] == "yes", escalation.get("verification")
    data = yaml.safe_load(Path(escalation["path"]).read_text())
    context = data["scenario"]["simulation_context"]
    assert "When the agent asks you to say when you are done, say instead:" in context
    assert "restart done" not in context
