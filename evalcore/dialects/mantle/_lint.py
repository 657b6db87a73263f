"""Reference lint for Mantle scenarios: every skill, block, step, memory name, tool, argument
and response a scenario names must exist in the project, and memory values must fit their
declared fields, because the runner silently fails (or vacuously passes) on a wrong id.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ... import pointer as ptr
from ...findings import Finding
from ...lint import as_dict, as_list, regex_error, unknown_id
from ._lint_expected import expected_tools_findings
from ._lint_memory import MemoryChecks
from ._lint_tables import lint_tables
from ._lint_tools import ToolChecks

if TYPE_CHECKING:
    from ...definitions import MantleDefinitions, Project, Skill


_SKILL_ONLY = {"skill_activated", "skill_completed"}
_SKILL_STEP = {"skill_cancelled", "skill_interrupted", "skill_resumed"}
_BLOCK_STEP = {
    "ordered_block_completed",
    "ordered_block_cancelled",
    "ordered_block_interrupted",
    "ordered_block_resumed",
}
_BOT = {"bot_uttered", "bot_did_not_utter"}
#: The step id skill_cancelled/_interrupted/_resumed carry while the skill runs as prose.
AUTONOMOUS_STEP = "autonomous"


def lint_mantle(data: Any, project: Project) -> list[Finding]:
    """Reference findings for one scenario against `project.mantle` (never raises)."""
    defs = project.mantle
    if defs is None:
        return []
    return _Lint(defs).run(data)


class _Lint(MemoryChecks, ToolChecks):
    """One pass over a scenario; collects findings in document order."""

    def __init__(self, defs: MantleDefinitions) -> None:
        self.defs = defs
        self.tables = lint_tables(defs)
        self.memory = self.tables.memory
        self.findings: list[Finding] = []

    def run(self, data: Any) -> list[Finding]:
        scenario = as_dict(as_dict(data).get("scenario"))
        base = "/scenario"
        slots = as_dict(as_dict(scenario.get("setup")).get("initial_slots"))
        for key, value in slots.items():
            if isinstance(key, str):
                self.initial_slot(key, value, f"{base}/setup/initial_slots/{ptr.escape(key)}")
        goals = as_dict(scenario.get("goals"))
        for index, item in enumerate(as_list(goals.get("assertions"))):
            self.check(item, f"{base}/goals/assertions/{index}", in_sequence=False)
        self.findings += expected_tools_findings(goals, self.tables.known_tools, base + "/goals")
        return self.findings

    # --- checks -------------------------------------------------------------------------

    def check(self, item: Any, where: str, *, in_sequence: bool) -> None:
        for kind, body in as_dict(item).items():
            path = f"{where}/{ptr.escape(kind)}"  # pointers are built per item: no join call
            if kind in _SKILL_ONLY or kind in _SKILL_STEP:
                self.skill_event(kind, as_dict(body), path)
            elif kind == "ordered_block_entered" or kind in _BLOCK_STEP:
                self.block_event(as_dict(body), path)
            elif kind in ("memory_was_set", "memory_was_not_set", "memory_was_cleared"):
                if in_sequence and isinstance(body, str):
                    self.memory_name(body, path)
                else:
                    self.memory_list(body, path, with_values=kind != "memory_was_cleared")
            elif kind == "tool_executed":
                self.tool(as_dict(body), path)
            elif kind == "tools_within_one_turn":
                for i, call in enumerate(as_list(as_dict(body).get("calls"))):
                    call_path = f"{path}/calls/{i}/tool_executed"
                    self.tool(as_dict(as_dict(call).get("tool_executed")), call_path)
            elif kind in _BOT:
                self.bot(as_dict(body), path)
            elif kind == "sequencing" and not in_sequence:
                for i, sub in enumerate(as_list(body)):
                    self.check(sub, f"{path}/{i}", in_sequence=True)

    def skill(self, body: dict[str, Any], path: str) -> Skill | None:
        """The skill `body.skill_id` names; reports it when unknown."""
        skill_id = body.get("skill_id")
        if not isinstance(skill_id, str):
            return None
        skill = self.defs.skills.get(skill_id)
        if skill is None:
            self.findings.append(
                unknown_id(
                    "unknown-skill",
                    ptr.join(path, "skill_id"),
                    skill_id,
                    self.defs.skills,
                    what="skill",
                )
            )
        return skill

    def skill_event(self, kind: str, body: dict[str, Any], path: str) -> None:
        skill = self.skill(body, path)
        step_id = body.get("step_id")
        if skill is None or kind in _SKILL_ONLY or not isinstance(step_id, str):
            return
        steps = skill.step_ids | {AUTONOMOUS_STEP}
        if step_id not in steps:
            self.findings.append(
                unknown_id(
                    "unknown-step",
                    ptr.join(path, "step_id"),
                    step_id,
                    steps,
                    what="step",
                    message=f"skill '{skill.id}' has no step '{step_id}' "
                    f"('{AUTONOMOUS_STEP}' means the skill was in prose)",
                )
            )

    def block_event(self, body: dict[str, Any], path: str) -> None:
        skill = self.skill(body, path)
        block_id = body.get("block_id")
        if skill is None or not isinstance(block_id, str):
            return
        block = skill.blocks.get(block_id)
        if block is None:
            self.findings.append(
                unknown_id(
                    "unknown-block",
                    ptr.join(path, "block_id"),
                    block_id,
                    skill.blocks,
                    what="block",
                    message=f"skill '{skill.id}' has no ordered block '{block_id}'",
                )
            )
            return
        step_id = body.get("step_id")
        steps = [s.id for s in block.steps]
        if isinstance(step_id, str) and step_id not in steps:
            self.findings.append(
                unknown_id(
                    "unknown-step",
                    ptr.join(path, "step_id"),
                    step_id,
                    steps,
                    what="step",
                    message=f"block '{skill.id}/{block_id}' has no step '{step_id}'",
                )
            )

    # --- bot messages -------------------------------------------------------------------

    def bot(self, body: dict[str, Any], path: str) -> None:
        utter = body.get("utter_name")
        responses = self.tables.responses
        if isinstance(utter, str) and utter not in responses:
            self.findings.append(
                unknown_id(
                    "unknown-response",
                    ptr.join(path, "utter_name"),
                    utter,
                    responses,
                    what="response",
                )
            )
        pattern = body.get("text_matches")
        error = regex_error(pattern)
        if error is not None:
            self.findings.append(
                Finding(
                    code="bad-regex",
                    path=ptr.join(path, "text_matches"),
                    value=pattern,
                    message=f"text_matches is not a valid regular expression: {error}",
                    suggestion="escape regex characters such as ( ) [ ] * + ? with a backslash",
                )
            )
