"""The behaviours of one Mantle skill where the customer answers unlike the plain path:
details given before they are asked, an answer corrected, an answer that fits two values."""

from __future__ import annotations

from typing import Any

from evalcore.agents.reference import optional_fields
from evalcore.definitions import MantleDefinitions, Project
from evalcore.definitions.skill_model import asked_in_paragraph, skill_model

from ..drafting.offline import value_words
from ._behavior import Behavior
from ._mantle_phrases import names_strongly, value_line
from ._mantle_planner import PlannerBase
from ._mantle_vocab import value_groups
from ._mantle_walk import Ask

#: Values that name no case of their own ("other", "unknown").
_CATCH_ALL = frozenset({"other", "unknown", "none", "not_sure", "unsure"})


def worked_out(defs: MantleDefinitions, ask: Ask) -> bool:
    """Whether the `collect` step waiting at `ask` tells the agent to work the value out
    itself ("Work it out from the city without asking when it is obvious"): the user is
    given no answer to it and no case hangs a line on its question."""
    owner = defs.skills.get(ask.skill)
    block = owner.blocks.get(ask.block or "") if owner is not None else None
    if ask.kind != "collect" or block is None:
        return False
    step = next((s for s in block.steps if s.id == ask.step), None)
    said = " ".join(str(step.fields.get("description") or "").lower().split()) if step else ""
    return "without asking" in said


def always_asked(project: Project, ask: Ask) -> bool:
    """Whether every correct run asks this question: a block step that waits for the
    field, or a prose paragraph naming it that asks the user. A field the agent sets from
    what the user describes or asks for ("set the type from what they describe") may be
    settled by the opening, so no correction, vague answer or detour is scripted on it."""
    defs = project.mantle
    if ask.kind == "collect" and defs is not None and worked_out(defs, ask):
        return False  # the step has the agent work it out without asking
    if ask.kind in ("collect", "instructions"):
        return True  # a block step that waits for the field
    owner = defs.skills.get(ask.skill) if defs is not None else None
    if defs is None or owner is None:
        return False
    model = skill_model(project, owner.id)
    spec = next((f for f in model.fields if f.qualified == ask.field), None)
    if spec is not None and spec.asked_by == "request":
        return False
    return asked_in_paragraph(owner.body or "", defs.memory_field(ask.field or ""))


