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
from evalcore.definitions.skill_model import held_thing, lacked_in_cue, listed_things, skill_model


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


def lacked_listing(
    project: Project, skill_id: str, facts: dict[str, Any]
) -> tuple[str, str] | None:
    """(tool, things) where the case's user says they do not have what the prose's first
    call waits for and its other call lists things to pick from ("otherwise list their
    open orders with @tool.list_open_orders and ask which one": `list_open_orders`, `open
    orders`); None for any other case. What that list holds is the service's answer: the
    user picks from what the agent reads out, and what is told of the pick holds where the
    list holds one."""
    cue = facts.get("cue") or {}
    if lacked_in_cue(str(cue.get("said") or "")) is None or not cue.get("tools"):
        return None
    tool = str(cue["tools"][0])
    use = skill_model(project, skill_id).tool(tool)
    for call in use.calls if use is not None else []:
        things = listed_things(call.sentence or "") if call.trigger == "otherwise" else None
        if things:
            return tool, things
    return None


def pick_line(things: str) -> str:
    """The user's part once the agent reads out the list (`lacked_listing`)."""
    return (
        f"When the agent reads out your {things}, pick the first one it names; if it says "
        f"you have none, say that is fine and stop."
    )


def on_listed(text: str, tool: str, things: str) -> str:
    """A positive rule's criterion said as holding where the list holds something: "If
    list_open_orders lists any of their open orders, the agent says the status …"."""
    if " does not " in text or not text.startswith("The agent "):
        return text
    return f"If {tool} lists any of their {things}, the agent {text.removeprefix('The agent ')}"


__all__ = ["held_lines", "held_thing", "lacked_listing", "on_listed", "pick_line"]
