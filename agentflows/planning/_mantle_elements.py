"""The coverable elements of one Mantle skill: the coverage report's denominator.

Element grammar (ids are the project's own; `<skill>` is the planned skill):

| element | what covers it |
|---|---|
| `skill:<skill>` | the skill is activated |
| `block:<skill>.<block>` | the ordered block is entered |
| `step:<skill>.<block>.<step>` | the step runs (a step behind a branch only when the behaviour takes that branch; `END` is not an element) |
| `value:<skill>.<field>=<value>` | the value is recorded; only enum values of categorical fields some routing condition reads (a block `next` branch or a prose `if:`) |
| `tool:<tool>` | the tool runs (block `execute_tool` steps, `@tool` tokens and constrained tools that the skill can call) |
| `confirm:<tool>` | the customer confirms a `requires_confirmation` tool and it runs |
| `deny:<tool>` | the customer refuses the confirmation (the denial response, the tool does not run) |
| `failure:<tool>` | the tool fails and `on_failure` is uttered (tools with `on_failure`) |
| `response:<utter>` | the response is uttered (collect utterances, `action` steps, `utter:` rules, confirmation/denial/success/failure responses) |
| `delegate:<skill>.<other>` | the conversation moves to the other skill (`@skill` token, `call:` or `link:` to a skill) |

Private bookkeeping fields, memory writes and every enum value of non-routing fields are left
out on purpose: they are exercised by the behaviours above without being worth a case each.
"""  # noqa: E501

from __future__ import annotations

from typing import Any

from evalcore.definitions import MantleDefinitions, Project, Skill
from evalcore.definitions.skill_model import tool_keys

from ._mantle_prose import prose_items
from ._mantle_vocab import routing_fields


def skill_tools(defs: MantleDefinitions, skill: Skill) -> list[str]:
    """Tools the skill calls, in the order the definition mentions them."""
    names: list[str] = []
    for block in skill.blocks.values():
        names += [str(s.target) for s in block.steps if s.kind == "execute_tool"]
    names += [t.split(".", 1)[1] for t in skill.tokens if t.startswith("@tool.")]
    names += list(skill.tool_constraints)
    callable_tools = defs.tools_for(skill.id)
    return [n for n in dict.fromkeys(names) if n in callable_tools]


def skill_responses(
    defs: MantleDefinitions, skill: Skill, unfailing: frozenset[str] = frozenset()
) -> list[str]:
    """The responses the skill can say, in definition order; `unfailing`: tools whose
    `on_failure` does not count (no scenario can make them fail)."""
    names: list[str] = []
    for block in skill.blocks.values():
        for step in block.steps:
            if step.kind == "action":
                names.append(str(step.target))
            elif step.kind == "collect" and step.fields.get("utterance"):
                names.append(str(step.fields["utterance"]))
    names += [rule.response for rule in skill.utter]
    for tool, constraint in skill.tool_constraints.items():
        confirmation = constraint.requires_confirmation
        if confirmation is not None and confirmation.enabled:
            names += [
                confirmation.utter_for_confirmation or "",
                confirmation.utter_on_user_denial or "",
            ]
        failure = None if tool in unfailing else constraint.on_failure
        names += [constraint.on_success or "", failure or ""]
    known = defs.all_responses()
    return [n for n in dict.fromkeys(names) if n in known]


def delegates(defs: MantleDefinitions, skill: Skill) -> list[str]:
    targets = [i.name for i in prose_items(skill) if i.kind == "delegate" and i.name]
    for block in skill.blocks.values():
        targets += [str(s.target) for s in block.steps if s.kind in ("call", "link")]
    return [t for t in dict.fromkeys(targets) if t in defs.skills and t != skill.id]


def plan_elements(defs: MantleDefinitions, skill: Skill) -> list[str]:
    """Every coverable element of the skill, in definition order."""
    out = [f"skill:{skill.id}"]
    for block in skill.blocks.values():
        out.append(f"block:{skill.id}.{block.id}")
        out += [
            f"step:{skill.id}.{block.id}.{s.id}"
            for s in block.steps
            if s.kind != "end" and s.id != "END"
        ]
    for field in routing_fields(skill):
        out += [f"value:{field.qualified}={v}" for v in field.enum_values or []]
    tools = skill_tools(defs, skill)
    out += [f"tool:{t}" for t in tools]
    for tool in tools:
        constraint = skill.tool_constraints.get(tool)
        if constraint is None:
            continue
        confirmation = constraint.requires_confirmation
        if confirmation is not None and confirmation.enabled:
            out += [f"confirm:{tool}", f"deny:{tool}"]
        if constraint.on_failure:
            out.append(f"failure:{tool}")
    out += [f"response:{r}" for r in skill_responses(defs, skill)]
    out += [f"delegate:{skill.id}.{t}" for t in delegates(defs, skill)]
    return list(dict.fromkeys(out))


