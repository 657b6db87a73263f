"""Calls the prose takes only on the user's cue: a case where the user says it.

"If they ask about an existing request, check @tool.list_unit_work_orders and give its
status; do not open a duplicate." Walks leave such a call out (most conversations never
say the cue), so without this no case runs the tool, and an agent that ignores the cue
(opens a duplicate, never checks) passes every case. A `cue` behaviour (edge_case: the
skill's own success is not what it ends with) opens
with the cue in the user's words (`_mantle_phrases.cue_line`); the walk takes the call and
stops there, as the reference agent does once it hears the cue (`skill_model.cues`).
An offered call ("Then offer a replacement with @tool.order_replacement_fob") has the
user's wish for it as its cue: its case keeps the branch the offer is made on and plays
the user who takes it.
"""

from __future__ import annotations

from evalcore.definitions.conditions import condition_keys
from evalcore.definitions.skill_model.cues import own_words

from ._behavior import Behavior
from ._mantle_planner import PlannerBase


def _case(cue: str) -> str:
    """`they ask about an existing request` -> `existing_request`: the cue's own words."""
    return "_".join(own_words(cue)[:3]) or "cue"


class CueBehaviors(PlannerBase):
    """One `cue` behaviour per tool the skill's prose calls on the user's cue."""

    def cue_cases(self, elements: list[str]) -> list[Behavior]:
        out: list[Behavior] = []
        own = self.defs.tools_for(self.skill.id)
        for use in self.model.tools:
            cue = next((c.cue for c in use.calls if c.kind == "prose" and c.cue), None)
            if cue is None or use.name not in own:
                continue
            found = self._reaching(
                lambda w, t=use.name: bool(w.tools(t)),
                {"cue": {"tools": [use.name], "said": cue}},
            )
            if found is None:
                continue
            walk, facts = found
            # only what the walk asks, and what the call's own `if:` reads (the branch it is
            # offered on: `request: lost_fob`): the alternative never reaches the rest
            asked = {a.field for a in walk.asks}
            asked |= {
                k for c in use.calls if c.kind == "prose" for k in condition_keys(c.condition)
            }
            values = {k: v for k, v in (facts.get("values") or {}).items() if k in asked}
            plain = self.walk({"values": facts.get("values") or {}})
            ran = {e.tool for e in walk.tools()}
            own_runs = [e.tool for e in plain.tools() if e.skill == self.skill.id]
            skips = list(dict.fromkeys(t for t in own_runs if t not in ran))
            facts = {"cue": {**facts["cue"], "skips": skips}, "values": values}
            walk = self.walk(facts)
            title = f"{self.name}: {cue}"
            description = (
                f"The customer says what the prose waits for ({cue}): the agent runs "
                f"{use.name} and stops there, doing nothing else the skill would."
            )
            out.append(
                self.behavior(
                    "cue",
                    "edge_case",
                    _case(cue),
                    title,
                    description,
                    facts,
                    walk,
                    elements,
                    35 + len(out),
                )
            )
        return out


__all__ = ["CueBehaviors"]
