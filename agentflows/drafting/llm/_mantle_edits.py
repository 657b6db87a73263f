"""A plan edit applied to a planned Mantle scenario (`apply_edit`, see `_edits`).

The scenario's simulated user is a fact sheet (`evalcore.simulator.FactContext`): a fact,
the opening line and the intent are set in its lines, the others left as they stand, so the
offline simulator reads the edited case as it reads a planned one. Assertions and criteria are
items of `goals`, added, removed or replaced by index. Whether the result is sound is not
decided here: `_edits.apply_edits` validates, justifies and verifies it.
"""

from __future__ import annotations

import copy
from typing import Any

from evalcore.simulator import FACTS_HEADER, OPENING_LEAD, is_fact_context

from ...planning import Behavior
from ._edits import EditRefused, PlanEdit

#: What marks a label as an id (`card_replace.replacement_reason`, `@memory.x`, `card_id`).
_ID_MARKS = (".", "_", "@")
#: The longest line an edit may set (an opener, an intent, a fact value, a criterion).
_MAX_LINE = 240


def apply_edit(
    document: dict[str, Any], edit: PlanEdit, *, behavior: Behavior | None = None
) -> dict[str, Any]:
    """A copy of `document` with `edit` made.

    Raises:
        EditRefused: the edit does not fit the case (no such fact sheet, index or shape).
    """
    out = copy.deepcopy(document)
    scenario = out["scenario"]
    if edit.op in ("set_fact", "set_opener", "set_intent"):
        if edit.op == "set_opener" and scenario.get("type") == "adversarial":
            raise EditRefused("the opening of an adversarial case carries its attack")
        scenario["simulation_context"] = _context(scenario, edit)
        return out
    goals = scenario.setdefault("goals", {})
    if edit.op.endswith("_assertion"):
        goals["assertions"] = _items(goals.get("assertions"), edit, _assertion)
    elif edit.op.endswith("_criterion"):
        goals["criteria"] = _items(goals.get("criteria"), edit, _text)
    else:
        raise EditRefused(f"unknown op {edit.op!r}")
    return out


def _context(scenario: dict[str, Any], edit: PlanEdit) -> str:
    """The context with the fact, opening or intent line set and every other line as it
    stands (a line the fact-sheet grammar does not read is a model-backed simulator's)."""
    text = str(scenario.get("simulation_context") or "")
    if not is_fact_context(text):
        raise EditRefused("the planned context is not a fact sheet")
    lines = text.splitlines()
    value = _text(edit.value).replace('"', "'")
    head = 2 if len(lines) > 1 and lines[1].startswith("You ") else 1
    if edit.op == "set_intent":
        intent = f"You {_intent(value)}."
        lines[head - 1 : head] = [intent] if head == 2 else [lines[0], intent]
    elif edit.op == "set_opener":
        opening = f'{OPENING_LEAD}"{value}"'
        at = [n for n, line in enumerate(lines) if line.startswith(OPENING_LEAD)]
        if at:
            lines[at[0]] = opening
        else:
            lines.insert(head, opening)
    else:
        _set_fact(lines, edit.at, value)
    return "\n".join(lines) + "\n"


def _set_fact(lines: list[str], at: str, value: str) -> None:
    """The fact `at` set to `value` in the facts list (added at its end, or in a new list
    after the opening lines where the sheet has none)."""
    label = " ".join(at.split()).strip(" :-")
    if not label or ":" in label:
        raise EditRefused("a fact needs a label (`at`) without a colon")
    if any(mark in label for mark in _ID_MARKS):
        # the simulated user reads the sheet: a memory key or an id leaks the internals
        raise EditRefused(f"a fact's label is in the person's words, not an id ({label!r})")
    line = f"- {label}: {value}"
    if FACTS_HEADER not in lines:
        at_end = next((n for n, text in enumerate(lines) if not _opening_line(text)), len(lines))
        lines[at_end:at_end] = [FACTS_HEADER, line]
        return
    start = lines.index(FACTS_HEADER) + 1
    end = start
    while end < len(lines) and lines[end].startswith("- "):
        fact = lines[end][2:].split(":", 1)[0].strip()
        if fact.casefold() == label.casefold():
            lines[end] = f"- {fact}: {value}"
            return
        end += 1
    lines.insert(end, line)


def _opening_line(text: str) -> bool:
    """A line of the sheet's head: who the user is, what they want, how they open."""
    return text.startswith(("You ", OPENING_LEAD))


def _intent(value: str) -> str:
    """The sentence after `You` (`want to …`), whichever way the model wrote it."""
    words = value.rstrip(".").split()
    if words and words[0].casefold() == "you":
        words = words[1:]
    if not words:
        raise EditRefused("an empty intent")
    return " ".join(words)


def _items(items: Any, edit: PlanEdit, shape: Any) -> list[Any]:
    out = list(items) if isinstance(items, list) else []
    if edit.op.startswith("add_"):
        return [*out, shape(edit.value)]
    try:
        index = int(str(edit.at).strip())
    except ValueError:
        raise EditRefused(f"{edit.op} needs an index (`at`), not {edit.at!r}") from None
    if not 0 <= index < len(out):
        raise EditRefused(f"no item {index} to {edit.op.split('_')[0]} (the case has {len(out)})")
    if edit.op.startswith("remove_"):
        del out[index]
    else:
        out[index] = shape(edit.value)
    return out


def _assertion(value: Any) -> dict[str, Any]:
    if not (isinstance(value, dict) and len(value) == 1):
        raise EditRefused("an assertion is an object with one key, its type")
    return copy.deepcopy(value)


def _text(value: Any) -> str:
    text = " ".join(str(value or "").split())
    if not text or len(text) > _MAX_LINE:
        raise EditRefused(f"a line of 1 to {_MAX_LINE} characters is needed")
    return text


__all__ = ["apply_edit"]
