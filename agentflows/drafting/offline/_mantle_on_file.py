"""What the user confirms of their record: the value on file a yes/no field confirms.

"Confirm the delivery address on file by street name only. Set delivery_confirmed." The
agent may read the street back, or (where no tool hands it the address) ask the user for
it; a user who knows only "delivery confirmed: yes" has nothing to say to "what street is
it going to?". Where a yes/no field's description or the step asking it names "the <thing>
on file" and the case's caller's record holds that thing, the user knows it too: the value
as their record holds it (`address on file: 4410 Butler St …`).
"""

from __future__ import annotations

from evalcore.definitions import MemoryField
from evalcore.lexicon.en.skill_prose import ON_FILE
from evalcore.testdata import Caller


def on_file(
    field: MemoryField | None, prompt: str | None, caller: Caller
) -> tuple[str, str] | None:
    """(label, value) of the record's value a yes/no `field` confirms ("the address on
    file"), where `caller`'s record holds it; else None."""
    if field is None or field.type != "bool" or caller.record is None:
        return None
    for text in (field.description or "", prompt or ""):
        for found in ON_FILE.finditer(text):
            thing = found["thing"].lower()
            value = caller.detail(thing)
            if value:
                return f"{thing} on file", value
    return None


__all__ = ["on_file"]
