"""Every question a case's path asks has an answer in the simulated user's facts, so the
simulator never has to invent one: an offer made with the call that makes it good gets its
answer too."""

from __future__ import annotations

from agentflows.drafting.offline._mantle_facts import offers, offers_taken
from evalcore.definitions import Skill

LOST_FOB = """\
if: session.door_access.request == "lost_fob"
Deactivate the fob straight away with @tool.deactivate_fob. Then offer a replacement with
@tool.order_replacement_fob: $35, ready at the leasing office the next business day.
"""


def _skill(body: str) -> Skill:
    return Skill(id="door_access", path="skills/door_access", name=None, description="", body=body)


def test_an_offer_made_with_a_tool_is_answered() -> None:
    """ "offer a replacement with @tool.order_replacement_fob": the question is the offer,
    the call is how it is met; the user who is not asked to take it says no."""
    memory = {"door_access.request": "lost_fob"}
    assert offers(_skill(LOST_FOB), memory) == ["whether you want a replacement"]


def test_an_offer_whose_call_the_path_makes_is_taken() -> None:
    memory = {"door_access.request": "lost_fob"}
    taken = offers_taken(_skill(LOST_FOB), memory, {"order_replacement_fob"})
    assert taken == ["whether you want a replacement"]
