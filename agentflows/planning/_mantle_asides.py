"""Flags whose yes makes a skill say an aside: one case about each.

An answer the behaviour does not fix keeps the main path (`sample_value`): a caller asked
"was anyone hurt?" says no, since a yes sets off an `utter: when:` aside (an emergency
warning that tells them to hang up) that a case about filing does not want. The aside and
the steps the yes branches to are still behaviour an agent can get wrong, so each such
flag gets one `aside` edge case where the user answers yes, and the drafter tells that
user to carry on after the aside.
"""

from __future__ import annotations

from evalcore.definitions import MemoryField

from ._behavior import Behavior
from ._mantle_planner import PlannerBase
from ._mantle_walk_records import sets_off_an_aside


class AsideBehaviors(PlannerBase):
    """`aside_cases`: one edge case per flag of the skill whose yes sets off an aside."""

    def aside_flags(self) -> list[MemoryField]:
        fields = [self.defs.memory_field(f.qualified) for f in self.model.fields]
        return [
            f
            for f in fields
            if f is not None and f.type == "bool" and sets_off_an_aside(self.defs, f)
        ]

    def aside_cases(self, elements: list[str]) -> list[Behavior]:
        out: list[Behavior] = []
        for field in self.aside_flags():
            values = {**self.base, field.qualified: True}
            walk = self.walk({"values": values})
            if not any(a.field == field.qualified for a in walk.asks):
                continue  # no path asks it: nothing for the user to answer
            words = field.name.replace("_", " ")
            out.append(
                self.behavior(
                    "aside",
                    "edge_case",
                    f"{field.name}_aside",
                    f"{self.name}: yes to {words}",
                    f"The customer answers yes to {words}: the agent says what the skill "
                    "says then and goes on with the procedure.",
                    {"values": values, "aside": field.qualified},
                    walk,
                    elements,
                    48 + len(out),
                )
            )
        return out


__all__ = ["AsideBehaviors"]
