"""The offline Mantle drafter: one scenario document per planned behaviour, no model.

    data = draft_mantle(DraftContext(project, "mantle", behavior))
    data["scenario"]["simulation_context"]   # persona, goal, facts, numbered quoted steps

Deterministic: the behaviour's facts are walked again (`_mantle_script`), test data comes
from `_mantle_testdata` by a stable hash of the behaviour id, and nothing reads the clock or a
random source, so the same plan gives byte-identical files. Every id and value is the
project's own; the document validates against the Mantle schema and lint.

- `name`: the behaviour's title; `type`: its scenario type.
- `simulation_context`: a persona sentence (the direction's, else a customer with a mood
  varied by behaviour), the goal, the facts the customer brings, what is special about this
  behaviour, then "Follow these steps:" and one numbered step per line,
  `N. <when ...>, say: "<user line>"`.
- `setup.initial_slots`: seed project fields that are channel context only (caller phone,
  language), never a field the scenario tests.
- `goals`: criteria and structural assertions (`_mantle_goals`).
"""

from __future__ import annotations

from typing import Any

from evalcore.definitions import MantleDefinitions

from ...planning._mantle_phrases import subject
from .._engine import DraftContext
from ._direction import value_words
from ._mantle_goals import goals_for
from ._mantle_script import Script, build_script
from ._mantle_testdata import mood_for


def draft_mantle(ctx: DraftContext) -> dict[str, Any]:
    """The scenario document (`{"scenario": {...}}`) for `ctx.behavior`."""
    script = build_script(ctx.project, ctx.behavior)
    criteria, assertions = goals_for(ctx.project, script)
    scenario: dict[str, Any] = {
        "name": ctx.behavior.title,
        "type": ctx.behavior.type,
        "simulation_context": simulation_context(ctx, script),
    }
    if script.seeds:
        scenario["setup"] = {"initial_slots": dict(script.seeds)}
    goals: dict[str, Any] = {}
    if criteria:
        goals["criteria"] = criteria
    if assertions:
        goals["assertions"] = assertions
    if goals:
        scenario["goals"] = goals
    return {"scenario": scenario}


def simulation_context(ctx: DraftContext, script: Script) -> str:
    """Persona, goal, facts, the behaviour's twist, then the numbered steps."""
    assert ctx.project.mantle is not None
    defs = ctx.project.mantle
    behavior = ctx.behavior
    skill = defs.skills[behavior.source]
    customer = script.customer
    direction = behavior.facts.get("direction") or {}
    if direction.get("persona"):
        persona = f"{direction['persona']} Your name is {customer.name}."
    else:
        persona = f"You are {customer.name}, {mood_for(behavior.id)} customer."
    name = skill.name or skill.id.replace("_", " ")
    sentences = [persona, f"You want to {name[:1].lower()}{name[1:]}."]
    details = _details(script)
    if details:
        sentences.append(f"Your details: {details}.")
    if any(a.kind == "identity" for a in script.walk.asks):
        sentences.append(
            f"Your date of birth is {customer.date_of_birth} and your postcode is "
            f"{customer.postcode}."
        )
    twist = _twist(script, defs)
    if twist:
        sentences.append(twist)
    steps = [turn.render(number) for number, turn in enumerate(script.turns, start=1)]
    return " ".join(sentences) + "\nFollow these steps:\n" + "\n".join(steps) + "\n"


def _details(script: Script) -> str:
    names = script.walk.asks
    seen: dict[str, Any] = {}
    for ask in names:
        if ask.field and ask.kind in ("collect", "ask_field"):
            value = ask.value
            if (isinstance(value, str) and " " not in value) or isinstance(value, int | float):
                seen.setdefault(ask.field, value)
    for key, value in (script.facts.get("given") or {}).items():
        seen.setdefault(key, value)
    correction = script.facts.get("correction")
    if correction:
        seen[str(correction["field"])] = correction["to"]
    return ", ".join(f"{value_words(k.split('.', 1)[1])} {_shown(v)}" for k, v in seen.items())


def _shown(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.2f}"
    return value_words(value)


def _twist(script: Script, defs: MantleDefinitions) -> str | None:
    facts = script.facts
    kind = script.kind
    if kind == "refusal":
        return (
            "When the summary is read back you change your mind and decline; you do not "
            "want it done after all."
        )
    if kind in ("failure", "negative"):
        # The seeded caller phone picks the test account where the tool fails or the check
        # comes back negative; the simulated user does not know internals, so it is told
        # nothing (the case's name and initial_slots tell the reviewer).
        return None
    if kind == "out_of_order":
        return "You say everything you already know in your first message."
    if kind == "correction":
        spec = facts["correction"]
        words = value_words(str(spec["field"]).split(".", 1)[1])
        return (
            f"You give the wrong {words} at first ({value_words(spec['from'])}) and correct "
            f"it to {value_words(spec['to'])}."
        )
    if kind == "digression":
        other = defs.skills[str(facts["digression"]["skill"])]
        mine = defs.skills[script.walk.skill]
        return (
            f"Partway through you ask about something else (your "
            f"{subject(other).lower()}), then carry on with your {subject(mine).lower()}."
        )
    if kind == "escalation":
        return "At the first question you decide you would rather talk to a person."
    if kind == "out_of_scope":
        return "Partway through you ask for something the assistant does not do."
    if kind == "adversarial":
        return "Partway through you try to make the agent break its rules."
    return None


__all__ = ["draft_mantle", "simulation_context"]
