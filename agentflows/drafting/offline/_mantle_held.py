"""What the user has that a prose call waits for, said in the first message.

"If they have an order number (R- and eight digits) use @tool.get_order_status; otherwise
list their open orders with @tool.list_open_orders and ask which one." Nothing tells the
agent to ask for the number, so a user who gives it only when asked never makes the
condition hold, and a correct agent lists the open orders instead of the call the case
asserts. Where the case's walk takes such a call and its facts hold the thing ("order
number: R-44897857"), the user says it up front.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from evalcore.definitions import Project
from evalcore.definitions.skill_model import held_thing, skill_model


def held_lines(
    project: Project, skill_id: str, ran: Iterable[str], facts: Iterable[Any]
) -> list[str]:
    """ "My order number is R-44897857.": one line per fact (with `label` and `value`) that
    names what a call the case's walk ran waits for the user to have."""
    model = skill_model(project, skill_id)
    ran = set(ran)
    things = {
        thing
        for use in model.tools
        if use.name in ran
        for call in use.calls
        if call.kind == "prose"
        and call.trigger != "otherwise"  # the other call: made for a user without it
        and (thing := held_thing(call.sentence or ""))
    }
    return [f"My {f.label} is {f.value}." for f in facts if str(f.label).lower() in things]


__all__ = ["held_lines", "held_thing"]