class AnswerBehaviors(PlannerBase):
    def out_of_order(self, elements: list[str]) -> list[Behavior]:
        """The customer says what the agent would ask for before it asks."""
        preferred: list[dict[str, Any]] = []
        # a value the prose only lets the agent ask for ("you may ask for a rating; set it
        # if they answer") is no detail the agent must record when said unasked
        optional = optional_fields(self.project, self.skill.id)
        for field in self.routing:
            if self.direction_value(field.qualified) is not None:
                continue
            for value in field.enum_values or []:
                if (field.qualified, value) not in self.used_values:
                    preferred.append({**self.base, field.qualified: value})
        for values in [*preferred, *self.candidate_values()]:
            walk = self.walk({"values": values})
            if walk.outcome not in ("done", "handoff"):
                continue
            given = {
                f: v
                for f, v in self._asked_fields(walk)
                if f not in optional
                and names_strongly(self.defs, f, v, value_line(self.defs, f, v))
            }
            if not given:
                continue
            facts = {"values": values, "given": given}
            walk = self.walk(facts)
            self.used_values |= set(given.items())
            title = f"{self.name}: the customer gives the details up front"
            description = (
                "The customer states "
                + ", ".join(f"{k} = {v}" for k, v in given.items())
                + " in the first message: the agent records it and never asks for it."
            )
            return [
                self.behavior(
                    "out_of_order",
                    "edge_case",
                    "details_up_front",
                    title,
                    description,
                    facts,
                    walk,
                    elements,
                    50,
                )
            ]
        return []

    def _asks_after(self, qualified: str, at: int, wrong: Any) -> bool:
        """Whether the agent, having taken the wrong value at the ask `at`, asks something
        more of this skill: the turn the correction is said at."""
        asks = self.walk({"values": {**self.base, qualified: wrong}}).asks
        return at + 1 < len(asks) and asks[at + 1].skill == self.skill.id

    def correction(self, elements: list[str]) -> list[Behavior]:
        """The customer corrects an answer on the agent's next turn, once the wrong one is
        stored and the agent has gone on with it (for a field the path routes on, on the
        wrong value's path: the runtime takes the block back to the corrected value's
        branch); in the same turn only where the agent, having taken the wrong value, asks
        nothing more of the skill to say it at."""
        walk = self.walk({"values": self.base})
        # an answer the agent may never ask for is none a correct agent must take back
        optional = optional_fields(self.project, self.skill.id)
        sure = {a.field for a in walk.asks if a.field and always_asked(self.project, a)}
        asked = [(f, v) for f, v in self._asked_fields(walk) if f not in optional and f in sure]
        routing = {f.qualified for f in self.routing}
        plain = [(i, f) for i, (f, _) in enumerate(asked) if f not in routing]
        choice = (
            plain[0]
            if plain
            else next(((i, f) for i, (f, _) in enumerate(asked) if f in routing), None)
        )
        if choice is None:
            return []
        _, qualified = choice
        field = self.defs.memory_names()[qualified]
        values = field.named_values
        if len(values) < 2:
            return []
        ask_index = next(i for i, a in enumerate(walk.asks) if a.field == qualified)
        follows = ask_index + 1 < len(walk.asks)
        if follows and qualified not in routing:
            wrong, right = values[0], values[1]
        else:
            # a catch-all ("other") is nothing a caller corrects to: a real value
            real = [v for v in values if str(v).lower() not in _CATCH_ALL] or values
            unused = [v for v in real if (qualified, v) not in self.used_values]
            base = self.base.get(qualified)
            right = unused[0] if unused else (base if base in real else real[0])
            groups = value_groups(self.skill, field)
            own = next((g for g in groups if right in g), [right])
            wrong = next((v for v in values if v not in own), next(v for v in values if v != right))
        asks_on = self._asks_after(qualified, ask_index, wrong)
        mode = "next_turn" if asks_on else "same_turn"
        chosen = {**self.base, qualified: right}
        facts = {
            "values": chosen,
            "correction": {
                "field": qualified,
                "from": wrong,
                "to": right,
                "mode": mode,
                "at": ask_index,
            },
        }
        walk = self.walk(facts)
        if walk.outcome not in ("done", "handoff"):
            return []
        self.used_values.add((qualified, right))
        extra = [f"value:{qualified}={wrong}"]
        title = f"{self.name}: the customer corrects the {value_words(field.name)}"
        description = (
            f"The customer first says {qualified} = {wrong}, then corrects it to {right}: "
            "memory ends on the corrected value and the agent continues with it."
        )
        return [
            self.behavior(
                "correction",
                "edge_case",
                "correction",
                title,
                description,
                facts,
                walk,
                elements,
                55,
                extra,
            )
        ]

    def ambiguity(self, elements: list[str]) -> list[Behavior]:
        """The customer's first answer to a choice fits two values: the agent must ask which."""
        walk = self.walk({"values": self.base})
        if walk.outcome not in ("done", "handoff"):
            return []
        optional = optional_fields(self.project, self.skill.id)  # the agent may never ask
        for index, ask in enumerate(walk.asks):
            if ask.kind not in ("collect", "ask_field", "instructions") or not ask.field:
                continue
            if ask.field in optional or not always_asked(self.project, ask):
                continue
            field = self.defs.memory_field(ask.field)
            values = field.named_values if field is not None else []
            if field is None or field.type != "categorical" or len(values) < 2:
                continue
            right = ask.value if ask.value in values else values[0]
            other = next(v for v in values if v != right)
            facts = {
                "values": self.base,
                "ambiguity": {
                    "field": ask.field,
                    "at": index,
                    "between": [right, other],
                    "chosen": right,
                    "step": ask.step_id,
                    "block": ask.block,
                },
            }
            title = f"{self.name}: a vague answer the agent must clarify"
            description = (
                f"Asked for {ask.field}, the customer answers in a way that fits both {right} "
                f"and {other}: the agent asks which one, records {right} once it is clear and "
                "carries on."
            )
            return [
                self.behavior(
                    "ambiguity",
                    "ambiguity",
                    "unclear_answer",
                    title,
                    description,
                    facts,
                    walk,
                    elements,
                    62,
                )
            ]
        return []


__all__ = ["AnswerBehaviors", "always_asked", "worked_out"]
