"""Numbers a skill compares with a literal: a case on each side of the line.

A skill that gates a tool on `session.rebook_flight.delay_minutes >= 180`, or branches on
`session.food_safety_hold.hours_out_of_temp < 4`, behaves differently on either side of
the number, and an agent that gets the comparison wrong (issues the voucher for a short
delay, never keeps the food) is caught only by a case on the side it gets wrong. Answers
the planner does not fix are drawn from the field's type (a few minutes, tens of hours),
so without this one side of each line is never tested.

- `thresholds` reads the literals a number field is compared with in the skill's routing
  conditions and its tools' `requires` (`>=`, `>`, `<=`, `<`, `==`, `!=`).
- `side_values` gives one value per side: each line's value moved by a tenth of itself
  (rounded, at least 1) either way, never negative when no line is, grouped by which comparisons
  hold, so `>= 180` gives 162 and 198: near the line, on the field's own scale. A
  temperature has no zero to take a tenth of (°F, °C): it moves by one degree, so a fridge
  whose food is at risk over 41°F reads 42 or 40 (a warm fridge that still holds, never a
  cold 37 beside a story that it feels warm).
- `ThresholdBehaviors.pin_sides` fixes such a field in a happy path to the side where
  the skill ends by itself and completes, then runs the most tools and reaches the most
  elements (where every side walks alike the answer stays the drawn one), and
  `thresholds_cases` adds one `threshold` case (edge_case; escalation where that side hands
  the conversation over) for every other side, under the
  first candidate value set where the side changes what the walk does (the branch of
  another field that asks the number).
"""

from __future__ import annotations

from typing import Any

from evalcore.definitions import MemoryField, Skill, memoized
from evalcore.definitions.conditions import COMPARE, compared_numbers
from evalcore.testdata import FieldSpec, stated_unit

from ..drafting.offline import value_words
from ._behavior import Behavior
from ._mantle_planner import PlannerBase
from ._mantle_vocab import routing_conditions
from ._mantle_walk import Walk


def _gate_conditions(skill: Skill) -> list[str]:
    requires = [c.requires for c in skill.tool_constraints.values() if c.requires]
    return list(dict.fromkeys([*routing_conditions(skill), *requires]))


def _comparisons(skill: Skill) -> dict[str, list[tuple[str, float]]]:
    """Qualified key -> its (operator, number) comparisons in the skill's conditions, read
    once per loaded skill (every happy path of every skill asks)."""

    def read() -> dict[str, list[tuple[str, float]]]:
        out: dict[str, list[tuple[str, float]]] = {}
        for condition in _gate_conditions(skill):
            for key, op, number in compared_numbers(condition):
                pairs = out.setdefault(key, [])
                if (op, number) not in pairs:
                    pairs.append((op, number))
        return out

    return memoized(skill, "number_comparisons", read)


def thresholds(skill: Skill, field: MemoryField) -> list[tuple[str, float]]:
    """The (operator, number) comparisons of `field` in the skill's conditions."""
    return list(_comparisons(skill).get(field.qualified, []))


def number_fields(skill: Skill) -> list[MemoryField]:
    """The skill's own int and float fields that some condition compares with a number."""
    compared = _comparisons(skill)
    return [
        f for f in skill.memory.values() if f.type in ("int", "float") and f.qualified in compared
    ]


def side_values(field: MemoryField, comparisons: list[tuple[str, float]]) -> list[int | float]:
    """One value per side of the field's lines, in ascending order (see the module)."""
    lines = sorted({number for _, number in comparisons})
    candidates: list[float] = []
    degrees = _in_degrees(field)
    for line in lines:
        step = 1.0 if degrees else float(max(1, round(abs(line) * 0.1)))
        candidates += [line - step, line + step]
    if all(line >= 0 for line in lines):
        candidates = [c for c in candidates if c >= 0]
    candidates += lines  # a value on the line: the only one between two lines a step apart
    seen: dict[tuple[bool, ...], float] = {}
    for value in sorted(dict.fromkeys(candidates), key=lambda v: (v in lines, v)):
        side = tuple(COMPARE[op](value, number) for op, number in comparisons)
        seen.setdefault(side, value)
    values = sorted(seen.values())
    return [int(v) if field.type == "int" else v for v in values]


def _in_degrees(field: MemoryField) -> bool:
    """Whether the field counts in degrees (°F, °C): a scale without a true zero."""
    unit = stated_unit(FieldSpec(field.name, field.type, field.description or ""))
    return unit is not None and unit.startswith("°")


