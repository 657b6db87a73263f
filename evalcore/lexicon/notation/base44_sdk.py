"""Calls a Base44 app makes through its SDK, as a skill's code samples write them:
`base44.entities.<Entity>.<method>(…)`. SDK names, not English."""

from __future__ import annotations

from .. import phrase

#: The entity a call reaches (`entities.Task.list()` → `Task`): a capitalised name between
#: `entities.` and the method.
ENTITY = phrase(
    "notation.base44_sdk.entity",
    r"\bentities\.([A-Z]\w*)\.",
    matches=("await base44.entities.Task.list()", "entities.Invoice_Line.create(x)"),
    misses=("await base44.entities.task.list()", "entities.Task", "myentities.Task.list()"),
)