_SKILL_CHECKS = ("skill_activated", "skill_completed")
_BLOCK_CHECKS = ("ordered_block_entered", "ordered_block_completed")


def asserted_elements(
    project: Project, source: str, data: dict[str, Any], covers: list[str]
) -> set[str]:
    """The elements the scenario's assertions check (a criterion or a scripted line that
    merely reaches an element is not a check of it).

    Steps count through the `ordered_block_completed` of their block, and the tool's
    `confirm:` / `deny:` / `failure:` elements through the assertion that tells them apart
    (the tool ran, the denial or failure response was uttered), both only where the case
    covers them.
    """
    defs = project.mantle
    if defs is None or source not in defs.skills:
        return set()
    skill = defs.skills[source]
    found: set[str] = set()
    tools: dict[str, dict[str, Any]] = {}
    uttered: set[str] = set()
    unsaid: set[str] = set()
    unset: set[str] = set()
    for kind, body in _assertions(data):
        if kind in _SKILL_CHECKS and body.get("skill_id"):
            other = str(body["skill_id"])
            found.add(f"skill:{other}")
            found.add(f"delegate:{skill.id}.{other}")
        elif kind in _BLOCK_CHECKS and body.get("block_id"):
            block = f"{body.get('skill_id') or skill.id}.{body['block_id']}"
            found.add(f"block:{block}")
            if kind == "ordered_block_completed":
                found |= {c for c in covers if c.startswith(f"step:{block}.")}
        elif kind == "memory_was_set":
            for item in body.get("items", []):
                if isinstance(item, dict) and "value" in item:
                    name = str(item.get("name", "")).removeprefix("session.")
                    found.add(f"value:{name}={item['value']}")
        elif kind == "tool_executed" and body.get("tool_name"):
            tools[str(body["tool_name"])] = body
            found.add(f"tool:{body['tool_name']}")
        elif kind == "bot_uttered" and body.get("utter_name"):
            uttered.add(str(body["utter_name"]))
            found.add(f"response:{body['utter_name']}")
        elif kind == "bot_did_not_utter" and body.get("utter_name"):
            unsaid.add(str(body["utter_name"]))
        elif kind == "memory_was_not_set":
            unset |= {str(i.get("name")) for i in body.get("items", []) if isinstance(i, dict)}
    local = defs.tools_for(skill.id)
    for name, constraint in skill.tool_constraints.items():
        confirmation = constraint.requires_confirmation
        if name in tools and tools[name].get("is_error") is not True:
            found.add(f"confirm:{name}")
        # the gate's denial response, or the tool's success and writes held back (an agent
        # that asks in its own words first takes the decline before the gate)
        writes = set(tool_keys(project, local[name], skill.id)) if name in local else set()
        held = constraint.on_success in unsaid or bool(writes & unset)
        if confirmation is not None and (
            confirmation.utter_on_user_denial in uttered or (held and name not in tools)
        ):
            found.add(f"deny:{name}")
        if constraint.on_failure in uttered or tools.get(name, {}).get("is_error") is True:
            found.add(f"failure:{name}")
    derived = ("step:", "confirm:", "deny:", "failure:", "delegate:")
    return {e for e in found if not e.startswith(derived) or e in covers}


def _assertions(data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every `(kind, body)` of the scenario's assertions, sequencing steps included; a
    memory check's list becomes `{"items": [...]}`."""
    goals = ((data.get("scenario") or {}).get("goals")) or {}
    out: list[tuple[str, dict[str, Any]]] = []
    pending = list(goals.get("assertions") or [])
    while pending:
        item = pending.pop(0)
        if not isinstance(item, dict):
            continue
        for kind, body in item.items():
            if kind == "sequencing" and isinstance(body, list):
                pending += body
            elif isinstance(body, dict):
                out.append((kind, body))
            elif isinstance(body, list):
                out.append((kind, {"items": body}))
            elif isinstance(body, str):
                out.append((kind, {"items": [{"name": body}]}))
    return out


__all__ = [
    "asserted_elements",
    "delegates",
    "plan_elements",
    "skill_responses",
    "skill_tools",
]