def _relation(value: float, comparisons: list[tuple[str, float]]) -> tuple[str, float]:
    """`over`, `under` or `at` the line nearest `value`, and that line."""
    line = min((number for _, number in comparisons), key=lambda n: (abs(n - value), n))
    word = "over" if value > line else "under" if value < line else "at"
    return word, line


def _number_text(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else str(number)


def _tools_run(walk: Walk) -> list[str]:
    return list(dict.fromkeys(e.tool for e in walk.tools() if e.tool and not e.error))


def _shape(walk: Walk) -> tuple[Any, ...]:
    """What a side's walk does, to tell sides apart."""
    return tuple(_tools_run(walk)), tuple(walk.elements), walk.outcome


def _rank(walk: Walk) -> tuple[bool, bool, int, int]:
    """The happy path's side: the skill ends itself and completes, then runs the most tools
    and reaches the most elements."""
    return walk.outcome == "done", walk.completed, len(_tools_run(walk)), len(walk.elements)


class ThresholdBehaviors(PlannerBase):
    """The `threshold` behaviours of one skill, and the sides its happy paths take."""

    def _asked(self, walk: Walk, qualified: str) -> bool:
        return any(a.field == qualified for a in walk.asks)

    def pin_sides(self, values: dict[str, Any]) -> dict[str, Any]:
        """`values` with each compared number field the walk asks set to the side a happy
        path takes (`_rank`, the first on a tie) where the sides walk differently."""
        fields = number_fields(self.skill)
        if not fields:
            return values
        pinned = dict(values)
        for field in fields:
            if field.qualified in pinned:
                continue
            sides: list[tuple[Any, Walk]] = []
            for value in side_values(field, thresholds(self.skill, field)):
                walk = self.walk({"values": {**pinned, field.qualified: value}})
                if not self._asked(walk, field.qualified):
                    break
                sides.append((value, walk))
            if len({_shape(w) for _, w in sides}) > 1:  # the sides walk differently
                best = max(sides, key=lambda side: _rank(side[1]))  # the first on a tie
                pinned[field.qualified] = best[0]
        return pinned

    def thresholds_cases(self, elements: list[str]) -> list[Behavior]:
        out: list[Behavior] = []
        for field in number_fields(self.skill):
            comparisons = thresholds(self.skill, field)
            sides = side_values(field, comparisons)
            if len(sides) < 2:
                continue
            found = self._sides_walked(field.qualified, sides)
            if found is None:
                continue
            base, walks = found
            ran = {value: _tools_run(walk) for value, walk in walks}
            for value, walk in walks:
                if value == base.get(field.qualified):
                    continue  # the happy path's own side
                values = {**base, field.qualified: value}
                out.append(self._side(field, comparisons, values, walk, ran, elements, len(out)))
        return out

    def _sides_walked(
        self, qualified: str, sides: list[Any]
    ) -> tuple[dict[str, Any], list[tuple[Any, Walk]]] | None:
        """The first candidate value set (pinned as its happy path is) under which the walk
        asks the number and its sides walk differently, with each side's walk."""
        for values in self.candidate_values():
            base = self.pin_sides(values)
            walks = [(v, self.walk({"values": {**base, qualified: v}})) for v in sides]
            if not self._asked(walks[0][1], qualified):
                continue
            if len({_shape(w) for _, w in walks}) > 1:
                return base, walks
        return None

    def _side(
        self,
        field: MemoryField,
        comparisons: list[tuple[str, float]],
        values: dict[str, Any],
        walk: Walk,
        ran: dict[Any, list[str]],
        elements: list[str],
        index: int,
    ) -> Behavior:
        value = values[field.qualified]
        word, line = _relation(float(value), comparisons)
        line_text = _number_text(line)
        case = f"{field.name}_{word}_{line_text.replace('.', '_').replace('-', 'minus_')}"
        words = value_words(field.name)
        mine = set(_tools_run(walk))
        others = {t for v, tools in ran.items() if v != value for t in tools}
        runs = sorted(mine - others)
        skips = sorted(others - mine)
        said = []
        if runs:
            said.append(f"runs {', '.join(runs)}")
        if skips:
            said.append(f"does not run {', '.join(skips)}")
        does = " and ".join(said) or "takes the branch for that side"
        said_value = _number_text(value)
        title = f"{self.name} ({words}: {said_value}, {word} {line_text})"
        description = (
            f"The customer's {words} is {said_value}, {word} the {line_text} the skill "
            f"compares it with: the agent {does}."
        )
        return self.behavior(
            "threshold",
            "escalation" if walk.outcome == "handoff" else "edge_case",
            case,
            title,
            description,
            {"values": values},
            walk,
            elements,
            47 + index,
        )


__all__ = ["ThresholdBehaviors", "number_fields", "side_values", "thresholds"]
