"""LLM drafting for Mantle on the offline plan: the model writes words, the plan keeps the ids.

The offline drafter already knows the path (the agent's questions in order and the answers),
the facts of the case and the assertions that decide it; a model is good at the words around
them and bad at ids. So the prompt carries that plan, compactly (small local models have 8k
contexts), and asks for `MantleWords` only: a name, the simulated user's context and the
criteria. `merge_words` puts the model's words into the planned document:

- assertions, type and `setup` always come from the plan (never from the model);
- a blank or missing name / context keeps the planned one;
- criteria are kept when they are plain sentences of a sensible length; if none is left,
  the planned criteria stay (review before writing then splits or drops what its rules flag).
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from evalcore.lexicon.en.written_contexts import PERSONA as _PERSONA
from evalcore.simulator import FactContext, is_fact_context, parse_fact_context

from ...planning import mantle_subject
from .._engine import DraftContext

#: Characters per token of the documented estimate (no tokenizer offline: BPE tokenizers
#: give about four characters per token on English prose and compact JSON).
CHARS_PER_TOKEN = 4
_MAX_CRITERION = 240
_MAX_NAME = 120


class MantleWords(BaseModel):
    """The words of one Mantle scenario; every id and assertion comes from the plan."""

    model_config = ConfigDict(extra="ignore")

    name: str = Field(default="", description="A short human title of the case.")
    simulation_context: str = Field(
        description="Second person, to the simulated user, in the planned fact-sheet shape: "
        "'You are <who, manner>.', 'You want <what>.', the facts list as planned "
        "('- label: value'), the quoted lines and the 'Stop once' line."
    )
    criteria: list[str] = Field(
        default_factory=list,
        description="Two to four single-issue, bot-side deal-breakers a judge reads the "
        "conversation for; none may restate an assertion.",
    )

    @field_validator("criteria", mode="before")
    @classmethod
    def _texts_only(cls, value: Any) -> Any:
        """One odd item (a number, an object) is dropped, not a reason to redraft the case."""
        return [v for v in value if isinstance(v, str)] if isinstance(value, list) else value


WORDS = MantleWords


def planned_case(ctx: DraftContext) -> tuple[dict[str, Any], Any]:
    """The offline draft of the behaviour (the plan's document) and its script."""
    from ..offline import draft_mantle_scripted

    return draft_mantle_scripted(ctx)


def prompt_values(ctx: DraftContext, planned: dict[str, Any], script: Any) -> dict[str, str]:
    """The compact prompt's values: skill, rules, behaviour, path, facts, assertions."""
    from ..offline import pick, prose_rules

    assert ctx.project.mantle is not None
    defs = ctx.project.mantle
    skill = defs.skills[ctx.behavior.source]
    scenario = planned["scenario"]
    goals = scenario.get("goals") or {}
    rules = pick(prose_rules(defs, skill, script.walk.memory), script.kind, limit=6)
    agent = defs.agent.get("name") or "the agent"
    behavior = {
        "id": ctx.behavior.id,
        "type": ctx.behavior.type,
        "title": ctx.behavior.title,
        "description": ctx.behavior.description,
    }
    named = skill.name or mantle_subject(skill)
    return {
        "skill": f"{agent}, skill '{named}': {_first(skill.description)}",
        "rules": "\n".join(f"- {r}" for r in rules) or "none",
        "behavior": _json(behavior),
        "path": _path(script.walk),
        "facts": _facts(scenario["simulation_context"]),
        "assertions": _json(goals.get("assertions") or []),
        "criteria": "\n".join(f"- {c}" for c in goals.get("criteria") or []) or "none",
        "direction": ctx.direction.strip() if ctx.direction and ctx.direction.strip() else "none",
        "siblings": "; ".join(ctx.siblings[:8]) if ctx.siblings else "none",
    }


def repair_values(
    ctx: DraftContext, planned: dict[str, Any], data: dict[str, Any], findings: str
) -> dict[str, str]:
    """The words-repair prompt's values: the current words and what is wrong with them."""
    values = prompt_values(ctx, planned, planned_case(ctx)[1])
    scenario = data.get("scenario") if isinstance(data.get("scenario"), dict) else {}
    words = {
        "name": scenario.get("name", ""),
        "simulation_context": scenario.get("simulation_context", ""),
        "criteria": (scenario.get("goals") or {}).get("criteria") or [],
    }
    return {
        "skill": values["skill"],
        "behavior": values["behavior"],
        "facts": values["facts"],
        "words": _json(words),
        "findings": findings,
    }


def merge_words(planned: dict[str, Any], words: MantleWords) -> dict[str, Any]:
    """The planned document with the model's words where they are usable."""
    merged = json.loads(json.dumps(planned))
    scenario = merged["scenario"]
    name = " ".join(words.name.split())
    if name and len(name) <= _MAX_NAME:
        scenario["name"] = name
    context = words.simulation_context.strip()
    if context:
        scenario["simulation_context"] = merge_context(scenario["simulation_context"], context)
    criteria = [c for c in (_criterion(text) for text in words.criteria) if c]
    if criteria:
        scenario.setdefault("goals", {})["criteria"] = list(dict.fromkeys(criteria))
    return merged


def merge_context(planned: str, written: str) -> str:
    """The model's context when it keeps the planned facts and quoted lines, else the planned
    one with the model's persona: the offline simulator and the assertions depend on the
    facts, so a reworded context may never lose one."""
    if not is_fact_context(planned):
        return written + "\n"
    plan = parse_fact_context(planned)
    if is_fact_context(written) and _keeps(plan, written):
        return written + "\n"
    persona = _PERSONA.match(written)
    if persona:
        plan.persona = persona.group(1).strip()
    return plan.render()


def _keeps(plan: FactContext, written: str) -> bool:
    flat = " ".join(written.split()).casefold()
    needed = [f.value for f in plan.facts] + [c.line for c in plan.cues]
    needed += [line for line in (plan.opening, plan.after_first, plan.before_end) if line]
    return all(" ".join(str(v).split()).casefold() in flat for v in needed)


def _path(walk: Any) -> str:
    """The agent's questions in order, with the planned answer (field and value)."""
    lines = []
    for number, ask in enumerate(walk.asks, start=1):
        asked = " ".join((ask.prompt or ask.field or ask.kind).split())[:160]
        answer = "yes" if ask.confirm else "no" if ask.confirm is False else ask.value
        lines.append(
            f"{number}. agent asks: {asked} -> user gives {ask.field or ask.kind}"
            + (f" = {answer}" if answer not in (None, "") else "")
        )
    return "\n".join(lines) or "no questions: the user states the request and the agent acts"


def keep_planned(planned: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """A model-repaired document with the plan's assertions, type and setup put back."""
    out = json.loads(json.dumps(data))
    scenario = out.setdefault("scenario", {})
    source = planned["scenario"]
    scenario["type"] = source["type"]
    for key in ("setup",):
        if key in source:
            scenario[key] = source[key]
        else:
            scenario.pop(key, None)
    assertions = (source.get("goals") or {}).get("assertions")
    if assertions:
        scenario.setdefault("goals", {})["assertions"] = assertions
    return out


def estimate_tokens(text: str) -> int:
    """Input tokens of `text` by the documented estimate (`CHARS_PER_TOKEN`)."""
    return -(-len(text) // CHARS_PER_TOKEN)


def _criterion(text: Any) -> str | None:
    if not isinstance(text, str):
        return None
    flat = " ".join(text.split()).strip(" -•")
    if len(flat.split()) < 4 or len(flat) > _MAX_CRITERION:
        return None
    return flat


def _facts(context: str) -> str:
    """The planned context as it stands (persona, intent, facts, lines, stopping point)."""
    return context.strip()


def _first(text: str | None) -> str:
    flat = " ".join((text or "").split())
    match = re.search(r"(?<=[.!?])\s", flat)
    return flat[: match.start()] if match else flat


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str, separators=(",", ":"))


__all__ = [
    "CHARS_PER_TOKEN",
    "WORDS",
    "MantleWords",
    "estimate_tokens",
    "keep_planned",
    "merge_words",
    "planned_case",
    "prompt_values",
    "repair_values",
]
